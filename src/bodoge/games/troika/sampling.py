"""Determinization for Troika (`Troika.sample_state`): a full state consistent with one seat's view.

What a seat cannot see: the other hands, the face-down pool, the 2-player set-aside tiles, and the
tiles in others' deal, draw and hand-return events (and so, at earlier rounds' ends, which of the
unseen tiles were set aside and which were still face down). The sampler:

1. deals the tiles the seat cannot account for uniformly at random among the places they could be,
   keeping the tiles the seat returned face down and still counts as in the pool (`returned_in_pool`)
   in the pool, and giving every declarer a hand with which the declaration was legal (TR-7.1);
2. rebuilds the hidden tiles of every round's events backwards from that position, so that every
   seat's log is consistent with the sampled tiles (each draw took a tile that was face down, each
   hand return put back a tile the player held, and the seat's own returns were in the pool);
3. replays the current round's events to set the state.

Step 2 is a randomized walk that keeps, for each number, as many tiles in the pool as the seat's
own later returns need; when a sampled position admits no such history (rare: it needs another
player to have drawn one of the seat's returned tiles), the position is sampled again.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from operator import add
from typing import Any

from bodoge.games.troika.cards import N_NUMBERS, counts_of
from bodoge.games.troika.rules import (
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
    game: Troika, view: Mapping[str, Any], vis: Mapping[str, Any], rng: random.Random
) -> tuple[list[int], list[int], list[list[int]]] | None:
    """Sample (pool, removed, hands) for the round in progress, from the seat's point of view."""
    n = game.num_players
    seat = view["seat"]
    unseen = list(game.tile_counts)
    own = counts_of(view["hand"]) if seat is not None else [0] * N_NUMBERS
    known = counts_of(view["returned_in_pool"]) if seat is not None else [0] * N_NUMBERS
    for place in (own, vis["mine"], *vis["containers"], known):
        for v in range(N_NUMBERS):
            unseen[v] -= place[v]
    if min(unseen) < 0:
        return None
    hands = [[0] * N_NUMBERS for _ in range(n)]
    if seat is not None:
        hands[seat] = own
    sizes = view["hand_sizes"]
    for q in range(n):
        if q != seat and view["declared"][q]:
            h = _declarer_hand(game, unseen, sizes[q], vis["containers"][q], rng)
            if h is None:
                return None
            hands[q] = h
            for v in range(N_NUMBERS):
                unseen[v] -= h[v]
    rest = [v for v in range(N_NUMBERS) for _ in range(unseen[v])]
    rng.shuffle(rest)
    pool = known.copy()
    for v in rest[: view["pool_size"] - sum(known)]:
        pool[v] += 1
    k = view["pool_size"] - sum(known)
    for q in range(n):
        if q != seat and not view["declared"][q]:
            for v in rest[k : k + sizes[q]]:
                hands[q][v] += 1
            k += sizes[q]
    removed = [0] * N_NUMBERS
    for v in rest[k:]:
        removed[v] += 1
    return pool, removed, hands


def _allocate_past(
    game: Troika, seg: Sequence[Sequence[Any]], vis: Mapping[str, Any], rng: random.Random
) -> tuple[list[int], list[int], list[list[int]]]:
    """Sample which of a finished round's unseen tiles were set aside and which still face down."""
    end = seg[-1]
    hands = [counts_of(h) for h in end[3]]
    unseen = list(game.tile_counts)
    for place in (vis["mine"], *[counts_of(c) for c in end[4]], *hands):
        for v in range(N_NUMBERS):
            unseen[v] -= place[v]
    rest = [v for v in range(N_NUMBERS) for _ in range(unseen[v])]
    rng.shuffle(rest)
    removed = [0] * N_NUMBERS
    for v in rest[: vis["removed"]]:
        removed[v] += 1
    pool = [0] * N_NUMBERS
    for v in rest[vis["removed"] :]:
        pool[v] += 1
    return pool, removed, hands


def _fill_anyway(seg: list[list[Any]], hands: Sequence[Sequence[int]]) -> None:
    """Last resort (never seen in testing): hidden tiles no seat's view can check against the seat's."""
    for e in seg:
        if e[0] in (E_DEAL, E_DRAW, E_RETURN_HAND) and e[2] is None:
            h = hands[e[1]]
            e[2] = next((v + 1 for v in range(N_NUMBERS) if h[v]), 1)


