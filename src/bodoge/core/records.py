"""Replaying, reading and writing records (`bodoge-record/1`, see `State.to_record`)."""

from __future__ import annotations

import json
from pathlib import Path
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


#: The largest file of records `read_records` reads (a record is a few KiB; games.jsonl of a long run more).
MAX_RECORD_BYTES = 64 * 2**20


def read_records(path: Path) -> list[tuple[str, Any]]:
    """The records in the file `path`, each with a name for it: a JSON record (as `bodoge play
    --record` writes; named after the file), or JSON lines of records (as `bodoge sim --out` writes
    games.jsonl; named after the file and the line, `games-1`, `games-2`, ...). The records are read,
    not checked: `replay` checks each. BadRecord, in one line naming the file, if it is missing, a
    folder, larger than MAX_RECORD_BYTES, unreadable, not UTF-8 or not JSON."""
    shown = str(path)
    try:
        if not path.exists():
            raise BadRecord(f"{shown}: no such file")
        if path.is_dir():
            raise BadRecord(f"{shown} is a folder; give a record file (JSON)")
        if path.stat().st_size > MAX_RECORD_BYTES:
            raise BadRecord(
                f"{shown} is larger than {MAX_RECORD_BYTES // 2**20} MiB; a record is far smaller"
            )
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise BadRecord(f"{shown} cannot be read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise BadRecord(f"{shown} is not a record: not UTF-8 text") from None
    stem = path.name.removesuffix(".jsonl").removesuffix(".json") or "record"
    try:
        return [(stem, json.loads(text))]
    except json.JSONDecodeError as whole:
        lines = [line for line in text.splitlines() if line.strip()]
        if len(lines) < 2:
            raise BadRecord(f"{shown} is not a record: not JSON ({whole})") from None
        records = []
        for i, line in enumerate(lines, 1):
            try:
                records.append((f"{stem}-{i}", json.loads(line)))
            except json.JSONDecodeError as exc:
                raise BadRecord(f"{shown} is not a record: line {i} is not JSON ({exc})") from None
        return records


def write_record(record: dict[str, Any], path: Path) -> None:
    """Write a record to `path` as JSON (UTF-8, one key a line; the words of the game as they are,
    or escaped where the record holds text UTF-8 cannot carry). OSError if it cannot be written."""
    text = json.dumps(record, ensure_ascii=False, indent=1) + "\n"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(record, indent=1) + "\n"
    path.write_text(text, encoding="utf-8")
