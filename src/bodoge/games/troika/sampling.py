"""Determinization for Troika (`Troika.sample_state`): a full state consistent with one seat's view.

What a seat cannot see in the round in play: the other hands, the face-down pool, the 2-player
set-aside tiles, and the tiles in others' deal, draw and hand-return events. A tile the seat returned
face down (TR-D9) was in the pool at that moment only: any later unseen draw may have taken it (the
view's `returned_in_pool` is the rules' bookkeeping of what the seat may still count on, not a fact
about the pool). The sampler:

1. deals the tiles the seat cannot account for uniformly at random among the places they could be
   now: the other hands, the pool and the set-aside tiles, giving every declarer a hand with which the
   declaration was legal (TR-7.1; a declarer's hand does not change after it declares);
2. walks the round's events back from that position to choose the tile of every hidden event, so
   that each hidden draw took a tile the player holds now or returned later, each hand return put
   back a tile the player held, and the pool held each tile the seat itself returned; a walk that
   finds no such history (rare) is started again from step 1;
3. plays the round from its start **through the rules**, with those tiles stacked as its chance
   outcomes (TR-3.4) and the round's actions replayed, so every count, flip and declaration is the
   rules' own. A sample the rules refuse is started again from step 1.

Earlier rounds: every tile was reshuffled at each round's start (TR-D10) and every hand was shown at
its end, so nothing hidden in them bears on play. Their events are kept as the seat saw them: a tile
hidden from the seat stays unknown (None) in the sampled state.

The walk prefers, for each hidden draw, a tile the seat's own earlier returns still need in the pool,
and for each hidden return a tile they do not need (needs counted from the seat's known tiles); that
bias is what makes the walk find a history at the first try in nearly every position. Step 1's
position is uniform; the history is not weighted by its probability.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from operator import add
from typing import Any

from bodoge.errors import BadOption
from bodoge.games.troika.cards import N_NUMBERS, counts_of
from bodoge.games.troika.rules import (
    DRAW,
    E_DEAL,
    E_DRAW,
    E_FLIP,
    E_REMOVED,
    E_RETURN_CONTAINER,
    E_RETURN_HAND,
    E_ROUND,
    E_ROUND_END,
    E_TAKE,
    E_TROIKA,
    RETURN_CONTAINER,
    RETURN_HAND,
    TAKE,
    TROIKA,
    Troika,
    TroikaState,
    parse_event,
    weighted_hands,
)
from bodoge.games.troika.scoring import zero_waste_with_fuel

ATTEMPTS = 300


def _pick(weights: Sequence[int], rng: random.Random) -> int:
    """An index chosen with probability proportional to its (non-negative) weight."""
    r = rng.randrange(sum(weights))
    for i, w in enumerate(weights):
        r -= w
        if r < 0:
            return i
    raise AssertionError("unreachable")


def visible_round(game: Troika, seg: Sequence[Sequence[Any]], seat: int | None) -> dict[str, Any]:
    """What the seat saw of a round's position at the end of `seg`: pool size, mine, containers,
    its own hand and its known returned tiles (the same rule as `TroikaState._pool_exit`)."""
    n = game.num_players
    pool_size = game.total_tiles
    removed = 0
    mine = [0] * N_NUMBERS
    containers = [[0] * N_NUMBERS for _ in range(n)]
    hand = [0] * N_NUMBERS
    known = [0] * N_NUMBERS
    ksum = 0
    hand_sizes = [0] * n
    for e in seg:
        kind = e[0]
        if kind == E_REMOVED:
            pool_size -= e[1]
            removed = e[1]
        elif kind in (E_DEAL, E_DRAW, E_FLIP):
            pool_size -= 1
            q, t = e[1], e[2]
            if kind == E_FLIP:
                mine[t - 1] += 1
            else:
                hand_sizes[q] += 1
                if q == seat:
                    hand[t - 1] += 1
            if kind != E_DEAL and ksum:
                if (kind == E_FLIP or q == seat) and known[t - 1]:
                    known[t - 1] -= 1
                    ksum -= 1
                elif ksum > pool_size:
                    known = [k - 1 if k else 0 for k in known]
                    ksum = sum(known)
        elif kind == E_TAKE:
            mine[e[2] - 1] -= 1
            containers[e[1]][e[2] - 1] += 1
        elif kind == E_RETURN_CONTAINER:
            containers[e[1]][e[2] - 1] -= 1
            mine[e[2] - 1] += 1
        elif kind == E_RETURN_HAND:
            pool_size += 1
            hand_sizes[e[1]] -= 1
            if e[1] == seat:
                hand[e[2] - 1] -= 1
                known[e[2] - 1] += 1
                ksum += 1
    return {
        "pool_size": pool_size,
        "removed": removed,
        "mine": mine,
        "containers": containers,
        "hand": hand,
        "known": known,
        "hand_sizes": hand_sizes,
    }


def reconstruct(
    game: Troika,
    seg: Sequence[Sequence[Any]],
    final_pool: Sequence[int],
    final_removed: Sequence[int],
    final_hands: Sequence[Sequence[int]],
    rng: random.Random,
    explore: bool = False,
) -> dict[int, int] | None:
    """Tiles for the hidden (None) deal/draw/return-hand events of a round, walking back from the
    round's final position; None if this position admits no history found by the walk. `explore`
    drops the walk's preferences (a retry that can find histories the preferences miss)."""
    # need[v] before event i (going back): how many v the pool must hold for the known returns
    # further back, given only the known tiles coming back into the pool (TR-D9 bookkeeping).
    need = [0] * N_NUMBERS
    needs: dict[int, list[int]] = {}
    for i, e in enumerate(seg):
        kind = e[0]
        if kind in (E_DEAL, E_DRAW, E_RETURN_HAND, E_FLIP):
            t = e[2]
            if t is None:
                needs[i] = need.copy()
            else:
                v = t - 1
                d = 1 if kind == E_RETURN_HAND else -1
                need[v] = max(0, need[v] + d)
    pool = list(final_pool)
    hands = [list(h) for h in final_hands]
    chosen: dict[int, int] = {}
    for i in range(len(seg) - 1, -1, -1):
        e = seg[i]
        kind = e[0]
        if kind == E_FLIP:
            pool[e[2] - 1] += 1
        elif kind == E_REMOVED:
            for v in range(N_NUMBERS):
                pool[v] += final_removed[v]
        elif kind in (E_DEAL, E_DRAW):
            q, t = e[1], e[2]
            h = hands[q]
            if t is None:
                if kind == E_DEAL:
                    if sum(h) != 1:
                        return None
                    v = h.index(1)
                else:
                    held = [v for v in range(N_NUMBERS) if h[v]]
                    if not held:
                        return None
                    nd = needs[i]
                    short = [v for v in held if pool[v] < nd[v]]
                    cands = held if explore else (short or held)
                    v = cands[_pick([h[c] for c in cands], rng)]
                chosen[i] = v + 1
            else:
                v = t - 1
                if h[v] == 0:
                    return None
            h[v] -= 1
            pool[v] += 1
        elif kind == E_RETURN_HAND:
            q, t = e[1], e[2]
            if t is None:
                # Prefer tiles the seat's own earlier returns do not need; if there are none, a
                # needed tile may still come back by an unseen draw further back.
                nd = needs[i]
                weights = [pool[v] - nd[v] if pool[v] > nd[v] else 0 for v in range(N_NUMBERS)]
                if explore or not any(weights):
                    weights = pool
                if not any(weights):
                    return None
                v = _pick(weights, rng)
                chosen[i] = v + 1
            else:
                v = t - 1
                if pool[v] == 0:
                    return None
            pool[v] -= 1
            hands[q][v] += 1
    if tuple(pool) != game.tile_counts or any(any(h) for h in hands):
        return None
    return chosen


