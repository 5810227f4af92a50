"""`bodoge rules GAME` at 80 columns and in Japanese (issue #16): every option name one needs for
`--set` appears whole, and `--lang ja` prints the options' words in Japanese."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

import bodoge
from bodoge.cli import app
from bodoge.cli.common import console
from bodoge.core import registry
from bodoge.core.registry import game_class

runner = CliRunner()


@pytest.mark.parametrize("game", bodoge.games())
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_option_names_are_never_cut(game: str, lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(console, "width", 80)  # an 80-column terminal
    result = runner.invoke(app, ["rules", game, "--lang", lang])
    assert result.exit_code == 0, result.output
    names = re.findall(r"^│ (\S+)", result.output, flags=re.MULTILINE)
    assert {spec.name for spec in game_class(game).option_specs} <= set(names)


@pytest.mark.parametrize("game", bodoge.games())
def test_the_options_table_speaks_japanese(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    cls = game_class(game)
    texts = cls.needed_part("text").TEXTS
    monkeypatch.setattr(console, "width", 2000)  # wide enough that no cell wraps
    result = runner.invoke(app, ["rules", game, "--lang", "ja"])
    assert result.exit_code == 0, result.output
    flat = re.sub(r"\s+", "", result.output)
    assert "オプション" in flat and "とりうる値" in flat and "what it changes" not in result.output
    for spec in cls.option_specs:
        words = texts.option_words("ja", spec)
        assert words is not None, f"{game}: option {spec.name} has no Japanese words"
        help_, allowed = words
        assert re.sub(r"\s+", "", help_) in flat and re.sub(r"\s+", "", allowed) in flat
        assert spec.help not in result.output


def test_every_option_key_names_an_option() -> None:
    """No Japanese words for an option that does not exist (a renamed option would leave them)."""
    for game in registry.declared():  # (a server test's toy game has no words)
        cls = game_class(game)
        names = {spec.name for spec in cls.option_specs}
        keys = [k for k in cls.needed_part("text").TEXTS.tables["ja"] if k.startswith("option.")]
        assert {k.split(".")[1] for k in keys} == names, game


def test_version() -> None:
    import importlib.metadata

    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.strip() == f"bodoge {importlib.metadata.version('bodoge')}"
