"""The replay endpoint behind the web replay viewer: a finished game's position at any move, from any
seat's view or with every card shown; never a running game's."""

from __future__ import annotations

import random
from pathlib import Path

from server_helpers import (
    Player,
    ThreadServer,
    create_table,
    make_config,
    players,
    roundtrip,
    states_along,
)

HUMAN = {"kind": "human"}


def test_replay_views_of_a_finished_game(tmp_path: Path) -> None:
    config = make_config(f"sqlite:///{tmp_path / 'r.db'}")
    with ThreadServer(config) as server, server.http() as http:
        created = create_table(http, "troika", [HUMAN, {"kind": "bot", "spec": "random"}], rounds=1)
        table_id = created["id"]
        with players(server.ws_url, table_id, [created["seats"][0]["token"]]) as (me,):
            assert isinstance(me, Player)
            me.recv()
            # A running game is never replayed: that would leak the deal.
            assert http.get(f"/api/tables/{table_id}/replay?move=0&seat=1").status_code == 409
            final = me.play(random.Random(3), timeout=120)
        assert final["view"]["is_terminal"]
        record = http.get(f"/api/tables/{table_id}/record").json()
        states = states_along(record)
        moves = len(record["actions"])
        for move in sorted({0, 1, moves // 2, moves}):
            for seat in (0, 1):
                got = http.get(f"/api/tables/{table_id}/replay", params={"move": move, "seat": seat}).json()
                assert got["moves"] == moves and got["move"] == move
                assert got["view"] == roundtrip(states[move].view(seat))
            every = http.get(f"/api/tables/{table_id}/replay", params={"move": move}).json()
            assert every["views"] == [roundtrip(states[move].view(p)) for p in (0, 1)]
            assert every["view"] == roundtrip(states[move].view(None))
        assert http.get(f"/api/tables/{table_id}/replay?move={moves + 1}").status_code == 400
        assert http.get(f"/api/tables/{table_id}/replay?seat=5").status_code == 400
        assert http.get(f"/api/tables/{table_id}/replay?seat=x").status_code == 400
        assert http.get("/api/tables/nope/replay").status_code == 404
        assert http.get(f"/r/{table_id}").status_code == 200
