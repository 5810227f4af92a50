"""The heuristic agent: each game's rule-of-thumb bot, the `act` of its package's `heuristic` module."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from bodoge.core.game import Game, State
from bodoge.errors import BadOption

Policy = Callable[[Game, Mapping[str, Any], random.Random], int]
QuickPolicy = Callable[[State, random.Random], int]


def heuristic_policy(game: Game) -> Policy:
    """The game's heuristic `act(game, view, rng)`: its package's `heuristic` module, or a
    `heuristic_act` on the game's class (a game written as one module, such as the test suite's)."""
    policy: Policy | None = getattr(type(game), "heuristic_act", None)
    if policy is not None:
        return policy
    module = game.part("heuristic")
    if module is None:
        where = f"a heuristic module beside {type(game).__module__}"
        raise BadOption("agent", "heuristic", f"a game with a heuristic ({where})", "there is none")
    act: Policy = module.act
    return act


def quick_policy(game: Game) -> QuickPolicy | None:
    """The game's quick policy `act(state, rng)`, or None if it has none: its package's `rollout`
    module, or a `quick_act` on the game's class.

    A quick policy decides on the full state in about the time the engine takes to apply a move,
    reading only what the seat to move knows: search simulations use it for every seat's moves, where
    building a view for the view-based heuristic would cost ten times the move itself."""
    policy: QuickPolicy | None = getattr(type(game), "quick_act", None)
    if policy is not None:
        return policy
    module = game.part("rollout")
    if module is None:
        return None
    act: QuickPolicy = module.act
    return act


def quick_in_search(game: Game) -> bool:
    """Whether ISMCTS's `auto` should play its simulations with the game's quick policy: yes where it
    has one, unless its `rollout` module says `IN_SEARCH = False` (a policy written for the game
    review whose effect on the bot's strength is not measured yet: the bot keeps what it had)."""
    if quick_policy(game) is None:
        return False
    module = game.part("rollout")
    return module is None or bool(getattr(module, "IN_SEARCH", True))


class HeuristicAgent:
    spec = "heuristic"
    reads_log = False  # every game's heuristic decides on the present state (view(seat, log=False))

    def check(self, game: Game) -> None:
        """BadOption now if `game` has no heuristic (rather than at its first move)."""
        heuristic_policy(game)

    def act(self, game: Game, view: Mapping[str, Any], rng: random.Random) -> int:
        return int(heuristic_policy(game)(game, view, rng))
