"""The server's HTTP API and table websocket, on SQLite and (when given) PostgreSQL.

Most checks use the test game `highcard` (hidden hands, known exactly); the last ones play every
real game through the websocket.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from server_helpers import (
    TOY,
    Player,
    ThreadServer,
    assert_views_exact,
    create_table,
    make_config,
    play_together,
    players,
    real_games,
)
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

import bodoge
from bodoge.server.storage import Storage

HUMAN = {"kind": "human"}


def bot(spec: str) -> dict[str, Any]:
    return {"kind": "bot", "spec": spec}


# -- the lobby API ----------------------------------------------------------------------------------


def test_games_agents_and_pages(server: ThreadServer) -> None:
    with server.http() as http:
        games = http.get("/api/games").json()
        assert [g["name"] for g in games] == bodoge.games()
        for g in games:
            assert set(g["title"]) >= {"en", "ja"} and set(g["rules"]) >= {"en", "ja"}
            assert g["min_players"] <= g["default_players"] <= g["max_players"]
            json.dumps(g["options"])
        for name in real_games():
            rules = next(g for g in games if g["name"] == name)["rules"]
            assert rules["en"].strip() and rules["ja"].strip(), f"{name} has no rules summary"
        assert "random" in http.get("/api/agents").json()
        for path in ("/", "/t/whatever", "/static/table.js", "/static/lobby.js", "/static/app.css"):
            assert http.get(path).status_code == 200, path
        assert http.get("/api/tables/nope").status_code == 404
        assert http.get("/api/tables/nope/record").status_code == 404


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"game": "nope", "players": 2, "seats": [HUMAN, HUMAN]}, 400),
        ({"game": TOY, "players": 9, "seats": [HUMAN] * 9}, 400),
        ({"game": TOY, "players": 3, "seats": [HUMAN, HUMAN]}, 400),
        ({"game": TOY, "players": 2, "options": {"tricks": 99}, "seats": [HUMAN, HUMAN]}, 400),
        ({"game": TOY, "players": 2, "options": {"nope": 1}, "seats": [HUMAN, HUMAN]}, 400),
        ({"game": TOY, "players": 2, "seats": [HUMAN, bot("no-such-agent")]}, 400),
        ({"game": TOY, "players": 2, "seats": [HUMAN, bot("random:nope=1")]}, 400),
        ({"game": "troika", "players": 2, "seats": [HUMAN, bot("nn")]}, 400),  # no model for 2 players
        ({"game": TOY, "players": 2, "seats": [HUMAN, {"kind": "alien"}]}, 422),
        ({"game": TOY, "players": 2, "seats": [HUMAN, {"kind": "human", "name": "x" * 41}]}, 422),
        ({"game": TOY, "players": 2}, 422),
    ],
)
def test_create_rejects_bad_tables(server: ThreadServer, body: dict[str, Any], status: int) -> None:
    with server.http() as http:
        response = http.post("/api/tables", json=body)
        assert response.status_code == status, response.text
        assert http.get("/api/tables").json() == {"open": [], "recent": []}


def test_a_table_seats_the_nn_bot_where_a_model_is_shipped(server: ThreadServer) -> None:
    with server.http() as http:
        created = create_table(http, "troika", [HUMAN, bot("nn"), bot("nn:temperature=0.5")])
        assert [s.get("spec") for s in created["seats"]][1:] == ["nn", "nn:temperature=0.5"]
        refused = http.post("/api/tables", json={"game": "troika", "players": 5, "seats": [bot("nn")] * 5})
        assert refused.status_code == 400 and "3, 4 players" in refused.text


def test_tokens_are_128_random_bits_stored_hashed(server: ThreadServer, db_url: str) -> None:
    with server.http() as http:
        created = create_table(http, TOY, [HUMAN, {"kind": "human", "name": "Ann"}, bot("random")])
        summary = http.get(f"/api/tables/{created['id']}").json()
    tokens = [s["token"] for s in created["seats"] if "token" in s]
    assert len(tokens) == 2 and len(set(tokens)) == 2
    assert "token" not in created["seats"][2]
    for token in tokens:
        assert len(base64.urlsafe_b64decode(token + "==")) == 16
    assert created["seats"][1]["name"] == "Ann"
    assert created["seats"][0]["join_url"] == f"/t/{created['id']}#token={tokens[0]}"
    # Nothing public tells the seed or the tokens.
    text = json.dumps(summary)
    assert "seed" not in summary and "token" not in text and "hash" not in text
    storage = Storage(db_url)
    try:
        row = storage.load_table(created["id"])
    finally:
        storage.close()
    assert row is not None
    assert row.token_hashes == [hashlib.sha256(t.encode()).hexdigest() for t in tokens] + [None]
    assert not any(token in json.dumps(row.to_db()) for token in tokens)


def test_tables_made_at_once_are_set_up_a_few_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A crowd of creations is set up TableManager.CREATING at a time, so that the moves of the
    tables in play wait less between their steps; every one of them is made, and listed."""
    from bodoge.server import tables
    from bodoge.server.guard import Limits

    inside = most = 0
    count = threading.Lock()
    set_up = tables._set_up

    def slow_set_up(*args: Any) -> Any:
        nonlocal inside, most
        with count:
            inside += 1
            most = max(most, inside)
        try:
            time.sleep(0.05)  # long enough for the other creations to be waiting
            return set_up(*args)
        finally:
            with count:
                inside -= 1

    monkeypatch.setattr(tables, "_set_up", slow_set_up)
    config = make_config(f"sqlite:///{tmp_path / 'crowd.db'}", limits=Limits(create_rate="1000/minute"))

    with ThreadServer(config) as live, ThreadPoolExecutor(12) as pool:

        def make(_: int) -> str:
            with live.http() as http:
                return str(create_table(http, TOY, [HUMAN, HUMAN])["id"])

        made = list(pool.map(make, range(12)))
        with live.http() as http:
            listed = {t["id"] for t in http.get("/api/tables", params={"limit": 200}).json()["open"]}
    assert len(set(made)) == 12 and set(made) <= listed
    assert most == tables.TableManager.CREATING


