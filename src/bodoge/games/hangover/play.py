"""Hangover's play (spec §4): arranging snacks, the declaration, tricks, their winner and outcome, the
drunk judgement and its snack flips, and the end of a trick, through the phases of `state.py`. Also
the action ids.

Action ids (fixed for a game and its options; see `Hangover.prepare`):

- `PLAY + c` (0…55): `play <card>`, a drink card played face up (lead or follow);
- `DISCARD + c` (56…111): `discard <card>`, an eliminated player's face-down card (HO-4.3.2);
- `DECLARE`, `PASS` (112, 113): the non-drinker declaration (HO-4.2);
- `STOP` (114): stop flipping snacks (HO-4.5);
- `FLIP + 2·d + v`: flip a snack card of code `snack_codes[d]`, choosing its value `v` (0 or 1);
- `arrange0 + i`: the i-th arrangement of one's snack cards into columns (HO-4.1), as positions in the
  sorted snack hand (`HangoverGame.arrangements`).
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_left
from collections.abc import Sequence
from typing import Any

from bodoge.games.hangover.cards import DRINK_CODES, DRINK_INDEX, KEY, NUMBER, SUIT, normalize_snack
from bodoge.games.hangover.options import ANY_TRICK, SECRET
from bodoge.games.hangover.state import (
    ARRANGE,
    DECLARING,
    DRINKER,
    FLIPPING,
    HUNG_OVER,
    NON_DRINKER,
    OUT_NON_DRINKER,
    OVER,
    TRICK,
    HangoverGame,
    HangoverState,
)

PLAY = 0
DISCARD = 56
DECLARE = 112
PASS = 113
STOP = 114
FLIP = 115

# trick outcomes (HO-4.4.6); SPARED: a non-drinker's trick within `non_drinker_tricks` (HO-D31)
JUDGED, HANGOVER, OUT, SPARED = range(4)
OUTCOME_NAMES = ("judged", "hangover", "out", "spared")

# events: small tuples whose first item is their type, turned into dicts by `information.event_view`
EV_ARRANGE = "arrange"  # (seat, action id, the ordering as snack indices)
EV_DECLARE = "declare"  # (seat, declared: bool, the number of the trick it comes before)
EV_REVEAL = "declarations"  # (the answers, one bool a seat): a secret round's answers shown (HO-D29)
EV_PLAY = "play"  # (seat, card)
EV_DISCARD = "discard"  # (seat, card) — the card is seen by its owner only
EV_TRICK = "trick"  # (winner, S, outcome, k, bonus seats, the trick's number)
EV_FLIP = "flip"  # (seat, snack index d, value index v)
EV_STOP = "stop"  # (seat,)
EV_JUDGE = "judge"  # (seat, k, S', base, f, VP gained, slid: bool)
EV_END = "game_end"  # ()


def lead_suit_result(cards: Sequence[int]) -> tuple[int, int]:
    """HO-4.4.1 … HO-4.4.3 on the engine's cards (indices, the lead first, -1 face down): the position
    of the winning card and the trick's sum S. Only face-up cards of the lead suit (the lead included)
    take part; the highest rank key (2 × number, +1 for △) wins, and their numbers add up to S."""
    lead = cards[0]
    lo = SUIT[lead] * 14  # a suit's 14 cards are consecutive indices
    best, best_key, total = 0, KEY[lead], NUMBER[lead]
    for i in range(1, len(cards)):
        c = cards[i]
        if lo <= c < lo + 14:
            total += NUMBER[c]
            if KEY[c] > best_key:
                best, best_key = i, KEY[c]
    return best, total


def trick_winner(cards: list[str | None] | tuple[str | None, ...]) -> int:
    """The index of the winning card of a trick (HO-4.4.1, HO-4.4.2).

    `cards` are codes in play order, the lead first; `None` is a face-down card. Only face-up cards of
    the lead suit (the lead included) take part; the highest rank key (2 × number, +1 for △) wins.
    """
    if not cards or cards[0] is None:
        raise ValueError("a trick starts with a face-up lead card")
    try:
        idx = [None if c is None else DRINK_INDEX[c] for c in cards]
    except KeyError as exc:
        raise ValueError(f"not a drink card code: {exc.args[0]!r}") from None
    return lead_suit_result([-1 if c is None else c for c in idx])[0]


def drunk_vp(total: int, limit: int, under: int = 1, just: int = 3, over: int = 0) -> int:
    """The base VP of a judged trick (HO-4.6.1): `under` below the limit, `just` at it, `over` above."""
    if total < limit:
        return under
    if total == limit:
        return just
    return over


def _enumerate_arrangements(m: int, columns: int) -> list[tuple[int, ...]]:
    """Every distinct way to put the m positions of a snack hand into the columns (HO-4.1, HO-D22).

    Card i of an ordering goes to column i mod C, so only which positions share a column matters; each
    outcome is given by its canonical ordering (positions ascending within a column).
    """
    sizes = [len(range(j, m, columns)) for j in range(columns)]
    out: list[tuple[int, ...]] = []

    def rec(j: int, remaining: tuple[int, ...], chosen: list[tuple[int, ...]]) -> None:
        if j == columns or not remaining:
            perm = [chosen[i % columns][i // columns] for i in range(m)]
            out.append(tuple(perm))
            return
        for comb in itertools.combinations(remaining, sizes[j]):
            rest = tuple(x for x in remaining if x not in comb)
            rec(j + 1, rest, [*chosen, comb])

    rec(0, tuple(range(m)), [])
    return out


# (snacks per player, columns, first arrangement id, sorted snack hand as indices) -> the legal
# arrangement ids and their columns; shared by every game with the same numbers, as it depends on
# nothing else
_ARRANGE_CACHE: dict[tuple[int, int, int, tuple[int, ...]], tuple[list[int], dict[Any, Any]]] = {}


def columns_of(g: HangoverGame, hand: tuple[int, ...] | list[int], index: int) -> list[list[int]]:
    """The columns (sorted snack indices) that arrangement `index` makes of the sorted `hand`."""
    cols: list[list[int]] = [[] for _ in range(g.num_columns)]
    for i, pos in enumerate(g.arrangements[index]):
        cols[i % g.num_columns].append(hand[pos])
    for col in cols:
        col.sort()
    return cols


def _arrange_table(g: HangoverGame, hand: tuple[int, ...]) -> tuple[list[int], dict[Any, Any]]:
    """For a sorted snack hand: the legal arrangement ids, and a map both from each outcome (the
    columns as sorted tuples) to its id and from each id to its columns."""
    cache_key = (g.snacks_per_player, g.num_columns, g.arrange0, hand)
    table = _ARRANGE_CACHE.get(cache_key)
    if table is None:
        lookup: dict[Any, Any] = {}
        ids = []
        for i in range(len(g.arrangements)):
            key = tuple(tuple(c) for c in columns_of(g, hand, i))
            if key not in lookup:
                lookup[key] = g.arrange0 + i
                lookup[g.arrange0 + i] = key
                ids.append(g.arrange0 + i)
        table = _ARRANGE_CACHE[cache_key] = (ids, lookup)
    return table


def arrangement_ids(g: HangoverGame, hand: tuple[int, ...]) -> list[int]:
    """The legal arrangement actions for a sorted snack hand: one per distinct outcome, so that
    swapping two copies of one code is not a second choice (HO-4.1)."""
    return _arrange_table(g, hand)[0]


def arrangement_for(g: HangoverGame, hand: tuple[int, ...], columns: list[list[int]]) -> int | None:
    """The legal arrangement action that puts `hand` into exactly these columns (None: no such)."""
    return _arrange_table(g, hand)[1].get(tuple(tuple(sorted(c)) for c in columns))


def columns_of_order(g: HangoverGame, order: list[int]) -> list[list[int]]:
    """HO-4.1/HO-D22: the i-th card of an ordering goes into column (i mod C) + 1."""
    cols: list[list[int]] = [[] for _ in range(g.num_columns)]
    for i, d in enumerate(order):
        cols[i % g.num_columns].append(d)
    return cols


def legal_actions(state: HangoverState) -> list[int]:
    p: int = state.current_player  # type: ignore[assignment]
    if state.phase == TRICK:
        hand = state.hands[p]
        if state.status[p] >= OUT_NON_DRINKER:  # HO-4.3.2: eliminated players discard any card
            return [c + DISCARD for c in hand]
        trick = state.trick
        if trick:  # HO-4.3.2: an active player must follow the lead suit if able
            lo = SUIT[trick[0]] * 14
            i = bisect_left(hand, lo)
            j = bisect_left(hand, lo + 14, i)
            if i < j:
                return hand[i:j]
        return hand[:]
    phase = state.phase
    if phase == FLIPPING:  # HO-4.5
        g = state.game
        texts = g.snack_texts
        out = [STOP]
        last = -1
        for d in state.columns[p][state.tricks[p] - 1]:
            if d != last:
                last = d
                out.append(FLIP + 2 * d)
                if texts[d][1] != texts[d][0]:
                    out.append(FLIP + 2 * d + 1)
        return out
    if phase == DECLARING:
        return [DECLARE, PASS]
    return list(arrangement_ids(state.game, tuple(state.snack_hands[p])))


def apply(state: HangoverState, action: int) -> None:
    a = action
    p: int = state.current_player  # type: ignore[assignment]
    if a < DECLARE:  # a card to the trick
        trick = state.trick
        if a < DISCARD:
            state.hands[p].remove(a)
            trick.append(a)
            state.events.append((EV_PLAY, p, a))
        else:
            c = a - DISCARD
            state.hands[p].remove(c)
            state.discards[p].append(c)
            trick.append(-1)
            state.events.append((EV_DISCARD, p, c))
        n = state.num_players
        if len(trick) == n:
            resolve(state)
        else:
            state.current_player = p + 1 if p + 1 < n else 0
        return
    if a >= FLIP:
        g = state.game
        if a >= g.arrange0:
            arrange(state, p, a)
            return
        d, v = divmod(a - FLIP, 2)
        k = state.tricks[p]
        col = state.columns[p][k - 1]
        col.remove(d)
        state.flipped[p].append((k, d, v))
        state.judge_flips += 1
        state.judge_added += g.snack_value[d][v]
        state.events.append((EV_FLIP, p, d, v))
        if not col:  # HO-4.5: the column is empty, so flipping ends
            judge(state, p)
        return
    if a == STOP:
        state.events.append((EV_STOP, p))
        judge(state, p)
        return
    declare(state, p, a == DECLARE)


def declare(state: HangoverState, p: int, declared: bool) -> None:
    """HO-4.2: one seat's answer, then the next seat to answer or the trick (HO-D29: a secret round's
    answers all take effect, and are shown, once the last is in; under any_trick only the seats that
    may still declare are asked)."""
    g = state.game
    state.declared[p] = 1 if declared else 0
    secret = g.declaration == SECRET
    if declared and not secret:
        state.status[p] = NON_DRINKER
    state.events.append((EV_DECLARE, p, declared, len(state.past) + 1))
    n = g.num_players
    if g.declaration == ANY_TRICK:
        q = next_to_declare(state, p + 1)
        if q is not None:
            state.current_player = q
            return
    elif p + 1 < n:
        state.current_player = p + 1
        return
    if secret:
        for q in range(n):
            if state.declared[q] == 1:
                state.status[q] = NON_DRINKER
        state.events.append((EV_REVEAL, tuple(d == 1 for d in state.declared)))
    state.phase = TRICK
    if not state.past:
        state.leader = 0
    state.current_player = state.leader


def next_to_declare(state: HangoverState, start: int) -> int | None:
    """HO-D29 (any_trick): the first seat from `start` on that may still declare: an active drinker
    who has won no trick (and so has not declared)."""
    status, tricks = state.status, state.tricks
    for q in range(start, state.game.num_players):
        if status[q] == DRINKER and not tricks[q]:
            return q
    return None


def arrange(state: HangoverState, p: int, a: int) -> None:
    g = state.game
    hand = state.snack_hands[p]
    index = a - g.arrange0
    state.columns[p] = [list(col) for col in _arrange_table(g, tuple(hand))[1][a]]
    state.events.append((EV_ARRANGE, p, a, tuple([hand[pos] for pos in g.arrangements[index]])))
    state.snack_hands[p] = []
    if p + 1 < g.num_players:
        state.current_player = p + 1
    elif g.non_drinker:
        state.phase = DECLARING
        state.current_player = 0
    else:
        state.phase = TRICK
        state.leader = 0
        state.current_player = 0


def won_trick(status: int, tricks: int, hangover_trick: int, non_drinker_tricks: int = 0) -> int:
    """The status of a trick's winner, who has now won `tricks` tricks: a non-drinker past the tricks
    it may win (`non_drinker_tricks`, HO-D31; none by default) is out (HO-5.3.2), a drinker at the
    hangover trick hung over (HO-5.4, HO-D23)."""
    if status == NON_DRINKER:
        return OUT_NON_DRINKER if tricks > non_drinker_tricks else NON_DRINKER
    if tricks >= hangover_trick:
        return HUNG_OVER
    return status


def resolve(state: HangoverState) -> None:
    """HO-4.4: the winner, the trick sum, the non-drinker bonus and the winner's outcome."""
    g = state.game
    n = g.num_players
    trick = state.trick
    best, total = lead_suit_result(trick)
    w = (state.leader + best) % n
    state.past.append((state.leader, tuple(trick), w))
    number = len(state.past)
    state.trick = []
    state.tricks[w] += 1
    k = state.tricks[w]
    status = state.status
    bonus = []
    gain = g.non_drinker_vp
    # HO-4.4.5, HO-D5, HO-D6 (HO-D30: the bonus; HO-D32: an out non-drinker may keep gaining it)
    keeps = OUT_NON_DRINKER if g.out_non_drinker_gains else NON_DRINKER
    for q in range(n):
        if q != w and NON_DRINKER <= status[q] <= keeps:
            state.vp[q] += gain
            bonus.append(q)
    was = status[w]
    status[w] = won_trick(was, k, g.hangover_trick, g.non_drinker_tricks)
    if was == NON_DRINKER and status[w] == NON_DRINKER:  # HO-D31: no judgement, and they lead next
        state.events.append((EV_TRICK, w, total, SPARED, k, tuple(bonus), number))
    elif status[w] == OUT_NON_DRINKER:
        state.events.append((EV_TRICK, w, total, OUT, k, tuple(bonus), number))
    elif status[w] == HUNG_OVER:
        state.events.append((EV_TRICK, w, total, HANGOVER, k, tuple(bonus), number))
    else:
        state.events.append((EV_TRICK, w, total, JUDGED, k, tuple(bonus), number))
        state.judge_sum = total
        state.judge_flips = 0
        state.judge_added = 0
        if state.columns[w][k - 1]:
            state.phase = FLIPPING
            state.current_player = w
            return
        judge(state, w)
        return
    next_trick(state, w)


