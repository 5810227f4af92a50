"""`bodoge games`, `rules` and `play`'s refusals through the command itself (playing: test_cli_play.py)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import bodoge
from bodoge.cli import app
from bodoge.core.registry import game_class

runner = CliRunner()


def test_games_lists_every_game() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    for name in bodoge.games():
        assert name in result.output


@pytest.mark.parametrize("name", bodoge.games())
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_rules_prints_the_summary_and_options(name: str, lang: str) -> None:
    result = runner.invoke(app, ["rules", name, "--lang", lang])
    assert result.exit_code == 0
    rules = game_class(name).rules_summary(lang)
    # The terminal wraps lines (Japanese anywhere), so compare with all whitespace taken out.
    assert "".join(rules.split())[:60] in "".join(result.output.split())
    assert ("Options" if lang == "en" else "オプション") in result.output and len(
        result.output.splitlines()
    ) > 20


def test_rules_refuses_an_unknown_game_and_language() -> None:
    assert runner.invoke(app, ["rules", "chess"]).exit_code == 2
    bad = runner.invoke(app, ["rules", "troika", "--lang", "fr"])
    assert bad.exit_code == 2 and "en or ja" in bad.output


def test_play_refuses_bad_options_and_seats() -> None:
    bad_option = runner.invoke(app, ["play", "troika", "--set", "rounds=0"], input="quit\n")
    assert bad_option.exit_code == 2 and "rounds" in bad_option.output
    bad_seat = runner.invoke(app, ["play", "troika", "--players", "3", "--seat", "5"], input="quit\n")
    assert bad_seat.exit_code == 2 and "seat" in bad_seat.output