# -- the table websocket ----------------------------------------------------------------------------


def test_seats_get_exactly_their_views(server: ThreadServer) -> None:
    with server.http() as http:
        created = create_table(http, TOY, [HUMAN, bot("snoop"), bot("random")])
        table_id, token = created["id"], created["seats"][0]["token"]
        with players(server.ws_url, table_id, [token, None]) as (me, spectator):
            welcome = me.recv_until("welcome")
            assert welcome["seat"] == 0 and welcome["role"] == "player"
            assert spectator.recv_until("welcome")["seat"] is None
            assert http.get(f"/api/tables/{table_id}/record").status_code == 409
            final = me.play(random.Random(1))
            spectator.view_at_least(final["seq"])
            assert final["view"]["is_terminal"]
            record = http.get(f"/api/tables/{table_id}/record").json()
        assert_views_exact(me, record, 0)
        assert_views_exact(spectator, record, None)
        assert all("hand" not in v for v in spectator.views.values())
        assert bodoge.replay(record).view(0) == final["view"]
        assert not me.errors and not spectator.errors


def test_bad_messages_get_errors_and_change_nothing(server: ThreadServer) -> None:
    with server.http() as http:
        created = create_table(http, TOY, [HUMAN, HUMAN, HUMAN])
    tokens = [s["token"] for s in created["seats"]]
    table_id = created["id"]
    with players(server.ws_url, table_id, [tokens[0], tokens[1], None, "forged-token"]) as conns:
        p0, p1, spectator, forged = conns
        for conn in conns:
            conn.view_at_least(0)
        assert forged.errors and forged.errors[0]["code"] == "bad_token"
        assert next(m for m in forged.messages if m["type"] == "welcome")["seat"] is None
        hand = p0.last["view"]["hand"]  # type: ignore[index]
        not_in_hand = next(c for c in range(1, 13) if c not in hand)

        def refused(conn: Player, message: dict[str, Any] | str, code: str) -> dict[str, Any]:
            conn.send(message)
            error = conn.recv_until("error", timeout=10)
            assert error["code"] == code, error
            return error

        refused(p1, {"type": "action", "action": 0, "seq": 0}, "not_your_turn")
        refused(spectator, {"type": "action", "action": hand[0] - 1}, "spectator")
        refused(forged, {"type": "action", "action": hand[0] - 1}, "spectator")
        refused(p0, "not json", "malformed")
        refused(p0, "[1, 2]", "malformed")
        refused(p0, {"type": "action", "action": str(hand[0] - 1)}, "malformed")
        refused(p0, {"type": "action", "action": True}, "malformed")
        refused(p0, {"type": "action", "action": 1.5}, "malformed")
        refused(p0, {"type": "action", "action": hand[0] - 1, "seq": "0"}, "malformed")
        refused(p0, {"type": "teleport"}, "malformed")
        refused(p0, {"type": "hello", "token": tokens[1]}, "malformed")
        refused(p0, {"type": "action", "action": hand[0] - 1, "pad": "x" * 5000}, "too_large")
        error = refused(p0, {"type": "action", "action": not_in_hand - 1}, "illegal")
        assert all(str(c - 1) in error["message"] for c in hand)  # its own legal actions only
        refused(p0, {"type": "action", "action": -1}, "illegal")
        refused(p0, {"type": "action", "action": 10**30}, "illegal")
        refused(p0, {"type": "action", "action": hand[0] - 1, "seq": 5}, "stale")
        p0.ws.send(b"\x00binary")
        assert p0.recv_until("error", timeout=10)["code"] == "malformed"
        # The other seats' errors say nothing of seat 0's hand.
        for e in p1.errors + spectator.errors + forged.errors:
            assert "legal" not in e["message"]
        # Nothing changed: no new view anywhere, and the game goes on from move 0.
        for conn in conns:
            assert not [m for m in conn.quiet(0.3) if m["type"] == "view"]
            assert conn.last is not None and conn.last["seq"] == 0
        p0.send({"type": "action", "action": hand[0] - 1, "seq": 0})
        for conn in conns:
            assert conn.view_at_least(1)["seq"] == 1
        p0.send({"type": "ping"})
        assert p0.recv_until("pong")["seq"] == 1
        # A frame beyond the websocket limit closes that connection; the table carries on.
        p1.ws.send("x" * 100_000)
        with pytest.raises(ConnectionClosed):
            p1.quiet(5)
            p1.recv(5)
    with Player(server.ws_url, table_id, tokens[1]) as again:
        assert again.view_at_least(1)["view"]["legal_actions"]


