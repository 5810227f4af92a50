"""The heuristic agent: each game's rule-of-thumb bot, `bodoge.games.<game>.heuristic.act`."""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any

from bodoge.core.game import Game, State
from bodoge.errors import BadOption

Policy = Callable[[Game, Mapping[str, Any], random.Random], int]
QuickPolicy = Callable[[State, random.Random], int]


def heuristic_policy(game: Game) -> Policy:
    """The game's heuristic `act(game, view, rng)`: its package's `heuristic` module
    (`bodoge.games.<game>.heuristic`), or a `heuristic_act` on the game's class (games made outside
    the `bodoge.games` package, such as the test suite's)."""
    policy: Policy | None = getattr(type(game), "heuristic_act", None)
    if policy is not None:
        return policy
    module = _game_module(game, "heuristic")
    if module is None:
        where = f"bodoge.games.{game.name}.heuristic"
        raise BadOption("agent", "heuristic", f"a game with a heuristic ({where})", "there is none")
    act: Policy = module.act
    return act


def _game_module(game: Game, part: str) -> ModuleType | None:
    """The module `bodoge.games.<game>.<part>`, or None if the game has none."""
    name = f"bodoge.games.{game.name}.{part}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is None or not name.startswith(exc.name):  # a missing import inside it
            raise
        return None


def quick_policy(game: Game) -> QuickPolicy | None:
    """The game's quick policy `act(state, rng)`, or None if it has none: its package's `rollout`
    module (`bodoge.games.<game>.rollout`), or a `quick_act` on the game's class.

    A quick policy decides on the full state in about the time the engine takes to apply a move,
    reading only what the seat to move knows: search simulations use it for every seat's moves, where
    building a view for the view-based heuristic would cost ten times the move itself."""
    policy: QuickPolicy | None = getattr(type(game), "quick_act", None)
    if policy is not None:
        return policy
    module = _game_module(game, "rollout")
    if module is None:
        return None
    act: QuickPolicy = module.act
    return act


class HeuristicAgent:
    spec = "heuristic"

    def check(self, game: Game) -> None:
        """BadOption now if `game` has no heuristic (rather than at its first move)."""
        heuristic_policy(game)

    def act(self, game: Game, view: Mapping[str, Any], rng: random.Random) -> int:
        return int(heuristic_policy(game)(game, view, rng))