def judge(state: HangoverState, w: int) -> None:
    """HO-4.6: the band on S' = S + A, VP = base × (1 + f), and the slide of an unused column."""
    g = state.game
    k = state.tricks[w]
    total = state.judge_sum + state.judge_added
    f = state.judge_flips
    base = drunk_vp(total, g.limit, g.vp_under, g.vp_just, g.vp_over)
    gain = base * (1 + f)
    state.vp[w] += gain
    slid = False
    cols = state.columns[w]
    if f == 0 and k < g.num_columns and cols[k - 1]:  # HO-4.6.3, HO-D13
        cols[k] = sorted(cols[k] + cols[k - 1])
        cols[k - 1] = []
        slid = True
    state.events.append((EV_JUDGE, w, k, total, base, f, gain, slid))
    next_trick(state, w)


def next_trick(state: HangoverState, w: int) -> None:
    """HO-4.7 and HO-4.8: the end-of-trick check, then the next leader."""
    g = state.game
    status = state.status
    active = status.count(DRINKER) + status.count(NON_DRINKER)
    if active == 0 or (g.end_when_one_active and active <= 1) or not state.hands[0]:
        state.phase = OVER
        state.current_player = None
        state.events.append((EV_END,))
        return
    n = g.num_players
    leader = w
    while status[leader] >= OUT_NON_DRINKER:  # HO-D8: first active player clockwise
        leader = leader + 1 if leader + 1 < n else 0
    state.leader = leader
    if g.declaration == ANY_TRICK and g.non_drinker:  # HO-D29: a declaration before every later trick
        q = next_to_declare(state, 0)
        if q is not None:
            state.phase = DECLARING
            state.current_player = q
            return
    state.phase = TRICK
    state.current_player = leader


