"""A rule-of-thumb Hangover player: what it knows read into a `Seen`, then the rules of thumb on ints.

The same rules serve the view bot (`act`, reading only its view) and the quick policy of search
simulations (`rollout.act`, reading the full state but only what the seat to move knows): both build a
`Seen` and call `decide`, so they make the same move.

- **Declare (HO-4.2) from an evaluation, not a habit.** Non-drinkers win at most one trick each
  (HO-5.3.2; `non_drinker_tricks` + 1 under HO-D31), so the drinkers must take the rest, and each can
  take only `hangover_trick − 1` before Hangover (HO-5.4). Counting the drinkers it knows of (those
  that passed before it, or won a trick and so may no longer declare) and assuming every other seat
  declares (the seats still to speak; under `secret`, HO-D29, every other seat, whose answers it
  cannot see), a drinker who would be forced to hang over declares. Under `any_trick` it decides so
  again at each later declaration, on the tricks left. Where drinking is safe, the hand
  decides: one likely to be forced to win tricks drinks; one that can duck takes +1 a trick (HO-5.3.1).
  Under draft 2's defaults drinking is almost never safe, so this declares almost always (the README
  gives the figures of `bench/hangover.py`).
- **Duck well.** An active non-drinker, or a drinker whose next trick would be Hangover, ducks:
  - it leads the card least likely to win: the chance that some active player who has not shown a
    void holds that suit only above it (and so must play over it, HO-4.3.2), from the cards it cannot
    account for;
  - it follows with the highest card below the best so far; forced over it, with its lowest (a later
    player may still be forced higher) unless no active player is left to play;
  - void in the lead suit, it throws the card it would most likely be forced to win with later.
- **Drink for a good band.** A drinker wants a trick only when its snacks can bring the sum to a good
  band: when last to play it counts the exact sum; earlier (and leading) it guesses.
- **Arrange** the most flexible snacks (a minus and a plus, wide range) in the first columns, and
  **flip** by trying every way to flip the column's cards and following the plan with the most VP.
Ties between equal moves are broken at random (with the `rng` given), so no seat is favoured by number.
"""

from __future__ import annotations

import functools
import itertools
import random
from bisect import bisect_left
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bodoge.core.choice import best_move
from bodoge.games.hangover.cards import DRINK_INDEX, KEY, NUMBER, SUIT, snack_values
from bodoge.games.hangover.options import SECRET
from bodoge.games.hangover.play import (
    DECLARE,
    DISCARD,
    FLIP,
    PASS,
    STOP,
    arrangement_ids,
    drunk_vp,
    lead_suit_result,
)
from bodoge.games.hangover.state import (
    DRINKER,
    NON_DRINKER,
    OUT_NON_DRINKER,
    PHASE_NAMES,
    STATUS_NAMES,
    HangoverGame,
)

WIN_AT = 2  # a drinker tries for a trick worth at least this many VP
FORCED = 1.5  # expected forced wins from which a hand drinks, where drinking is safe

#: per card: a mask of the cards of its suit ranked below it, and of those ranked above it
BELOW: tuple[int, ...] = tuple(((1 << (c % 14)) - 1) << (SUIT[c] * 14) for c in range(56))
ABOVE: tuple[int, ...] = tuple(((1 << 14) - (1 << (c % 14 + 1))) << (SUIT[c] * 14) for c in range(56))


class Seen:
    """What the seat to move knows at a decision, as ints (cards 0…55, snacks as the game's indices).

    `unseen` (a mask of the cards this seat cannot place: others' hands, the set-aside, others'
    discards) and the `rivals` (with, per seat, a mask of the suits it failed to follow while active)
    come from the tricks played so far: `read` finds them, and only a lead or an off-suit card asks
    for them."""

    __slots__ = (
        "_read",
        "_rivals",
        "_unseen",
        "_voids",
        "column",
        "hand",
        "legal",
        "phase",
        "seat",
        "snacks",
        "status",
        "total",
        "trick",
        "tricks",
    )

    def __init__(
        self,
        *,
        seat: int,
        phase: str,  # a name of state.PHASE_NAMES
        legal: list[int],  # the legal action ids
        hand: list[int],  # own drink cards
        trick: list[int],  # this trick's cards so far, the lead first (-1: face down)
        status: list[int],  # every seat's status (state.DRINKER …)
        tricks: list[int],  # every seat's tricks won
        column: list[int],  # own face-down snacks in the column of the next (or the judged) own trick
        total: int,  # the judged trick's adjusted sum S' so far (flip phase), else 0
        snacks: list[int],  # own snacks to arrange (arrange phase), sorted
        read: Callable[[], tuple[int, list[int]]],  # -> (unseen, voids)
    ) -> None:
        self.seat, self.phase, self.legal, self.hand, self.trick = seat, phase, legal, hand, trick
        self.status, self.tricks, self.column = status, tricks, column
        self.total, self.snacks, self._read = total, snacks, read
        self._unseen = -1
        self._voids: list[int] = []
        self._rivals: list[tuple[float, int]] = []

    def _learn(self) -> None:
        self._unseen, self._voids = self._read()
        pool = max(1, self._unseen.bit_count())  # others holding cards means some are unseen
        n = len(self.status)
        played = {(self.seat - j) % n for j in range(1, len(self.trick) + 1)}  # this trick, before me
        rivals = []
        for q in range(n):
            held = len(self.hand) - (q in played)  # all hands are the same size between tricks
            if q != self.seat and self.status[q] < OUT_NON_DRINKER and held:
                rivals.append((max(0.0, 1.0 - held / pool), self._voids[q]))
        self._rivals = rivals

    @property
    def unseen(self) -> int:
        if self._unseen < 0:
            self._learn()
        return self._unseen

    @property
    def rivals(self) -> list[tuple[float, int]]:
        """Each other active seat holding cards: (the chance that a given unseen card is not in its
        hand, the suits it is void in)."""
        if self._unseen < 0:
            self._learn()
        return self._rivals


