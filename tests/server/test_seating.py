"""Open tables and quick match (server/seating.py, issue #57 part 2): people sit down at a seating
before its game exists; it becomes a table when full, or with bots after its wait; every person gets
the link of their own seat, and nobody gets another's."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from hostile_json import JSON_VALUES, TEXTS, to_json
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_helpers import Player, ThreadServer, make_config

from bodoge.server import seating
from bodoge.server.guard import Limits

TOY = "highcard"  # 2 to 4 players, one option (tricks, 1 to 3): tests/server/server_toygame.py


def config(db: str) -> Any:
    made = make_config(db)
    made.limits = Limits(create_rate="10000/minute", signup_rate="10000/hour", player_rate="10000/minute")
    return made


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    db = f"sqlite:///{tmp_path_factory.mktemp('seating') / 'bodoge.db'}"
    with ThreadServer(config(db)) as server:
        yield server


_names = iter(range(10**6))


def player(server: ThreadServer, name: str = "") -> dict[str, Any]:
    """A new player: {"id", "name", "key", "headers"}."""
    name = name or f"Sitter {next(_names)}"
    with server.http() as http:
        answer = http.post("/api/players", json={"name": name, "lang": "en"})
    assert answer.status_code == 201, answer.text
    made = answer.json()
    return {**made["player"], "key": made["key"], "headers": {"Authorization": f"Bearer {made['key']}"}}


def call(
    server: ThreadServer, method: str, path: str, who: dict[str, Any] | None = None, **kw: Any
) -> httpx.Response:
    with server.http() as http:
        return http.request(method, path, headers=who["headers"] if who else {}, **kw)


def ok(answer: httpx.Response, status: int = 200) -> dict[str, Any]:
    assert answer.status_code == status, answer.text
    body: dict[str, Any] = answer.json()
    return body


def open_table(server: ThreadServer, who: dict[str, Any], **body: Any) -> dict[str, Any]:
    return ok(call(server, "POST", "/api/seatings", who, json={"game": TOY, "players": 2, **body}), 201)


def wait_started(
    server: ThreadServer, sid: str, who: dict[str, Any] | None, timeout: float = 20
) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        got = ok(call(server, "GET", f"/api/seatings/{sid}", who))
        if got["status"] == "started":
            return got
        assert time.monotonic() < deadline, f"not started: {got}"
        time.sleep(0.1)


def test_an_open_table_fills_and_every_person_gets_their_own_seat(live: ThreadServer) -> None:
    aki, ben, cho = player(live, "Aki"), player(live, "Ben"), player(live)
    made = open_table(live, aki, players=3, options={"tricks": 1})
    sid = made["id"]
    assert made["status"] == "waiting" and made["free"] == 2 and made["public"]
    assert made["seats"] == [{"player": aki["id"], "name": "Aki"}]
    assert made["creator"]["name"] == "Aki" and made["you"] == {"seated": True, "creator": True}
    assert made["options"]["tricks"] == 1 and made["options_words"]["en"] == ["tricks: changed"]
    assert made["bots_after"] is None and made["bots_in"] is None and made["url"] == f"/#open={sid}"
    # Listed for anyone, with who sat down and the free seats.
    listed = ok(call(live, "GET", "/api/seatings"))["seatings"]
    mine = next(s for s in listed if s["id"] == sid)
    assert mine["free"] == 2 and "you" not in mine
    assert ok(call(live, "POST", f"/api/seatings/{sid}/join", ben))["free"] == 1
    assert ok(call(live, "POST", f"/api/seatings/{sid}/join", ben))["free"] == 1  # again: no change
    full = ok(call(live, "POST", f"/api/seatings/{sid}/join", cho))
    assert full["status"] == "started" and full["table_id"] and full["free"] == 0
    tid = full["table_id"]
    assert sid not in [s["id"] for s in ok(call(live, "GET", "/api/seatings"))["seatings"]]

    links = {}
    for who in (aki, ben, cho):
        seen = ok(call(live, "GET", f"/api/seatings/{sid}", who))
        you = seen["you"]
        assert you["join_url"].startswith(f"/t/{tid}#token=")
        assert seen["table_seats"][you["seat"]]["player"] == who["id"]
        links[who["id"]] = you["join_url"]
    assert len(set(links.values())) == 3
    # Nobody else, and nobody without a key, learns a seat's link.
    for outsider in (None, player(live)):
        seen = ok(call(live, "GET", f"/api/seatings/{sid}", outsider))
        text = json.dumps(seen)
        assert "token" not in text and all(link.split("#token=")[1] not in text for link in links.values())
    # The table is made: its seats are the players, by their names, each link opening its own.
    table = ok(call(live, "GET", f"/api/tables/{tid}"))
    assert sorted(s["name"] for s in table["seats"]) == sorted(["Aki", "Ben", cho["name"]])
    assert table["clock"] is None and table["options"]["tricks"] == 1
    for who in (aki, ben, cho):
        token = links[who["id"]].split("#token=")[1]
        with Player(live.ws_url, tid, token) as conn:
            welcome = conn.recv_until("welcome")
            assert welcome["role"] == "player"
            assert table["seats"][welcome["seat"]]["name"] == who["name"]
    # A public open table's game is listed to watch.
    assert tid in [t["id"] for t in ok(call(live, "GET", "/api/tables"))["open"]]


def test_a_private_open_table_is_found_by_its_link_only(live: ThreadServer) -> None:
    aki, ben = player(live), player(live)
    sid = open_table(live, aki, public=False)["id"]
    assert sid not in [s["id"] for s in ok(call(live, "GET", "/api/seatings"))["seatings"]]
    started = ok(call(live, "POST", f"/api/seatings/{sid}/join", ben))
    assert started["status"] == "started"
    assert started["table_id"] not in [t["id"] for t in ok(call(live, "GET", "/api/tables"))["open"]]
    assert ok(call(live, "GET", f"/api/tables/{started['table_id']}"))["id"] == started["table_id"]


def test_leaving_passes_the_table_on_and_the_last_one_out_cancels_it(live: ThreadServer) -> None:
    aki, ben = player(live), player(live)
    sid = open_table(live, aki, players=3)["id"]
    ok(call(live, "POST", f"/api/seatings/{sid}/join", ben))
    left = ok(call(live, "POST", f"/api/seatings/{sid}/leave", aki))
    assert left["creator"]["player"] == ben["id"] and [s["player"] for s in left["seats"]] == [ben["id"]]
    assert call(live, "POST", f"/api/seatings/{sid}/leave", aki).status_code == 409
    gone = ok(call(live, "POST", f"/api/seatings/{sid}/leave", ben))
    assert gone["status"] == "cancelled" and gone["seats"] == []
    refused = call(live, "POST", f"/api/seatings/{sid}/join", aki)
    assert refused.status_code == 409 and "cancelled" in refused.json()["detail"]


def test_only_the_creator_cancels_or_removes_a_seat(live: ThreadServer) -> None:
    aki, ben, cho = player(live), player(live), player(live)
    sid = open_table(live, aki, players=4)["id"]
    ok(call(live, "POST", f"/api/seatings/{sid}/join", ben))
    ok(call(live, "POST", f"/api/seatings/{sid}/join", cho))
    for path, body in ((f"/api/seatings/{sid}/remove", {"seat": 2}), (f"/api/seatings/{sid}", None)):
        method = "DELETE" if body is None else "POST"
        refused = call(live, method, path, ben, json=body)
        assert refused.status_code == 403 and "creator" in refused.json()["detail"]
    # A check of whose seat it is: a list that changed since the creator looked is not acted on.
    assert (
        call(
            live, "POST", f"/api/seatings/{sid}/remove", aki, json={"seat": 2, "player": ben["id"]}
        ).status_code
        == 409
    )
    assert call(live, "POST", f"/api/seatings/{sid}/remove", aki, json={"seat": 0}).status_code == 400
    assert call(live, "POST", f"/api/seatings/{sid}/remove", aki, json={"seat": 5}).status_code == 400
    removed = ok(
        call(live, "POST", f"/api/seatings/{sid}/remove", aki, json={"seat": 1, "player": ben["id"]})
    )
    assert [s["player"] for s in removed["seats"]] == [aki["id"], cho["id"]]
    assert call(live, "DELETE", f"/api/seatings/{sid}", aki).status_code == 204
    assert ok(call(live, "GET", f"/api/seatings/{sid}"))["status"] == "cancelled"
    assert call(live, "DELETE", f"/api/seatings/{sid}", aki).status_code == 409


def test_bots_fill_the_free_seats_after_the_wait(live: ThreadServer) -> None:
    aki = player(live)
    made = open_table(live, aki, players=3, bots_after=1, bot="random")
    assert 0 < made["bots_in"] <= 1
    started = wait_started(live, made["id"], aki)  # the background task, or this read, starts it
    seats = ok(call(live, "GET", f"/api/tables/{started['table_id']}"))["seats"]
    assert sorted(s["kind"] for s in seats) == ["bot", "bot", "human"]
    assert {s["spec"] for s in seats if s["kind"] == "bot"} == {"random"}
    assert [p for p in started["table_seats"] if p is not None] == [
        {"player": aki["id"], "name": aki["name"]}
    ]


def test_the_creator_hands_a_seat_whose_person_never_came_to_a_bot(live: ThreadServer) -> None:
    aki, ben = player(live), player(live)
    sid = open_table(live, aki, bots_after=None)["id"]
    tid = ok(call(live, "POST", f"/api/seatings/{sid}/join", ben))["table_id"]
    seats = wait_started(live, sid, aki)["table_seats"]
    ben_seat = next(i for i, s in enumerate(seats) if s["player"] == ben["id"])
    aki_url = ok(call(live, "GET", f"/api/seatings/{sid}", aki))["you"]["join_url"]
    assert (
        call(live, "POST", f"/api/seatings/{sid}/remove", ben, json={"seat": 1 - ben_seat}).status_code == 403
    )
    with Player(live.ws_url, tid, aki_url.split("#token=")[1]) as conn:
        conn.recv_until("welcome")
        assert (
            call(live, "POST", f"/api/seatings/{sid}/remove", aki, json={"seat": 1 - ben_seat}).status_code
            == 400
        )
        ok(call(live, "POST", f"/api/seatings/{sid}/remove", aki, json={"seat": ben_seat}))
        summary = ok(call(live, "GET", f"/api/tables/{tid}"))
        assert summary["seats"][ben_seat]["away"] is True
        assert any(e["what"] == "away" and e["seat"] == ben_seat for e in summary["story"])


def test_a_person_who_came_keeps_their_seat(live: ThreadServer) -> None:
    aki, ben = player(live), player(live)
    sid = open_table(live, aki)["id"]
    tid = ok(call(live, "POST", f"/api/seatings/{sid}/join", ben))["table_id"]
    you = ok(call(live, "GET", f"/api/seatings/{sid}", ben))["you"]
    with Player(live.ws_url, tid, you["join_url"].split("#token=")[1]) as conn:
        conn.recv_until("welcome")
        refused = call(live, "POST", f"/api/seatings/{sid}/remove", aki, json={"seat": you["seat"]})
    assert refused.status_code == 409 and "came" in refused.json()["detail"]


def test_quick_match_seats_strangers_together(live: ThreadServer) -> None:
    aki, ben, cho = player(live), player(live), player(live)
    first = ok(call(live, "POST", "/api/quickmatch", aki, json={"game": "troika", "players": 3}))
    assert first["quick"] and first["status"] == "waiting" and first["clock"] == seating.QUICK_CLOCK
    assert first["bots_after"] == seating.QUICK_BOTS_AFTER and first["options_words"] == {"en": [], "ja": []}
    again = ok(call(live, "POST", "/api/quickmatch", aki, json={"game": "troika", "players": 3}))
    assert again["id"] == first["id"] and again["free"] == 2  # already waiting there: the same one
    # A form-made open table of the same game is not taken by quick match.
    form = open_table(live, cho, game="troika", players=3)
    second = ok(call(live, "POST", "/api/quickmatch", ben, json={"game": "troika", "players": 3}))
    assert second["id"] == first["id"] and second["free"] == 1
    assert call(live, "DELETE", f"/api/seatings/{form['id']}", cho).status_code == 204
    done = ok(call(live, "POST", "/api/quickmatch", cho, json={"game": "troika", "players": 3}))
    assert done["id"] == first["id"] and done["status"] == "started"
    table = ok(call(live, "GET", f"/api/tables/{done['table_id']}"))
    assert table["clock"]["turn_seconds"] == seating.QUICK_CLOCK["turn_seconds"]
    # Without a number of players: the game's own.
    alone = ok(call(live, "POST", "/api/quickmatch", aki, json={"game": "tottarot"}))
    assert alone["players"] == 4


def test_a_player_waits_at_a_bounded_number_of_tables(live: ThreadServer) -> None:
    aki = player(live)
    for n in range(seating.MAX_WAITING):
        open_table(live, aki, players=2 + n % 3)
    refused = call(live, "POST", "/api/quickmatch", aki, json={"game": TOY, "players": 2})
    assert refused.status_code == 409 and f"{seating.MAX_WAITING} open tables" in refused.json()["detail"]
    other = open_table(live, player(live))
    assert call(live, "POST", f"/api/seatings/{other['id']}/join", aki).status_code == 409
    mine = ok(call(live, "GET", "/api/seatings/mine", aki))["seatings"]
    assert len(mine) == seating.MAX_WAITING and all(s["you"]["seated"] for s in mine)


def test_many_people_joining_at_once_fill_each_seat_once(live: ThreadServer) -> None:
    sid = open_table(live, player(live), players=4)["id"]
    people = [player(live) for _ in range(8)]
    answers: list[httpx.Response] = []

    def join(who: dict[str, Any]) -> None:
        answers.append(call(live, "POST", f"/api/seatings/{sid}/join", who))

    threads = [threading.Thread(target=join, args=(p,)) for p in people]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert sorted(a.status_code for a in answers) == [200] * 3 + [409] * 5
    done = wait_started(live, sid, None)
    assert len([s for s in done["table_seats"] if s]) == 4


def test_strangers_pressing_quick_match_together_are_paired(live: ThreadServer) -> None:
    """Everyone at once: each table gets exactly its players, nobody waits alone at a table of their
    own (a quick match looks for a table and makes one in one turn)."""
    people = [player(live) for _ in range(8)]
    answers: list[dict[str, Any]] = []

    def quick(who: dict[str, Any]) -> None:
        answers.append(ok(call(live, "POST", "/api/quickmatch", who, json={"game": "tokkuri", "players": 2})))

    threads = [threading.Thread(target=quick, args=(p,)) for p in people]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert len(answers) == 8 and len({a["id"] for a in answers}) == 4
    tables = {wait_started(live, a["id"], None)["table_id"] for a in answers}
    assert len(tables) == 4


def test_a_long_poll_answers_at_the_change(live: ThreadServer) -> None:
    aki, ben = player(live), player(live)
    made = open_table(live, aki)
    sid, version = made["id"], made["version"]
    quiet = time.monotonic()
    same = ok(call(live, "GET", f"/api/seatings/{sid}?version={version}&wait=1", aki))
    assert same["version"] == version and time.monotonic() - quiet >= 0.9
    got: list[dict[str, Any]] = []
    waiter = threading.Thread(
        target=lambda: got.append(
            ok(call(live, "GET", f"/api/seatings/{sid}?version={version}&wait=20", aki))
        )
    )
    asked = time.monotonic()
    waiter.start()
    time.sleep(0.3)
    ok(call(live, "POST", f"/api/seatings/{sid}/join", ben))
    waiter.join(timeout=30)
    assert got[0]["status"] == "started" and got[0]["you"]["join_url"]
    assert time.monotonic() - asked < 5  # at the change, not at the end of the wait
    assert call(live, "GET", f"/api/seatings/{sid}?version=1&wait=26").status_code == 422


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "/api/seatings"),
        ("POST", "/api/quickmatch"),
        ("POST", "/api/seatings/x/join"),
        ("POST", "/api/seatings/x/leave"),
        ("POST", "/api/seatings/x/remove"),
        ("DELETE", "/api/seatings/x"),
        ("GET", "/api/seatings/mine"),
    ],
)
def test_changes_need_a_player(live: ThreadServer, method: str, path: str) -> None:
    for headers in ({}, {"Authorization": "Bearer not-a-key"}):
        with live.http() as http:
            answer = http.request(method, path, headers=headers, json={"game": TOY})
        assert answer.status_code == 401, answer.text
        assert "player" in answer.json()["detail"]


@pytest.mark.parametrize(
    ("body", "status", "said"),
    [
        ({"game": "nope"}, 400, "one of hangover"),
        ({"game": TOY, "players": 9}, 400, "2 to 4 players"),
        ({"game": TOY, "players": 1}, 422, "players"),
        ({"game": "tottarot", "players": 7}, 400, "players"),
        ({"game": TOY, "options": {"tricks": 9}}, 400, "tricks"),
        ({"game": TOY, "options": {"nope": 1}}, 400, "nope"),
        ({"game": TOY, "options": {"seats": 1}}, 400, "field of the open table"),
        ({"game": TOY, "clock": {"turn_seconds": 0}}, 422, "clock"),
        ({"game": TOY, "clock": {"turn_seconds": 5, "x": 1}}, 422, "clock"),
        ({"game": TOY, "bots_after": 0}, 422, "bots_after"),
        ({"game": TOY, "bots_after": 4000}, 422, "bots_after"),
        ({"game": TOY, "bots_after": "10"}, 422, "bots_after"),
        ({"game": TOY, "bot": "nobody"}, 400, "agents"),
        ({"game": TOY, "bot": "random:depth=x"}, 400, "depth"),
        ({"game": TOY, "public": "yes"}, 422, "public"),
        ({"game": TOY, "extra": 1}, 422, "extra"),
        ({}, 422, "game"),
    ],
)
def test_bad_open_tables_are_refused_saying_why(
    live: ThreadServer, body: dict[str, Any], status: int, said: str
) -> None:
    answer = call(live, "POST", "/api/seatings", player(live), json=body)
    assert answer.status_code == status, answer.text
    assert said in answer.text


def test_bad_requests_elsewhere_are_refused_saying_why(live: ThreadServer) -> None:
    aki = player(live)
    assert call(live, "GET", "/api/seatings/nope").status_code == 404
    assert call(live, "GET", "/api/seatings/" + "x" * 40).status_code == 404
    assert call(live, "POST", "/api/seatings/nope/join", aki).status_code == 404
    assert call(live, "GET", "/api/seatings?game=nope").status_code == 400
    for body, said in (({"game": "nope"}, "no game"), ({"game": TOY, "players": 5}, "players"), ({}, "game")):
        answer = call(live, "POST", "/api/quickmatch", aki, json=body)
        assert answer.status_code in (400, 422) and said in answer.text, answer.text
    sid = open_table(live, aki)["id"]
    for bad in ({}, {"seat": -1}, {"seat": "1"}, {"seat": 1, "x": 2}):
        assert call(live, "POST", f"/api/seatings/{sid}/remove", aki, json=bad).status_code == 422
    with live.http() as http:
        answer = http.post(f"/api/seatings/{sid}/remove", headers=aki["headers"], content=b"seat=1")
    assert answer.status_code == 415


FIELDS = st.sampled_from(["game", "players", "options", "clock", "public", "bots_after", "bot", "seats"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    body=st.one_of(
        JSON_VALUES,
        st.dictionaries(st.one_of(FIELDS, TEXTS), JSON_VALUES, max_size=5),
        st.fixed_dictionaries(
            {"game": st.sampled_from([TOY, "troika"])},
            optional={
                "players": JSON_VALUES,
                "options": JSON_VALUES,
                "clock": JSON_VALUES,
                "bots_after": JSON_VALUES,
                "bot": JSON_VALUES,
            },
        ),
    ),
    path=st.sampled_from(["/api/seatings", "/api/quickmatch"]),
)
def test_hostile_bodies_get_a_clear_refusal(live: ThreadServer, body: Any, path: str) -> None:
    who = FUZZER
    with live.http() as http:
        answer = http.post(
            path, content=to_json(body).encode("utf-8", "surrogatepass"),
            headers={**who["headers"], "Content-Type": "application/json"},
        )  # fmt: skip
    assert answer.status_code in (200, 201, 400, 409, 413, 422), answer.text
    if answer.status_code >= 400:
        assert answer.json()["detail"]
    else:  # one that made sense: leave it, so that the player can sit down again
        sid = answer.json()["id"]
        assert call(live, "POST", f"/api/seatings/{sid}/leave", who).status_code == 200


FUZZER: dict[str, Any] = {}


@pytest.fixture(autouse=True, scope="module")
def _fuzzer(live: ThreadServer) -> None:
    FUZZER.update(player(live, "Fuzzer"))


def test_a_waiting_table_survives_a_restart(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'bodoge.db'}"
    with ThreadServer(config(db)) as first:
        aki, ben = player(first), player(first)
        waiting = open_table(first, aki, players=3)["id"]
        due = open_table(first, ben, players=3, bots_after=2, bot="random")["id"]
    time.sleep(2.2)  # its wait ends while no server runs
    with ThreadServer(config(db)) as second:
        again = ok(call(second, "GET", f"/api/seatings/{waiting}", aki))
        assert again["status"] == "waiting" and again["you"]["seated"]
        assert waiting in [s["id"] for s in ok(call(second, "GET", "/api/seatings"))["seatings"]]
        started = wait_started(second, due, ben)  # started by the new process's background task
        assert started["you"]["join_url"]
        cho, dan = player(second), player(second)
        ok(call(second, "POST", f"/api/seatings/{waiting}/join", cho))
        full = ok(call(second, "POST", f"/api/seatings/{waiting}/join", dan))
        assert full["status"] == "started"


def test_an_interrupted_start_is_finished_with_the_same_table(tmp_path: Path) -> None:
    """A crash between claiming the start and making the table: the next process makes it, with the
    table id chosen before, so that the seat keys derived from it open the seats."""
    db = f"sqlite:///{tmp_path / 'bodoge.db'}"
    with ThreadServer(config(db)) as first:
        aki, ben = player(first), player(first)
        sid = open_table(first, aki)["id"]
    from sqlalchemy import create_engine, update

    engine = create_engine(db)
    with engine.begin() as conn:
        conn.execute(
            update(seating.seatings_table)
            .where(seating.seatings_table.c.id == sid)
            .values(
                status="starting",
                table_id="interrupted1",
                seats=json.dumps([aki["id"], ben["id"]]),
                table_seats=json.dumps([ben["id"], aki["id"]]),
            )
        )
    engine.dispose()
    with ThreadServer(config(db)) as second:
        done = wait_started(second, sid, ben)
        assert done["table_id"] == "interrupted1" and done["you"]["seat"] == 0
        token = done["you"]["join_url"].split("#token=")[1]
        with Player(second.ws_url, "interrupted1", token) as conn:
            assert conn.recv_until("welcome")["seat"] == 0
