"""`bodoge games`, `rules` and `play` (the terminal game) through the command itself."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

import bodoge
from bodoge import agents
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
    assert "Options" in result.output and len(result.output.splitlines()) > 20


def test_rules_refuses_an_unknown_game_and_language() -> None:
    assert runner.invoke(app, ["rules", "chess"]).exit_code == 2
    bad = runner.invoke(app, ["rules", "troika", "--lang", "fr"])
    assert bad.exit_code == 2 and "en or ja" in bad.output


def test_play_helps_on_bad_input_then_records_the_game(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    typed = "help\ntake 99\nnonsense\n15\nquit\n"  # 15 = draw, legal at the first turn of seed 3
    result = runner.invoke(
        app, ["play", "troika", "--players", "3", "--seed", "3", "--record", str(record)], input=typed
    )
    assert result.exit_code == 0, result.output
    assert "Legal actions" in result.output
    assert result.output.count("not a legal action now") == 2
    saved = json.loads(record.read_text())
    assert saved["actions"][0] == 15
    state = bodoge.replay(saved)
    assert state.history[0] == 15 and not state.is_terminal


def test_play_refuses_bad_options_and_seats() -> None:
    bad_option = runner.invoke(app, ["play", "troika", "--set", "rounds=0"], input="quit\n")
    assert bad_option.exit_code == 2 and "rounds" in bad_option.output
    bad_seat = runner.invoke(app, ["play", "troika", "--players", "3", "--seat", "5"], input="quit\n")
    assert bad_seat.exit_code == 2 and "seat" in bad_seat.output


@pytest.mark.parametrize("name", bodoge.games())
def test_play_to_the_end_by_typing_action_numbers(name: str) -> None:
    """A person who always types the first legal number finishes a whole game against bots."""
    players = bodoge.core.registry.game_class(name).min_players
    result = runner.invoke(
        app,
        ["play", name, "--players", str(players), "--seed", "2", "--bots", "heuristic"],
        input="".join(_first_legal_answers(name, players)),
    )
    assert result.exit_code == 0, result.output[-2000:]
    assert "Winner(s):" in result.output


def _first_legal_answers(name: str, players: int) -> list[str]:
    """Replays the CLI's game (seed 2, heuristic bots, seat 0 always taking its first legal action)."""
    game = bodoge.make(name, players=players)
    state = game.new_state(seed=2)
    bot = agents.make("heuristic")
    rng = random.Random(state.seed)
    answers = []
    while not state.is_terminal:
        seat = state.current_player
        assert seat is not None
        if seat == 0:
            action = state.legal_actions()[0]
            answers.append(f"{action}\n")
        else:
            action = bot.act(game, state.view(seat), rng)
        state.apply(action)
    return answers
