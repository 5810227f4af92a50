"""The heuristic agent: each game's rule-of-thumb bot, `bodoge.games.<game>.heuristic.act`."""

from __future__ import annotations

import importlib
import random
from typing import Any

from bodoge.core.game import Game


class HeuristicAgent:
    spec = "heuristic"

    def act(self, game: Game, view: dict[str, Any], rng: random.Random) -> int:
        module = importlib.import_module(f"bodoge.games.{game.name}.heuristic")
        action: int = module.act(game, view, rng)
        return action
