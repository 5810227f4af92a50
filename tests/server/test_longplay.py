"""Games over days (server/longplay.py, issue #57 part 4): a clock over days read back from the log
after a restart to the second, only the clock hands a move to the stand-in, the table's story survives
a restart, and a player's tables in one list (their own seat links only)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import httpx
import pytest
import server_toygame  # noqa: F401  (registers the test game here, where tables are forged)
from server_helpers import Player, ThreadServer, make_config, signup

from bodoge.core.registry import make
from bodoge.server import ServerConfig
from bodoge.server.longplay import load_story, save_story, seated_rows, stored_deadline, table_entry
from bodoge.server.storage import Append, Storage, TableRow
from bodoge.server.table.clock import reserves_after, spent
from bodoge.server.table.connection import hash_token

TURN, RESERVE = 3600, 7200
DAYS = {"turn_seconds": TURN, "reserve_seconds": RESERVE, "long": True}
TOKENS = ["seat-zero-token", "seat-one-token"]
HUMANS = [{"kind": "human", "name": "Aki"}, {"kind": "human", "name": "Ben"}]


def config(db: str, **limits: float) -> ServerConfig:
    made = make_config(db)
    for name, value in limits.items():
        setattr(made.limits, name, value)
    return made


def logged(db: str, sql: str) -> list[Any]:
    """The rows a query reads from the database, as a server wrote it."""
    storage = Storage(db)
    try:
        with storage.engine.connect() as conn:
            return list(conn.exec_driver_sql(sql).all())
    finally:
        storage.close()


def forge(
    db: str, table_id: str, made_at: float, took: list[float], clock: dict[str, Any] | None = DAYS
) -> list[int]:
    """A two-person highcard table written straight to the database: made at `made_at`, its first
    actions each taking `took[i]` seconds after the one before. Returns the seats that moved."""
    game = make("highcard", 2, tricks=3)
    state = game.new_state(seed=5)
    row = TableRow(
        id=table_id, game="highcard", rules_version=game.rules_version, players=2,
        options=game.options_json(), seed=5, seats=[dict(s) for s in HUMANS],
        token_hashes=[hash_token(t) for t in TOKENS], created_at=made_at, updated_at=made_at,
        settings={"clock": clock}, to_move=[0],
    )  # fmt: skip
    storage = Storage(db)
    seats, at, appends = [], made_at, []
    for seq, seconds in enumerate(took):
        seat = state.current_player
        assert seat is not None
        action = state.legal_actions()[0]
        state.apply(action)
        at += seconds
        after = [] if state.current_player is None else [state.current_player]
        appends.append(Append(table_id, seq, seat, action, at=at, to_move=after))
        seats.append(seat)
    try:
        storage.create_tables([row])
        if appends:
            storage.append_actions(appends)
    finally:
        storage.close()
    return seats


def summary(server: ThreadServer, table_id: str) -> dict[str, Any]:
    with server.http() as http:
        answer = http.get(f"/api/tables/{table_id}")
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def wait_for(check: Any, timeout: float = 30, what: str = "the table") -> Any:
    deadline = time.monotonic() + timeout
    while True:
        got = check()
        if got:
            return got
        assert time.monotonic() < deadline, f"{what} did not come within {timeout} s"
        time.sleep(0.05)


def on_loop(server: ThreadServer, coro: Any) -> Any:
    """Run a coroutine on the server's event loop (where its tables live)."""
    manager = server.server.config.app.state.manager
    return asyncio.run_coroutine_threadsafe(coro, manager.loop).result(30)


# -- the clock over days ---------------------------------------------------------------------------


def test_a_decision_spends_only_what_it_took_beyond_its_turn() -> None:
    assert spent(7200, 600, 3600) == 7200  # within the turn: the reserve is whole
    assert spent(7200, 5400, 3600) == 5400  # half an hour beyond it
    assert spent(7200, 3600 + 7200, 3600) == 0  # every second of both
    assert spent(7200, 99999, 3600) == 0  # past both: its stand-in moved; nothing is left, never less
    # Seat 0 took 1.5 h, seat 1 10 min, seat 0 3 h, a bot's seat 2 a day (not timed).
    logged = [(0, 5400.0), (1, 6000.0), (0, 16800.0), (2, 103200.0)]
    assert reserves_after(DAYS, [True, True, False], 0.0, logged) == [0.0, 7200.0, 7200.0]


