"""The lessons' API (server/lessons.py) and hints at practice tables (server/hints.py), on a live
server reading the lessons of tests/learn/fixtures."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

pytest.importorskip("fastapi", reason="the server extra is not installed (pip install -e '.[server]')")

from server_helpers import Player, ThreadServer

from bodoge.learn.lessons import MAX_STEPS


def step(http: httpx.Client, body: Any, game: str = "troika", lesson: str = "first-moves") -> httpx.Response:
    return http.post(f"/api/games/{game}/lessons/{lesson}/step", json=body)


def test_the_lessons_are_listed_without_their_records(http: httpx.Client) -> None:
    answer = http.get("/api/games/troika/lessons")
    assert answer.status_code == 200
    (lesson,) = answer.json()
    assert lesson["id"] == "first-moves" and lesson["seat"] == 0 and lesson["players"] == 4
    assert [s["mover"] for s in lesson["steps"]] == [None, 0, 1, 2, 3, None]
    assert lesson["steps"][1]["hint"]["ja"] and "setup" not in lesson


def test_an_unknown_game_is_404_with_the_games(http: httpx.Client) -> None:
    answer = http.get("/api/games/chess/lessons")
    assert answer.status_code == 404
    assert "the games are" in answer.json()["detail"] and "troika" in answer.json()["detail"]


def test_a_step_gives_the_learners_view_and_takes_only_the_lessons_move(http: httpx.Client) -> None:
    start = step(http, {"actions": []}).json()
    assert start["moves"] == 0 and start["view"]["seat"] == 0 and start["accepted"] is None
    assert "take 7" in [a["text"] for a in start["view"]["legal_actions"]]
    wrong = step(http, {"actions": [], "move": "draw"}).json()
    assert wrong["accepted"] is False and wrong["moves"] == 0
    assert wrong["message"]["en"] == "Not that one: this lesson wants take 7."
    assert wrong["view"] == start["view"]  # nothing changed
    take7 = next(a["id"] for a in start["view"]["legal_actions"] if a["text"] == "take 7")
    right = step(http, {"actions": [], "move": take7}).json()
    assert right["accepted"] is True and right["moves"] == 1 and right["view"]["current_player"] == 1
    later = step(http, {"actions": ["take 7", "take 9", "take 12", "draw"]}).json()
    assert later["moves"] == 4


@pytest.mark.parametrize(
    ("body", "status", "said"),
    [
        ({"actions": ["take 12"]}, 400, "action 0 is 'take 12', but the lesson's move there is 'take 7'"),
        ({"actions": ["take 7", "take 9", "take 12", "draw", "draw"]}, 400, "the lesson has only 4 moves"),
        ({"actions": ["draw"] * (MAX_STEPS + 1)}, 422, "at most 200"),
        ({"actions": "take 7"}, 422, "list"),
        ({"actions": [True]}, 422, "actions"),
        ({"actions": [], "move": 1.5}, 422, "move"),
        ({"actions": ["x" * 201]}, 422, "at most 200 characters"),
        ({"actions": [], "colour": 1}, 422, "colour"),
    ],
)
def test_bad_steps_are_refused_clearly(http: httpx.Client, body: Any, status: int, said: str) -> None:
    answer = step(http, body)
    assert answer.status_code == status, answer.text
    assert said in answer.text


def test_an_unknown_lesson_names_the_lessons(http: httpx.Client) -> None:
    answer = step(http, {"actions": []}, lesson="nope")
    assert answer.status_code == 404
    assert "troika has no lesson 'nope'; its lessons: first-moves" in answer.json()["detail"]
    assert step(http, {"actions": []}, game="chess").status_code == 404
    assert http.post("/api/games/troika/lessons/first-moves/step", content=b"{}").status_code == 415


def test_the_views_of_every_step(http: httpx.Client) -> None:
    views = http.get("/api/games/troika/lessons/first-moves/views").json()["views"]
    assert len(views) == 6
    assert [v["current_player"] for v in views] == [0, 0, 1, 2, 3, 0]


def test_the_pages_are_served(http: httpx.Client) -> None:
    for path in ("/learn/troika", "/rules/tokkuri"):
        answer = http.get(path)
        assert answer.status_code == 200 and "<script" in answer.text


# -- hints at practice tables ------------------------------------------------------------------------

BOTS = [{"kind": "bot", "spec": "heuristic"}] * 3


def create(http: httpx.Client, seats: list[dict[str, Any]], hints: bool = True) -> httpx.Response:
    return http.post(
        "/api/tables", json={"game": "tottarot", "players": len(seats), "seats": seats, "hints": hints}
    )


def test_hints_are_refused_when_creating_a_table_of_two_people(http: httpx.Client) -> None:
    answer = create(http, [{"kind": "human"}, {"kind": "human"}, *BOTS[:2]])
    assert answer.status_code == 400
    assert "exactly one person" in answer.json()["detail"] and "2 people" in answer.json()["detail"]
    assert create(http, [*BOTS, {"kind": "bot"}]).status_code == 400  # nobody to give them to
    answer = http.post(
        "/api/tables", json={"game": "tottarot", "seats": [{"kind": "human"}, *BOTS], "hints": "yes"}
    )
    assert answer.status_code == 422


def test_a_table_of_two_people_gives_no_hints_over_http_or_websocket(
    http: httpx.Client, live: ThreadServer
) -> None:
    made = create(http, [{"kind": "human"}, {"kind": "human"}, *BOTS[:2]], hints=False).json()
    token = made["seats"][0]["token"]
    answer = http.post(f"/api/tables/{made['id']}/hint", json={"token": token})
    assert answer.status_code == 403 and "hints are off at this table" in answer.json()["detail"]
    with Player(live.ws_url, made["id"], token) as player:
        player.recv_until("view")
        player.send({"type": "hint"})
        error = player.recv_until("error", code="no_hints")
        assert "hints are off" in error["message"]
        assert not any(m["type"] == "hint" for m in player.messages)


def test_a_practice_table_gives_ranked_hints_to_its_person_only(
    http: httpx.Client, live: ThreadServer
) -> None:
    made = create(http, [{"kind": "human"}, *BOTS]).json()
    table, token = made["id"], made["seats"][0]["token"]
    assert http.post(f"/api/tables/{table}/hint", json={"token": "x" * 20}).status_code == 403
    assert http.post(f"/api/tables/{table}/hint", json={"token": 5}).status_code == 422
    answer = http.post(f"/api/tables/{table}/hint", json={"token": token})
    assert answer.status_code == 200, answer.text
    hint = answer.json()
    assert hint["seat"] == 0 and hint["move"] == 0
    ranked = hint["hints"]
    assert sorted(h["text"] for h in ranked) == ["bid 0", "bid 1", "bid 2", "bid 3"]
    # The race's order: the leader first (about equal to itself), then by deals played, each group
    # by win chance.
    assert ranked[0]["about_equal"] and ranked[0]["deals"] == max(h["deals"] for h in ranked)
    assert "about equal" not in ranked[0]["reason"]["en"]  # the first is not compared with itself
    order = [(-h["deals"], -h["value"]) for h in ranked[1:]]
    assert order == sorted(order)
    assert all(h["low"] <= h["value"] <= h["high"] for h in ranked)
    assert sum(h["heuristic"] for h in ranked) == 1
    assert all(h["reason"]["en"] and h["reason"]["ja"] for h in ranked)
    with Player(live.ws_url, table, token) as player:
        player.recv_until("view")
        player.send({"type": "hint"})
        message = player.recv_until("hint", timeout=60)
        assert [h["text"] for h in message["hints"]] and message["seat"] == 0
    with Player(live.ws_url, table, None) as spectator:
        spectator.recv_until("view")
        spectator.send({"type": "hint"})
        assert "spectators get none" in spectator.recv_until("error", code="no_hints")["message"]
