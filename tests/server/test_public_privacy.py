"""Nothing a player can read tells another player's key, seat key or hidden hand (issue #57 part 5).

Two strangers meet by quick match and play a game to its end; at every stage, everything one of them
(or anyone without a key) can ask of the new APIs (open tables, their tables, profiles, ratings,
leaderboards, the tables' summaries, mutes) is read, and the other's secrets are looked for in it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from server_helpers import Player, ThreadServer, make_config, play_both_seats

from bodoge.server.guard import Limits

GAME = "highcard"  # the test game (server_toygame): a game in a few moves


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    config = make_config(f"sqlite:///{tmp_path_factory.mktemp('privacy') / 'bodoge.db'}")
    config.limits = Limits(signup_rate="10000/hour", player_rate="10000/minute")
    with ThreadServer(config) as server:
        yield server


def join(server: ThreadServer, name: str) -> dict[str, Any]:
    with server.http() as http:
        made = http.post("/api/players", json={"name": name}).json()
    return {
        "id": made["player"]["id"],
        "key": made["key"],
        "headers": {"Authorization": f"Bearer {made['key']}"},
    }


def everything(server: ThreadServer, who: dict[str, Any] | None, others: list[str], table: str | None) -> str:
    """Every answer `who` (None: nobody) can get about the players `others` and the table."""
    headers = who["headers"] if who else {}
    paths = ["/api/seatings", "/api/tables", f"/api/leaderboard/{GAME}"]
    for pid in others:
        paths += [f"/api/players/{pid}", f"/api/players/{pid}/history?game={GAME}"]
    if table:
        paths += [f"/api/tables/{table}"]
    if who:
        paths += ["/api/me", "/api/me/tables", "/api/me/mutes", "/api/seatings/mine"]
    answers = []
    with server.http() as http:
        for path in paths:
            answer = http.get(path, headers=headers)
            assert answer.status_code in (200, 404), (path, answer.text)
            answers.append(answer.text)
    return json.dumps(answers)


def test_two_strangers_never_see_each_others_secrets(live: ThreadServer) -> None:
    aki, ben = join(live, "Aki"), join(live, "Ben")
    with live.http() as http:
        first = http.post("/api/quickmatch", headers=aki["headers"], json={"game": GAME, "players": 2}).json()
        second = http.post(
            "/api/quickmatch", headers=ben["headers"], json={"game": GAME, "players": 2}
        ).json()
        assert first["id"] == second["id"]
        deadline = time.monotonic() + 20
        while (seating := http.get(f"/api/seatings/{first['id']}", headers=aki["headers"]).json())[
            "status"
        ] != "started":
            assert time.monotonic() < deadline, seating
            time.sleep(0.1)
        table = seating["table_id"]
        links = {
            who["id"]: http.get(f"/api/seatings/{first['id']}", headers=who["headers"]).json()["you"][
                "join_url"
            ]
            for who in (aki, ben)
        }
    keys = {pid: link.split("#token=")[1] for pid, link in links.items()}
    assert keys[aki["id"]] != keys[ben["id"]]

    def secrets_of(who: dict[str, Any]) -> list[str]:
        return [who["key"], keys[who["id"]]]

    def check(stage: str) -> None:
        for reader, other in ((aki, ben), (ben, aki), (None, aki), (None, ben)):
            text = everything(live, reader, [aki["id"], ben["id"]], table)
            for secret in secrets_of(other):
                assert secret not in text, (stage, reader and reader["id"], other["id"])

    check("in play")
    with Player(live.ws_url, table, keys[aki["id"]]) as p0, Player(live.ws_url, table, keys[ben["id"]]) as p1:
        seats = {p0.recv_until("welcome")["seat"], p1.recv_until("welcome")["seat"]}
        assert seats == {0, 1}
        # A player's own tables page shows the table, never the hand: no view travels through it.
        with live.http() as http:
            mine = http.get("/api/me/tables", headers=aki["headers"]).json()
        assert '"view"' not in json.dumps(mine) and '"hand"' not in json.dumps(mine)
        assert play_both_seats(p0, p1)["view"]["is_terminal"]
    check("over")
