"""The lesson loader's checks and the coach (src/bodoge/learn)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

import bodoge
from bodoge.errors import BadOption
from bodoge.learn import Coach, LessonError, load_lessons, parse_lessons
from bodoge.learn.lessons import PACKAGED, lessons_dir

FIXTURES = Path(__file__).parent / "fixtures"


def troika() -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads((FIXTURES / "troika.json").read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("game", ["hangover", "tokkuri", "tottarot", "troika"])
def test_every_fixture_lesson_loads_and_each_step_knows_its_mover(game: str) -> None:
    (lesson,) = load_lessons(game, FIXTURES)
    assert lesson.game == game and lesson.seat == 0
    movers = [s.mover for s in lesson.steps if s.expect is not None]
    assert movers[0] == 0  # the learner's move comes first in every fixture
    assert all(s.mover is None for s in lesson.steps if s.expect is None)


def test_the_directory_is_the_environments_or_the_packaged_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BODOGE_LESSONS_DIR", raising=False)
    assert lessons_dir() == PACKAGED
    monkeypatch.setenv("BODOGE_LESSONS_DIR", str(FIXTURES))
    assert lessons_dir() == FIXTURES
    assert load_lessons("troika")[0].id == "first-moves"


def test_a_game_without_a_lesson_file_has_none(tmp_path: Path) -> None:
    assert load_lessons("troika", tmp_path) == []


def test_an_unknown_game_names_the_games() -> None:
    with pytest.raises(BadOption, match="tokkuri"):
        load_lessons("chess", FIXTURES)


def broken(change: Any) -> str:
    """The error of the troika fixture changed by `change(lesson)`."""
    data = troika()
    change(data[0])
    with pytest.raises(LessonError) as info:
        parse_lessons("troika", data, "troika.json")
    return str(info.value)


def test_errors_name_the_lesson_and_the_step() -> None:
    def wrong_move(lesson: dict[str, Any]) -> None:
        lesson["steps"][2]["expect"] = "take 99"

    message = broken(wrong_move)
    assert message.startswith("troika.json: lesson 0 ('first-moves'): step 2: expect 'take 99' is not legal")

    def no_japanese(lesson: dict[str, Any]) -> None:
        del lesson["steps"][1]["say"]["ja"]

    assert "step 1: say has no text in ja" in broken(no_japanese)

    def hint_without_move(lesson: dict[str, Any]) -> None:
        lesson["steps"][0]["hint"] = {"en": "x", "ja": "x"}

    assert "step 0: a hint is said when the learner plays another move" in broken(hint_without_move)


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda lesson: lesson.update(id="First Moves"), "id is 1 to 64 of a-z, 0-9 and '-'"),
        (lambda lesson: lesson.update(seat=4), "seat is the learner's seat, an integer from 0 to 3"),
        (lambda lesson: lesson.update(seat=True), "seat is the learner's seat"),
        (lambda lesson: lesson.update(colour="red"), "unknown field(s) colour"),
        (lambda lesson: lesson.pop("steps"), "missing steps"),
        (lambda lesson: lesson.update(steps=[]), "steps is a non-empty list"),
        (
            lambda lesson: lesson["setup"].update(game="tokkuri"),
            "setup is a record of 'tokkuri', but this file is troika's",
        ),
        (lambda lesson: lesson["setup"].update(actions=["take 99"]), "setup does not replay: action 0"),
        (lambda lesson: lesson["setup"].update(rules_version=99), "setup does not replay"),
        (lambda lesson: lesson["steps"][1].update(rules="TR-4.1"), "step 1: rules is a list of rule ids"),
        (
            lambda lesson: lesson["steps"][1].update(point=["<script>"]),
            "step 1: point is a list of board places",
        ),
        (
            lambda lesson: lesson["steps"][1].update(point=["player:0"]),
            "step 1: point 'player:0' is no place on troika's board; its places are hand:P, container:P",
        ),
        (lambda lesson: lesson["steps"][1].update(point=["hand:4"]), "(P a seat from 0 to 3)"),
        (lambda lesson: lesson["steps"][1].update(point=["mine:0"]), "point 'mine:0' is no place"),
        (lambda lesson: lesson["steps"][1].pop("expect"), "step 1: a step says what comes next"),
        (
            lambda lesson: lesson["steps"][0].update(accept=["take 7"]),
            "step 0: accept lists the moves a step takes",
        ),
        (
            lambda lesson: lesson["steps"][1].update(accept="take"),
            "step 1: accept is a list of the beginnings",
        ),
        (
            lambda lesson: lesson["steps"][1].update(accept=["draw"]),
            "expect 'take 7' is not among the moves accept",
        ),
        (
            lambda lesson: lesson["steps"][1].update(accept=["take 7", "take 99"]),
            "accept 'take 99' begins no legal",
        ),
        (
            lambda lesson: lesson["steps"][1].update(accept=["take 7", "draw"]),
            "step 1 accepts 'draw', after which step 2's expect 'take 9' is not legal",
        ),
        (
            lambda lesson: lesson["steps"][1].update(say={"en": "x", "ja": "x", "fr": "x"}),
            "unknown language(s) fr",
        ),
    ],
)
def test_each_bad_field_is_refused_with_what_is_allowed(change: Any, said: str) -> None:
    assert said in broken(change)


def test_ids_are_unique_within_a_game() -> None:
    data = troika() + troika()
    with pytest.raises(LessonError, match="the id 'first-moves' is used twice"):
        parse_lessons("troika", data, "troika.json")


def test_a_file_that_is_not_json_says_so(tmp_path: Path) -> None:
    (tmp_path / "troika.json").write_text("[{", encoding="utf-8")
    with pytest.raises(LessonError, match=r"troika\.json: not a readable JSON file"):
        load_lessons("troika", tmp_path)


def coach() -> Coach:
    return Coach(load_lessons("troika", FIXTURES)[0])


def test_the_coach_refuses_a_wrong_move_with_the_hint_and_changes_nothing() -> None:
    c = coach()
    assert c.next().ok  # the first step only explains
    assert c.learners_turn and c.step is not None and c.step.expect == "take 7"
    before = json.dumps(c.view(), sort_keys=True)
    said = c.try_move("draw")
    assert not said.ok
    assert said.message == {
        "en": "Not that one: this lesson wants take 7.",
        "ja": "それではありません。take 7 を選んでください。",
    }
    assert json.dumps(c.view(), sort_keys=True) == before
    assert c.index == 1 and c.played == []
    # An id that is not even legal, and a value of another type, are refused the same way.
    assert not c.try_move(10_000).ok and not c.try_move(None).ok  # type: ignore[arg-type]
    assert json.dumps(c.view(), sort_keys=True) == before


def test_the_coach_takes_the_move_by_text_or_id_and_plays_the_other_seats() -> None:
    c = coach()
    c.next()
    take7 = c.state.parse_action("take 7")
    assert c.try_move(take7).ok
    assert c.played == ["take 7"] and not c.learners_turn
    assert not c.try_move("take 9").ok  # the coach's move: the learner presses Next
    while not c.done:
        assert c.next().ok
    assert c.played == ["take 7", "take 9", "take 12", "draw"]
    assert c.state.history == bodoge.replay(dict(c.lesson.setup, actions=c.played)).history
    assert not c.next().ok  # over


def test_a_refusal_without_a_hint_names_the_move_in_both_languages() -> None:
    data = troika()
    del data[0]["steps"][1]["hint"]
    c = Coach(parse_lessons("troika", data)[0])
    c.next()
    said = c.try_move("TAKE   12")
    assert said.message["en"] == "This lesson wants you to play take 7 here."
    assert "7" in said.message["ja"] and said.message["ja"] != said.message["en"]
    assert c.try_move("TAKE   7").ok  # any spacing and case


def test_follow_replays_the_lessons_moves_and_refuses_others() -> None:
    c = coach()
    c.follow(["take 7", "take 9"])
    assert c.played == ["take 7", "take 9"] and c.index == 3
    with pytest.raises(LessonError, match=r"action 1 is 'take 12', but the lesson's move there is 'take 9'"):
        coach().follow(["take 7", "take 12"])
    with pytest.raises(LessonError, match="the lesson has only 4 moves"):
        coach().follow(["take 7", "take 9", "take 12", "draw", "draw"])


def test_a_lesson_is_not_changed_by_its_coach() -> None:
    lesson = load_lessons("troika", FIXTURES)[0]
    setup = copy.deepcopy(lesson.setup)
    c = Coach(lesson)
    c.follow(["take 7"])
    assert lesson.setup == setup and Coach(lesson).played == []


def test_a_step_takes_every_move_it_accepts_and_the_lesson_goes_on_from_it() -> None:
    """`accept`: a step whose words allow several moves (the order of the last snacks) takes each of
    them, by text or id; the lesson goes on from the move played, over `follow` too; others are
    still refused."""
    data = json.loads((FIXTURES / "hangover.json").read_text(encoding="utf-8"))
    data[0]["steps"][1]["accept"] = ["arrange -1/-2"]
    lesson = parse_lessons("hangover", data)[0]
    assert lesson.steps[1].accept == ("arrange -1/-2",)
    assert lesson.to_json()["steps"][1]["accept"] == ["arrange -1/-2"]
    other = "arrange -1/-2 -1/-3 +2/+3 -3/+3"
    c = Coach(lesson)
    c.next()
    assert not c.try_move("arrange +2/+3 -1/-2 -1/-3 -3/+3").ok
    assert c.try_move(c.state.parse_action(other)).ok and c.played == [other]
    followed = Coach(lesson)
    followed.follow([other])
    assert followed.view()["you"]["columns"] == [["-1/-2"], ["-1/-3"], ["+2/+3"], ["-3/+3"]]
    with pytest.raises(LessonError, match="the lesson's move there is 'arrange -1/-2 \\+2/\\+3"):
        Coach(lesson).follow(["arrange +2/+3 -1/-2 -1/-3 -3/+3"])


def test_the_seats_have_names_in_each_language_the_learner_first() -> None:
    from bodoge.learn.lessons import seat_names

    assert seat_names(3, 0) == {"en": ["You", "Ken", "Mia"], "ja": ["あなた", "ケン", "ミア"]}
    # Ken sits on the learner's left (the next seat) wherever the learner sits.
    assert seat_names(4, 2)["en"] == ["Mia", "Sam", "You", "Ken"]