def sample_state(game: Troika, view: Mapping[str, Any], rng: random.Random) -> TroikaState:
    seat = view["seat"]
    events = [parse_event(d) for d in view["log"]]
    starts = [i for i, e in enumerate(events) if e[0] == E_ROUND]
    bounds = [(a, starts[k + 1] if k + 1 < len(starts) else len(events)) for k, a in enumerate(starts)]
    final: tuple[list[int], list[int], list[list[int]]] | None = None
    fallback = False
    for a, b in bounds:
        seg = events[a:b]
        vis = visible_round(game, seg, seat)
        ongoing = seg[-1][0] != E_ROUND_END
        chosen = None
        alloc = None
        for attempt in range(ATTEMPTS):
            alloc = (
                _allocate_current(game, view, vis, rng) if ongoing else _allocate_past(game, seg, vis, rng)
            )
            if alloc is None:
                continue
            chosen = reconstruct(game, seg, alloc[0], alloc[1], alloc[2], rng, explore=attempt % 4 == 3)
            if chosen is not None:
                break
        if alloc is None:  # pragma: no cover - the true position is always one such allocation
            raise AssertionError("no position is consistent with this view")
        if chosen is None:  # pragma: no cover
            fallback = True
            _fill_anyway(seg, alloc[2])
        else:
            for i, t in chosen.items():
                seg[i][2] = t
        events[a:b] = seg
        final = alloc
    assert final is not None

    s = game.blank_state(rng)
    assert isinstance(s, TroikaState)
    s._stack = None
    s._stack_pos = 0
    s.chips = list(view["chips"])
    s.last_placements = None
    for e in events:
        if e[0] == E_ROUND_END:
            s.last_placements = list(e[7])
    s.events = [tuple(e) for e in events]
    a = starts[-1]
    pool, removed, hands = final
    if fallback:  # pragma: no cover
        set_round_directly(s, events[a:], pool, removed, hands, view)
    else:
        replay_round(s, events[a:], removed)
    s.current_player = view["current_player"]
    s._legal = None
    return s


def replay_round(s: TroikaState, seg: Sequence[Sequence[Any]], removed: Sequence[int]) -> None:
    """Set a state's round fields by replaying a round's events (all tiles known) from its start."""
    g = s.game
    n = g.num_players
    s.round = seg[0][1]
    s.start_player = seg[0][2]
    s.pool = list(g.pool_start)
    s.removed = [0] * N_NUMBERS
    s.removed_size = 0
    s.mine = [0] * N_NUMBERS
    s.hands = [[0] * N_NUMBERS for _ in range(n)]
    s.hand_sizes = [0] * n
    s.containers = [[0] * N_NUMBERS for _ in range(n)]
    s.container_sizes = [0] * n
    s.known = [[0] * N_NUMBERS for _ in range(n)]
    s.known_sizes = [0] * n
    s.known_total = 0
    s.declared = [False] * n
    s.n_declared = 0
    s.first_declarer = None
    for e in seg[1:]:
        kind = e[0]
        if kind == E_REMOVED:
            for v in range(N_NUMBERS):
                for _ in range(removed[v]):
                    s.pool.remove(v + 1)
            s.removed = list(removed)
            s.removed_size = e[1]
        elif kind == E_DEAL:
            s.pool.remove(e[2])
            s.hands[e[1]][e[2] - 1] += 1
            s.hand_sizes[e[1]] += 1
        elif kind == E_FLIP:
            s.pool.remove(e[2])
            s.mine[e[2] - 1] += 1
            if s.known_total:
                s._pool_exit(e[2], None)
        elif kind == E_TAKE:
            s.mine[e[2] - 1] -= 1
            s.containers[e[1]][e[2] - 1] += 1
            s.container_sizes[e[1]] += 1
        elif kind == E_DRAW:
            s.pool.remove(e[2])
            s.hands[e[1]][e[2] - 1] += 1
            s.hand_sizes[e[1]] += 1
            if s.known_total:
                s._pool_exit(e[2], e[1])
        elif kind == E_RETURN_HAND:
            q, i = e[1], e[2] - 1
            s.hands[q][i] -= 1
            s.hand_sizes[q] -= 1
            s.pool.append(e[2])
            s.known[q][i] += 1
            s.known_sizes[q] += 1
            s.known_total += 1
        elif kind == E_RETURN_CONTAINER:
            s.containers[e[1]][e[2] - 1] -= 1
            s.container_sizes[e[1]] -= 1
            s.mine[e[2] - 1] += 1
        elif kind == E_TROIKA:
            if s.first_declarer is None:
                s.first_declarer = e[1]
            s.declared[e[1]] = True
            s.n_declared += 1


def set_round_directly(
    s: TroikaState,
    seg: Sequence[Sequence[Any]],
    pool: Sequence[int],
    removed: Sequence[int],
    hands: Sequence[Sequence[int]],
    view: Mapping[str, Any],
) -> None:  # pragma: no cover - the last-resort path of sample_state
    g = s.game
    n = g.num_players
    vis = visible_round(g, seg, view["seat"])
    s.round = seg[0][1]
    s.start_player = seg[0][2]
    s.pool = [v + 1 for v in range(N_NUMBERS) for _ in range(pool[v])]
    s.removed = list(removed)
    s.removed_size = sum(removed)
    s.mine = list(vis["mine"])
    s.hands = [list(h) for h in hands]
    s.hand_sizes = [sum(h) for h in hands]
    s.containers = [list(c) for c in vis["containers"]]
    s.container_sizes = [sum(c) for c in s.containers]
    s.known = [[0] * N_NUMBERS for _ in range(n)]
    if view["seat"] is not None:
        s.known[view["seat"]] = counts_of(view["returned_in_pool"])
    s.known_sizes = [sum(k) for k in s.known]
    s.known_total = sum(s.known_sizes)
    s.declared = list(view["declared"])
    s.n_declared = sum(s.declared)
    s.first_declarer = view["first_declarer"]