def _declarer_hand(
    game: Troika, unseen: list[int], size: int, container: Sequence[int], rng: random.Random
) -> list[int] | None:
    """A hand of `size` tiles from `unseen` (counts) with which hand + container may declare."""
    tiles = [v for v in range(N_NUMBERS) for _ in range(unseen[v])]
    if size > len(tiles):
        return None
    for _ in range(200):
        h = [0] * N_NUMBERS
        for v in rng.sample(tiles, size):
            h[v] += 1
        if zero_waste_with_fuel(tuple(map(add, h, container))):
            return h
    if size > 6:
        return None
    options = [
        (hand, ways)
        for hand, ways in weighted_hands(unseen, size)
        if zero_waste_with_fuel(tuple(map(add, hand, container)))
    ]
    if not options:
        return None
    return list(options[_pick([w for _, w in options], rng)][0])


def _allocate_current(
    game: Troika,
    view: Mapping[str, Any],
    seg: Sequence[Sequence[Any]],
    vis: Mapping[str, Any],
    rng: random.Random,
) -> tuple[list[int], list[int], list[list[int]]] | None:
    """Sample (pool, removed, hands) for the last round now, from the seat's point of view. At the
    end of the game that round has ended and shown every hand (its `round_end`)."""
    n = game.num_players
    seat = view["seat"]
    unseen = list(game.tile_counts)
    own = counts_of(view["hand"]) if seat is not None else [0] * N_NUMBERS
    end = seg[-1] if seg[-1][0] == E_ROUND_END else None
    shown = [counts_of(h) for h in end[3]] if end is not None else [own]
    for place in (*shown, vis["mine"], *vis["containers"]):
        for v in range(N_NUMBERS):
            unseen[v] -= place[v]
    if min(unseen) < 0:
        return None
    hands = [[0] * N_NUMBERS for _ in range(n)]
    if end is not None:
        hands = shown
    elif seat is not None:
        hands[seat] = own
    sizes = view["hand_sizes"]
    for q in range(n):
        if q != seat and view["declared"][q] and end is None:
            h = _declarer_hand(game, unseen, sizes[q], vis["containers"][q], rng)
            if h is None:
                return None
            hands[q] = h
            for v in range(N_NUMBERS):
                unseen[v] -= h[v]
    rest = [v for v in range(N_NUMBERS) for _ in range(unseen[v])]
    rng.shuffle(rest)
    pool = [0] * N_NUMBERS
    for v in rest[: view["pool_size"]]:
        pool[v] += 1
    k = view["pool_size"]
    for q in range(n):
        if q != seat and not view["declared"][q] and end is None:
            for v in rest[k : k + sizes[q]]:
                hands[q][v] += 1
            k += sizes[q]
    removed = [0] * N_NUMBERS
    for v in rest[k:]:
        removed[v] += 1
    return pool, removed, hands


