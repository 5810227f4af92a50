"""Troika's pure scoring functions (TR-5.4): `score_tiles` and `troika_legal`.

A multiset of tiles is a tuple of 15 counts (index n − 1 for tile n). Every set has exactly three
tiles whose lowest number is where it "starts": a fuel of n (n n n) or a jewel (n n+1 n+2, n ≤ 13).
Going up the numbers, a partition is the sequence (f_1, j_1, f_2, j_2, …) of how many fuels and how
many jewels start at each number; the rest is waste. Given the jewels, taking as many fuels as fit is
always best (a fuel is 0 points, three waste tiles −3), so the only real choice is j_n, and the
search is an exact dynamic programme over the jewels still open: it is exact for any multiset
(TR-5.4.4), with no greedy shortcut.

Values are kept as one int, 100 × score − waste: ordering by it is ordering by score and then by
fewer waste tiles (TR-5.4.3, first step; waste ≤ 99). The sorted list of sorted sets is
F1…F1 J1…J1 F2…F2 J2…, so the lexicographically smallest list among equals (TR-5.4.3, second step)
is the one whose (f_1, j_1, f_2, j_2, …) is largest, found by a greedy walk over the exact
value-to-go table.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from operator import add
from typing import Any, Final

from bodoge.games.troika.cards import DEFAULT_CHIPS, JEWEL_VALUE_BY_START, N_NUMBERS, tiles_of
from bodoge.games.troika.state import TroikaState

NEG: Final = -(10**9)
Counts = tuple[int, ...]
Set3 = tuple[int, int, int]


def to_score(value: int) -> int:
    """The score part of a combined value 100 × score − waste."""
    return (value + 99) // 100


def to_counts(tiles: Iterable[int] | Mapping[Any, int]) -> Counts:
    """Counts per number from a list of tile numbers, or from a map number → copies (a Counter)."""
    c = [0] * N_NUMBERS
    if isinstance(tiles, Mapping):
        items: Iterable[tuple[Any, Any]] = tiles.items()
    else:
        items = ((t, 1) for t in tiles)
    for t, k in items:
        if isinstance(t, int) and not isinstance(t, bool):
            n = t
        elif isinstance(t, str) and t.strip().isdigit():
            n = int(t)
        else:
            raise ValueError(f"a tile is a number from 1 to 15, not {t!r}")
        if not 1 <= n <= N_NUMBERS:
            raise ValueError(f"a tile is a number from 1 to 15, not {t!r}")
        if isinstance(k, bool) or not isinstance(k, int) or k < 0:
            raise ValueError(f"copies of tile {n} must be an integer ≥ 0, not {k!r}")
        c[n - 1] += k
    return tuple(c)


# -- the exact search over one whole multiset (used for the shown partition) ------------------------


def _solve(counts: Counts, need_fuel: bool) -> tuple[int, list[tuple[int, int]]] | None:
    """Best value and the TR-5.4.3 partition as [(f_n, j_n) for n = 1 … 15]; None if impossible."""
    memo: dict[tuple[int, int, int, bool], int] = {}
    c = (*counts, 0, 0)

    def options(i: int, p1: int, p2: int) -> range:
        avail = c[i] - p1 - p2
        if avail < 0:
            return range(0)
        if i > 12:
            return range(1)
        return range(max(-1, min(avail, c[i + 1] - p1, c[i + 2])) + 1)

    def v(i: int, p1: int, p2: int, need: bool) -> int:
        if i == N_NUMBERS:
            return NEG if need else 0
        key = (i, p1, p2, need)
        got = memo.get(key)
        if got is not None:
            return got
        best = NEG
        avail = c[i] - p1 - p2
        for j in options(i, p1, p2):
            r = avail - j
            f = r // 3
            w = r - 3 * f
            rest = v(i + 1, j, p1, need and f == 0)
            if rest > NEG:
                val = 100 * j * (JEWEL_VALUE_BY_START[i] if j else 0) - 101 * w + rest
                if val > best:
                    best = val
        memo[key] = best
        return best

    total = v(0, 0, 0, need_fuel)
    if total <= NEG:
        return None
    plan: list[tuple[int, int]] = []
    p1 = p2 = 0
    need = need_fuel
    for i in range(N_NUMBERS):
        target = v(i, p1, p2, need)
        avail = c[i] - p1 - p2
        chosen: tuple[int, int] | None = None
        for j in options(i, p1, p2):
            r = avail - j
            f = r // 3
            w = r - 3 * f
            rest = v(i + 1, j, p1, need and f == 0)
            if rest <= NEG:
                continue
            val = 100 * j * (JEWEL_VALUE_BY_START[i] if j else 0) - 101 * w + rest
            if val == target and (chosen is None or (f, j) > chosen):
                chosen = (f, j)
        assert chosen is not None
        f, j = chosen
        plan.append((f, j))
        need = need and f == 0
        p1, p2 = j, p1
    return total, plan


@lru_cache(maxsize=1 << 16)
def score_counts(counts: Counts) -> tuple[int, bool, tuple[Set3, ...], tuple[int, ...]]:
    """`score_tiles` on a counts tuple (memoised on the multiset)."""
    has_fuel = any(k >= 3 for k in counts)
    solved = _solve(counts, has_fuel)
    assert solved is not None  # without the fuel requirement, all waste is always a partition
    value, plan = solved
    sets: list[Set3] = []
    waste: list[int] = []
    p1 = p2 = 0
    for i, (f, j) in enumerate(plan):
        n = i + 1
        sets.extend([(n, n, n)] * f)
        sets.extend([(n, n + 1, n + 2)] * j)
        waste.extend([n] * (counts[i] - p1 - p2 - j - 3 * f))
        p1, p2 = j, p1
    return to_score(value), has_fuel, tuple(sets), tuple(waste)


def score_tiles(
    tiles: Iterable[int] | Mapping[Any, int],
) -> tuple[int, bool, list[Set3], list[int]]:
    """TR-5.4.1: `(score, has_fuel, sets, waste)` of a multiset of tiles (hand plus container).

    `tiles` is a list of tile numbers (or a map number → copies). `sets` is the best partition's
    list of 3-tile sets (each a sorted tuple, the list sorted), `waste` the sorted tiles in no set;
    `score` is the jewels' values minus the waste count. The best partition has at least one fuel
    (TR-5.4.2); when no partition has one, `has_fuel` is False and the partition shown is the best
    without a fuel, for display only. Equal scores: fewer waste, then the smallest sorted list of
    sets (TR-5.4.3).
    """
    score, has_fuel, sets, waste = score_counts(to_counts(tiles))
    return score, has_fuel, list(sets), list(waste)


# -- the fast value used at every round end and by bots --------------------------------------------


@lru_cache(maxsize=1 << 16)
def _segment_values(start: int, seg: Counts) -> tuple[int, int]:
    """(best value with at least one fuel or NEG, best value) of a run of numbers with no gap.

    Runs split by a missing number are independent: no jewel spans the gap.
    """
    states: dict[tuple[int, int, bool], int] = {(0, 0, False): 0}
    n = len(seg)
    for k in range(n):
        c = seg[k]
        if k + 2 < n:
            cn1 = seg[k + 1]
            cn2 = seg[k + 2]
            val = 100 * JEWEL_VALUE_BY_START[start + k]
            jewel = True
        else:
            cn1 = cn2 = val = 0
            jewel = False
        nxt: dict[tuple[int, int, bool], int] = {}
        for (p1, p2, fuel), v in states.items():
            avail = c - p1 - p2
            if avail < 0:
                continue
            jmax = min(avail, cn1 - p1, cn2) if jewel else 0
            for j in range(jmax + 1):
                r = avail - j
                f = r // 3
                w = r - 3 * f
                nv = v + j * val - 101 * w
                key = (j, p1, fuel or f > 0)
                if nv > nxt.get(key, NEG):
                    nxt[key] = nv
        states = nxt
    with_fuel = states.get((0, 0, True), NEG)
    return with_fuel, max(with_fuel, states.get((0, 0, False), NEG))


def runs(counts: Counts) -> list[tuple[int, int]]:
    """The runs of consecutive numbers held: (start, end) index pairs, end exclusive. No set crosses a
    gap, so a round is scored run by run."""
    out = []
    i = 0
    while i < N_NUMBERS:
        if counts[i] == 0:
            i += 1
            continue
        j = i
        while j < N_NUMBERS and counts[j]:
            j += 1
        out.append((i, j))
        i = j
    return out


@lru_cache(maxsize=1 << 17)
def round_value(counts: Counts) -> int | None:
    """TR-6.1: the round score (without bonus) of a counts tuple, or None if left behind."""
    if not any(k >= 3 for k in counts):
        return None
    total = 0
    best_gain = NEG  # the best (with fuel − unconstrained) over the runs: one run must hold a fuel
    for i, j in runs(counts):
        with_fuel, free = _segment_values(i, counts[i:j])
        total += free
        if with_fuel > NEG and with_fuel - free > best_gain:
            best_gain = with_fuel - free
    return to_score(total + best_gain)


# -- TR-5.5: the Troika declaration's tile condition --------------------------------------------------


@lru_cache(maxsize=1 << 12)
def _segment_zero_waste(seg: Counts) -> tuple[bool, bool]:
    """(splits into sets with no waste, … with at least one fuel) for a run with no gap."""
    states: set[tuple[int, int, bool]] = {(0, 0, False)}
    n = len(seg)
    for k in range(n):
        c = seg[k]
        jewel = k + 2 < n
        nxt: set[tuple[int, int, bool]] = set()
        for p1, p2, fuel in states:
            avail = c - p1 - p2
            if avail < 0:
                continue
            jmax = min(avail, seg[k + 1] - p1, seg[k + 2]) if jewel else 0
            for j in range(jmax + 1):
                r = avail - j
                if r % 3 == 0:
                    nxt.add((j, p1, fuel or r > 0))
        states = nxt
    return (0, 0, False) in states or (0, 0, True) in states, (0, 0, True) in states


@lru_cache(maxsize=1 << 16)
def zero_waste_with_fuel(counts: Counts) -> bool:
    """TR-5.5.1 item 3: the tiles split entirely into 3-tile sets, at least one of them a fuel."""
    if sum(counts) % 3 or not any(k >= 3 for k in counts):
        return False
    fuel = False
    i = 0
    while i < N_NUMBERS:
        if counts[i] == 0:
            i += 1
            continue
        j = i
        while j < N_NUMBERS and counts[j]:
            j += 1
        ok, ok_fuel = _segment_zero_waste(counts[i:j])
        if not ok:
            return False
        fuel = fuel or ok_fuel
        i = j
    return fuel


def troika_legal(
    hand: Iterable[int] | Mapping[Any, int],
    container: Iterable[int] | Mapping[Any, int],
    options: Any = None,
) -> bool:
    """TR-5.4.5 / TR-5.5.1: may a player with this hand and container declare Troika now?

    `options` is the game (a `Game`, whose options and player count are used) or a map of the
    options `troika` and `troika_min_container`, with `players` if known (missing ones take the
    defaults: on, 5, and 3 players). True when declarations are on and there are 3+ players, the
    container holds at least `troika_min_container` tiles, and hand plus container split into
    3-tile sets with no waste and at least one fuel.
    """
    players = 3
    opts: Mapping[str, Any] = {}
    if options is not None:
        if hasattr(options, "options") and hasattr(options, "num_players"):
            opts = options.options
            players = options.num_players
        else:
            opts = options
            players = int(opts.get("players", 3))
    if not opts.get("troika", True) or players < 3:
        return False
    h = to_counts(hand)
    c = to_counts(container)
    if sum(c) < int(opts.get("troika_min_container", 5)):
        return False
    return zero_waste_with_fuel(tuple(a + b for a, b in zip(h, c, strict=True)))


# -- round and game results (TR-6.2 … TR-6.6) ---------------------------------------------------------

#: Why a round ended (TR-4.5): the pool ran out, or all but one player declared.
REASONS = ("pool_empty", "declarations")


def round_chips(scores: Sequence[int | None], chips: Sequence[int] = DEFAULT_CHIPS) -> list[int]:
    """TR-6.3 / TR-D5: chips each player gets for a round; None = left behind."""
    ranked = [s for s in scores if s is not None]
    if not ranked:
        return [chips[2]] * len(scores)
    best = max(ranked)
    second = None
    if ranked.count(best) == 1:
        second = max((s for s in ranked if s < best), default=None)
    out = []
    for s in scores:
        if s is None:
            out.append(chips[2])
        elif s == best:
            out.append(chips[0])
        elif second is not None and s == second:
            out.append(chips[1])
        else:
            out.append(0)
    return out


def round_placements(scores: Sequence[int | None]) -> list[int]:
    """TR-6.4: 1 + (players not left behind with a strictly higher score); left behind all last."""
    ranked = [s for s in scores if s is not None]
    return [1 + len(ranked) if s is None else 1 + sum(1 for t in ranked if t > s) for s in scores]


def game_winners(totals: Sequence[int], last_placements: Sequence[int]) -> list[int]:
    """TR-6.6: the highest chip total; among ties, the better last-round placement; else shared."""
    top = max(totals)
    tied = [p for p, t in enumerate(totals) if t == top]
    best = min(last_placements[p] for p in tied)
    return [p for p in tied if last_placements[p] == best]


def end_round(state: TroikaState, reason: int) -> bool:
    """TR-4.6, TR-6.1 … TR-6.4: score the round and pay its chips; True if another round follows."""
    g = state.game
    n = g.num_players
    scores: list[int | None] = []
    for q in range(n):
        v = round_value(tuple(map(add, state.hands[q], state.containers[q])))
        if v is not None and q == state.first_declarer:
            v += g.troika_bonus  # TR-6.2 / TR-D24
        scores.append(v)
    gained = round_chips(scores, g.chips)
    placements = round_placements(scores)
    for q in range(n):
        state.chips[q] += gained[q]
    state.last_placements = placements
    state.events.append(
        (
            "round_end",
            state.round,
            reason,
            tuple(tuple(tiles_of(h)) for h in state.hands),
            tuple(tuple(tiles_of(c)) for c in state.containers),
            tuple(scores),
            tuple(gained),
            tuple(placements),
            state.first_declarer,
            tuple(state.declared),
            tuple(state.chips),
        )
    )
    return state.round < g.rounds  # TR-6.5


def winners(state: TroikaState) -> list[int]:
    if state.current_player is not None or state.last_placements is None:
        return []
    return game_winners(state.chips, state.last_placements)


def standing(state: TroikaState) -> list[tuple[int, int]]:
    """Each seat's key in the final ranking, higher first: chips, then (TR-6.6's tie-break) the
    better placement in the last round."""
    last = state.last_placements or [0] * len(state.chips)
    return [(chips, -last[q]) for q, chips in enumerate(state.chips)]
