"""Determinization, through the rules: deal the unseen cards at random, then replay the plays."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from bodoge.errors import BadOption
from toygame.rules import ThreeTricks, ThreeTricksState


def sample_state(game: ThreeTricks, view: Mapping[str, Any], rng: random.Random) -> ThreeTricksState:
    seat, k, n = view["seat"], game.options["hand"], game.num_players
    plays = [(e["seat"], e["card"]) for e in view["log"] if e["type"] == "play"]
    dealt: list[list[int] | None] = [None] * n
    if seat is not None:
        dealt[seat] = sorted(view["hand"] + [c for p, c in plays if p == seat])
    known = {c for p, c in plays} | set(dealt[seat] if seat is not None else [])
    unseen = [c for c in range(1, game.cards + 1) if c not in known]
    rng.shuffle(unseen)
    deck: list[int] = []
    for p in range(n):
        hand = dealt[p]
        if hand is None:
            mine = [c for q, c in plays if q == p]
            hand = mine + [unseen.pop() for _ in range(k - len(mine))]
        deck += hand
    state = game.new_state(seed=0, deck=deck + unseen)
    blank = game.blank_state(rng)
    for name in ("hands", "aside", "trick", "won", "leader", "events", "current_player"):
        setattr(blank, name, getattr(state, name))
    for _, card in plays:
        blank.apply(card - 1)
    if blank.view(seat) != view:
        raise BadOption("view", "its log", "a view that a Three Tricks game can produce")
    return blank
