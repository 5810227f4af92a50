"""The games bodoge knows: every package under `bodoge.games` that exports `GAME` (its Game class)."""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

import bodoge.games as games_package
from bodoge.core.game import Game
from bodoge.errors import BadOption

_classes: dict[str, type[Game]] | None = None


def _discover() -> dict[str, type[Game]]:
    global _classes
    if _classes is None:
        found: dict[str, type[Game]] = {}
        for info in pkgutil.iter_modules(games_package.__path__):
            module = importlib.import_module(f"bodoge.games.{info.name}")
            cls = getattr(module, "GAME", None)
            if cls is not None:
                found[cls.name] = cls
        _classes = dict(sorted(found.items()))
    return _classes


def games() -> list[str]:
    """The names of every registered game, sorted."""
    return list(_discover())


def game_class(name: str) -> type[Game]:
    classes = _discover()
    if name not in classes:
        raise BadOption("game", name, "one of " + ", ".join(classes))
    return classes[name]


def make(name: str, /, players: int | None = None, **options: Any) -> Game:
    """`bodoge.make("troika", players=4, rounds=3)`: the game with its options checked.

    `name` is positional-only, so that an option called "name" is checked like any other (and
    refused as unknown) instead of clashing with it."""
    return game_class(name)(players, **options)
