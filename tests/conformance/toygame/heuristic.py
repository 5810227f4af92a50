"""Win the trick with the lowest card that wins it; if none does, throw the lowest."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from bodoge.core import Game


def act(game: Game, view: Mapping[str, Any], rng: random.Random) -> int:
    hand = sorted(view["hand"])
    best = max((c for _, c in view["trick"]), default=0)
    winning = [c for c in hand if c > best]
    return (winning[0] if winning else hand[0]) - 1