def decide(game: HangoverGame, seen: Seen, rng: random.Random) -> int:
    """The move for `seen` (a decision with more than one legal action)."""
    phase = seen.phase
    if phase == "trick":
        if seen.legal[0] >= DISCARD:  # eliminated: the card never counts (HO-5.5)
            return seen.legal[0]
        return _play(game, seen, rng)
    if phase == "declare":
        return DECLARE if _declares(game, seen) else PASS
    if phase == "flip":
        plan = best_flips(game, seen.total, seen.column)[1]
        return FLIP + 2 * plan[0][0] + plan[0][1] if plan else STOP
    return _arrangement(game, tuple(seen.snacks))


# -- the declaration (HO-4.2) -----------------------------------------------------------------------


def _declares(game: HangoverGame, seen: Seen) -> bool:
    """Counting the drinkers it knows of and assuming that every other seat whose answer it has not
    seen declares: whether the drinkers could not take the tricks left without one hanging over; if
    they could, whether the hand is likely to be forced to win tricks."""
    p = seen.seat
    status, tricks = seen.status, seen.tricks
    secret = game.declaration == SECRET
    room = game.hangover_trick - 1 - tricks[p]  # the tricks I can take before Hangover, if I drink
    # the tricks left, less those the non-drinkers take if each goes out as soon as it may (HO-5.3.2)
    left_to_drinkers = game.hand_size - sum(tricks)
    for q, s in enumerate(status):
        if q == p or s >= OUT_NON_DRINKER:
            continue
        # a drinker stays one if it has answered already (seats before me, in order) or may no
        # longer declare (it has won a trick, HO-D29); a secret answer is never seen
        if s == DRINKER and not secret and (q < p or tricks[q]):
            room += game.hangover_trick - 1 - tricks[q]
        else:  # a non-drinker, or assumed to declare
            left_to_drinkers -= game.non_drinker_tricks + 1 - tricks[q]
    if room < left_to_drinkers:
        return True  # some drinker must hang over, and the lone or fewest drinkers are the likeliest
    forced = sum(1.0 - _escape(seen, c) for c in seen.hand)
    return forced < FORCED


# -- tricks (HO-4.3) --------------------------------------------------------------------------------


def _ducks(game: HangoverGame, seat: int, status: Sequence[int], tricks: Sequence[int]) -> bool:
    """Whether `seat` plays to lose the trick: a non-drinker, or a drinker one trick from its hangover."""
    return status[seat] == NON_DRINKER or tricks[seat] + 1 >= game.hangover_trick


def _others_to_play(seat: int, status: Sequence[int], trick: Sequence[int]) -> bool:
    """Whether an active player is still to play to this trick after `seat`."""
    n = len(status)
    return any(status[(seat + i) % n] < OUT_NON_DRINKER for i in range(1, n - len(trick)))


def _escape(seen: Seen, card: int) -> float:
    """The chance that a lead of `card` is beaten: some other active seat that has not shown a void
    in its suit holds cards of that suit only above it, and so must play over it (HO-4.3.2). Each
    unseen card is taken to be in a seat's hand with the share of the unseen cards that seat holds."""
    unseen = seen.unseen
    higher = (unseen & ABOVE[card]).bit_count()
    if not higher:
        return 0.0
    lower = (unseen & BELOW[card]).bit_count()
    bit = 1 << SUIT[card]
    stays = 1.0
    for miss, voids in seen.rivals:
        if not voids & bit:
            stays *= 1.0 - miss**lower * (1.0 - miss**higher)
    return 1.0 - stays


