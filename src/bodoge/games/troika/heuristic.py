"""Troika's rule-of-thumb bot: play from the view only.

Each action is judged by what it does to the player's own tiles (hand plus container): the round
score the engine would give them now (TR-6.1), or a heavy penalty without a fuel, plus a little for
pairs and near-runs that later tiles could complete while the pool lasts. `draw` is judged by the
average over the tiles the player cannot see. A legal Troika declaration is taken when nobody has
declared yet (the +5 bonus) or when the tiles already score well.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from bodoge.core.game import Game
from bodoge.games.troika.cards import N_NUMBERS, counts_of
from bodoge.games.troika.scoring import round_value

LEFT_BEHIND = -6.0  # a round without fuel costs a chip: worse than most scores


def evaluate(counts: list[int] | tuple[int, ...], turns_left: float) -> float:
    """How good these tiles are for the player, `turns_left` own turns before the round ends."""
    base, bonus = kept_worth(tuple(counts))
    if turns_left <= 0:
        return base
    hope = min(1.0, turns_left / 6.0)
    return base + hope * bonus


def tile_worth(counts: tuple[int, ...]) -> tuple[float, float]:
    """(the round score now, or LEFT_BEHIND without a fuel; the bonus for pairs and near-runs that
    later tiles could complete): the parts of `evaluate` that depend on the tiles alone."""
    v = round_value(counts)
    base = LEFT_BEHIND if v is None else float(v)
    bonus = 0.0
    has_fuel = v is not None
    for i in range(N_NUMBERS):
        c = counts[i]
        if c == 2:
            bonus += 1.2 if not has_fuel else 0.3
        elif c == 1 and not has_fuel:
            bonus += 0.2
        if c and i + 1 < N_NUMBERS and counts[i + 1] and (i + 2 >= N_NUMBERS or not counts[i + 2]):
            bonus += 0.25  # an open pair toward a jewel
    return base, bonus


#: `tile_worth` kept per tile counts: a game meets the same few hundred again and again.
kept_worth = lru_cache(maxsize=1 << 16)(tile_worth)


def act(game: Game, view: Mapping[str, Any], rng: random.Random) -> int:
    legal = view["legal_actions"]
    ids = [a["id"] for a in legal]
    if len(ids) == 1:
        return int(ids[0])
    seat = view["seat"]
    opts = view["options"]
    n = len(view["hand_sizes"])
    mine_tiles = counts_of(view["hand"])
    container = counts_of(view["containers"][seat])
    own = [a + b for a, b in zip(mine_tiles, container, strict=True)]
    active = max(1, n - sum(1 for d in view["declared"] if d))
    turns_left = view["pool_size"] / active

    if 46 in ids:  # troika
        v = round_value(tuple(own))
        if view["first_declarer"] is None or (v is not None and v >= 6) or turns_left < 2:
            return 46

    face_up = counts_of(view["mine"])
    best: list[int] = []
    best_value = -1e9
    draw_value = None
    if 15 in ids:
        unseen = [int(k) for k in opts["tile_counts"].values()]
        for place in (face_up, mine_tiles, *(counts_of(c) for c in view["containers"])):
            for i in range(N_NUMBERS):
                unseen[i] -= place[i]
        total = sum(unseen)
        if total > 0:
            acc = 0.0
            for i in range(N_NUMBERS):
                if unseen[i] > 0:
                    own[i] += 1
                    acc += unseen[i] * evaluate(own, turns_left - 1)
                    own[i] -= 1
            draw_value = acc / total
    for a in ids:
        if a == 15:
            value = draw_value if draw_value is not None else -1e9
        elif a < 15:
            own[a] += 1
            value = evaluate(own, turns_left - 1)
            own[a] -= 1
        elif a < 46:
            i = (a - 16) if a < 31 else (a - 31)
            own[i] -= 1
            value = evaluate(own, turns_left - 1)
            own[i] += 1
            if a >= 31:
                value -= 0.05  # a container tile goes back face up, for anyone to take
        else:
            value = -1e9  # a troika we chose not to make
        if value > best_value + 1e-9:
            best_value = value
            best = [a]
        elif abs(value - best_value) <= 1e-9:
            best.append(a)
    return int(rng.choice(best))
