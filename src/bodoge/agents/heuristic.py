"""The heuristic agent: each game's rule-of-thumb bot, `bodoge.games.<game>.heuristic.act`."""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping
from typing import Any

from bodoge.core.game import Game
from bodoge.errors import BadOption

Policy = Callable[[Game, Mapping[str, Any], random.Random], int]


def heuristic_policy(game: Game) -> Policy:
    """The game's heuristic `act(game, view, rng)`: its package's `heuristic` module
    (`bodoge.games.<game>.heuristic`), or a `heuristic_act` on the game's class (games made outside
    the `bodoge.games` package, such as the test suite's)."""
    policy: Policy | None = getattr(type(game), "heuristic_act", None)
    if policy is not None:
        return policy
    name = f"bodoge.games.{game.name}.heuristic"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        raise BadOption("agent", "heuristic", f"a game with a heuristic ({name})", "there is none") from None
    act: Policy = module.act
    return act


class HeuristicAgent:
    spec = "heuristic"

    def check(self, game: Game) -> None:
        """BadOption now if `game` has no heuristic (rather than at its first move)."""
        heuristic_policy(game)

    def act(self, game: Game, view: dict[str, Any], rng: random.Random) -> int:
        return int(heuristic_policy(game)(game, view, rng))
