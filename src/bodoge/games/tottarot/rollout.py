"""Tottarot's quick policy: the move a sensible player makes, decided on the full state in a few µs,
for search simulations (ISMCTS rollouts and its model of the other players). Reads only what the seat
to move knows: its own declared card, the other declared cards it knows of (`knows[s]` has its bit:
SHARE, PEEK, EXPOSE, or a card it once held), who holds a declared card, the rows, the discard pile,
the revealed (`used`) will tokens and the round totals. Never the deck (`pile`), another seat's
unknown declared card, or this turn's bids before they are revealed (`bids`).

The rules of thumb are the view heuristic's (`heuristic.py`), on ints:
- a card is worth its points to me; an INVERT card is also worth flipping my previous card (TT-5.5);
- a declared card I do not know is worth the mean of the cards I cannot account for this round;
- bid low and keep my card unless seizing would bring clearly more; then bid the smallest token that
  beats every other player's best unused token (TT-4.4: all bids are public once revealed), else my
  highest;
- steal the best card I know or expect, if it beats taking nothing; ties go to hurting the leader;
- SHARE/PEEK the leader's card, preferring one I do not know yet.
Ties are broken at random (with the `rng` given), so that no seat is favoured for its number.
"""

from __future__ import annotations

import functools
import random
from typing import NamedTuple

from bodoge.core.choice import best_move
from bodoge.games.tottarot.scoring import row_total
from bodoge.games.tottarot.state import PH_BID, PH_SHARE, PH_STEAL, TottarotGame, TottarotState

#: Seizing must bring this much more than my own card before I bid to act (a discard is for sure,
#: the steal is not: a higher bidder or an earlier tied actor may take the card first, TT-4.5).
MARGIN = 1.0

#: A card's points and whether it has INVERT, packed in one int (points × SCALE + 1 if INVERT), so
#: that one sum over the seen cards counts both (a round sees at most 200 cards, fewer than SCALE).
SCALE = 1024


class _Deck(NamedTuple):
    """What the policy reads of a game's deck, computed once per game."""

    points: tuple[int, ...]  # per card type
    inverts: tuple[bool, ...]  # per card type: has INVERT (TT-5.5)
    packed: tuple[int, ...]  # per card type: points × SCALE + INVERT
    row_packed: tuple[int, ...]  # per row entry `type << 1 | inverted`: its card's `packed`
    total: int  # `packed` summed over the whole deck
    best: int  # the most points a card has
    best_invert: int | None  # the most points an INVERT card has (None: the deck has none)


@functools.lru_cache(maxsize=32)
def _deck(game: TottarotGame) -> _Deck:
    points = game.points
    inverts = game.is_invert
    packed = tuple(p * SCALE + i for p, i in zip(points, inverts, strict=True))
    return _Deck(
        points=points,
        inverts=inverts,
        packed=packed,
        row_packed=tuple(x for x in packed for _ in (0, 1)),
        total=sum(x * k for x, k in zip(packed, game.copies, strict=True)),
        best=max(points),
        best_invert=max((p for p, i in zip(points, inverts, strict=True) if i), default=None),
    )