def _play(game: HangoverGame, seen: Seen, rng: random.Random) -> int:
    cards = seen.legal  # play ids are the cards themselves (play.PLAY = 0), sorted
    trick = seen.trick
    if not trick:
        if _ducks(
            game, seen.seat, seen.status, seen.tricks
        ):  # within a suit the lowest card is the likeliest to be beaten
            lowest = [c for i, c in enumerate(cards) if not i or SUIT[cards[i - 1]] != SUIT[c]]
            return best_move(lowest, [(_escape(seen, c), -KEY[c]) for c in lowest], rng)
        return _drinker_lead(game, seen, rng)
    lo = SUIT[trick[0]] * 14  # a suit's cards are consecutive, in rank order (cards.py)
    if not lo <= cards[0] < lo + 14:  # void in the lead suit: throw the card likeliest to win later
        return _throw(seen, rng)
    winner, total = lead_suit_result(trick)  # the best card so far and the sum S so far (HO-4.4)
    split = bisect_left(cards, trick[winner])
    losers, winners = cards[:split], cards[split:]
    others_to_play = _others_to_play(seen.seat, seen.status, trick)
    if _ducks(game, seen.seat, seen.status, seen.tricks):
        if losers:
            return losers[-1]
        return winners[0] if others_to_play else winners[-1]  # a later seat may still be forced higher
    options = []
    for c in winners:
        s = total + NUMBER[c] + (2 if others_to_play else 0)  # later players may still add to the sum
        vp = best_flips(game, s, seen.column)[0]
        chance = (KEY[c] - 1) / 15 if others_to_play else 1.0
        options.append((vp * chance, c))
    if options:
        value, c = max(options)
        if value >= WIN_AT or not losers:
            return c
    return losers[-1]


def _throw(seen: Seen, rng: random.Random) -> int:
    """The card likeliest to win a trick if kept: within a suit, the highest is."""
    cards = seen.legal
    highest = [c for i, c in enumerate(cards) if i + 1 == len(cards) or SUIT[cards[i + 1]] != SUIT[c]]
    return best_move(highest, [(1.0 - _escape(seen, c), KEY[c]) for c in highest], rng)


def _drinker_lead(game: HangoverGame, seen: Seen, rng: random.Random) -> int:
    """The lead whose trick is worth the most, guessing that each other active seat adds 1.5; the
    lowest such card."""
    others = sum(1 for q in range(game.num_players) if q != seen.seat and seen.status[q] < OUT_NON_DRINKER)
    column = tuple(seen.column)
    worth = {
        x: _best_flips(game, round(x + 1.5 * others), column)[0] for x in {NUMBER[c] for c in seen.legal}
    }
    return best_move(seen.legal, [worth[NUMBER[c]] - KEY[c] / 100 for c in seen.legal], rng)


def not_held(
    game: HangoverGame,
    seat: int,
    card: int,
    trick: Sequence[int],
    status: Sequence[int],
    tricks: Sequence[int],
) -> int:
    """What a face-up play by these rules of thumb says of the hand it came from: a mask of the cards
    `seat` did not hold when it played `card` (0: it says nothing). `trick` is the trick's cards before
    it (the lead first, -1 face down); `status` and `tricks` are every seat's before it. A search deals
    the unseen cards by it (`sampling.likely_sampler`):
    - a ducking leader leads the lowest card it holds of some suit;
    - a ducking follower plays the highest card below the best so far or, having none, the lowest above
      it (its highest when no active player is left to play);
    - a player void in the lead suit throws the highest card it holds of some suit.
    A drinker's other plays weigh the VP its snacks can make of the trick, and say nothing here. A forced
    play (one card of the suit) is read the same way, and truly: the seat held no other card of it."""
    ducks = _ducks(game, seat, status, tricks)
    if not trick:
        return BELOW[card] if ducks else 0
    lo = SUIT[trick[0]] * 14
    if not lo <= card < lo + 14:
        return ABOVE[card]
    if not ducks:
        return 0
    best = trick[lead_suit_result(trick)[0]]
    if card < best:  # a suit's cards are consecutive indices in rank order (cards.py)
        return ABOVE[card] & BELOW[best]
    # having none below the best, it played the lowest card above it, or its highest if none is left to play
    above = ABOVE[best] & BELOW[card] if _others_to_play(seat, status, trick) else ABOVE[card]
    return BELOW[best] | above


# -- snacks (HO-4.1, HO-4.5) ------------------------------------------------------------------------


def _band(game: HangoverGame, total: int) -> int:
    return drunk_vp(total, game.limit, game.vp_under, game.vp_just, game.vp_over)  # HO-4.6.1


