"""Tables of an older rules version (issue #34): a server rebuilds them by their own version, lists them,
offers their record and replay, and a table still in play plays on by its version's rules.

The tables are put in the database as a server of that version stored them (a row and its action
log), from a Tokkuri version-1 record that commit 569ea00 wrote (tests/fixtures/records/versions/)."""

from __future__ import annotations

import gzip
import hashlib
import json
import time
from pathlib import Path
from typing import Any

from server_helpers import Player, ThreadServer, make_config, roundtrip, states_along

import bodoge
from bodoge.server.guard import Limits
from bodoge.server.storage import Append, Storage, TableRow

FIXTURE = Path(__file__).parent.parent / "fixtures" / "records" / "versions" / "tokkuri-v1.json.gz"


def old_record() -> dict[str, Any]:
    """A version-1 game of 2 players that lasts several rounds: each later round dealt by version 1."""
    cases = json.loads(gzip.decompress(FIXTURE.read_bytes()))
    case = next(
        c
        for c in cases
        if c["commit"] == "569ea00" and c["record"]["players"] == 2 and len(c["trace"]["deals"]) > 3
    )
    record: dict[str, Any] = case["record"]
    assert record["rules_version"] == 1
    return record


def token(table_id: str, seat: int) -> str:
    return f"{table_id}-seat-{seat}"


def store(storage: Storage, table_id: str, record: dict[str, Any], moves: int) -> None:
    """The table as a server stores it: its row, and its first `moves` actions logged with their seats."""
    states = states_along(record)
    over = moves == len(record["actions"])
    now = time.time()
    row = TableRow(
        id=table_id,
        game=record["game"],
        rules_version=record["rules_version"],
        players=record["players"],
        options=record["options"],
        seed=record["seed"],
        seats=[{"kind": "human", "name": f"P{s}"} for s in range(record["players"])],
        # the protocol's token hash (tables.hash_token): SHA-256 of the token's UTF-8
        token_hashes=[
            hashlib.sha256(token(table_id, s).encode()).hexdigest() for s in range(record["players"])
        ],
        created_at=now,
        updated_at=now,
    )
    storage.create_tables([row])
    log = []
    for i in range(moves):
        seat = states[i].current_player
        assert seat is not None
        result = record["result"] if over and i == moves - 1 else None
        log.append(Append(table_id, i, seat, record["actions"][i], result))
    storage.append_actions(log)


def test_a_table_of_an_older_rules_version_is_served_and_plays_on_by_it(db_url: str) -> None:
    record = old_record()
    states = states_along(record)  # by version 1: the helper replays the record's own version
    second_round = next(i for i, s in enumerate(states) if s.round_no == 2)  # type: ignore[attr-defined]
    stop = second_round - 2  # the table in play stops in round 1: round 2 is dealt after the restart
    storage = Storage(db_url)
    try:
        store(storage, "v1-over", record, len(record["actions"]))
        store(storage, "v1-playing", record, stop)
    finally:
        storage.close()
    config = make_config(db_url, limits=Limits(message_rate="1000/second"))  # the moves come quickly
    with ThreadServer(config) as server, server.http() as http:
        lobby = http.get("/api/tables").json()
        assert "v1-playing" in [t["id"] for t in lobby["open"]]
        assert "v1-over" in [t["id"] for t in lobby["recent"]]
        summary = http.get("/api/tables/v1-over")
        assert summary.status_code == 200, summary.text
        assert http.get("/api/tables/v1-over/record").json() == record  # still of version 1
        moves = len(record["actions"])
        for move in (0, second_round, moves // 2, moves):
            got = http.get("/api/tables/v1-over/replay", params={"move": move, "seat": 0})
            assert got.status_code == 200, got.text
            assert got.json()["view"] == roundtrip(states[move].view(0))
            assert got.json()["view"]["rules_version"] == 1

        # The table in play: each seat plays the rest of the old game's moves, which are legal only
        # if every later round is dealt as version 1 dealt it.
        seats = [Player(server.ws_url, "v1-playing", token("v1-playing", s)) for s in range(2)]
        try:
            for seq in range(stop, moves):
                seat = states[seq].current_player
                assert seat is not None
                view = seats[seat].view_at_least(seq)["view"]
                assert view == roundtrip(states[seq].view(seat)) | {"log": view["log"]}
                assert record["actions"][seq] in [a["id"] for a in view["legal_actions"]]
                seats[seat].send({"type": "action", "action": record["actions"][seq], "seq": seq})
            final = seats[0].view_at_least(moves)
            assert final["view"]["is_terminal"] and final["view"]["rules_version"] == 1
        finally:
            for player in seats:
                player.close()
        played = http.get("/api/tables/v1-playing/record").json()
        assert played == record
        assert bodoge.replay(played).rules_version == 1
