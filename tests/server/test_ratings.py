"""Ratings, profiles and leaderboards (server/ratings.py, issue #57 part 3): the rules on plain data
(order, ties, anchors, stand-ins, games not rated), their record in the database (once, across a
restart and across workers), the game-end hook and the startup catch-up in a running app, and the
API's answers, hostile input included."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_helpers import make_config, signup
from sqlalchemy import select

from bodoge.core.registry import game_class, make
from bodoge.server import create_app
from bodoge.server import ratings as ratings_module
from bodoge.server.players import Players
from bodoge.server.ratings import (
    ANCHORS,
    NEWCOMER,
    NOT_REPLAYED,
    RATED,
    STANDIN,
    TOO_FEW,
    TWO_SEATS,
    UNRATED,
    Ratings,
    Role,
    history_table,
    judge,
    rate,
    rated_table,
    ratings_table,
    stand_in_of,
)
from bodoge.server.storage import Append, Storage, TableRow, actions_table
from bodoge.server.table.connection import hash_token
from bodoge.server.table.views import places


def person(pid: str | None) -> dict[str, Any]:
    seat: dict[str, Any] = {"kind": "human", "name": f"N{pid}"}
    if pid is not None:
        seat["player"] = pid
    return seat


def bot(spec: str) -> dict[str, Any]:
    return {"kind": "bot", "name": spec, "spec": spec}


# -- the rules on plain data ----------------------------------------------------------------------


def test_the_order_moves_ratings_the_right_way() -> None:
    roles, reason = judge([person("a"), person("b"), person("c")], [])
    assert reason is None and all(r.rated for r in roles)
    new = rate(roles, [1, 2, 3], {})
    assert new["a"].mu > NEWCOMER.mu > new["c"].mu
    assert new["a"].mu > new["b"].mu > new["c"].mu
    assert all(s.sigma < NEWCOMER.sigma for s in new.values())  # every game firms the estimates up
    # The order counts, not the seat: the same game the other way round moves them the other way.
    back = rate(roles, [3, 2, 1], {})
    assert back["c"].mu == pytest.approx(new["a"].mu) and back["a"].mu == pytest.approx(new["c"].mu)


def test_shared_places_tie() -> None:
    roles, _ = judge([person("a"), person("b"), person("c")], [])
    new = rate(roles, [1, 1, 3], {})
    assert new["a"] == new["b"] and new["a"].mu > NEWCOMER.mu > new["c"].mu
    level = rate(roles[:2], [1, 1], {"a": NEWCOMER, "b": NEWCOMER})
    assert level["a"].mu == pytest.approx(NEWCOMER.mu)


def test_a_better_rated_player_gains_less_for_the_same_win() -> None:
    roles, _ = judge([person("a"), person("b")], [])
    strong, weak = rate(roles, [1, 2], {"a": ANCHORS["ismcts"]}), rate(roles, [1, 2], {})
    assert 0 < strong["a"].mu - ANCHORS["ismcts"].mu < weak["a"].mu - NEWCOMER.mu


def test_bots_are_fixed_anchors_by_their_kind() -> None:
    seats = [person("a"), person("b"), bot("heuristic")]
    roles, reason = judge(seats, [(2, None)])
    assert reason is None
    assert roles[2] == Role(None, False, ANCHORS["heuristic"], UNRATED)
    # A bot's parameters do not change its kind's anchor; an unknown kind plays as a newcomer.
    assert judge([person("a"), bot("ismcts:iterations=50")], [])[0][1].fixed == ANCHORS["ismcts"]
    assert judge([person("a"), bot("someday")], [])[0][1].fixed == NEWCOMER
    before = dict(ANCHORS)
    new = rate(roles, [2, 3, 1], {})
    assert set(new) == {"a", "b"} and before == ANCHORS
    # Losing to the heuristic bot costs less than losing to the random bot; beating it gains more.
    weaker, _ = judge([person("a"), person("b"), bot("random")], [])
    assert rate(roles, [2, 3, 1], {})["a"].mu > rate(weaker, [2, 3, 1], {})["a"].mu
    assert rate(roles, [1, 3, 2], {})["a"].mu > rate(weaker, [1, 3, 2], {})["a"].mu


def test_a_person_without_a_player_id_plays_as_a_fixed_newcomer() -> None:
    roles, reason = judge([person("a"), person("b"), person(None)], [])
    assert reason is None and roles[2] == Role(None, False, NEWCOMER, UNRATED)
    assert set(rate(roles, [3, 2, 1], {})) == {"a", "b"}


def test_the_stand_in_rule() -> None:
    # More than half of the seat's decisions by its stand-in: the stand-in played it.
    assert stand_in_of(1, [(0, None), (1, "heuristic"), (1, "heuristic"), (1, None)]) == "heuristic"
    # Exactly half, or fewer: the person did.
    assert stand_in_of(1, [(1, "heuristic"), (1, None)]) is None
    assert stand_in_of(1, [(1, "random"), (1, None), (1, None)]) is None
    assert stand_in_of(1, []) is None  # a seat with no decision at all: its person's
    # Other seats' stand-in moves say nothing of this seat.
    assert stand_in_of(0, [(1, "heuristic")] * 5 + [(0, None)]) is None
    moves = [(0, None), (1, "random"), (1, "random"), (2, None), (1, None)]
    roles, reason = judge([person("a"), person("b"), person("c")], moves)
    assert reason is None
    assert roles[1] == Role("b", False, ANCHORS["random"], STANDIN)
    assert [r.rated for r in roles] == [True, False, True]
    new = rate(roles, [1, 2, 3], {})
    assert set(new) == {"a", "c"}  # b's rating does not change


def test_games_that_are_not_rated() -> None:
    # One person left to rate: the other's seat was played by the stand-in.
    roles, reason = judge([person("a"), person("b"), bot("random")], [(1, "heuristic")])
    assert reason == TOO_FEW
    assert [r.counted for r in roles] == [UNRATED, STANDIN, UNRATED] and not any(r.rated for r in roles)
    assert judge([person("a"), bot("random"), person(None)], [])[1] == TOO_FEW
    # One player at two seats: nobody is rated.
    roles, reason = judge([person("a"), person("a"), person("b")], [])
    assert reason == TWO_SEATS and not any(r.rated for r in roles)


# -- in the database ------------------------------------------------------------------------------


def storage_at(tmp_path: Path, name: str = "r.db") -> Storage:
    return Storage(f"sqlite:///{tmp_path / name}")


def finished(
    storage: Storage,
    seats: list[dict[str, Any]],
    *,
    table_id: str,
    seed: int = 0,
    game: str = "hangover",
    standin: dict[int, str] | None = None,
    end: bool = True,
) -> list[int]:
    """A game of `game` played by random moves, written to `storage` as a finished table (or, with
    end=False, one left halfway); `standin`: seats whose every move a stand-in made. Returns the
    seats' places."""
    g = make(game, len(seats))
    state = g.new_state(seed=seed)
    rng = random.Random(seed)
    moves = []
    while state.current_player is not None:
        action = rng.choice(state.legal_actions())
        moves.append((state.current_player, action))
        state.apply(action)
    if not end:
        moves = moves[: len(moves) // 2]
    now = time.time()
    row = TableRow(
        id=table_id, game=game, rules_version=g.rules_version, players=len(seats),
        options=g.options_json(), seed=seed, seats=seats, token_hashes=[None] * len(seats),
        created_at=now, updated_at=now,
    )  # fmt: skip
    storage.create_tables([row])
    result = {"scores": state.scores(), "winners": state.winners()}
    by = standin or {}
    storage.append_actions(
        [
            Append(table_id, i, s, a, result if end and i == len(moves) - 1 else None, by.get(s))
            for i, (s, a) in enumerate(moves)
        ]
    )
    return places(state)


def rows(storage: Storage, table: Any, **where: Any) -> list[Any]:
    query = select(table)
    for name, value in where.items():
        query = query.where(table.c[name] == value)
    with storage.engine.connect() as conn:
        return list(conn.execute(query).all())


def test_a_finished_table_is_rated_once(tmp_path: Path) -> None:
    storage = storage_at(tmp_path)
    place = finished(storage, [person("a"), person("b"), bot("heuristic")], table_id="t1")
    ratings = Ratings(storage)
    assert [table_id for _, table_id in ratings.pending()] == ["t1"]
    assert ratings.rate_table("t1") == "rated"
    assert ratings.rate_table("t1") == "done" and ratings.pending() == []
    got = {r.player: r for r in rows(storage, ratings_table)}
    assert set(got) == {"a", "b"}  # never a bot
    assert all(r.games == 1 and r.game == "hangover" for r in got.values())
    better, worse = sorted("ab", key=lambda p: place["ab".index(p)])
    if place[0] != place[1]:
        assert got[better].mu > got[worse].mu
    history = {r.player: r for r in rows(storage, history_table, table_id="t1")}
    assert [history[p].place for p in "ab"] == place[:2]
    assert all(h.counted == RATED and h.ordinal == pytest.approx(got[p].ordinal) for p, h in history.items())
    # After a restart (a new Storage and Ratings on the same file), it stays rated once.
    storage.close()
    again = storage_at(tmp_path)
    assert Ratings(again).rate_table("t1") == "done"
    assert len(rows(again, history_table)) == 2 and rows(again, ratings_table)[0].games == 1
    again.close()


def test_rating_at_once_from_many_workers_rates_once(db_url: str) -> None:
    storage = Storage(db_url)  # SQLite, and PostgreSQL where the tests have one (conftest.py)
    finished(storage, [person("a"), person("b"), person("c")], table_id="t1", seed=3)
    # Each worker its own Ratings (as separate processes would have): only the key orders them.
    workers = [Ratings(storage) for _ in range(4)]
    outcomes: list[str] = []
    threads = [threading.Thread(target=lambda r=r: outcomes.append(r.rate_table("t1"))) for r in workers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(outcomes) == ["done", "done", "done", "rated"]
    assert [r.games for r in rows(storage, ratings_table)] == [1, 1, 1]
    assert len(rows(storage, rated_table)) == 1
    storage.close()


def test_ratings_follow_the_games_in_order(tmp_path: Path) -> None:
    storage = storage_at(tmp_path)
    players = Players(storage.engine)
    a, b = players.create("Ann")[0].id, players.create("Bo")[0].id
    ratings = Ratings(storage)
    for i in range(4):
        finished(storage, [person(a), person(b), bot("random")], table_id=f"t{i}", seed=i)
        assert ratings.rate_table(f"t{i}") == "rated"
    assert rows(storage, ratings_table, player=a)[0].games == 4
    points = ratings.history(a, "hangover", 100)
    assert points is not None and [p["table"] for p in points] == ["t0", "t1", "t2", "t3"]
    assert points[-1]["ordinal"] == pytest.approx(rows(storage, ratings_table, player=a)[0].ordinal)
    assert [p["table"] for p in ratings.history(a, "hangover", 2) or []] == ["t2", "t3"]  # the newest
    # Each game's change on the profile is the step from the point before, in that game.
    profile = ratings.profile(a, 3)
    assert (
        profile is not None
        and profile["more"]
        and [g["table"] for g in profile["games"]] == ["t3", "t2", "t1"]
    )
    assert [g["change"] for g in profile["games"]] == pytest.approx(
        [points[i]["ordinal"] - points[i - 1]["ordinal"] for i in (3, 2, 1)]
    )
    assert ratings.history("nobody", None, 10) is None and ratings.profile("nobody", 10) is None
    storage.close()


def test_stand_in_moves_are_logged_and_follow_the_rule(tmp_path: Path) -> None:
    storage = storage_at(tmp_path)
    finished(storage, [person("a"), person("b"), person("c")], table_id="t1", standin={2: "heuristic"})
    logged = rows(storage, actions_table, table_id="t1")
    assert {r.standin for r in logged if r.seat == 2} == {"heuristic"}
    assert {r.standin for r in logged if r.seat != 2} == {None}
    assert Ratings(storage).rate_table("t1") == "rated"
    assert {r.player for r in rows(storage, ratings_table)} == {"a", "b"}
    c = rows(storage, history_table, player="c")[0]
    assert c.counted == STANDIN and c.ordinal is None  # listed, marked, not rated
    # With only one person left to rate, the game is rated for nobody.
    finished(storage, [person("a"), person("b"), bot("random")], table_id="t2", standin={1: "heuristic"})
    assert Ratings(storage).rate_table("t2") == "unrated"
    assert rows(storage, rated_table, table_id="t2")[0].reason == TOO_FEW
    assert rows(storage, ratings_table, player="a")[0].games == 1
    storage.close()


def test_the_catch_up_moves_past_tables_that_only_look_identified(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A seat *named* "player" makes a table's seats read as identified to the catch-up's query, but
    the rules leave it unrated without a row: more such tables than a batch once made the catch-up
    ask for the same batch forever. It pages on, and rates the real table after them."""
    storage = storage_at(tmp_path)
    for i in range(5):
        finished(
            storage, [{"kind": "human", "name": "player"}, person(None), bot("random")], table_id=f"x{i}"
        )
    finished(storage, [person("a"), person("b"), bot("random")], table_id="real")
    ratings = Ratings(storage)
    monkeypatch.setattr(ratings_module, "CATCH_UP_BATCH", 2)

    class Manager:
        closing = False

        async def off_loop(self, fn: Any, *args: Any) -> Any:
            await asyncio.sleep(0)  # a real await, as a worker thread's: a spinning catch-up times out
            return fn(*args)

    asyncio.run(asyncio.wait_for(ratings_module._catch_up(Manager(), ratings), timeout=30))  # type: ignore[arg-type]
    assert ratings.is_rated("real")
    assert [table_id for _, table_id in ratings.pending()] == [f"x{i}" for i in range(5)]  # still unrated
    storage.close()


def test_abandoned_and_anonymous_games_are_not_rated(tmp_path: Path) -> None:
    storage = storage_at(tmp_path)
    finished(storage, [person("a"), person("b"), person("c")], table_id="gone", end=False)
    storage.abandon("gone")
    finished(storage, [person(None), person(None), bot("random")], table_id="anon")
    ratings = Ratings(storage)
    assert ratings.pending() == []  # neither waits to be rated
    assert ratings.rate_table("gone") == "not over" and ratings.rate_table("anon") == "unrated"
    assert ratings.rate_table("nope") == "not over"
    assert rows(storage, history_table) == [] and rows(storage, ratings_table) == []
    storage.close()


def test_a_log_that_does_not_replay_is_listed_but_not_rated(tmp_path: Path) -> None:
    storage = storage_at(tmp_path)
    finished(storage, [person("a"), person("b"), person("c")], table_id="t1")
    with storage.engine.begin() as conn:  # its last action lost: it no longer reaches the end
        conn.execute(actions_table.delete().where(actions_table.c.seq == 0))
    assert Ratings(storage).rate_table("t1") == "unrated"
    assert rows(storage, rated_table)[0].reason == NOT_REPLAYED
    assert {r.counted for r in rows(storage, history_table)} == {UNRATED}
    storage.close()


def test_an_older_database_gains_the_stand_in_column(tmp_path: Path) -> None:
    storage_at(tmp_path).close()
    with sqlite3.connect(tmp_path / "r.db") as db:
        db.execute("ALTER TABLE bodoge_actions DROP COLUMN standin")
    storage = storage_at(tmp_path)
    finished(storage, [person("a"), person("b"), bot("random")], table_id="t1", standin={1: "random"})
    assert {r.standin for r in rows(storage, actions_table) if r.seat == 1} == {"random"}
    storage.close()


# -- in a running app -----------------------------------------------------------------------------


@pytest.fixture
def app_client(tmp_path: Path) -> Iterator[TestClient]:
    config = make_config(f"sqlite:///{tmp_path / 'app.db'}", bot_delay=0.0)
    with TestClient(create_app(config)) as client:
        yield client


def wait_for(check: Any, timeout: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError("not within the time")
        time.sleep(0.05)


def identified_table(client: TestClient, pids: list[str], bots: list[str], game: str = "hangover") -> Any:
    """A table (made as server/seating.py makes one) with these players' seats, then these bots."""
    app = client.app
    manager, players = app.state.manager, app.state.players  # type: ignore[attr-defined]
    from bodoge.server.tables import new_table_id

    tid = new_table_id()
    seats = [{"kind": "human", "name": f"N{i}", "player": p} for i, p in enumerate(pids)]
    seats += [bot(spec) for spec in bots]
    hashes = [hash_token(players.seat_key(p, tid)) for p in pids] + [None] * len(bots)

    async def create() -> Any:
        runtime, _tokens = await manager.create(
            game, len(seats), {}, seats, token_hashes=hashes, table_id=tid
        )
        return runtime

    return client.portal.call(create)  # type: ignore[union-attr]


def play_people(client: TestClient, runtime: Any, seats: set[int], seed: int = 1) -> None:
    """Play `seats` with random legal moves (the bots and stand-ins play the others) to the end."""
    rng = random.Random(seed)
    deadline = time.monotonic() + 60
    while not runtime.state.is_terminal:
        assert time.monotonic() < deadline, "the game did not end"
        seat = runtime.state.current_player
        if seat in seats:
            action = rng.choice(runtime.state.legal_actions())
            client.portal.call(runtime.submit, seat, action)  # type: ignore[union-attr]
        else:
            time.sleep(0.01)


def test_a_game_that_ends_rates_its_people_and_shows_on_their_profiles(app_client: TestClient) -> None:
    (aki, aki_key), (ben, ben_key) = signup(app_client, "Aki"), signup(app_client, "Ben")
    runtime = identified_table(app_client, [aki, ben], ["heuristic"])
    play_people(app_client, runtime, {0, 1})
    place = places(runtime.state)
    profile = wait_for(lambda: (p := app_client.get(f"/api/players/{aki}").json())["games"] and p)
    assert profile["player"] == {"id": aki, "name": "Aki", "lang": "en", "since": profile["player"]["since"]}
    [game] = profile["games"]
    assert game["table"] == runtime.id and game["place"] == place[0] and game["counted"] == RATED
    assert game["replay"] == f"/r/{runtime.id}" and game["review"] is None
    assert game["title"] == dict(game_class("hangover").title) and game["players"] == 3
    assert [s.get("player") for s in game["seats"]] == [aki, ben, None]
    assert game["seats"][2] == {"name": "heuristic", "kind": "bot", "spec": "heuristic"}
    [rating] = profile["ratings"]
    assert rating["games"] == 1 and rating["ordinal"] == pytest.approx(rating["mu"] - 3 * rating["sigma"])
    assert rating["low"] == pytest.approx(rating["mu"] - 2 * rating["sigma"])
    assert game["change"] == pytest.approx(rating["ordinal"] - NEWCOMER.ordinal)
    # Ben's profile has the same game; the leaderboard lists both, best first.
    assert app_client.get(f"/api/players/{ben}").json()["games"][0]["table"] == runtime.id
    board = app_client.get("/api/leaderboard/hangover").json()
    assert [p["player"]["id"] for p in board["players"]] == sorted(
        [aki, ben], key=lambda p: -next(r for r in board["players"] if r["player"]["id"] == p)["ordinal"]
    )
    assert [p["rank"] for p in board["players"]] == [1, 2]
    assert {a["bot"] for a in board["anchors"]} == set(ANCHORS)
    history = app_client.get(f"/api/players/{aki}/history", params={"game": "hangover"}).json()
    assert [p["table"] for p in history["points"]] == [runtime.id]
    # Nothing in any of it is a key, a seat key or a token's hash.
    said = json.dumps([profile, board, history, app_client.get(f"/api/players/{ben}").json()])
    players = app_client.app.state.players  # type: ignore[attr-defined]
    for secret in (
        aki_key,
        ben_key,
        players.seat_key(aki, runtime.id),
        *filter(None, runtime.row.token_hashes),
    ):
        assert secret not in said


def test_stand_in_play_in_a_running_game_is_logged_and_not_counted(app_client: TestClient) -> None:
    ids = [signup(app_client, name)[0] for name in ("Cho", "Dai", "Eri")]
    runtime = identified_table(app_client, ids, [])
    # Cho is at the table; Eri is out of time from the start: her stand-in plays every move of hers.
    portal = app_client.portal
    assert portal is not None
    portal.call(_async, runtime.presence.heard_here, "another", [0], 0)
    portal.call(_async, runtime.presence.ran_out, 2)
    play_people(app_client, runtime, {0, 1}, seed=4)
    storage = runtime.manager.storage
    wait_for(lambda: rows(storage, rated_table, table_id=runtime.id))
    assert {r.standin for r in rows(storage, actions_table, table_id=runtime.id) if r.seat == 2} == {
        "heuristic"
    }
    eri = app_client.get(f"/api/players/{ids[2]}").json()
    assert eri["games"][0]["counted"] == STANDIN and eri["ratings"] == []
    assert [r["games"] for r in app_client.get(f"/api/players/{ids[0]}").json()["ratings"]] == [1]


async def _async(fn: Any, *args: Any) -> None:
    fn(*args)


def test_a_server_rates_at_start_what_finished_unrated(tmp_path: Path) -> None:
    db = tmp_path / "start.db"
    storage = Storage(f"sqlite:///{db}")
    players = Players(storage.engine)
    a, _ = players.create("Fumi")
    b, _ = players.create("Goro")
    finished(storage, [person(a.id), person(b.id), bot("random")], table_id="early", seed=5)
    storage.close()
    with TestClient(create_app(make_config(f"sqlite:///{db}"))) as client:
        profile = wait_for(lambda: (p := client.get(f"/api/players/{a.id}").json())["ratings"] and p)
        assert profile["games"][0]["table"] == "early"
    # And the next start does not rate it again.
    with TestClient(create_app(make_config(f"sqlite:///{db}"))) as client:
        wait_for(lambda: client.app.state.ratings_catch_up.done())  # type: ignore[attr-defined]
        assert client.get(f"/api/players/{b.id}").json()["ratings"][0]["games"] == 1


def test_a_deleted_player_leaves_the_leaderboard_and_their_games_stay(app_client: TestClient) -> None:
    (hana, hana_key), (ito, _) = signup(app_client, "Hana"), signup(app_client, "Ito")
    runtime = identified_table(app_client, [hana, ito], ["random"])
    play_people(app_client, runtime, {0, 1}, seed=2)
    wait_for(lambda: len(app_client.get("/api/leaderboard/hangover").json()["players"]) == 2)
    assert app_client.delete("/api/me", headers={"Authorization": f"Bearer {hana_key}"}).status_code == 204
    board = app_client.get("/api/leaderboard/hangover").json()
    assert [p["player"]["id"] for p in board["players"]] == [ito]
    assert app_client.get(f"/api/players/{hana}").status_code == 404
    [game] = app_client.get(f"/api/players/{ito}").json()["games"]
    assert game["seats"][0]["name"] == "a former player"


# -- the API's answers to anything ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/api/players/nobody", 404),
        ("/api/players/" + "x" * 17, 404),
        ("/api/players/a%20b", 404),
        ("/api/players/abc?limit=0", 422),
        ("/api/players/abc?limit=201", 422),
        ("/api/players/abc?limit=99999999999999999999999", 422),
        ("/api/players/abc?limit=ten", 422),
        ("/api/players/abc/history?game=chess", 404),
        ("/api/players/abc/history?limit=1001", 422),
        ("/api/players/abc/history?game=" + "g" * 65, 422),
        ("/api/leaderboard/chess", 404),
        ("/api/leaderboard/hangover?limit=101", 422),
        ("/api/leaderboard/hangover?limit=-1", 422),
    ],
)
def test_bad_requests_are_told_what_is_allowed(app_client: TestClient, path: str, status: int) -> None:
    answer = app_client.get(path)
    assert answer.status_code == status, answer.text
    detail = answer.json()["detail"]
    assert detail
    if status == 404 and "chess" in path:
        assert "hangover" in detail  # the games that are


def test_an_empty_leaderboard_and_a_new_player(app_client: TestClient) -> None:
    board = app_client.get("/api/leaderboard/troika", params={"limit": 100}).json()
    assert board["players"] == [] and board["title"] == dict(game_class("troika").title)
    pid, _ = signup(app_client, "Jun")
    assert app_client.get(f"/api/players/{pid}").json()["ratings"] == []
    assert app_client.get(f"/api/players/{pid}/history").json()["points"] == []


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    who=st.text(max_size=30),
    game=st.text(max_size=70),
    limit=st.one_of(st.integers(-(10**30), 10**30).map(str), st.text(max_size=12)),
)
def test_fuzzed_queries_never_fail_the_server(
    app_client: TestClient, who: str, game: str, limit: str
) -> None:
    who_, game_ = quote(who, safe=""), quote(game, safe="")
    for path, params in (
        (f"/api/players/{who_}", {"limit": limit}),
        (f"/api/players/{who_}/history", {"game": game, "limit": limit}),
        (f"/api/leaderboard/{game_}", {"limit": limit}),
    ):
        answer = app_client.get(path, params=params)
        assert answer.status_code in (200, 404, 405, 422), (path, params, answer.status_code)
        assert answer.headers["content-type"].startswith("application/json") or answer.status_code == 404