# -- the actions' texts (spec §4): `play R7^`, `flip -2/+2 +2`, `arrange ...` and their aliases --


def action_text(state: HangoverState, action: int) -> str:
    a = action
    g = state.game
    if 0 <= a < DISCARD:
        return f"play {DRINK_CODES[a]}"
    if DISCARD <= a < DECLARE:
        return f"discard {DRINK_CODES[a - DISCARD]}"
    if a == DECLARE:
        return "declare"
    if a == PASS:
        return "pass"
    if a == STOP:
        return "stop"
    if FLIP <= a < g.arrange0:
        d, v = divmod(a - FLIP, 2)
        return f"flip {g.snack_codes[d]} {g.snack_texts[d][v]}"
    if g.arrange0 <= a < g.num_actions:
        perm = g.arrangements[a - g.arrange0]
        p = state.current_player
        if state.phase == ARRANGE and p is not None and len(state.snack_hands[p]) == len(perm):
            hand = state.snack_hands[p]
            return "arrange " + " ".join(g.snack_codes[hand[pos]] for pos in perm)
        return "arrange positions " + " ".join(str(pos + 1) for pos in perm)
    return f"action {a}"


_SNACK_AS = re.compile(r"^snack (\S+) as (\S+)$")


def parse_alias(state: HangoverState, wanted: str) -> int | None:
    """The action id of an alias text (-1: an alias naming nothing legal), or None if not an alias."""
    g = state.game
    m = _SNACK_AS.match(wanted)
    if m:
        try:
            code = normalize_snack(m.group(1))
        except ValueError:
            return -1
        d = g.snack_index.get(code)
        if d is None:
            return -1
        texts = g.snack_texts[d]
        value = m.group(2).replace("−", "-")
        if value[:1].isdigit():
            value = "+" + value
        for v in (0, 1):
            if texts[v] == value:
                return FLIP + 2 * d + v
        return -1
    if wanted.startswith("arrange ") and state.phase == ARRANGE and state.current_player is not None:
        hand = state.snack_hands[state.current_player]
        order = []
        for word in wanted.split()[1:]:
            try:
                d = g.snack_index.get(normalize_snack(word))
            except ValueError:
                return None
            if d is None:
                return None
            order.append(d)
        if sorted(order) != hand:
            return None
        return arrangement_for(g, tuple(hand), columns_of_order(g, order))
    return None
