"""Safe in public (server/safety.py, issue #57 part 5): a player mutes another, reports a chat line
(the words copied from the table's own chat), and nothing of it reaches another player."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_helpers import Player, ThreadServer, identified_table, make_config, play_both_seats, signup
from typer.testing import CliRunner

from bodoge.cli import app as cli


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    db = f"sqlite:///{tmp_path_factory.mktemp('safety') / 'bodoge.db'}"
    with ThreadServer(make_config(db)) as server:
        yield server


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


@pytest.fixture(scope="module")
def chat_table(live: ThreadServer) -> dict[str, Any]:
    """Ann and Bob at a table; Bob says two lines."""
    ann, ann_key = signup(live, "Ann")
    bob, bob_key = signup(live, "Bob")
    seats = [
        {"kind": "human", "name": "Ann", "player": ann},
        {"kind": "human", "name": "Bob", "player": bob},
        {"kind": "bot", "spec": "random"},
    ]
    table_id, keys = identified_table(live, "troika", seats)
    with Player(live.ws_url, table_id, keys[1]) as bob_socket:
        for text in ("good luck", "[bold]rude[/bold] words"):
            bob_socket.send({"type": "chat", "text": text})
            bob_socket.recv_until("chat")
    return {"table": table_id, "ann": (ann, ann_key), "bob": (bob, bob_key), "keys": keys}


def test_a_player_mutes_and_unmutes_another(live: ThreadServer, chat_table: dict[str, Any]) -> None:
    (_, ann_key), (bob, _) = chat_table["ann"], chat_table["bob"]
    with live.http() as http:
        assert http.put(f"/api/me/mutes/{bob}", headers=bearer(ann_key)).status_code == 204
        assert (
            http.put(f"/api/me/mutes/{bob}", headers=bearer(ann_key)).status_code == 204
        )  # again: no change
        muted = http.get("/api/me/mutes", headers=bearer(ann_key)).json()["muted"]
        assert [m["id"] for m in muted] == [bob] and muted[0]["name"] == "Bob"
        assert http.delete(f"/api/me/mutes/{bob}", headers=bearer(ann_key)).status_code == 204
        assert http.get("/api/me/mutes", headers=bearer(ann_key)).json()["muted"] == []


def test_muting_needs_a_real_other_player(live: ThreadServer, chat_table: dict[str, Any]) -> None:
    (ann, ann_key) = chat_table["ann"]
    with live.http() as http:
        assert http.put("/api/me/mutes/nobody", headers=bearer(ann_key)).status_code == 404
        assert http.put(f"/api/me/mutes/{ann}", headers=bearer(ann_key)).status_code == 400
        assert http.put(f"/api/me/mutes/{ann}").status_code == 401
        assert http.get("/api/me/mutes", headers=bearer("forged")).status_code == 401


def test_a_report_keeps_the_stored_words_not_the_reporters(
    live: ThreadServer, chat_table: dict[str, Any], tmp_path: Any
) -> None:
    (_, ann_key), (bob, bob_key) = chat_table["ann"], chat_table["bob"]
    table = chat_table["table"]
    with live.http() as http:
        made = http.post(
            "/api/reports", headers=bearer(ann_key), json={"table": table, "line": 1, "reason": "rude"}
        )
        assert made.status_code == 201, made.text
        # Bob cannot report his own line; nobody reports a line that is not there.
        own = http.post("/api/reports", headers=bearer(bob_key), json={"table": table, "line": 0})
        assert own.status_code == 400 and "your own" in own.text
        missing = http.post("/api/reports", headers=bearer(ann_key), json={"table": table, "line": 99})
        assert missing.status_code == 404
        forged = http.post(
            "/api/reports", headers=bearer(ann_key), json={"table": table, "line": 1, "text": "x"}
        )
        assert forged.status_code == 422  # a report carries no words of its own
    found = live.server.config.app.state.safety.reports()
    assert found[0]["text"] == "[bold]rude[/bold] words" and found[0]["player"] == bob
    assert found[0]["reason"] == "rude" and found[0]["name"] == "Bob"
    # The operator reads them with `bodoge reports`: what players wrote is shown as text, not markup.
    db = live.server.config.app.state.manager.storage.url
    result = CliRunner().invoke(cli, ["reports", "--db", db])
    assert result.exit_code == 0, result.output
    assert "[bold]rude[/bold]" in result.output and "Bob" in result.output


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"table": "", "line": 0},
        {"table": "x" * 33, "line": 0},
        {"table": "t", "line": -1},
        {"table": "t", "line": "1"},
        {"table": "t", "line": 0, "reason": "a\nb"},
        {"table": "t", "line": 0, "reason": "x" * 501},
    ],
)
def test_bad_reports_are_refused_saying_why(
    live: ThreadServer, chat_table: dict[str, Any], body: Any
) -> None:
    _, ann_key = chat_table["ann"]
    with live.http() as http:
        answer = http.post("/api/reports", headers=bearer(ann_key), json=body)
    assert answer.status_code in (400, 422), answer.text
    assert answer.json()["detail"]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    body=st.dictionaries(
        st.sampled_from(["table", "line", "reason", "x"]),
        st.none() | st.integers() | st.text(max_size=40),
        max_size=4,
    ),
    muted=st.text(max_size=40),
)
def test_fuzzed_safety_requests_never_break_the_server(
    live: ThreadServer, chat_table: dict[str, Any], body: dict[str, Any], muted: str
) -> None:
    _, ann_key = chat_table["ann"]
    with live.http() as http:
        answers = [
            http.post("/api/reports", headers=bearer(ann_key), json=body),
            http.put(f"/api/me/mutes/{quote(muted, safe='')}", headers=bearer(ann_key)),
        ]
    for answer in answers:
        assert answer.status_code in (201, 204, 307, 400, 404, 405, 422, 429), answer.text
        assert "Traceback" not in answer.text


def test_nothing_here_tells_another_players_key(live: ThreadServer, chat_table: dict[str, Any]) -> None:
    """Every answer Ann can get about the table and Bob carries neither Bob's key nor his seat key."""
    (_, ann_key), (bob, bob_key) = chat_table["ann"], chat_table["bob"]
    bob_seat_key = chat_table["keys"][1]
    with live.http() as http:
        answers = [
            http.get(f"/api/tables/{chat_table['table']}"),
            http.get("/api/tables"),
            http.get("/api/me", headers=bearer(ann_key)),
            http.get("/api/me/mutes", headers=bearer(ann_key)),
        ]
    text = json.dumps([a.text for a in answers])
    assert bob in text  # Bob's seat names his player id: that is public ...
    assert bob_key not in text and bob_seat_key not in text  # ... his keys are not


