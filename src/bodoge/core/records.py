"""Replaying records (`bodoge-record/1`, see `State.to_record`)."""

from __future__ import annotations

from typing import Any

from bodoge.core.game import RECORD_FORMAT, State
from bodoge.core.registry import make
from bodoge.errors import BadOption, BadRecord, IllegalAction


def replay(record: Any) -> State:
    """The state a record ends in, played by the record's rules version (any the game replays:
    `Game.replays_versions`); BadRecord if it is malformed, of a rules version this bodoge does not
    know, or illegal."""
    if not isinstance(record, dict):
        raise BadRecord(f"a record is a JSON object, not {type(record).__name__}")
    if record.get("format") != RECORD_FORMAT:
        raise BadRecord(
            f"unknown record format {record.get('format')!r}; this bodoge reads {RECORD_FORMAT!r}"
        )
    for key in ("game", "rules_version", "options", "seed", "actions"):
        if key not in record:
            raise BadRecord(f"the record has no {key!r}")
    options = record["options"]
    if not isinstance(options, dict) or not all(isinstance(k, str) for k in options):
        raise BadRecord(f"the record's options are a JSON object of option names, not {options!r:.80}")
    if "players" in options:
        raise BadRecord("'players' is a field of the record, not one of its options")
    try:
        game = make(record["game"], record.get("players"), **options)
    except BadOption as exc:
        raise BadRecord(f"the record's game cannot be made: {exc}") from None
    version = record["rules_version"]
    if type(version) is not int or version not in game.replays_versions:
        raise BadRecord(
            f"the record is of {game.name} rules version {version!r:.40}; this bodoge replays "
            f"{game.name} versions {', '.join(map(str, game.replays_versions))} (a later bodoge may "
            "know that version)"
        )
    try:
        state = game.new_state(seed=record["seed"], deck=record.get("deck"), rules_version=version)
    except BadOption as exc:
        raise BadRecord(f"the record's start cannot be set up: {exc}") from None
    actions = record["actions"]
    if not isinstance(actions, list):
        raise BadRecord("the record's actions are not a list")
    for i, action in enumerate(actions):
        try:
            state.apply(action)
        except IllegalAction as exc:
            raise BadRecord(f"action {i} of the record is illegal: {exc}") from None
    result = record.get("result")
    if result is not None:
        if not state.is_terminal:
            raise BadRecord("the record has a result, but its actions do not finish the game")
        if result != {"scores": state.scores(), "winners": state.winners()}:
            raise BadRecord(f"the record's result {result} differs from the replay's")
    return state
