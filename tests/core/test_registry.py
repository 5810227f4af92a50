"""The registry (issue #19): games register themselves, by entry point or `register`; core names none."""

from __future__ import annotations

import ast
import importlib
from importlib.metadata import entry_points
from pathlib import Path
from typing import ClassVar

import pytest

import bodoge
from bodoge.core import registry
from bodoge.core.game import Game
from bodoge.errors import BadOption

CORE = Path(bodoge.__file__).parent / "core"


def test_the_four_games_come_from_entry_points() -> None:
    declared = {point.name: point.value for point in entry_points(group=registry.ENTRY_POINT_GROUP)}
    assert {"hangover", "tokkuri", "tottarot", "troika"} <= set(declared)
    for name in declared:
        assert registry.game_class(name).name == name
    assert set(declared) <= set(bodoge.games())


def test_games_is_a_plain_function_even_after_importing_a_game() -> None:
    importlib.import_module("bodoge.games.troika.rules")
    from bodoge.games.tokkuri import rules  # noqa: F401

    assert callable(bodoge.games) and bodoge.games == registry.games
    assert bodoge.games() == sorted(bodoge.games())


class Coin(Game):
    name = "coin_for_registry_test"
    title: ClassVar[dict[str, str]] = {"en": "Coin", "ja": "コイン"}
    min_players = max_players = default_players = 2


def test_register_and_unregister() -> None:
    assert Coin.name not in bodoge.games()
    assert registry.register(Coin) is Coin
    try:
        assert Coin.name in bodoge.games() and registry.game_class(Coin.name) is Coin
        # A game registered at run time is not one an installed package declares.
        assert Coin.name not in registry.declared()
        assert set(registry.declared()) >= {"hangover", "tokkuri", "tottarot", "troika"}
        registry.register(Coin)  # the same class again: no change
        clash = type("Other", (Game,), {"name": Coin.name})
        with pytest.raises(ValueError, match="taken"):
            registry.register(clash)
        assert registry.game_class(Coin.name) is Coin
    finally:
        registry.unregister(Coin.name)
    assert Coin.name not in bodoge.games()
    with pytest.raises(BadOption, match="one of hangover"):
        registry.game_class(Coin.name)


@pytest.mark.parametrize("bad", [int, object(), "troika"])
def test_register_refuses_what_is_not_a_game(bad: object) -> None:
    with pytest.raises(TypeError):
        registry.register(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["", "Two Words", "UPPER", None])
def test_register_refuses_bad_names(name: object) -> None:
    with pytest.raises(ValueError, match="lower-case identifier"):
        registry.register(type("Named", (Game,), {"name": name}))


@pytest.mark.parametrize("name", [None, 3, ["troika"], {"a": 1}])
def test_a_game_name_that_is_not_text_is_a_bad_option(name: object) -> None:
    with pytest.raises(BadOption):
        bodoge.make(name)  # type: ignore[arg-type]


def test_core_imports_nothing_from_the_games() -> None:
    """DESIGN.md §1: core knows no game; it reaches a game's parts through Game.part."""
    for path in sorted(CORE.glob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                names = (
                    [node.value] if node.value.startswith("bodoge.games.") else []
                )  # not the entry-point group
            else:
                continue
            for name in names:
                assert not name.startswith("bodoge.games"), f"{path.name}:{node.lineno} names {name}"


class _Point:
    """A stand-in for an installed package's entry point."""

    def __init__(self, name: str, target: object) -> None:
        self.name, self.value, self._target = name, f"outside:{name}", target

    def load(self) -> object:
        if isinstance(self._target, Exception):
            raise self._target
        return self._target


def test_an_outside_package_adds_a_game_and_a_broken_one_is_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    points = [
        _Point("coin_for_registry_test", Coin),
        _Point("broken", ImportError("no module named outside")),
        _Point("misnamed", Coin),  # the entry point's name must be the game's
    ]
    monkeypatch.setattr(registry, "entry_points", lambda group: points if group == "bodoge.games" else [])
    monkeypatch.setattr(registry, "_classes", {})
    monkeypatch.setattr(registry, "_loaded", False)
    with pytest.warns(UserWarning) as warned:
        assert registry.games() == ["coin_for_registry_test"]
    said = " ".join(str(w.message) for w in warned)
    assert "'broken'" in said and "cannot be loaded" in said and "'misnamed'" in said
    assert registry.game_class("coin_for_registry_test") is Coin
