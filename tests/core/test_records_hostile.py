"""Malformed records (issue #19): whatever JSON a record holds, `bodoge.replay` answers BadRecord, never
TypeError or another crash."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import bodoge
from bodoge.errors import BadRecord

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=10,
)


def a_record(name: str) -> dict[str, Any]:
    state = bodoge.make(name).new_state(seed=5)
    for _ in range(6):
        state.apply(state.legal_actions()[0])
    return state.to_record()


RECORDS = {name: a_record(name) for name in bodoge.games()}
FIELDS = ["format", "game", "rules_version", "players", "options", "seed", "deck", "actions", "result"]


def replays_or_refuses(record: Any) -> None:
    try:
        bodoge.replay(record)
    except BadRecord as exc:
        assert str(exc)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(RECORDS)), st.sampled_from(FIELDS), JSON)
def test_any_value_in_any_field_is_a_bad_record_or_replays(name: str, field: str, value: Any) -> None:
    record = copy.deepcopy(RECORDS[name])
    record[field] = value
    replays_or_refuses(record)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(sorted(RECORDS)), st.dictionaries(st.text(max_size=12), JSON, max_size=3))
def test_any_options_are_a_bad_record_or_replay(name: str, options: dict[str, Any]) -> None:
    record = copy.deepcopy(RECORDS[name])
    record["options"] = options
    replays_or_refuses(record)


def refused_with_options(name: str, options: Any) -> str:
    """What BadRecord says of `name`'s record with these options (AssertionError if it replays)."""
    record = copy.deepcopy(RECORDS[name])
    record["options"] = options
    try:
        bodoge.replay(record)
    except BadRecord as exc:
        return str(exc)
    raise AssertionError(f"options {options!r} replayed")


def test_options_that_are_not_an_object_are_named() -> None:
    assert "options" in refused_with_options("troika", [1, 2])


@given(JSON)
def test_any_json_is_a_bad_record(value: Any) -> None:
    replays_or_refuses(value)


def test_an_option_named_players_is_named() -> None:
    """`players` is the record's own field: given as an option too, replay raised TypeError (make()
    got it twice). Found by test_any_options_are_a_bad_record_or_replay."""
    for value in (None, 3, "x"):
        assert "'players' is a field of the record" in refused_with_options("hangover", {"players": value})
