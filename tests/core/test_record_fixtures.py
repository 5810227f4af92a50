"""Records written by main before the one-shape refactor (issue #19) replay to the same end, and every
seat still reads the same texts: the board, the decision, every log line and every action's text.

The fixtures were written once by `tests/fixtures/records/write.py` at commit f7475a7 and are kept as
they are: a refactor that changes what a record replays to, or what a person reads, fails here."""

from __future__ import annotations

import gzip
import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

import bodoge
from bodoge.core import registry

FIXTURES = Path(__file__).parent.parent / "fixtures" / "records"
# what a seat reads at the end, exactly as the writer took it
_writer_spec = importlib.util.spec_from_file_location("records_writer", FIXTURES / "write.py")
assert _writer_spec is not None and _writer_spec.loader is not None
_writer = importlib.util.module_from_spec(_writer_spec)
_writer_spec.loader.exec_module(_writer)
seen = _writer.seen


def cases() -> list[tuple[str, int, dict[str, Any]]]:
    out = []
    for path in sorted(FIXTURES.glob("*.json.gz")):
        name = path.name.removesuffix(".json.gz")
        for i, case in enumerate(json.loads(gzip.decompress(path.read_bytes()))):
            out.append((name, i, case))
    return out


CASES = cases()


def test_every_game_has_fixtures() -> None:
    assert sorted({name for name, _, _ in CASES}) == registry.declared()


@pytest.mark.parametrize(("name", "index", "case"), CASES, ids=[f"{n}-{i}" for n, i, _ in CASES])
def test_record_replays_to_the_same_texts(name: str, index: int, case: dict[str, Any]) -> None:
    record = case["record"]
    state = bodoge.replay(record)
    assert state.is_terminal
    assert state.to_record() == record
    for seat, expected in case["seen"].items():
        assert seen(state, None if seat == "None" else int(seat)) == expected, f"seat {seat}"
    # every action's text as it was offered, replayed move by move
    game = state.game
    again = game.new_state(seed=record["seed"], deck=record.get("deck"))
    for action, text in zip(record["actions"], case["action_texts"], strict=True):
        assert again.action_text(action) == text
        assert again.parse_action(text) == action
        again.apply(action)
    middle = case["middle"]
    if middle is not None:
        assert seen(bodoge.replay(middle["record"]), 0) == middle["seen"]
