"""The view as an array: which cards are in the own hand, played to this trick, and tricks won."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from bodoge.core import Game


def shape(game: Game) -> tuple[int]:
    return (2 * game.num_actions + game.num_players,)


def encode(game: Game, view: Mapping[str, Any], out: np.ndarray) -> None:
    cards = game.num_actions
    for c in view["hand"]:
        out[c - 1] = 1.0
    for _, c in view["trick"]:
        out[cards + c - 1] = 1.0
    for p, won in enumerate(view["won"]):
        out[2 * cards + p] = won / game.options["hand"]