@pytest.mark.parametrize(
    ("clock", "problem"),
    [
        ({"turn_seconds": 7200}, '"long": true'),  # hours a move, not declared
        ({"turn_seconds": 60, "reserve_seconds": 90000}, '"long": true'),
        ({"turn_seconds": 600, "long": True}, "an hour to a week"),
        ({"turn_seconds": 8 * 86400, "long": True}, "604800"),
        ({"turn_seconds": 86400, "reserve_seconds": 15 * 86400, "long": True}, "1209600"),
        ({"turn_seconds": 86400, "long": "yes"}, "boolean"),
    ],
)
def test_a_clock_over_days_is_declared_and_bounded(
    site: ThreadServer, clock: dict[str, Any], problem: str
) -> None:
    with site.http() as http:
        answer = http.post(
            "/api/tables", json={"game": "highcard", "players": 2, "seats": HUMANS, "clock": clock}
        )
        assert answer.status_code == 422, answer.text
        assert problem in " ".join(error["msg"] for error in answer.json()["detail"])
        good = http.post(
            "/api/tables",
            json={
                "game": "highcard",
                "players": 2,
                "seats": HUMANS,
                "clock": dict(DAYS, turn_seconds=7 * 86400),
            },
        )
        assert good.status_code == 201, good.text
        shown = good.json()["table"]["clock"]
        assert shown["long"] is True and shown["turn_seconds"] == 7 * 86400 and shown["running"]


def test_a_restart_goes_on_with_exactly_the_time_that_was_left(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'days.db'}"
    now = time.time()
    # Made three hours ago; seat 0 took an hour and a half (half an hour of reserve), seat 1 ten
    # minutes; the winner of that trick has been thinking for an hour and twenty minutes.
    made_at = now - 3 * 3600
    forge(db, "days", made_at, [5400, 600])
    last_at = made_at + 6000
    reserve = [RESERVE - 1800.0, float(RESERVE)]
    with ThreadServer(config(db)) as server:
        clock = summary(server, "days")["clock"]
        mover = clock["seat"]
        assert clock["running"] and clock["long"]  # nobody is connected: the time runs anyway
        assert clock["deadline"] == round(last_at + TURN + reserve[mover], 3)
        with Player(server.ws_url, "days", TOKENS[mover]) as me:
            seq = me.view_at_least(0)["seq"]
            legal = me.last["view"]["legal_actions"]  # type: ignore[index]
            me.send({"type": "action", "action": legal[0]["id"], "seq": seq})
            me.view_at_least(seq + 1)
        before = summary(server, "days")["clock"]
    (moved_at,) = logged(db, "SELECT at FROM bodoge_actions WHERE table_id = 'days' AND seq = 2")[0]
    # The move took from the last action to its own logged time: beyond the turn by this much.
    reserve[mover] = max(0.0, reserve[mover] - max(0.0, moved_at - last_at - TURN))
    other = 1 - mover
    assert before["seat"] == other
    assert before["deadline"] == round(moved_at + TURN + reserve[other], 3)
    with ThreadServer(config(db)) as server:
        after = summary(server, "days")["clock"]
    assert after["deadline"] == before["deadline"]  # to the millisecond, across the restart
    assert after["reserve_left"][mover] == before["reserve_left"][mover] == round(reserve[mover], 1)
    assert after["seat"] == other and after["running"]


def test_only_the_clock_hands_a_move_on_and_only_that_move(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'late.db'}"
    made_at = time.time() - 2 * 86400  # the trick's winner has not moved for two days
    forge(db, "late", made_at, [600, 600])
    # A server that abandons tables idle for an hour, and waits only a moment for the absent.
    with ThreadServer(config(db, idle_timeout=3600, unstarted_timeout=600, away_grace=0.2)) as server:
        # Nobody is connected: the stand-in makes the move that ran out of time, and only that one.
        table = wait_for(
            lambda: (t := summary(server, "late"))["moves"] == 3 and t, what="the stand-in's move"
        )
        assert table["status"] == "playing"  # over days a table is never idle: its clock moves it
        assert not table["paused"]
        assert [s["away"] for s in table["seats"]] == [False, False]  # the seat is its person's again
        told = [(e["what"], e["seat"], e.get("why")) for e in table["story"]]
        late = table["clock"]["seat"]
        assert told == [("away", 1 - late, "time")]
        time.sleep(1.0)  # well past the away grace: nobody else is handed to a stand-in
        again = summary(server, "late")
        assert again["moves"] == 3 and again["clock"]["running"] and again["clock"]["seat"] == late
        assert [e["what"] for e in again["story"]] == ["away"]
    standins = logged(db, "SELECT standin FROM bodoge_actions WHERE table_id = 'late' ORDER BY seq")
    assert [s[0] is not None for s in standins] == [False, False, True]
    # A restart tells it no second time (the story is stored; the move is logged).
    with ThreadServer(config(db)) as server:
        assert [e["what"] for e in summary(server, "late")["story"]] == ["away"]


