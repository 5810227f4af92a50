"""Choosing among scored moves: the one rule of thumb every quick policy ends with."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any


def best_move(moves: Sequence[int], scores: Sequence[Any], rng: random.Random) -> int:
    """The move with the highest score; a tie is broken uniformly at random, with one draw from
    `rng` and only at a tie (so a policy without ties leaves `rng` untouched)."""
    top = max(scores)
    tied = [m for m, s in zip(moves, scores, strict=True) if s == top]
    return tied[0] if len(tied) == 1 else tied[int(rng.random() * len(tied))]
