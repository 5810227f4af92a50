"""Crash test: `bodoge serve` killed (SIGKILL) mid-game, restarted on the same database; every table
is rebuilt from its log, the games finish (every bot table plays on by itself: issue #15 saw one of
four stall after a restart), and nothing acknowledged before the crash is lost."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import (
    Player,
    ProcessServer,
    assert_views_exact,
    create_table,
    free_port,
    real_games,
)

import bodoge

GAME = "troika" if "troika" in real_games() else (real_games() or ["none"])[0]


@pytest.mark.skipif(not real_games(), reason="no game is registered yet")
def test_kill_restart_finish_nothing_lost(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'crash.db'}"
    server = ProcessServer(db, free_port(), tmp_path / "serve.log", bot_delay=0.03)
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as http:
            human = create_table(
                http, GAME, [{"kind": "human", "name": "me"}] + [{"kind": "bot", "spec": "random"}] * 3
            )
            bots = create_table(http, GAME, [{"kind": "bot", "spec": "random"}] * 4)
            others = [create_table(http, GAME, [{"kind": "bot", "spec": "random"}] * 4) for _ in range(3)]
        token = human["seats"][0]["token"]
        rng = random.Random(7)
        me = Player(server.ws_url, human["id"], token)
        watcher = Player(server.ws_url, bots["id"], None)
        me.play(rng, timeout=60, stop_at=12)
        seen_bots = watcher.view_at_least(5, timeout=60)["seq"]
        assert not watcher.last["view"]["is_terminal"], "the bot table ended before the crash"  # type: ignore[index]
        seen_me = me.last["seq"]  # type: ignore[index]

        server.kill()
        me.close()
        watcher.close()
        server.start()

        me2 = Player(server.ws_url, human["id"], token)
        watcher2 = Player(server.ws_url, bots["id"], None)
        assert me2.view_at_least(0)["seq"] >= seen_me
        assert watcher2.view_at_least(0)["seq"] >= seen_bots
        final = me2.play(rng, timeout=120)
        assert final["view"]["is_terminal"]
        deadline = time.monotonic() + 120
        message = watcher2.last
        while not message["view"]["is_terminal"]:  # type: ignore[index]
            assert time.monotonic() < deadline, "the bot table did not finish after the restart"
            message = watcher2.view_at_least(message["seq"] + 1)  # type: ignore[index]
        me2.close()
        watcher2.close()
        # Websockets opened and closed write no line each (their access log is off, like HTTP's).
        log = (tmp_path / "serve.log").read_text()
        assert "database sqlite" in log
        for line in ('"WebSocket /ws/tables/', "connection open", "connection closed"):
            assert line not in log, log[-2000:]
        with httpx.Client(base_url=server.url, timeout=30) as http:
            record = http.get(f"/api/tables/{human['id']}/record").json()
            bots_record = http.get(f"/api/tables/{bots['id']}/record").json()
            # The other bot tables, which nobody watched, finished on their own too.
            for table in others:
                while http.get(f"/api/tables/{table['id']}").json()["status"] != "over":
                    assert time.monotonic() < deadline, "a bot table did not finish after the restart"
                    time.sleep(0.2)
    finally:
        server.stop()

    # Every view sent before and after the crash is the view of the logged game at that move; every
    # action this seat sent and saw taken is in the log exactly where it was taken.
    assert_views_exact(me, record, 0)
    assert_views_exact(me2, record, 0)
    assert_views_exact(watcher, bots_record, None)
    assert_views_exact(watcher2, bots_record, None)
    for player in (me, me2):
        for seq, action in player.sent:
            if seq + 1 in player.views:
                assert record["actions"][seq] == action
    assert bodoge.replay(record).is_terminal and bodoge.replay(bots_record).is_terminal
    assert len(me.sent) + len(me2.sent) == _movers(record).count(0)  # all logged, none twice


def _movers(record: dict[str, Any]) -> list[int | None]:
    """The seat that took each action of the record."""
    game = bodoge.make(record["game"], record["players"], **record["options"])
    state = game.new_state(seed=record["seed"])
    out = []
    for action in record["actions"]:
        out.append(state.current_player)
        state.apply(action)
    return out