def test_closing_the_page_is_no_absence_over_days(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'absent.db'}"
    with ThreadServer(config(db, away_grace=0.2)) as server, server.http() as http:
        made = {}
        for name, clock in (("days", DAYS), ("sitting", {"turn_seconds": 600})):
            answer = http.post(
                "/api/tables", json={"game": "highcard", "players": 2, "seats": HUMANS, "clock": clock}
            )
            assert answer.status_code == 201, answer.text
            made[name] = answer.json()
        for created in made.values():
            tokens = [s["token"] for s in created["seats"]]
            with Player(server.ws_url, created["id"], tokens[0]) as aki:
                aki.view_at_least(0)
                with Player(server.ws_url, created["id"], tokens[1]) as ben:
                    ben.view_at_least(0)
                time.sleep(0.8)  # Ben left: past the grace period
                assert summary(server, created["id"])["seats"][1]["away"] is (created is made["sitting"])
            time.sleep(0.3)
        days = summary(server, made["days"]["id"])
        sitting = summary(server, made["sitting"]["id"])
    # Nobody at either table now: a sitting waits for them, a game over days never does.
    assert sitting["paused"] and not sitting["clock"]["running"]
    assert not days["paused"] and days["clock"]["running"] and days["clock"]["deadline"] is not None
    assert [e["what"] for e in days["story"]] == ["left", "left"]  # told, but nobody is replaced


# -- the story --------------------------------------------------------------------------------------


def test_the_story_survives_a_restart(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'story.db'}"
    with ThreadServer(config(db)) as server, server.http() as http:
        created = http.post("/api/tables", json={"game": "highcard", "players": 2, "seats": HUMANS}).json()
        tokens = [s["token"] for s in created["seats"]]
        with Player(server.ws_url, created["id"], tokens[0]) as aki:
            aki.view_at_least(0)
            for _ in range(2):
                with Player(server.ws_url, created["id"], tokens[1]) as ben:
                    ben.view_at_least(0)
                wait_for(lambda: not summary(server, created["id"])["seats"][1]["connected"])
        # Aki leaves too: four entries.
        told = wait_for(
            lambda: len(s := summary(server, created["id"])["story"]) == 4 and s, what="the story"
        )
    assert [(e["what"], e["seat"]) for e in told] == [("left", 1), ("back", 1), ("left", 1), ("left", 0)]
    with ThreadServer(config(db)) as server:
        assert summary(server, created["id"])["story"] == told  # the same entries, where they were
        with Player(server.ws_url, created["id"], tokens[1]) as ben:
            ben.view_at_least(0)
            # Ben had left before the restart: his coming back is told, numbered on from the last.
            story = wait_for(lambda: len(s := summary(server, created["id"])["story"]) == 5 and s)
    assert (story[-1]["what"], story[-1]["seat"], story[-1]["n"]) == ("back", 1, told[-1]["n"] + 1)


def test_the_stored_story_keeps_the_newest_and_reads_back_in_order(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'kept.db'}"
    forge(db, "kept", time.time(), [], clock=None)
    storage = Storage(db)
    try:
        for n in range(1, 8):
            save_story(
                storage, "kept", {"n": n, "what": "left", "seat": n % 2, "seq": 0, "log": [0, 0, 0]}, 3
            )
        save_story(
            storage, "kept", {"n": 7, "what": "back", "seat": 1, "seq": 0, "log": [0, 0, 0]}, 3
        )  # again
        with storage.engine.begin() as conn:  # a row that is not an entry is left out, not fatal
            conn.exec_driver_sql(
                "INSERT INTO bodoge_story (table_id, n, entry) VALUES ('kept', 8, 'not json')"
            )
        assert [(e["n"], e["what"]) for e in load_story(storage, "kept")] == [
            (5, "left"),
            (6, "left"),
            (7, "back"),
        ]
    finally:
        storage.close()


# -- a player's tables --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    db = f"sqlite:///{tmp_path_factory.mktemp('mine') / 'bodoge.db'}"
    with ThreadServer(make_config(db)) as server:
        yield server


def seat_players(server: ThreadServer, seats: list[str | None], clock: dict[str, Any] | None = DAYS) -> str:
    """A highcard table whose seats are these players (None: a bot), made as an open table makes it."""
    app = server.server.config.app
    manager, players = app.state.manager, app.state.players
    from bodoge.server.tables import new_table_id

    table_id = new_table_id()
    chosen = [
        {"kind": "bot", "spec": "random"}
        if pid is None
        else {"kind": "human", "name": players.get(pid).name, "player": pid}
        for pid in seats
    ]
    hashes = [None if pid is None else hash_token(players.seat_key(pid, table_id)) for pid in seats]
    coro = manager.create(
        "highcard", 2, {}, chosen, "", {"clock": clock}, token_hashes=hashes, table_id=table_id
    )
    runtime, _tokens = on_loop(server, coro)
    return str(runtime.id)


