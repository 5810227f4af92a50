"""`bodoge learn GAME`: a lesson in the terminal, followed by piping its moves in."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from bodoge.cli import app

runner = CliRunner()


def test_a_lesson_completes_from_piped_input_and_a_wrong_move_gets_the_hint(fixture_lessons: Path) -> None:
    result = runner.invoke(app, ["learn", "troika"], input="draw\n1\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Step 2 of 6 — Your move: play take 7." in out
    assert "Not the lesson's move: Not that one: this lesson wants take 7." in out
    assert out.index("wants take 7") < out.index("P0 takes tile 7")  # refused, then played
    assert "P3 draws a tile." in out  # the coach played the other seats
    assert "Lesson complete!" in out
    # The coach names the seats as the web page's board does; the terminal's board says P0, P1, ….
    assert "At the table (the board's P0, P1, …): you are P0, Ken is P1, Mia is P2, Sam is P3." in out


def test_japanese_and_a_move_in_parts(fixture_lessons: Path) -> None:
    # Hangover's arrangement is chosen a snack at a time, as in bodoge play.
    result = runner.invoke(
        app, ["learn", "hangover", "--lang", "ja"], input="arrange -1/-2 +2/+3 -1/-3 -3/+3\n"
    )
    assert result.exit_code == 0, result.output
    assert "ステップ 2 / 3" in result.output and "レッスン完了" in result.output
    # The board is English symbols in every language: the legend in Japanese says how to read it.
    legend = result.output.index("盤面の読み方")
    assert legend < result.output.index("ステップ 1 / 3")


def test_the_english_lesson_opens_with_the_english_legend(fixture_lessons: Path) -> None:
    result = runner.invoke(app, ["learn", "troika"], input="take 7\n")
    assert "How to read the board" in result.output
    assert "盤面の読み方" not in result.output


def test_the_end_of_input_stops_the_lesson(fixture_lessons: Path) -> None:
    result = runner.invoke(app, ["learn", "tokkuri"], input="")
    assert result.exit_code == 0
    assert "Lesson complete" not in result.output


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["learn", "troika", "--lesson", "nope"], "troika has no lesson 'nope'; its lessons: first-moves"),
        (["learn", "troika", "--lang", "fr"], "--lang takes en or ja"),
        (["learn", "chess"], "chess"),
    ],
)
def test_bad_arguments_say_what_is_allowed(fixture_lessons: Path, args: list[str], said: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code != 0
    assert said in result.output
