"""Tokkuri's quick policy: the move a sensible player makes, decided on the full state in a few µs,
for search simulations (ISMCTS rollouts and its model of the other players). Reads only what the seat
to move knows: its own hand (`hands[p]`), the faces of its own tokkuri (`faces[j]` where the owner of
`table[j]` is p), and public facts: the table's owners and `levels`, every hand's size, the captured
and bonus piles' sizes, and the phase's public state (the drink being resolved, the victims). Never
another seat's hand or tokkuri face, the draw deck, or a hidden OPEN/GIVE choice (`pending`).

The rules of thumb are the view heuristic's (`heuristic.py`), on ints:
- drink to bring a tokkuri to exactly 0 (a capture is +1), your own first while it is still full
  enough to be penalised (−2 avoided as well); drain your own tokkuri below the penalty level;
  don't drain other players' tokkuri below it for them, nor leave them low enough for someone else
  to finish;
- when nothing good can be drunk, place the least useful card (a dummy, a card with many numbers);
- open with and give away the least useful card (the troublesome tokkuri, then dummies);
- the `9`'s victim is the player doing best this round.
Ties are broken at random (with the `rng` given), so that no seat is favoured for its number.
"""

from __future__ import annotations

import functools
import random
from typing import NamedTuple

from bodoge.core.choice import best_move
from bodoge.games.tokkuri.cards import BONUS, DRAW, DUMMY, PASS, TROUBLE
from bodoge.games.tokkuri.scoring import round_scores
from bodoge.games.tokkuri.state import ACTION, GIVE, TARGET, VICTIM, TokkuriGame, TokkuriState

#: How likely another player's unknown tokkuri is a real card (not a dummy): the capture's worth.
REAL = 0.8
#: Fewer cards than this in all hands: the round is nearly over, and a new tokkuri will stay full.
LATE = 6


class _Deck(NamedTuple):
    """What the policy reads of a game's deck, computed once per game."""

    useful: list[float]  # per card type: how much a player wants to keep it for drinking
    give_order: list[float]  # per card type: −useful (the one to open with or give away first)
    extra: list[float]  # per drink variant: the worth of its effect beyond the levels it lowers
    bonus: list[bool]  # per drink variant: `bonus` effect (TK-5.5: worth +1 on 2 real tokkuri)
    is_pass: list[bool]  # per drink variant: `pass` effect (TK-5.4: rids a hand of `trouble`)


@functools.lru_cache(maxsize=32)
def _deck(game: TokkuriGame) -> _Deck:
    useful = []
    for t in range(game.ntypes):
        kind = game.kind[t]
        if kind == TROUBLE:
            useful.append(-2.0)
        elif kind == DUMMY:
            useful.append(-1.0)
        else:
            values = game.var_values[game.type_vars[t][0]]  # its first reading: ranges at their lowest
            if len(values) > 1:
                useful.append(0.3 - 0.05 * sum(values) / len(values))
            else:
                useful.append(1.0 - 0.03 * values[0])
    effects = [game.effect[t] for t in game.var_type]
    return _Deck(
        useful=useful,
        give_order=[-u for u in useful],
        extra=[0.2 if e == DRAW else 0.0 for e in effects],
        bonus=[e == BONUS for e in effects],
        is_pass=[e == PASS for e in effects],
    )