def mine(server: ThreadServer, key: str | None, **params: Any) -> httpx.Response:
    headers = {} if key is None else {"Authorization": f"Bearer {key}"}
    with server.http() as http:
        return http.get("/api/me/tables", params=params, headers=headers)


def test_your_tables_need_a_player(site: ThreadServer) -> None:
    for key in (None, "forged-key", "x" * 500):
        answer = mine(site, key)
        assert answer.status_code == 401, answer.text
        assert "player" in answer.json()["detail"]


def test_your_tables_say_whose_move_and_give_only_your_own_seat(site: ThreadServer) -> None:
    ann, ann_key = signup(site, "Ann")
    bob, bob_key = signup(site, "Bob")
    players = site.server.config.app.state.players
    waiting = seat_players(site, [bob, ann])  # Bob starts: not Ann's move
    to_move = seat_players(site, [None, ann], clock=None)  # the bot starts, then it is Ann's move
    others = seat_players(site, [bob, None])  # not Ann's table at all
    wait_for(lambda: summary(site, to_move)["moves"] == 1, what="the bot's move")
    answer = mine(site, ann_key)
    assert answer.status_code == 200, answer.text
    listed = answer.json()
    assert [t["id"] for t in listed["tables"]] == [to_move, waiting]  # Ann's move first
    assert listed["your_move"] == 1 and listed["player"]["id"] == ann
    first, second = listed["tables"]
    assert (first["your_move"], first["to_move"], first["your_seats"], first["deadline"]) == (
        True,
        [1],
        [1],
        None,
    )
    assert (second["your_move"], second["to_move"], second["your_seats"]) == (False, [0], [1])
    assert second["clock"]["long"] and second["deadline"] == summary(site, waiting)["clock"]["deadline"]
    assert [s["name"] for s in second["seats"]] == ["Bob", "Ann"] and second["title"]["en"]
    for table in listed["tables"]:
        assert table["link"] == f"/t/{table['id']}#token={players.seat_key(ann, table['id'])}"
    # Never another player's seat: none of Bob's seat keys is anywhere in Ann's answer.
    for table_id in (waiting, to_move, others):
        assert players.seat_key(bob, table_id) not in answer.text
    # Ann's link opens Ann's seat, and only that.
    token = first["link"].split("#token=")[1]
    with Player(site.ws_url, to_move, token) as her:
        welcome = her.recv_until("welcome")
        assert welcome["seat"] == 1 and welcome["role"] == "player"
    bobs = mine(site, bob_key).json()
    assert {t["id"] for t in bobs["tables"]} == {waiting, others}
    assert bobs["your_move"] == 2  # his first move at both


def test_your_tables_are_bounded(site: ThreadServer) -> None:
    cho, key = signup(site, "Cho")
    made = [seat_players(site, [cho, None], clock=None) for _ in range(3)]
    assert len(mine(site, key).json()["tables"]) == 3
    assert len(mine(site, key, limit=2).json()["tables"]) == 2
    assert mine(site, key, limit=10**9).json()["limit"] == 100
    assert mine(site, key, limit=-5).json()["limit"] == 1
    assert mine(site, key, limit="many").status_code == 422
    # A finished or abandoned table is not in the list.
    on_loop(site, site.server.config.app.state.manager.tables[made[0]].abandon())
    assert {t["id"] for t in mine(site, key).json()["tables"]} == set(made[1:])


def test_your_tables_read_from_the_database_alone_say_the_same(site: ThreadServer) -> None:
    """Beside other processes a table may be in play elsewhere: its row's `to_move` and the log's
    times say what the game and the clock in memory say."""
    dan, key = signup(site, "Dan")
    eve, _ = signup(site, "Eve")
    table_id = seat_players(site, [eve, dan])
    manager = site.server.config.app.state.manager
    runtime = manager.tables[table_id]
    with Player(site.ws_url, table_id, site.server.config.app.state.players.seat_key(eve, table_id)) as her:
        seq = her.view_at_least(0)["seq"]
        her.send({"type": "action", "action": her.last["view"]["legal_actions"][0]["id"], "seq": seq})  # type: ignore[index]
        her.view_at_least(seq + 1)
    live = next(t for t in mine(site, key).json()["tables"] if t["id"] == table_id)
    assert live["your_move"] and live["to_move"] == [runtime.state.current_player] == [1]

    class Elsewhere:  # the same tables, none of them in play at this process
        tables: ClassVar[dict[str, Any]] = {}

    (row,) = [r for r in seated_rows(manager.storage, dan, 50) if r.id == table_id]
    stored = table_entry(Elsewhere(), row, dan, live["link"])  # type: ignore[arg-type]
    assert stored is not None and stored["to_move"] == [1] and stored["your_move"]
    assert stored_deadline(manager.storage, row, runtime.row.seats, [1]) == pytest.approx(
        live["deadline"], abs=0.001
    )
