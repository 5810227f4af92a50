"""People at a table behave like people (issue #16): they run out of time, close the page, come
back, open their seat twice, name themselves, chat, and want to play again. Each is checked over
real websockets against a live server (the test-only game `highcard`, bots at zero delay).
"""

from __future__ import annotations

import contextlib
import json
import random
import time
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_helpers import Player, ThreadServer, make_config, play_both_seats, states_along
from websockets.exceptions import ConnectionClosed

from bodoge.server.guard import Limits
from bodoge.server.storage import Storage
from bodoge.server.table.plain import JOINERS, MAX_CHAT, MAX_NAME, NOT_PLAIN, clean_name

HUMAN = {"kind": "human"}
TOY = "highcard"


@contextlib.contextmanager
def live(tmp_path: Path, **limits: Any) -> Iterator[ThreadServer]:
    limits.setdefault("create_rate", "100000/minute")
    config = make_config(f"sqlite:///{tmp_path / 'people.db'}", limits=Limits(**limits))
    with ThreadServer(config) as server:
        yield server


def make_table(server: ThreadServer, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    with server.http() as http:
        response = http.post(
            "/api/tables",
            json={"game": TOY, "players": len(seats), "options": {"tricks": 3}, "seats": seats, **extra},
        )
        assert response.status_code == 201, response.text
        created: dict[str, Any] = response.json()
        return created


def summary(server: ThreadServer, table_id: str) -> dict[str, Any]:
    with server.http() as http:
        got: dict[str, Any] = http.get(f"/api/tables/{table_id}").json()
        return got


def wait_for(what: str, check: Any, timeout: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        got = check()
        if got:
            return got
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what} did not happen within {timeout} s")
        time.sleep(0.05)


def tokens_of(created: dict[str, Any]) -> list[str | None]:
    return [seat.get("token") for seat in created["seats"]]


# -- the clock and stand-ins -----------------------------------------------------------------------


def test_out_of_time_a_stand_in_plays_until_the_person_is_back(tmp_path: Path) -> None:
    with live(tmp_path) as server:
        created = make_table(
            server, [HUMAN, HUMAN], clock={"turn_seconds": 1, "reserve_seconds": 1}, standin="random"
        )
        table_id = created["id"]
        clock = created["table"]["clock"]
        assert clock["turn_seconds"] == 1 and clock["reserve_seconds"] == 1
        assert created["table"]["standin"] == "random"
        t0, t1 = tokens_of(created)
        with Player(server.ws_url, table_id, t0) as p0, Player(server.ws_url, table_id, t1) as p1:
            p0.view_at_least(0)
            p1.view_at_least(0)
            # Seat 0 is to move and does nothing: 1 s and its 1 s reserve later it is away, and the
            # stand-in plays its move.
            started = time.monotonic()
            away = p1.recv_until("table", timeout=10)
            while not away["table"]["seats"][0]["away"]:
                away = p1.recv_until("table", timeout=10)
            assert time.monotonic() - started >= 1.5
            assert away["table"]["clock"]["reserve_left"][0] == 0
            p1.view_at_least(1)
            assert summary(server, table_id)["seats"][0]["away"] is True
            # Seat 1's own clock runs now; it plays in time and keeps its reserve.
            legal = p1.last["view"]["legal_actions"]
            p1.send({"type": "action", "action": legal[0]["id"], "seq": p1.last["seq"]})
            p1.view_at_least(2)
            # Back: the stand-in stops, and seat 0's own moves count again.
            p0.send({"type": "back"})
            back = wait_for("the return", lambda: not summary(server, table_id)["seats"][0]["away"])
            assert back
            state = summary(server, table_id)
            if state["current_player"] == 0:
                message = p0.view_at_least(state["moves"])
                p0.send({"type": "action", "action": message["view"]["legal_actions"][0]["id"]})
                p0.view_at_least(state["moves"] + 1)


def test_an_action_takes_the_seat_back(tmp_path: Path) -> None:
    """Acting is coming back too: no stand-in plays for a person who just moved."""
    with live(tmp_path, away_grace=0.3) as server:
        created = make_table(server, [HUMAN, HUMAN], standin="random")
        t0, t1 = tokens_of(created)
        table_id = created["id"]
        p1 = Player(server.ws_url, table_id, t1)
        p1.view_at_least(0)
        with Player(server.ws_url, table_id, t0) as p0:
            p0.view_at_least(0)
        # Seat 0 left: after the grace period it is away, and its stand-in plays move 0.
        wait_for("seat 0 away", lambda: summary(server, table_id)["seats"][0]["away"])
        p1.view_at_least(1)
        with Player(server.ws_url, table_id, t0) as p0:
            # Still away (a reconnect alone does not take the seat back) until it acts or says so.
            assert summary(server, table_id)["seats"][0]["away"] is True
            p0.send({"type": "back"})
            wait_for("seat 0 back", lambda: not summary(server, table_id)["seats"][0]["away"])
            while (now := summary(server, table_id))["current_player"] == 1:
                message = p1.view_at_least(now["moves"])
                p1.send({"type": "action", "action": message["view"]["legal_actions"][0]["id"]})
                p1.view_at_least(now["moves"] + 1)
            assert now["current_player"] == 0
            # Nobody plays seat 0 now: the table waits for its person.
            time.sleep(0.5)
            assert summary(server, table_id)["moves"] == now["moves"]
            message = p0.view_at_least(now["moves"])
            p0.send({"type": "action", "action": message["view"]["legal_actions"][0]["id"]})
            p0.view_at_least(now["moves"] + 1)
        p1.close()


def test_a_table_whose_people_have_gone_waits_for_them(tmp_path: Path) -> None:
    """No clock runs and no stand-in plays while no person is connected: the table is paused."""
    with live(tmp_path, away_grace=0.2) as server:
        created = make_table(server, [HUMAN, HUMAN], clock={"turn_seconds": 1}, standin="random")
        table_id = created["id"]
        t0, t1 = tokens_of(created)
        with Player(server.ws_url, table_id, t0) as p0, Player(server.ws_url, table_id, t1) as p1:
            p0.view_at_least(0)
            p1.view_at_least(0)
        wait_for("the pause", lambda: summary(server, table_id)["paused"])
        time.sleep(2.0)  # twice the clock, ten times the grace period
        now = summary(server, table_id)
        assert now["moves"] == 0 and now["paused"] is True
        assert now["clock"]["running"] is False
        # Someone comes back: the clock goes on from where it stopped (and the away seats' stand-ins
        # play, since there is someone to play with).
        with Player(server.ws_url, table_id, t1) as p1:
            p1.view_at_least(0)
            assert summary(server, table_id)["paused"] is False
            p1.view_at_least(1, timeout=15)


def test_without_a_clock_a_gone_person_is_replaced_after_the_grace_period(tmp_path: Path) -> None:
    """The issue's stall: a player closes the page on their turn; the other no longer waits forever."""
    with live(tmp_path, away_grace=0.5) as server:
        created = make_table(server, [HUMAN, HUMAN])
        assert created["table"]["clock"] is None and created["table"]["standin"] == "heuristic"
        table_id = created["id"]
        t0, t1 = tokens_of(created)
        with Player(server.ws_url, table_id, t1) as p1:
            p1.view_at_least(0)
            with Player(server.ws_url, table_id, t0) as p0:
                p0.view_at_least(0)
            final = p1.play(random.Random(1), timeout=60)
            assert final["view"]["is_terminal"]
            assert summary(server, table_id)["seats"][0]["away"] is True


def test_a_link_never_opened_is_replaced_after_the_grace_period(tmp_path: Path) -> None:
    """Issue #31: a person who never opens their link is absent from the table's start: a table
    without a clock no longer waits forever for them."""
    with live(tmp_path, away_grace=0.5) as server:
        created = make_table(server, [HUMAN, HUMAN], standin="random")
        table_id = created["id"]
        _t0, t1 = tokens_of(created)
        with Player(server.ws_url, table_id, t1) as p1:
            p1.view_at_least(0)
            wait_for("seat 0 away", lambda: summary(server, table_id)["seats"][0]["away"], timeout=10)
            assert summary(server, table_id)["seats"][1]["away"] is False
            final = p1.play(random.Random(3), timeout=60)
            assert final["view"]["is_terminal"]


def test_a_grace_period_that_ends_with_nobody_there_starts_again_when_someone_comes(
    tmp_path: Path,
) -> None:
    """Nobody at the table when the grace periods end: nobody is away (the table waits; the first to
    come, late, does not find a stand-in in their seat); the one who comes starts the others'."""
    with live(tmp_path, away_grace=0.3) as server:
        created = make_table(server, [HUMAN, HUMAN], standin="random")
        table_id = created["id"]
        _t0, t1 = tokens_of(created)
        time.sleep(1.0)  # three grace periods, nobody there
        now = summary(server, table_id)
        assert [s["away"] for s in now["seats"]] == [False, False] and now["moves"] == 0
        with Player(server.ws_url, table_id, t1) as p1:
            assert p1.recv_until("welcome")["table"]["seats"][1]["away"] is False
            wait_for("seat 0 away", lambda: summary(server, table_id)["seats"][0]["away"], timeout=10)
            p1.view_at_least(1)  # the stand-in played seat 0's move
            assert summary(server, table_id)["seats"][1]["away"] is False


def test_at_the_table_play_again_made_a_link_never_opened_is_replaced_too(tmp_path: Path) -> None:
    with live(tmp_path, away_grace=1.0) as server:
        created = make_table(server, [HUMAN, HUMAN], standin="random")
        table_id = created["id"]
        t0, t1 = tokens_of(created)
        with Player(server.ws_url, table_id, t0) as p0, Player(server.ws_url, table_id, t1) as p1:
            assert play_both_seats(p0, p1)["view"]["is_terminal"]
            p0.send({"type": "rematch"})
            offer = p0.recv_until("rematch")
        new_id = offer["table"]
        assert offer["seat"] == 1
        # Seat 0 of the new table (the old seat 1's person) never opens its link.
        with Player(server.ws_url, new_id, t0) as again:
            assert again.recv_until("welcome")["seat"] == 1
            wait_for("new seat 0 away", lambda: summary(server, new_id)["seats"][0]["away"], timeout=10)
            final = again.play(random.Random(4), timeout=60)
            assert final["view"]["is_terminal"]


def test_the_clock_tells_the_turns_time_and_the_reserve_apart(tmp_path: Path) -> None:
    """Issue #31: the summary's clock says what is left of the turn's own time (`turn_left`) and of
    the seat's reserve, each on its own: `left` is both together, not the turn's time plus a reserve
    that is already in it."""
    with live(tmp_path) as server:
        created = make_table(server, [HUMAN, HUMAN], clock={"turn_seconds": 2, "reserve_seconds": 3})
        table_id = created["id"]
        t0, t1 = tokens_of(created)
        with Player(server.ws_url, table_id, t0) as p0, Player(server.ws_url, table_id, t1) as p1:
            p0.view_at_least(0)
            p1.view_at_least(0)
            clock = summary(server, table_id)["clock"]
            assert clock["seat"] == 0 and clock["running"] is True
            assert 0 < clock["turn_left"] <= 2 and clock["reserve_left"] == [3, 3]
            assert clock["left"] == pytest.approx(clock["turn_left"] + 3, abs=0.15)
            time.sleep(3.0)  # the turn's 2 s are spent, and about 1 s of the reserve
            clock = summary(server, table_id)["clock"]
            assert clock["seat"] == 0 and clock["turn_left"] == 0
            assert 0 < clock["reserve_left"][0] < 2.5 and clock["reserve_left"][1] == 3
            assert clock["left"] == pytest.approx(clock["reserve_left"][0], abs=0.15)
            legal = p0.view_at_least(0)["view"]["legal_actions"]
            p0.send({"type": "action", "action": legal[0]["id"], "seq": 0})
            p0.view_at_least(1)
            kept = clock["reserve_left"][0]
            clock = wait_for(
                "seat 1's turn", lambda: (c := summary(server, table_id)["clock"])["seat"] == 1 and c
            )
            # Seat 0 keeps what it had left of its reserve; seat 1's turn starts whole.
            assert 0 < clock["reserve_left"][0] <= kept and clock["reserve_left"][1] == 3
            assert 1 < clock["turn_left"] <= 2


# -- seats, names ----------------------------------------------------------------------------------


def test_a_second_connection_to_a_seat_replaces_the_first(tmp_path: Path) -> None:
    with live(tmp_path) as server:
        created = make_table(server, [HUMAN, {"kind": "bot", "spec": "random"}])
        table_id = created["id"]
        token = tokens_of(created)[0]
        old = Player(server.ws_url, table_id, token)
        old.view_at_least(0)
        with Player(server.ws_url, table_id, token) as new:
            new.view_at_least(0)
            told = old.recv_until("replaced")
            assert "another window" in told["message"]
            with pytest.raises(ConnectionClosed) as closed:
                old.quiet(5)
                old.ws.recv(timeout=5)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4409
            # The seat plays from the new connection, and the table counts it once.
            seats = summary(server, table_id)["seats"]
            assert seats[0]["connected"] is True
            new.play(random.Random(2), timeout=60)


def test_a_person_names_themselves_when_joining(tmp_path: Path) -> None:
    with live(tmp_path) as server:
        created = make_table(server, [HUMAN, HUMAN])
        table_id = created["id"]
        t0, t1 = tokens_of(created)
        with Player(server.ws_url, table_id, None) as watcher:
            watcher.view_at_least(0)
            p0 = Player(server.ws_url, table_id, t0, name="  Aki ")
            welcome = p0.recv_until("welcome")
            assert welcome["table"]["seats"][0]["name"] == "Aki"  # trimmed
            # Unique at the table, whatever the case or width.
            p1 = Player(server.ws_url, table_id, t1, name="ＡＫＩ")
            error = p1.recv_until("error")
            assert error["code"] == "name_taken" and "seat 0" in error["message"]
            assert p1.recv_until("welcome")["table"]["seats"][1]["name"] == "P1"  # unchanged
            # Bad names: refused with what is allowed, nothing changed.
            for bad, code in (
                ("x" * (MAX_NAME + 1), "bad_name"),
                ("a\nb", "bad_name"),
                ("  ", "bad_name"),
                (7, "bad_name"),
            ):
                p1.send({"type": "name", "name": bad})
                assert p1.recv_until("error")["code"] == code
            p1.send({"type": "name", "name": "Ben"})
            renamed = watcher.recv_until("table")
            while renamed["table"]["seats"][1]["name"] != "Ben":
                renamed = watcher.recv_until("table")
            # Kept: a restart (a reload from the database) shows the names.
            storage = Storage(f"sqlite:///{tmp_path / 'people.db'}")
            try:
                row = storage.load_table(table_id)
                assert row is not None and [s["name"] for s in row.seats] == ["Aki", "Ben"]
            finally:
                storage.close()
            # A spectator names nobody.
            watcher.send({"type": "name", "name": "Mallory"})
            assert watcher.recv_until("error")["code"] == "spectator"
            p0.close()
            p1.close()


@given(st.text(max_size=60))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_clean_name_accepts_only_short_plain_text(raw: str) -> None:
    try:
        name = clean_name(raw)
    except ValueError as exc:
        assert "name" in str(exc)
        return
    assert name == raw.strip() and len(name) <= MAX_NAME
    assert all(unicodedata.category(ch) not in NOT_PLAIN or ch in JOINERS for ch in name)


# -- chat ------------------------------------------------------------------------------------------


def test_chat_is_broadcast_stored_bounded_and_replayed(tmp_path: Path) -> None:
    with live(tmp_path, chat_rate="5/minute") as server:
        created = make_table(server, [HUMAN, HUMAN])
        table_id = created["id"]
        t0, t1 = tokens_of(created)
        with Player(server.ws_url, table_id, t0) as p0, Player(server.ws_url, table_id, t1) as p1:
            p0.view_at_least(0)
            p1.view_at_least(0)
            p0.send({"type": "chat", "text": "  <b>hi</b> all  "})
            line = p1.recv_until("chat")["line"]
            assert line == {
                "n": 0,
                "seat": 0,
                "name": "P0",
                "text": "<b>hi</b> all",  # plain text, trimmed; the page shows it as text
                "move": 0,
                "at": line["at"],
            }
            assert p0.recv_until("chat")["line"]["n"] == 0
            for bad in ("", "   ", "x" * (MAX_CHAT + 1), "two\nlines", "\u202eevil"):
                p0.send({"type": "chat", "text": bad})
                assert p0.recv_until("error")["code"] == "bad_chat"
            p0.send({"type": "chat", "text": 5})
            assert p0.recv_until("error")["code"] == "malformed"
            # The rate: 5 lines a minute per connection (p1 has said nothing yet).
            codes = []
            for i in range(6):
                p1.send({"type": "chat", "text": f"line {i}"})
            for _ in range(6):
                message = p1.recv_until("chat", timeout=5) if len(codes) < 5 else p1.recv_until("error")
                codes.append(message["type"] if message["type"] == "chat" else message["code"])
            assert codes.count("chat_rate") == 1
            # Moves go on; chat lines remember the move they were said at.
            legal = p0.view_at_least(0)["view"]["legal_actions"]
            p0.send({"type": "action", "action": legal[0]["id"], "seq": 0})
            p1.view_at_least(1)
            with live_spectator(server, table_id) as (watcher, welcome):
                assert [c["text"] for c in welcome["chat"]] == ["<b>hi</b> all"] + [
                    f"line {i}" for i in range(5)
                ]
                watcher.send({"type": "chat", "text": "hello from the stands"})
                assert watcher.recv_until("error")["code"] == "spectator"
            final = play_both(p0, p1)
            assert final["view"]["is_terminal"]
            p0.send({"type": "chat", "text": "gg"})
            p1.recv_until("chat", timeout=10)
        with server.http() as http:
            at_start = http.get(f"/api/tables/{table_id}/replay", params={"move": 0}).json()["chat"]
            at_end = http.get(f"/api/tables/{table_id}/replay", params={"move": final["seq"]}).json()["chat"]
        assert [c["text"] for c in at_start] == ["<b>hi</b> all"] + [f"line {i}" for i in range(5)]
        assert at_end[-1]["text"] == "gg" and len(at_end) == 7


@contextlib.contextmanager
def live_spectator(server: ThreadServer, table_id: str) -> Iterator[tuple[Player, dict[str, Any]]]:
    with Player(server.ws_url, table_id, None) as watcher:
        yield watcher, watcher.recv_until("welcome")


def play_both(p0: Player, p1: Player) -> dict[str, Any]:
    rng = random.Random(4)
    while True:
        seq = max(p0.last["seq"] if p0.last else 0, p1.last["seq"] if p1.last else 0)
        views = [p.view_at_least(seq) for p in (p0, p1)]
        if views[0]["view"]["is_terminal"]:
            return views[0]
        for p, message in zip((p0, p1), views, strict=True):
            legal = message["view"].get("legal_actions")
            if legal and message["seq"] == seq:
                p.send({"type": "action", "action": rng.choice(legal)["id"], "seq": seq})
                break
        p0.view_at_least(seq + 1)
        p1.view_at_least(seq + 1)


# -- rematch ---------------------------------------------------------------------------------------


def test_play_again_seats_everyone_at_a_new_table_moved_on_by_one(tmp_path: Path) -> None:
    with live(tmp_path) as server:
        created = make_table(
            server,
            [{"kind": "human", "name": "Aki"}, {"kind": "bot", "spec": "random"}, HUMAN],
            clock={"turn_seconds": 600},
        )
        table_id = created["id"]
        t0, _t1, t2 = tokens_of(created)
        assert t0 and t2
        with Player(server.ws_url, table_id, t0) as p0:
            p0.view_at_least(0)
            p0.send({"type": "rematch"})
            assert p0.recv_until("error")["code"] == "running"
            with Player(server.ws_url, table_id, t2) as p2:
                final = play_both_seats(p0, p2)
                assert final["view"]["is_terminal"]
                p2.send({"type": "rematch"})
                offers = [p.recv_until("rematch") for p in (p0, p2)]
        new_id = offers[0]["table"]
        assert offers[1]["table"] == new_id != table_id
        assert (offers[0]["seat"], offers[1]["seat"]) == (1, 0)  # seat 2 moved on to seat 0
        assert offers[0]["join_url"] == f"/t/{new_id}#token={t0}"
        new = summary(server, new_id)
        assert new["game"] == TOY and new["options"] == created["table"]["options"]
        assert [s["kind"] for s in new["seats"]] == ["human", "human", "bot"]
        assert [s["name"] for s in new["seats"]] == ["P0", "Aki", "random"]
        assert new["clock"]["turn_seconds"] == 600 and new["rematch_of"] == table_id
        assert summary(server, table_id)["next_table"] == new_id
        # One click: the link opens the new seat.
        with Player(server.ws_url, new_id, t0) as again:
            assert again.recv_until("welcome")["seat"] == 1
        # Asking again, or reconnecting to the old table later, gives the same new table.
        with Player(server.ws_url, table_id, t2) as late:
            offer = late.recv_until("rematch")
            assert offer["table"] == new_id and offer["seat"] == 0
            late.send({"type": "rematch"})
            assert late.recv_until("rematch")["table"] == new_id


# -- smaller messages ------------------------------------------------------------------------------


def test_views_carry_only_the_log_entries_the_connection_lacks(tmp_path: Path) -> None:
    with live(tmp_path) as server:
        created = make_table(server, [HUMAN, {"kind": "bot", "spec": "random"}])
        table_id = created["id"]
        token = tokens_of(created)[0]
        raw: list[dict[str, Any]] = []
        with Player(server.ws_url, table_id, token) as p0:
            final = p0.play(random.Random(6), timeout=60)
            raw = [json.loads(json.dumps(m)) for m in p0.messages if m["type"] == "view"]
            with server.http() as http:
                record = http.get(f"/api/tables/{table_id}/record").json()
            # Whole again once put together (the helper does what a client does) ...
            states = states_along(record)
            for seq, view in p0.views.items():
                assert view == json.loads(json.dumps(states[seq].view(0)))
            # ... and only the first message carried a whole log.
            starts = [m["log_from"] for m in raw]
            assert starts[0] == 0 and all(s > 0 for s in starts[1:])
            # A connection that lost track asks for a whole view.
            p0.send({"type": "sync"})
            whole = p0.recv_until("view")
            assert whole["log_from"] == 0 and whole["view"]["log"] == final["view"]["log"]


def test_a_table_nobody_started_expires(tmp_path: Path) -> None:
    with live(tmp_path, unstarted_timeout=0.3) as server:
        created = make_table(server, [HUMAN, HUMAN])
        table_id = created["id"]
        wait_for("the expiry", lambda: summary(server, table_id)["status"] == "abandoned")
        with server.http() as http:
            lists = http.get("/api/tables").json()
        assert table_id not in [t["id"] for t in lists["open"]]


@pytest.mark.parametrize(
    "clock",
    [
        {"turn_seconds": 0},
        {"turn_seconds": 3601},
        {"turn_seconds": 5, "reserve_seconds": -1},
        {"turn_seconds": "5"},
        {"turn_seconds": 5.5},
        {"turn_seconds": 5, "extra": 1},
        {},
    ],
)
def test_a_bad_clock_is_refused(tmp_path: Path, clock: dict[str, Any]) -> None:
    with live(tmp_path) as server, server.http() as http:
        response = http.post(
            "/api/tables", json={"game": TOY, "players": 2, "seats": [HUMAN, HUMAN], "clock": clock}
        )
        assert response.status_code == 422, response.text
        assert http.get("/api/tables").json()["open"] == []


def test_a_bad_standin_is_refused(tmp_path: Path) -> None:
    with live(tmp_path) as server, server.http() as http:
        response = http.post(
            "/api/tables", json={"game": TOY, "players": 2, "seats": [HUMAN, HUMAN], "standin": "nosuchbot"}
        )
        assert response.status_code == 400 and "nosuchbot" in response.text
        assert http.get("/api/tables").json()["open"] == []


def test_http_answers_are_compressed(tmp_path: Path) -> None:
    with live(tmp_path) as server:
        response = httpx.get(server.url + "/static/table.js", headers={"accept-encoding": "gzip"})
        assert response.headers.get("content-encoding") == "gzip"
        assert "Content-Security-Policy" in response.headers


def test_renames_are_rate_limited(tmp_path: Path) -> None:
    """Each rename is a write to the database: a connection may not flood them."""
    with live(tmp_path, chat_rate="3/minute") as server:
        created = make_table(server, [HUMAN, HUMAN])
        with Player(server.ws_url, created["id"], tokens_of(created)[0]) as p0:
            p0.view_at_least(0)
            for i in range(4):
                p0.send({"type": "name", "name": f"Aki{i}"})
            assert p0.recv_until("error")["code"] == "name_rate"
            assert summary(server, created["id"])["seats"][0]["name"] == "Aki2"


# -- the table's story: who left, who is back, who joined the new table (issue #31) ------------


def story(server: ThreadServer, table_id: str) -> list[tuple[str, int]]:
    return [(e["what"], e["seat"]) for e in summary(server, table_id)["story"]]


def test_the_story_tells_who_left_who_a_bot_plays_for_and_who_is_back(tmp_path: Path) -> None:
    with live(tmp_path, away_grace=0.3) as server:
        created = make_table(server, [HUMAN, HUMAN], standin="random")
        t0, t1 = tokens_of(created)
        table_id = created["id"]
        p1 = Player(server.ws_url, table_id, t1)
        p1.view_at_least(0)
        with Player(server.ws_url, table_id, t0) as p0:
            p0.view_at_least(0)
            assert story(server, table_id) == []  # coming for the first time is no story
        # Seat 0 left; past the grace period a stand-in plays for it (it is gone, not out of time).
        wait_for("seat 0 away", lambda: summary(server, table_id)["seats"][0]["away"])
        events = summary(server, table_id)["story"]
        assert [(e["what"], e["seat"]) for e in events] == [("left", 0), ("away", 0)]
        assert events[1]["why"] == "gone" and events[0]["n"] < events[1]["n"]
        # Where each happened in each seat's log (two seats, then the spectators'): at the start.
        assert events[0]["seq"] == 0 and len(events[0]["log"]) == 3
        moved = p1.view_at_least(1)
        with Player(server.ws_url, table_id, t0) as p0:
            p0.view_at_least(moved["seq"])
            wait_for("back", lambda: ("back", 0) in story(server, table_id))
            p0.send({"type": "back"})
            wait_for("resumed", lambda: ("resumed", 0) in story(server, table_id))
            back = summary(server, table_id)["story"][-2]
            # Back after the stand-in's move: later in every seat's log than the leaving.
            assert back["seq"] >= 1 and all(
                b >= a for a, b in zip(events[0]["log"], back["log"], strict=True)
            )
            assert any(b > a for a, b in zip(events[0]["log"], back["log"], strict=True))
        # The table's story is not the game's: the game's log holds none of it.
        assert all("what" not in entry for entry in p1.view_at_least(0)["view"]["log"])
        p1.close()
        assert story(server, table_id)[-2:] == [("left", 0), ("left", 1)]


def test_the_old_table_tells_who_joined_the_new_one(tmp_path: Path) -> None:
    with live(tmp_path) as server:
        created = make_table(server, [{"kind": "human", "name": "Aki"}, {"kind": "human", "name": "Ben"}])
        table_id = created["id"]
        t0, t1 = tokens_of(created)
        assert t0 and t1
        with Player(server.ws_url, table_id, t0) as p0, Player(server.ws_url, table_id, t1) as p1:
            p0.view_at_least(0)
            p1.view_at_least(0)
            assert play_both_seats(p0, p1)["view"]["is_terminal"]
            p1.send({"type": "rematch"})
            offer = p1.recv_until("rematch")
            assert story(server, table_id) == []
            # Ben (seat 1) takes his seat at the new table (seat 0 there): Aki's table says so.
            with Player(server.ws_url, offer["table"], t1) as again:
                assert again.recv_until("welcome")["seat"] == 0
                wait_for("joined", lambda: story(server, table_id) == [("joined_next", 1)])
                seen = p0.recv_until("table", timeout=10)
                while not seen["table"]["story"]:
                    seen = p0.recv_until("table", timeout=10)
                assert seen["table"]["story"][0]["table"] == offer["table"]
            # Leaving a finished table is no story; coming again to the new table tells nothing new.
            with Player(server.ws_url, offer["table"], t1) as again:
                again.recv_until("welcome")
            assert story(server, table_id) == [("joined_next", 1)]