def act(state: TokkuriState, rng: random.Random) -> int:
    """A legal action for `state.current_player` (never called at the end of the game)."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    phase = state.phase
    if phase == ACTION:
        return _turn(state, legal, rng)
    if phase == TARGET:
        return _target(state, legal, rng)
    if phase == VICTIM:
        return _victim(state, legal, rng)
    return _least_useful(state, legal, rng)  # OPEN or GIVE


# -- what lowering a tokkuri is worth ------------------------------------------------------------


def _gain(value: int, level: int, own: bool, dummy: bool, pl: int, pp: int) -> float:
    """What lowering a tokkuri at `level` by `value` is worth to the drinker, roughly. `own`: the
    drinker owns it; `dummy`: it is one of the drinker's own dummies (others' faces are unknown)."""
    new = level - value
    if new == 0:
        if own:  # a capture (TK-4.5), and no penalty for it at round end (TK-6.1)
            return (0.0 if dummy else 1.0) + (pp if level >= pl else 0.0) + 0.2
        return REAL - (0.3 if level >= pl else 0.0)  # it also spares its owner the penalty
    if own:
        if level >= pl > new:
            return pp * 0.8  # drained below the penalty level
        return 0.05 * value
    score = 0.0
    if level >= pl > new:
        score -= 0.7  # spares its owner the penalty
    if new <= 3:
        score -= 0.35  # the next drinker may finish it
    return score


def _drink_gain(
    values_desc: tuple[int, ...], levels: list[int], own: list[bool], own_dummy: list[bool], pl: int, pp: int
) -> tuple[float, int]:
    """A greedy reading of a drink: (total gain, tokkuri emptied), biggest numbers first."""
    used = 0  # bit j: tokkuri j already has a number of this card (TK-5.1)
    total = 0.0
    emptied = 0
    for v in values_desc:
        best_j = -1
        best = -1e9
        for j, level in enumerate(levels):
            if level < v or used >> j & 1:
                continue
            gain = _gain(v, level, own[j], own_dummy[j], pl, pp)
            if gain > best:
                best_j, best = j, gain
        if best_j < 0:
            return -1e9, 0
        used |= 1 << best_j
        total += best
        emptied += levels[best_j] == v
    return total, emptied


def _seat_table(state: TokkuriState, p: int) -> tuple[list[bool], list[bool]]:
    """Per tokkuri on the table: whether p owns it, and whether it is one of p's own dummies. p knows
    the faces of its own tokkuri only (TK-D12)."""
    g = state.game
    N = g.total
    kind = g.kind
    own = []
    own_dummy = []
    for tid, face in zip(state.table, state.faces, strict=True):
        mine = tid // N == p
        own.append(mine)
        own_dummy.append(mine and kind[face] == DUMMY)
    return own, own_dummy


# -- decisions -----------------------------------------------------------------------------------


def _turn(state: TokkuriState, legal: list[int], rng: random.Random) -> int:
    """ACTION (TK-4.3): the best drink, or else the least useful card placed."""
    g = state.game
    deck = _deck(g)
    p: int = state.current_player  # type: ignore[assignment]
    opts = g.options
    pl = opts["penalty_level"]
    pp = opts["penalty_points"]
    useful = deck.useful
    hand = state.hands[p]
    keeps = len(hand) > 1  # a card drunk now is not there for a later turn
    holds_trouble = g.trouble >= 0 and g.trouble in hand
    late = sum(map(len, state.hands)) < LATE
    a_drink = g.a_drink
    levels = state.levels
    own, own_dummy = _seat_table(state, p)
    scores = []
    for a in legal:
        if a >= a_drink:
            v = a - a_drink
            score, emptied = _drink_gain(g.var_desc[v], levels, own, own_dummy, pl, pp)
            if (deck.bonus[v] and emptied >= 2) or (deck.is_pass[v] and holds_trouble):
                score += 1.0
            else:
                score += deck.extra[v]
            if keeps:
                score -= 0.4 * useful[g.var_type[v]]
        else:
            # A new tokkuri risks the penalty unless others drink it down; late in the round
            # nobody will.
            t = a - g.a_place
            score = -1.2 - 0.3 * useful[t] - (0.6 if late else 0.0)
            if g.kind[t] == DUMMY:
                score += 0.3
        scores.append(score)
    return best_move(legal, scores, rng)


def _target(state: TokkuriState, legal: list[int], rng: random.Random) -> int:
    """TARGET (TK-4.4): the tokkuri where this number is worth most (a target id is its tid)."""
    g = state.game
    p = state.current_player
    opts = g.options
    pl = opts["penalty_level"]
    pp = opts["penalty_points"]
    value = g.var_values[state.d_var][len(state.d_targets)]
    N = g.total
    table = state.table
    gains = []
    for tid in legal:
        j = table.index(tid)
        own = tid // N == p
        dummy = own and g.kind[state.faces[j]] == DUMMY
        gains.append(_gain(value, state.levels[j], own, dummy, pl, pp))
    return best_move(legal, gains, rng)


def _victim(state: TokkuriState, legal: list[int], rng: random.Random) -> int:
    """VICTIM (TK-5.2): the player doing best this round (public tally), else the fuller hand."""
    g = state.game
    p = state.current_player
    tally = round_scores(state)
    scores = []
    for a in legal:
        s = a - g.a_victim
        scores.append((tally[s] if s != p else -99) + 0.1 * len(state.hands[s]))
    return best_move(legal, scores, rng)


def _least_useful(state: TokkuriState, legal: list[int], rng: random.Random) -> int:
    """OPEN (TK-4.1) or GIVE (TK-5.4): the card least worth keeping; `trouble` and dummies first."""
    g = state.game
    order = _deck(g).give_order
    base = g.a_give if state.phase == GIVE else g.a_place  # OPEN offers `place`
    return best_move(legal, [order[a - base] for a in legal], rng)