def test_the_player_rate_covers_the_safety_requests(tmp_path: Any) -> None:
    config = make_config(f"sqlite:///{tmp_path / 'rate.db'}")
    config.limits.player_rate = "2/minute"
    with ThreadServer(config) as server, server.http() as http:
        key = http.post("/api/players", json={"name": "Quick"}).json()["key"]
        codes = [http.get("/api/me/mutes", headers=bearer(key)).status_code for _ in range(3)]
        assert codes == [200, 200, 429]


def test_a_players_seat_keeps_the_players_name(live: ThreadServer, chat_table: dict[str, Any]) -> None:
    """Nobody at a table passes for a player they are not: a player's seat is not renamed, neither by
    the name a browser sends in its hello nor by a `name` message."""
    table, keys = chat_table["table"], chat_table["keys"]
    with Player(live.ws_url, table, keys[0], name="Mallory") as ann:
        ann.send({"type": "name", "name": "Bob2"})
        refused = ann.recv_until("error")
        assert refused["code"] == "bad_name" and "player" in refused["message"]
    with live.http() as http:
        seats = http.get(f"/api/tables/{table}").json()["seats"]
    assert [s["name"] for s in seats[:2]] == ["Ann", "Bob"]


def test_keys_open_only_their_own_seat_at_their_own_table(
    live: ThreadServer, chat_table: dict[str, Any]
) -> None:
    """Forged and replayed keys: a seat key taken to another table, a player's own key, or another
    player's seat key at this table's other seat open nothing but a spectator's view."""
    (ann, ann_key) = chat_table["ann"]
    (bob, _) = chat_table["bob"]
    seats = [
        {"kind": "human", "name": "Ann", "player": ann},
        {"kind": "human", "name": "Bob", "player": bob},
        {"kind": "bot", "spec": "random"},
    ]
    other_table, other_keys = identified_table(live, "troika", seats)
    real_key = other_keys[0]
    forged = real_key[:-1] + ("B" if real_key.endswith("A") else "A")  # one character off (never the key)
    for token in (chat_table["keys"][0], ann_key, forged, "x" * 200):
        with Player(live.ws_url, other_table, token) as someone:
            welcome = someone.recv_until("welcome")
            assert welcome["seat"] is None and welcome["role"] == "spectator", token
    with Player(live.ws_url, other_table, other_keys[0]) as real:
        assert real.recv_until("welcome")["seat"] == 0


def test_play_again_keeps_the_players_and_gives_them_their_new_seat_keys(live: ThreadServer) -> None:
    """A rematch of players' seats is theirs too (rated, on their tables page): each new seat is its
    player's, opened by the seat key derived for the new table, which the offer's link carries."""
    ann, _ = signup(live, "Rae")
    bob, _ = signup(live, "Sol")
    seats = [{"kind": "human", "name": "Rae", "player": ann}, {"kind": "human", "name": "Sol", "player": bob}]
    table_id, keys = identified_table(live, "highcard", seats)
    players = live.server.config.app.state.players
    with Player(live.ws_url, table_id, keys[0]) as p0, Player(live.ws_url, table_id, keys[1]) as p1:
        assert play_both_seats(p0, p1)["view"]["is_terminal"]
        p0.send({"type": "rematch"})
        offer = p0.recv_until("rematch")
    new_id = offer["table"]
    assert offer["join_url"] == f"/t/{new_id}#token={players.seat_key(ann, new_id)}"
    with live.http() as http:
        again = http.get(f"/api/tables/{new_id}").json()["seats"]
    assert [s["player"] for s in again] == [bob, ann]  # every seat moved on by one
    with Player(live.ws_url, new_id, players.seat_key(bob, new_id)) as sol:
        assert sol.recv_until("welcome")["seat"] == 0