def test_unknown_table_and_missing_hello(server: ThreadServer) -> None:
    with connect(f"{server.ws_url}/ws/tables/no-such-table", open_timeout=10) as ws:
        assert json.loads(ws.recv(timeout=10))["code"] == "no_table"
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=5)
        assert ws.close_code == 4404
    with server.http() as http:
        table_id = create_table(http, TOY, [HUMAN, HUMAN])["id"]
    with connect(f"{server.ws_url}/ws/tables/{table_id}", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "action", "action": 1}))
        assert json.loads(ws.recv(timeout=10))["code"] == "malformed"
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=5)


def test_lobby_lists_open_and_recent_tables(server: ThreadServer) -> None:
    with server.http() as http:
        running = create_table(http, TOY, [HUMAN, bot("random")])
        finished = create_table(http, TOY, [bot("random"), bot("random")], tricks=1)
        deadline = time.monotonic() + 30
        while http.get(f"/api/tables/{finished['id']}").json()["status"] != "over":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        lists = http.get("/api/tables").json()
    assert [t["id"] for t in lists["open"]] == [running["id"]]
    assert [t["id"] for t in lists["recent"]] == [finished["id"]]
    assert lists["recent"][0]["result"]["winners"]
    assert lists["open"][0]["seats"][1] == {
        "seat": 1,
        "kind": "bot",
        "name": "random",
        "spec": "random",
        "player": None,  # a player's id only at a player's seat (server/players.py)
        "connected": False,
        "away": False,
    }


