"""Players without sign-up (server/players.py, issue #57 part 1): a name in, a key out; the key is
the player; a seat key opens one seat; deleting oneself keeps the games."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_helpers import ThreadServer, create_table, make_config

from bodoge.server.players import FORMER, NameTaken, Players
from bodoge.server.storage import Storage
from bodoge.server.table.connection import hash_token


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    db = f"sqlite:///{tmp_path_factory.mktemp('players') / 'bodoge.db'}"
    with ThreadServer(make_config(db)) as server:
        yield server


def signup(server: ThreadServer, name: str, lang: str = "en") -> dict:
    with server.http() as http:
        answer = http.post("/api/players", json={"name": name, "lang": lang})
    assert answer.status_code == 201, answer.text
    return answer.json()


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def test_a_name_gives_a_key_that_is_the_player(live: ThreadServer) -> None:
    made = signup(live, "Aki", "ja")
    key = made["key"]
    assert made["recovery_url"] == f"/me#key={key}"
    assert made["player"] == {"id": made["player"]["id"], "name": "Aki", "lang": "ja", "deleted": False}
    with live.http() as http:
        me = http.get("/api/me", headers=bearer(key)).json()
        assert me == {"player": made["player"]}
        # The key is never shown again: not by /api/me, nor anywhere its player is described.
        assert key not in json.dumps(me)
        changed = http.patch("/api/me", headers=bearer(key), json={"name": "Aki M", "lang": "en"})
        assert changed.json()["player"]["name"] == "Aki M" and changed.json()["player"]["lang"] == "en"


@pytest.mark.parametrize("header", [None, "Bearer", "Bearer nope", "Basic abc", "Bearer " + "x" * 500])
def test_without_a_valid_key_there_is_no_player(live: ThreadServer, header: str | None) -> None:
    with live.http() as http:
        answer = http.get("/api/me", headers={} if header is None else {"Authorization": header})
    assert answer.status_code == 401
    assert "POST /api/players" in answer.text or "belongs to no player" in answer.text


def test_names_are_unique_by_the_look_alike_rule(live: ThreadServer) -> None:
    signup(live, "Mia")
    with live.http() as http:
        for same in ("mia", "ＭＩＡ", " Mia ", "MİA".replace("İ", "I")):
            answer = http.post("/api/players", json={"name": same})
            assert answer.status_code == 409, (same, answer.text)
            assert "taken" in answer.json()["detail"]


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"name": ""},
        {"name": "   "},
        {"name": "x" * 41},
        {"name": "a\nb"},
        {"name": "\u202eevil"},
        {"name": 5},
        {"name": "ok", "lang": "fr"},
        {"name": "ok", "extra": 1},
        {"name": "a former player"},
        [],
    ],
)
def test_bad_names_are_refused_saying_why(live: ThreadServer, body: object) -> None:
    with live.http() as http:
        answer = http.post("/api/players", json=body)
    assert answer.status_code in (400, 422), answer.text
    assert answer.json()["detail"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    body=st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=50),
        lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=8), c, max_size=3),
        max_leaves=8,
    )
)
def test_fuzzed_bodies_never_break_the_server(live: ThreadServer, body: object) -> None:
    with live.http() as http:
        for method, path in (("POST", "/api/players"), ("PATCH", "/api/me")):
            answer = http.request(method, path, json=body, headers=bearer("forged"))
            assert answer.status_code in (201, 400, 401, 409, 415, 422, 429), answer.text
            assert "Traceback" not in answer.text


def test_deleting_oneself_keeps_the_games_and_frees_the_name(live: ThreadServer, tmp_path: Path) -> None:
    made = signup(live, "Ren")
    pid, key = made["player"]["id"], made["key"]
    with live.http() as http:
        table = create_table(
            http, "troika", seats=[{"kind": "human", "name": "Ren"}, {"kind": "bot", "spec": "random"}]
        )
    storage = Storage(live.server.config.app.state.manager.storage.url)
    players = Players(storage.engine)
    # A seat of Ren's, as an open table (server/seating.py) makes it.
    with storage.engine.begin() as conn:
        from sqlalchemy import update

        from bodoge.server.storage import tables_table

        conn.execute(
            update(tables_table)
            .where(tables_table.c.id == table["id"])
            .values(
                seats=json.dumps(
                    [
                        {"kind": "human", "name": "Ren", "player": pid},
                        {"kind": "bot", "name": "random", "spec": "random"},
                    ]
                )
            )
        )
    with live.http() as http:
        assert http.delete("/api/me", headers=bearer(key)).status_code == 204
        assert http.get("/api/me", headers=bearer(key)).status_code == 401
        assert http.post("/api/players", json={"name": "Ren"}).status_code == 201  # the name is free
    row = storage.load_table(table["id"])
    assert row is not None and row.seats[0]["name"] == FORMER["en"] and row.seats[0]["player"] == pid
    gone = players.get(pid)
    assert gone is not None and gone.deleted and gone.public()["name"] == FORMER["en"]
    storage.close()


def test_seat_keys_are_stable_private_and_survive_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'keys.db'}"
    storage = Storage(url)
    players = Players(storage.engine)
    a, _ = players.create("Ann")
    b, _ = players.create("Bob")
    key = players.seat_key(a.id, "table1")
    assert key == players.seat_key(a.id, "table1")
    assert key not in {players.seat_key(b.id, "table1"), players.seat_key(a.id, "table2")}
    storage.close()
    again = Storage(url)  # a restart: the secret is read back from the database
    assert Players(again.engine).seat_key(a.id, "table1") == key
    again.close()
    other = Storage(f"sqlite:///{tmp_path / 'other.db'}")  # another server: other keys
    assert Players(other.engine).seat_key(a.id, "table1") != key
    other.close()


def test_a_seat_key_opens_only_its_seat(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 's.db'}")
    players = Players(storage.engine)
    ann, ann_key = players.create("Ann")
    assert players.by_key(ann_key) == ann
    # The player's key is not a seat key, and a seat key is not a player's key.
    seat = players.seat_key(ann.id, "t")
    assert players.by_key(seat) is None
    assert hash_token(seat) != hash_token(ann_key)
    with pytest.raises(NameTaken):
        players.create("ann")
    storage.close()


def test_the_signup_rate_is_per_address(tmp_path: Path) -> None:
    config = make_config(f"sqlite:///{tmp_path / 'rate.db'}")
    config.limits.signup_rate = "2/hour"
    with ThreadServer(config) as server, server.http() as http:
        codes = [http.post("/api/players", json={"name": f"P{i}"}).status_code for i in range(3)]
        assert codes == [201, 201, 429]
        assert "new players from one address" in http.post("/api/players", json={"name": "Q"}).text


def test_the_player_rate_counts_a_key_whatever_the_address(tmp_path: Path) -> None:
    config = make_config(f"sqlite:///{tmp_path / 'prate.db'}")
    config.limits.player_rate = "3/minute"
    with ThreadServer(config) as server, server.http() as http:
        key = http.post("/api/players", json={"name": "Fast"}).json()["key"]
        codes = [http.get("/api/me", headers=bearer(key)).status_code for _ in range(4)]
        assert codes == [200, 200, 200, 429]
