"""The protocol's shared parts: options, errors, registry, records and agent specs."""

from __future__ import annotations

import pytest

import bodoge
from bodoge import agents
from bodoge.core import options as opts
from bodoge.errors import BadOption, BadRecord, BodogeError, IllegalAction


def test_errors_say_what_and_what_is_allowed() -> None:
    err = BadOption("rounds", 0, "an integer ≥ 1", "out of range")
    assert isinstance(err, ValueError) and isinstance(err, BodogeError)
    assert "rounds" in str(err) and "0" in str(err) and "an integer ≥ 1" in str(err)
    illegal = IllegalAction("take 99", "P1's decision", "no tile 99 is face up")
    assert illegal.action == "take 99" and "P1's decision" in str(illegal) and "no tile 99" in str(illegal)


def test_integer_option_converts_and_checks() -> None:
    spec = opts.integer("rounds", 3, "rounds", lo=1, hi=10)
    assert spec.convert(4) == 4
    assert spec.convert("7") == 7
    assert spec.convert(2.0) == 2
    for bad in (0, 11, "x", True, 2.5, None):
        with pytest.raises(ValueError):
            spec.convert(bad)
    assert (spec.lo, spec.hi) == (1, 10) and spec.allowed == "an integer from 1 to 10"
    with pytest.raises(ValueError, match="out of range: at most 10"):
        spec.convert(11)
    with pytest.raises(ValueError, match="out of range: at least 1"):
        spec.convert(0)
    nullable = opts.integer("rounds", None, "rounds", lo=1, hi=10, none_ok=True)
    assert nullable.convert(None) is None and nullable.convert("null") is None
    assert "null" in nullable.allowed
    with pytest.raises(TypeError):
        opts.integer("rounds", 3, "rounds", lo=1)  # type: ignore[call-arg]  # both bounds are required
    with pytest.raises(ValueError, match="2\\*\\*53"):
        opts.integer("points", 3, "points", lo=0, hi=2**53)  # beyond what JSON carries exactly


def test_boolean_option() -> None:
    spec = opts.boolean("troika", True, "declarations")
    assert spec.convert("false") is False and spec.convert(True) is True and spec.convert("on") is True
    with pytest.raises(ValueError):
        spec.convert(1)


def test_resolve_fills_defaults_and_names_bad_options() -> None:
    specs = (opts.integer("a", 1, "a", lo=0, hi=9), opts.boolean("b", False, "b"))
    assert opts.resolve(specs, {}) == {"a": 1, "b": False}
    assert opts.resolve(specs, {"a": "5"}) == {"a": 5, "b": False}
    with pytest.raises(BadOption, match="no such option") as exc:
        opts.resolve(specs, {"c": 1})
    assert "one of the options a, b" in str(exc.value)
    with pytest.raises(BadOption, match="'a'") as bad:
        opts.resolve(specs, {"a": -1})
    assert bad.value.allowed == "an integer from 0 to 9" and bad.value.reason == "out of range: at least 0"


def test_parse_text_reads_json_or_keeps_text() -> None:
    assert opts.parse_text("12") == 12
    assert opts.parse_text("[2,1,-1]") == [2, 1, -1]
    assert opts.parse_text("true") is True
    assert opts.parse_text("heuristic") == "heuristic"


def test_registry_lists_and_refuses_unknown_games() -> None:
    names = bodoge.games()
    assert names == sorted(names)
    with pytest.raises(BadOption, match="game"):
        bodoge.make("chess")


def test_replay_refuses_malformed_records() -> None:
    with pytest.raises(BadRecord, match="JSON object"):
        bodoge.replay([1, 2])
    with pytest.raises(BadRecord, match="format"):
        bodoge.replay({"format": "other/9"})
    with pytest.raises(BadRecord, match="no 'seed'"):
        bodoge.replay(
            {"format": "bodoge-record/1", "game": "x", "rules_version": 1, "options": {}, "actions": []}
        )
    with pytest.raises(BadRecord, match="cannot be made"):
        bodoge.replay(
            {
                "format": "bodoge-record/1",
                "game": "chess",
                "rules_version": 1,
                "options": {},
                "seed": 1,
                "actions": [],
            }
        )


def test_agent_specs() -> None:
    assert agents.parse_spec("ismcts:iterations=2000,rollout=heuristic") == (
        "ismcts",
        {"iterations": 2000, "rollout": "heuristic"},
    )
    assert agents.parse_spec(" random ") == ("random", {})
    assert agents.make("random").spec == "random"
    with pytest.raises(BadOption, match="one of"):
        agents.make("grandmaster")
    with pytest.raises(BadOption, match="key=value"):
        agents.make("random:fast")
    with pytest.raises(BadOption, match="parameters"):
        agents.make("random:depth=3")
