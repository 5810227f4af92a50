"""The lessons' data (issue #32): `src/bodoge/learn/lessons/<game>.json`, read as plain JSON so that
these tests do not depend on the `bodoge.learn` package's loader.

Each game's lessons must (a) follow the lesson format (docs of issue #32: id, title, seat, setup,
steps with say/rules/expect/hint/point/accept), (b) together cite every numbered rule part of sections 4, 5
and 6 of the game's spec, and (c) replay through the real engine: the setup is a record that
`bodoge.replay` accepts, and each step's `expect` is a legal action when it comes.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import bodoge
from bodoge.core.game import RECORD_FORMAT

LESSONS = Path(bodoge.__file__).parent / "learn" / "lessons"

# The numbered rule parts of sections 4, 5 and 6 of each spec (the rules specs beside the repository,
# shared/rules/<game>.md, which CI does not have), copied from their bold labels and headings. The
# `X-N.0` conventions are left out, and so is a heading whose parts are numbered (for Hangover's
# HO-4.3 the parts HO-4.3.1 and HO-4.3.2 are listed instead), except where the heading has text of
# its own that the parts do not cover (HO-4.1, HO-4.2, HO-4.5, HO-4.7, HO-4.8; Troika's TR-4.x).
RULE_IDS: dict[str, list[str]] = {
    "tokkuri": [
        *(f"TK-4.{i}" for i in range(1, 10)),
        *(f"TK-5.{i}" for i in range(1, 8)),
        *(f"TK-6.{i}" for i in range(1, 7)),
    ],
    "tottarot": [
        *(f"TT-4.{i}" for i in range(1, 9)),
        *(f"TT-5.{i}" for i in range(1, 6)),
        *(f"TT-6.{i}" for i in range(1, 6)),
    ],
    "hangover": [
        *("HO-4.1", "HO-4.2", "HO-4.3.1", "HO-4.3.2"),
        *(f"HO-4.4.{i}" for i in range(1, 7)),
        *("HO-4.5", "HO-4.6.1", "HO-4.6.2", "HO-4.6.3", "HO-4.7", "HO-4.8"),
        *(
            "HO-5.1",
            "HO-5.2.1",
            "HO-5.2.2",
            "HO-5.2.3",
            "HO-5.2.4",
            "HO-5.3.1",
            "HO-5.3.2",
            "HO-5.4",
            "HO-5.5",
        ),
        *(f"HO-6.{i}" for i in range(1, 7)),
    ],
    "troika": [
        *(f"TR-4.{i}" for i in range(1, 7)),
        *("TR-5.1", "TR-5.2", "TR-5.3"),
        *(f"TR-5.4.{i}" for i in range(1, 6)),
        *(f"TR-5.5.{i}" for i in range(1, 5)),
        *("TR-5.6", "TR-5.7"),
        *(f"TR-6.{i}" for i in range(1, 8)),
    ],
}

GAMES = sorted(RULE_IDS)
ID = re.compile(r"[a-z0-9-]+")
STEP_KEYS = {"say", "rules", "expect", "hint", "point", "accept"}
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def lessons(game: str) -> list[dict[str, Any]]:
    data = json.loads((LESSONS / f"{game}.json").read_text(encoding="utf-8"))
    assert isinstance(data, list) and data, f"{game}.json must be a non-empty JSON list of lessons"
    return data


def every_lesson() -> list[Any]:
    return [pytest.param(g, lesson, id=f"{g}:{lesson['id']}") for g in GAMES for lesson in lessons(g)]


def check_text(text: Any, where: str) -> None:
    assert isinstance(text, dict) and set(text) == {"en", "ja"}, f"{where}: needs exactly en and ja"
    for lang in ("en", "ja"):
        assert isinstance(text[lang], str) and text[lang].strip(), f"{where}: {lang} is empty"
    assert JAPANESE.search(text["ja"]), f"{where}: the ja text has no Japanese in it"


def test_every_game_has_lessons_file() -> None:
    assert sorted(p.stem for p in LESSONS.glob("*.json")) == GAMES
    for game in GAMES:
        assert 2 <= len(lessons(game)) <= 5, f"{game}: 2 to 5 lessons"


@pytest.mark.parametrize("game", GAMES)
def test_lesson_schema(game: str) -> None:
    ids = [lesson.get("id") for lesson in lessons(game)]
    assert len(set(ids)) == len(ids), f"{game}: lesson ids repeat: {ids}"
    for lesson in lessons(game):
        where = f"{game}:{lesson.get('id')}"
        assert set(lesson) == {"id", "title", "seat", "setup", "steps"}, where
        assert isinstance(lesson["id"], str) and ID.fullmatch(lesson["id"]), where
        check_text(lesson["title"], f"{where} title")
        setup = lesson["setup"]
        assert setup["format"] == RECORD_FORMAT and setup["game"] == game, where
        assert isinstance(setup["players"], int), where
        assert type(lesson["seat"]) is int and 0 <= lesson["seat"] < setup["players"], where
        assert all(isinstance(a, str) for a in setup["actions"]), f"{where}: setup actions are texts"
        defaults = bodoge.make(game, setup["players"]).options_json()
        for name, value in setup["options"].items():
            assert defaults[name] != value, f"{where}: option {name} is the default; leave it out"
        steps = lesson["steps"]
        assert isinstance(steps, list) and steps, where
        for i, step in enumerate(steps):
            at = f"{where} step {i}"
            assert {"say", "rules", "expect"} <= set(step) <= STEP_KEYS, at
            check_text(step["say"], at)
            assert isinstance(step["rules"], list), at
            assert step["expect"] is None or isinstance(step["expect"], str), at
            if "hint" in step:
                check_text(step["hint"], f"{at} hint")
            if "point" in step:
                assert isinstance(step["point"], list), at
                assert all(isinstance(p, str) and p for p in step["point"]), at
            if "accept" in step:  # the beginnings of the moves' texts the step takes, its own among them
                assert isinstance(step["accept"], list) and step["accept"], at
                assert any(
                    step["expect"] == a or step["expect"].startswith(a + " ") for a in step["accept"]
                ), at


@pytest.mark.parametrize("game", GAMES)
def test_cited_rules_exist(game: str) -> None:
    known = set(RULE_IDS[game])
    for lesson in lessons(game):
        for i, step in enumerate(lesson["steps"]):
            unknown = [r for r in step["rules"] if r not in known]
            assert not unknown, f"{game}:{lesson['id']} step {i} cites {unknown}, not rules of §4–6"


@pytest.mark.parametrize("game", GAMES)
def test_lessons_cover_sections_4_to_6(game: str) -> None:
    cited = {r for lesson in lessons(game) for step in lesson["steps"] for r in step["rules"]}
    missing = [r for r in RULE_IDS[game] if r not in cited]
    assert not missing, f"{game}: no lesson teaches {missing}"


@pytest.mark.parametrize(("game", "lesson"), every_lesson())
def test_lesson_replays(game: str, lesson: dict[str, Any]) -> None:
    """The setup replays, each expected action is legal when it comes, a step with a hint waits
    for the learner, and the learner plays at least once."""
    state = bodoge.replay(lesson["setup"])
    seat = lesson["seat"]
    learner_moves = 0
    for i, step in enumerate(lesson["steps"]):
        at = f"step {i} ({step['say']['en'][:40]!r})"
        expect = step["expect"]
        if expect is None:
            assert "hint" not in step, f"{at}: a hint belongs to a step that waits for a move"
            continue
        mover = state.current_player
        assert mover is not None, f"{at}: the game is already over"
        if "hint" in step:
            assert mover == seat, f"{at} has a hint, but the move is P{mover}'s, not the learner's"
        learner_moves += mover == seat
        action = state.parse_action(expect)  # IllegalAction if not legal now
        assert state.action_text(action) == expect, f"{at}: write the action as the game does"
        state.apply(action)
    assert learner_moves, "the learner never plays"


def test_an_illegal_step_is_caught() -> None:
    """The replay test can fail: a lesson whose expected move is not legal is refused."""
    lesson = lessons(GAMES[0])[0]
    state = bodoge.replay(lesson["setup"])
    with pytest.raises(bodoge.errors.IllegalAction):
        state.parse_action("no such move")