class _Refused(Exception):
    """The rules refused a sampled round (a tile not face down when stacked, an illegal action)."""


def sample_state(game: Troika, view: Mapping[str, Any], rng: random.Random) -> TroikaState:
    seat = view["seat"]
    events = [parse_event(d) for d in view["log"]]
    start = max(i for i, e in enumerate(events) if e[0] == E_ROUND)
    seg = events[start:]
    vis = visible_round(game, seg, seat)
    for attempt in range(ATTEMPTS):
        alloc = _allocate_current(game, view, seg, vis, rng)
        if alloc is None:
            continue
        pool, removed, hands = alloc
        chosen = reconstruct(game, seg, pool, removed, hands, rng, explore=attempt % 4 == 3)
        if chosen is None:
            continue
        filled = [list(e) for e in seg]
        for i, t in chosen.items():
            filled[i][2] = t
        try:
            return _play_round(game, events[:start], filled, removed, rng)
        except _Refused:  # pragma: no cover - the walk's history always replays
            continue
    # The true position is one such allocation, and its history one such walk: in testing the walk
    # finds a history at its first or second try.
    raise ValueError(f"no Troika position found consistent with this view after {ATTEMPTS} tries")


def _play_round(
    game: Troika,
    earlier: Sequence[Sequence[Any]],
    seg: Sequence[Sequence[Any]],
    removed: Sequence[int],
    rng: random.Random,
) -> TroikaState:
    """A state whose earlier rounds are `earlier` (as the seat saw them) and whose round in play is
    `seg` (every tile known), played through the rules: the round's chance outcomes stacked (TR-3.4)
    and its actions applied."""
    s = game.blank_state(rng)
    assert isinstance(s, TroikaState)
    s.events = [tuple(e) for e in earlier]
    s.chips = [0] * game.num_players
    s.last_placements = None
    for e in earlier:
        if e[0] == E_ROUND_END:
            s.chips = list(e[10])
            s.last_placements = list(e[7])
    s.round = seg[0][1] - 1
    stacked: list[int] = []
    actions: list[int] = []
    for e in seg:
        kind = e[0]
        if kind == E_REMOVED:
            stacked += [v + 1 for v in range(N_NUMBERS) for _ in range(removed[v])]
        elif kind in (E_DEAL, E_FLIP, E_DRAW):
            stacked.append(e[2])
        if kind == E_TAKE:
            actions.append(TAKE + e[2] - 1)
        elif kind == E_DRAW:
            actions.append(DRAW)
        elif kind == E_RETURN_HAND:
            actions.append(RETURN_HAND + e[2] - 1)
        elif kind == E_RETURN_CONTAINER:
            actions.append(RETURN_CONTAINER + e[2] - 1)
        elif kind == E_TROIKA:
            actions.append(TROIKA)
    s._stack, s._stack_pos = stacked or None, 0
    try:
        s._new_round(stacked)
        for a in actions:
            if a not in s.legal_actions():
                raise _Refused
            # `apply` would keep a backup for a stacked deck's refusal; a refused sample is dropped
            s._legal = None
            s.history.append(a)
            s._act(a)
    except BadOption:
        raise _Refused from None
    if s._stack is not None:  # pragma: no cover - every outcome of the round is stacked
        raise _Refused
    return s