def best_flips(game: HangoverGame, total: int, column: Sequence[int]) -> tuple[int, list[tuple[int, int]]]:
    """The most VP reachable from sum `total` with these face-down snacks (the game's snack indices),
    and one plan reaching it as (snack, value index) pairs, with the fewest flips among the best."""
    vp, plan = _best_flips(game, total, tuple(column))
    return vp, list(plan)


@functools.lru_cache(maxsize=65536)
def _best_flips(
    game: HangoverGame, total: int, column: tuple[int, ...]
) -> tuple[int, tuple[tuple[int, int], ...]]:
    best_vp = _band(game, total)
    best_plan: tuple[tuple[int, int], ...] = ()
    values = game.snack_value
    for combo in itertools.product(*([None, 0, 1] for _ in column)):
        plan = tuple((d, v) for d, v in zip(column, combo, strict=True) if v is not None)
        if not plan:
            continue
        vp = _band(game, total + sum(values[d][v] for d, v in plan)) * (1 + len(plan))
        if vp > best_vp or (vp == best_vp and best_plan and len(plan) < len(best_plan)):
            best_vp, best_plan = vp, plan
    return best_vp, best_plan


def flexibility(code: str) -> int:
    """How much a snack can do for a drinker: its range, more when it can go either way or down."""
    a, b = (int(x) for x in snack_values(code))
    return abs(a - b) + (3 if min(a, b) < 0 < max(a, b) else 0) + (1 if min(a, b) < 0 else 0)


@functools.lru_cache(maxsize=4096)
def _arrangement(game: HangoverGame, snacks: tuple[int, ...]) -> int:
    """The most flexible snacks in the first columns (one fixed move per hand: no ties to break)."""
    flex = [flexibility(code) for code in game.snack_codes]
    columns = game.num_columns

    def score(a: int) -> float:  # card i of an ordering lies in column i mod C (HO-4.1)
        order = game.arrangements[a - game.arrange0]
        return sum(flex[snacks[pos]] / (i % columns + 1) for i, pos in enumerate(order))

    return max(arrangement_ids(game, snacks), key=score)


# -- reading a view ---------------------------------------------------------------------------------


def seen_in_view(game: HangoverGame, view: Mapping[str, Any]) -> Seen:
    """The `Seen` of a view (the seat to move's): the same as `rollout.seen_in_state` on any state
    with this view."""
    seat = int(view["seat"])
    you = view["you"]
    seats = view["seats"]
    hand = sorted(DRINK_INDEX[c] for c in you["hand"])

    def read() -> tuple[int, list[int]]:
        known = 0
        for c in hand:
            known |= 1 << c
        for code in you["face_down"]:
            known |= 1 << DRINK_INDEX[code]
        voids = [0] * len(seats)
        for past in [*(t["cards"] for t in view["tricks_played"]), view["trick"]]:
            if past:
                known = read_trick([(e["seat"], _card(e)) for e in past], known, voids)
        return in_play(game) & ~known, voids

    tricks = [int(s["tricks"]) for s in seats]
    phase = view["phase"]
    judging = view.get("judging")
    k = tricks[seat] - 1 if phase == "flip" else tricks[seat]
    columns = you["columns"]
    return Seen(
        seat=seat,
        phase=phase,
        legal=[int(e["id"]) for e in view["legal_actions"]],
        hand=hand,
        trick=[_card(e) for e in view["trick"]],
        status=[STATUS_NAMES.index(s["status"]) for s in seats],
        tricks=tricks,
        column=sorted(game.snack_index[c] for c in columns[k]) if k < len(columns) else [],
        total=int(judging["adjusted_sum"]) if phase == "flip" and judging else 0,
        snacks=sorted(game.snack_index[c] for c in you["snacks"]),
        read=read,
    )


def _card(entry: Mapping[str, Any]) -> int:
    return -1 if entry["card"] is None else DRINK_INDEX[entry["card"]]


def read_trick(cards: list[tuple[int, int]], known: int, voids: list[int]) -> int:
    """Marks a trick's face-up cards as placed and its off-suit face-up players as void in the lead
    suit (HO-4.3.2: only an active player without the suit plays another suit face up)."""
    suit = SUIT[cards[0][1]]
    for seat, c in cards:
        if c >= 0:
            known |= 1 << c
            if SUIT[c] != suit:
                voids[seat] |= 1 << suit
    return known


@functools.lru_cache(maxsize=64)
def in_play(game: HangoverGame) -> int:
    mask = 0
    for c in game.drink_cards:
        mask |= 1 << c
    return mask


def act(game: Any, view: Mapping[str, Any], rng: random.Random) -> int:
    legal = view["legal_actions"]
    if len(legal) == 1:
        return int(legal[0]["id"])
    assert view["phase"] in PHASE_NAMES
    return decide(game, seen_in_view(game, view), rng)