def act(state: TottarotState, rng: random.Random) -> int:
    """A legal action for `state.current_player` (never called at the end of the game)."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    phase = state.phase
    if phase == PH_BID:
        return _bid(state, legal)
    if phase == PH_STEAL:
        return _steal(state, legal, rng)
    return _look(state, legal, rng)  # SHARE or PEEK


# -- what a card is worth to me ------------------------------------------------------------------


def _flip(state: TottarotState, p: int) -> int:
    """What an INVERT decided now adds to p's total: it flips p's latest card (TT-5.5, TT-D12)."""
    row = state.rows[p]
    return -2 * state.game.effective[row[-1]] if row else 0


def _worth(card: int, deck: _Deck, flip: int) -> float:
    """What a card would add to my total if decided now."""
    return deck.points[card] + (flip if deck.inverts[card] else 0)


def _unknown_worth(state: TottarotState, p: int, deck: _Deck, flip: int) -> float:
    """The mean worth to p of the cards p cannot account for this round: not in the discard pile,
    not in a row, not a declared card p knows (TT-7). Counted over the seen cards, which are few."""
    seen = len(state.discard)
    packed = sum(map(deck.packed.__getitem__, state.discard))
    row_packed = deck.row_packed.__getitem__
    for row in state.rows:
        seen += len(row)
        packed += sum(map(row_packed, row))
    bit = 1 << p
    knows = state.knows
    for s, card in enumerate(state.declared):
        if card >= 0 and knows[s] & bit:
            seen += 1
            packed += deck.packed[card]
    unseen = state.game.deck_size - seen
    if unseen <= 0:
        return 0.0
    left = deck.total - packed
    return (left // SCALE + flip * (left % SCALE)) / unseen


def _best_worth(deck: _Deck, flip: int) -> int:
    """The most any card can be worth to me now (and taking nothing is worth 0)."""
    best = max(deck.best, 0)
    if deck.best_invert is not None:
        best = max(best, deck.best_invert + flip)
    return best


# -- decisions -----------------------------------------------------------------------------------


def _bid(state: TottarotState, legal: list[int]) -> int:
    """BID (TT-4.4): keep my card with my lowest token, unless seizing (TT-4.5) is clearly better."""
    g = state.game
    p: int = state.current_player  # type: ignore[assignment]
    deck = _deck(g)
    flip = _flip(state, p)
    declared = state.declared
    knows = state.knows
    bit = 1 << p
    keep = _worth(declared[p], deck, flip)
    if keep >= _best_worth(deck, flip) - MARGIN:
        return legal[0]  # no card is worth clearly more than mine: the test below, made cheap
    seize = 0.0  # taking nothing is always possible
    mean: float | None = None
    for s, card in enumerate(declared):
        if s == p or card < 0:
            continue
        if knows[s] & bit:
            worth = _worth(card, deck, flip)
        else:
            if mean is None:
                mean = _unknown_worth(state, p, deck, flip)
            worth = mean
        if worth > seize:
            seize = worth
    if keep >= seize - MARGIN:
        return legal[0]  # stay out of the way; keep big tokens for the tie-break (TT-6.2)
    # Act: the smallest token above every other player's best unused one (revealed bids are public).
    unused = g.bid_lists
    used = state.used
    top = max((unused[used[q]][-1] for q in range(g.n) if q != p and unused[used[q]]), default=-1)
    for v in legal:  # sorted
        if v > top:
            return v
    return legal[-1]


def _steal(state: TottarotState, legal: list[int], rng: random.Random) -> int:
    """STEAL (TT-4.5): the best card I know or expect, if it beats nothing; ties hurt the leader."""
    g = state.game
    p: int = state.current_player  # type: ignore[assignment]
    deck = _deck(g)
    flip = _flip(state, p)
    declared = state.declared
    knows = state.knows
    bit = 1 << p
    mean: float | None = None
    moves = [legal[-1]]  # `steal none` (the highest id) is worth 0
    scores = [(0.0, -1 << 62)]
    steal0 = g.steal0
    for a in legal[:-1]:
        s = a - steal0
        if knows[s] & bit:
            worth = _worth(declared[s], deck, flip)
        else:
            if mean is None:
                mean = _unknown_worth(state, p, deck, flip)
            worth = mean
        if worth >= 0.0:  # a card worth less than nothing is never the best
            moves.append(a)
            scores.append((worth, row_total(state, s)))
    return best_move(moves, scores, rng)


def _look(state: TottarotState, legal: list[int], rng: random.Random) -> int:
    """SHARE or PEEK (TT-5.2, TT-5.3): the leader's card, preferring one I do not know."""
    p: int = state.current_player  # type: ignore[assignment]
    g = state.game
    base = g.share0 if state.phase == PH_SHARE else g.peek0
    knows = state.knows
    bit = 1 << p
    scores = [(not knows[a - base] & bit, row_total(state, a - base)) for a in legal]
    return best_move(legal, scores, rng)