def test_restart_rebuilds_tables_from_the_log(db_url: str) -> None:
    config = make_config(db_url)
    with ThreadServer(config) as first:
        with first.http() as http:
            created = create_table(http, TOY, [HUMAN, bot("random"), HUMAN])
        tokens = [created["seats"][0]["token"], created["seats"][2]["token"]]
        rng = random.Random(3)
        with players(first.ws_url, created["id"], tokens) as before:
            before[0].play(rng, stop_at=1)
            seen = before[1].play(rng, stop_at=3)["seq"]
    with ThreadServer(config) as second:
        with players(second.ws_url, created["id"], tokens) as after:
            # Nothing lost: the table is where it was (or further on, if a bot had moved since).
            assert after[0].view_at_least(0)["seq"] >= seen
            final = play_together(after, rng)
            with second.http() as http:
                record = http.get(f"/api/tables/{created['id']}/record").json()
        assert len(record["actions"]) == final["seq"]
        for seat, first_run, second_run in ((0, before[0], after[0]), (2, before[1], after[1])):
            assert_views_exact(first_run, record, seat)
            assert_views_exact(second_run, record, seat)


def test_a_table_of_bots_plays_to_the_end(server: ThreadServer) -> None:
    with server.http() as http:
        created = create_table(http, TOY, [bot("snoop"), bot("random"), bot("random")])
        with Player(server.ws_url, created["id"], None) as spectator:
            message = spectator.view_at_least(0)
            while not message["view"]["is_terminal"]:
                message = spectator.view_at_least(message["seq"] + 1)
        record = http.get(f"/api/tables/{created['id']}/record").json()
    assert bodoge.replay(record).is_terminal


def test_bots_are_held_to_their_time_budget(tmp_path: Path) -> None:
    config = make_config(f"sqlite:///{tmp_path / 'b.db'}", bot_budget=0.5)
    with ThreadServer(config) as server, server.http() as http:
        created = create_table(http, TOY, [HUMAN, bot("sleepy:seconds=30"), bot("broken")], tricks=1)
        with Player(server.ws_url, created["id"], created["seats"][0]["token"]) as me:
            start = time.monotonic()
            final = me.play(random.Random(5), timeout=30)
        assert final["view"]["is_terminal"]
        assert time.monotonic() - start < 15  # two bot moves, each cut off after 0.5 s
        assert len(http.get(f"/api/tables/{created['id']}/record").json()["actions"]) == 3


# -- every real game through the websocket ----------------------------------------------------------


@pytest.mark.parametrize("game", real_games())
def test_real_game_plays_through_the_websocket(tmp_path: Path, game: str) -> None:
    """A person (random legal clicks) against bots: every view exactly view(seat), and the record
    replays to the same end."""
    cls = bodoge.core.registry.game_class(game)
    n = cls.min_players
    options = {"rounds": 1} if any(o.name == "rounds" for o in cls.option_specs) else {}
    config = make_config(f"sqlite:///{tmp_path / 'g.db'}")
    with ThreadServer(config) as server, server.http() as http:
        created = create_table(http, game, [HUMAN] + [bot("random")] * (n - 1), **options)
        with players(server.ws_url, created["id"], [created["seats"][0]["token"], None]) as (me, spectator):
            final = me.play(random.Random(11), timeout=240)
            spectator.view_at_least(final["seq"])
        record = http.get(f"/api/tables/{created['id']}/record").json()
    assert final["view"]["is_terminal"] and record["result"] is not None
    assert_views_exact(me, record, 0)
    assert_views_exact(spectator, record, None)
    assert not me.errors
