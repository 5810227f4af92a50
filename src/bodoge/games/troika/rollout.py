"""Troika's quick policy: the heuristic's move, decided on the full state without building a view,
for search simulations (ISMCTS rollouts and its model of the other players, the game review's
playouts).

It reads only what the seat to move knows: its own hand and container, every container, the face-up
mine, the pool's size, the declarations and the tile set. Never another seat's hand, the pool's
tiles, nor the tiles set aside. The rules of thumb and their arithmetic are the heuristic's own
(`heuristic.act`, with `heuristic.evaluate` on the same tile counts, options in the same order and
the same tie-break), so the two make the same move on the same knowledge and random stream, ten
times faster: the view, and the lists of tiles that the heuristic counts again, are never built.
"""

from __future__ import annotations

import functools
import random
from operator import add, mul, sub

from bodoge.games.troika.cards import N_NUMBERS
from bodoge.games.troika.heuristic import tile_worth
from bodoge.games.troika.play import DRAW, RETURN_CONTAINER, RETURN_HAND, TROIKA
from bodoge.games.troika.scoring import round_value
from bodoge.games.troika.state import TroikaGame, TroikaState

#: ISMCTS's `auto` keeps random rollouts and UCT for every seat in Troika (`quick_in_search`): with
#: them it beats the heuristic and OpenSpiel's ISMCTS clearly (docs/measured.md). With this policy
#: (`ismcts:rollout=quick,opponents=quick`) it is stronger still at equal time (0.35 ± 0.07 against
#: three default bots, 4 players, docs/measured.md); the default changes once the peer tables are
#: measured again with it, and the test suite's searched Troika games are sized for its cost.
IN_SEARCH = False

NOTHING = -1e9  # the value of a troika not chosen, and of a draw from a pool of no unseen tile
KEPT = 1 << 17  # tile counts whose worth is kept (per tile set): a game meets a few thousand


@functools.lru_cache(maxsize=32)
def _units(game: TroikaGame) -> tuple[int, ...]:
    """One tile of each number in a packed key of tile counts: `shift` bits per number, tile 1 lowest,
    enough bits for every copy of the most copied number (the `shift` is the first item)."""
    shift = max(max(game.tile_counts), 1).bit_length()
    return (shift, *(1 << (shift * i) for i in range(N_NUMBERS)))


# The worth (`heuristic.tile_worth`) of tile counts packed in one int, per `shift`: a lookup by int,
# where a tuple of 15 counts would have to be built and hashed for each of the twenty or so tile sets
# one decision weighs.
_WORTH: dict[int, dict[int, tuple[float, float]]] = {}


def _worth(key: int, shift: int, kept: dict[int, tuple[float, float]]) -> tuple[float, float]:
    mask = (1 << shift) - 1
    worth = kept[key] = tile_worth(tuple((key >> (shift * i)) & mask for i in range(N_NUMBERS)))
    return worth


def act(state: TroikaState, rng: random.Random) -> int:
    """A legal action for `state.current_player` (never called at the end of the game)."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    g = state.game
    p: int = state.current_player  # type: ignore[assignment]
    hand = state.hands[p]
    container = state.containers[p]
    active = max(1, g.num_players - state.n_declared)
    turns_left = len(state.pool) / active
    if legal[-1] == TROIKA:
        v = round_value(tuple(map(add, hand, container)))
        if state.first_declarer is None or (v is not None and v >= 6) or turns_left < 2:
            return TROIKA
    shift, *units = _units(g)
    own = sum(map(mul, map(add, hand, container), units))  # hand and container, packed
    kept = _WORTH.get(shift)
    if kept is None or len(kept) > KEPT:
        kept = _WORTH[shift] = {}
    get = kept.get
    after = turns_left - 1
    # as `heuristic.evaluate`: only the bonus waits for later tiles (base + 0.0 × bonus is base)
    hope = min(1.0, after / 6.0) if after > 0 else 0.0
    draw_value = NOTHING
    if legal[-1] >= DRAW and DRAW in legal:
        unseen = list(map(sub, g.tile_counts, map(add, state.mine, hand)))
        for c in state.containers:
            unseen = list(map(sub, unseen, c))
        total = sum(unseen)
        if total > 0:
            acc = 0.0
            for k, unit in zip(unseen, units, strict=True):
                if k > 0:
                    key = own + unit
                    w = get(key) or _worth(key, shift, kept)
                    acc += k * (w[0] + hope * w[1])
            draw_value = acc / total
    best: list[int] = []
    best_value = -1e9
    for a in legal:
        if a == DRAW:
            v_a = draw_value
        elif a < TROIKA:
            if a < DRAW:  # take
                key = own + units[a]
            elif a < RETURN_CONTAINER:  # return from the hand
                key = own - units[a - RETURN_HAND]
            else:  # return from the container
                key = own - units[a - RETURN_CONTAINER]
            w = get(key) or _worth(key, shift, kept)
            v_a = w[0] + hope * w[1]
            if a >= RETURN_CONTAINER:
                v_a -= 0.05  # face up again, for anyone to take
        else:
            v_a = NOTHING  # a troika we chose not to make
        if v_a > best_value + 1e-9:
            best_value = v_a
            best = [a]
        elif abs(v_a - best_value) <= 1e-9:
            best.append(a)
    return rng.choice(best)  # even of one: the heuristic's random stream, move for move
