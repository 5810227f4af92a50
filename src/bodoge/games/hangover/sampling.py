"""Determinization for Hangover (DESIGN.md §2): a full state consistent with one seat's view.

The view's log holds every action of the game, with only three kinds of secret: other players' snack
arrangements, other players' face-down discards and, while a secret declaration round (HO-D29) is
under way, other players' answers. So a sample is built in two steps:

1. deal what the seat cannot see at random: the unseen drink cards among the other players' hands, their
   face-down discards and the set-aside pile (never giving a player a suit they showed they lack, since
   nobody draws); the unseen snack cards among the other players' face-down columns (or unarranged hands)
   and the set-aside pile; then rebuild each other player's first arrangement from where their cards lie
   now, the public slides and the public flips;
2. start a state from those initial hands and replay the log's actions, the hidden ones filled in
   (an unseen secret answer: declare or pass, each with chance 1/2, never the true one read).

The view is read once (`Reading`) and dealt from many times: a search samples one view thousands of
times (`sampler`). What a search uses by default, `likely_sampler`, also reads each other seat's
face-up plays as the heuristic's (`heuristic.not_held`: a ducking follower plays the highest card
below the best, so it holds none between them) and deals it none of the cards they rule out, where
some deal allows that.

Replaying makes every public consequence (tricks, judgements, slides, statuses, VP) come out exactly
as in the view.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from bodoge.errors import IllegalAction
from bodoge.games.hangover import heuristic, setup
from bodoge.games.hangover import play as r
from bodoge.games.hangover.cards import DRINK_INDEX, SUIT
from bodoge.games.hangover.options import SECRET
from bodoge.games.hangover.play import lead_suit_result
from bodoge.games.hangover.setup import shuffle
from bodoge.games.hangover.state import DRINKER, NON_DRINKER, HangoverGame, HangoverState


def _assign(
    pool: list[int], slots: list[tuple[int, int]], kind: dict[int, int], rng: random.Random, tries: int
) -> list[list[int]]:
    """Deal `pool` into slots of the given sizes, no card into a slot whose mask forbids it (`kind`:
    each card's `_allowed` slots, worked out once for many deals).

    Rejection sampling first (exactly uniform over the valid deals: `tries` shuffles). If that keeps
    failing, the most constrained cards first, each into a slot it may go to, chosen by the room
    left; and if that meets a card with nowhere to go, a sequential deal that checks Hall's condition
    before each placement, which always finds a deal where there is one.
    """
    for _ in range(tries):
        shuffle(rng, pool)
        out: list[list[int]] = []
        i = 0
        for cap, forbidden in slots:
            part = pool[i : i + cap]
            i += cap
            if forbidden and any(forbidden >> c & 1 for c in part):
                break
            out.append(part)
        else:
            return out
    caps = [cap for cap, _ in slots]
    anywhere = (1 << len(slots)) - 1
    free = [c for c in pool if kind[c] == anywhere]
    bound = [c for c in pool if kind[c] != anywhere]
    for _ in range(8):
        left = caps[:]
        out = [[] for _ in slots]
        for c in sorted(bound, key=lambda c: (kind[c].bit_count(), rng.random())):
            room = [i for i in range(len(slots)) if kind[c] >> i & 1 and left[i]]
            if not room:
                break
            x = rng.random() * sum(left[i] for i in room)
            for i in room:
                x -= left[i]
                if x < 0:
                    break
            left[i] -= 1
            out[i].append(c)
        else:  # the cards that may go anywhere fill the room left, in a random order
            shuffle(rng, free)
            at = 0
            for i, room_left in enumerate(left):
                out[i] += free[at : at + room_left]
                at += room_left
            return out
    remaining = Counter(kind.values())
    if not _fits(remaining, caps):
        raise ValueError("the view's cards cannot be dealt consistently")
    out = [[] for _ in slots]
    shuffle(rng, pool)
    for c in pool:
        cands = [i for i in range(len(slots)) if caps[i] > 0 and kind[c] >> i & 1]
        # a random order weighted by the room left (Efraimidis–Spirakis keys)
        cands.sort(key=lambda i: rng.random() ** (1.0 / caps[i]), reverse=True)
        remaining[kind[c]] -= 1
        for i in cands:
            caps[i] -= 1
            if _fits(remaining, caps):
                out[i].append(c)
                break
            caps[i] += 1
        else:  # pragma: no cover - Hall's condition guarantees a place
            raise ValueError("the view's cards cannot be dealt consistently")
    return out


def _allowed(card: int, slots: list[tuple[int, int]]) -> int:
    """The mask of the slots `card` may go to."""
    return sum(1 << i for i, (_, forbidden) in enumerate(slots) if not forbidden >> card & 1)


def _suits(suits: set[int]) -> int:
    """The mask of every card of these suits (a suit's 14 cards are consecutive indices)."""
    return sum(((1 << 14) - 1) << (14 * s) for s in suits)


def _fits(left: Counter[int], caps: list[int]) -> bool:
    """Hall's condition: every set of slots has room for the cards that may go nowhere else (`left`
    counts the cards by the mask of the slots each may go to)."""
    for chosen in range(1, 1 << len(caps)):
        need = sum(k for allowed, k in left.items() if k and not allowed & ~chosen)
        if need > sum(cap for i, cap in enumerate(caps) if chosen >> i & 1):
            return False
    return not left[0]


def sample_state(game: HangoverGame, view: Mapping[str, Any], rng: random.Random) -> HangoverState:
    return Reading(game, view).sample(rng)


def sampler(game: HangoverGame, view: Mapping[str, Any]) -> Callable[[random.Random], HangoverState]:
    """`sample_state` for many samples of one view, read once."""
    return Reading(game, view).sample


def likely_sampler(game: HangoverGame, view: Mapping[str, Any]) -> Callable[[random.Random], HangoverState]:
    """`sampler`, dealing each other seat only hands from which its face-up plays so far are what the
    heuristic would have played (`heuristic.not_held`): a search that meets players who duck as it
    does deals the cards where their plays say they lie. Where no deal keeps to that, it deals as
    `sampler` does; either way the state is consistent with the view."""
    return Reading(game, view, likely=True).sample


class Reading:
    """What one view says, read once: `sample(rng)` then deals and replays (step 1's dealing and step
    2), so that a search sampling one view many times reads its log once (`sampler`)."""

    def __init__(self, game: HangoverGame, view: Mapping[str, Any], likely: bool = False) -> None:
        self.game = game
        n = game.num_players
        seat = view["seat"]
        seats = view["seats"]
        you = view.get("you")
        sidx = game.snack_index
        cols_n = game.num_columns
        m = game.snacks_per_player

        # -- read the log: the actions in order, and what they reveal ------------------------------
        actions: list[tuple[str, int, Any]] = []
        plays: list[list[int]] = [[] for _ in range(n)]
        discard_count = [0] * n
        void: list[set[int]] = [set() for _ in range(n)]
        arranged: list[list[int] | None] = [None] * n
        judged: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        hidden: dict[int, int] = {}  # seat -> the index in `actions` of its unseen secret answer
        # for `likely`: the cards each seat's plays say it did not hold, read with the trick so far and
        # every seat's status and tricks won as they were then
        not_held = [0] * n
        trick: list[int] = []
        status = [DRINKER] * n
        won = [0] * n
        for e in view["log"]:
            kind = e["type"]
            if kind == "play":
                q, c = e["seat"], DRINK_INDEX[e["card"]]
                if trick and SUIT[c] != SUIT[trick[0]]:
                    void[q].add(SUIT[trick[0]])  # an active player who does not follow has none of the suit
                if likely and q != seat:
                    not_held[q] |= heuristic.not_held(game, q, c, trick, status, won)
                trick.append(c)
                plays[q].append(c)
                actions.append(("id", q, r.PLAY + c))
            elif kind == "discard":
                q = e["seat"]
                if q == seat:
                    actions.append(("id", q, r.DISCARD + DRINK_INDEX[e["card"]]))
                else:
                    actions.append(("discard", q, discard_count[q]))
                discard_count[q] += 1
                trick.append(-1)
            elif kind == "declare":
                q = e["seat"]
                if e["non_drinker"] is None:  # HO-D29: a secret answer this seat has not seen (yet)
                    hidden[q] = len(actions)
                    actions.append(("declare", q, None))
                else:
                    if e["non_drinker"] and game.declaration != SECRET:
                        status[q] = NON_DRINKER
                    actions.append(("id", q, r.DECLARE if e["non_drinker"] else r.PASS))
            elif kind == "declarations":  # HO-D29: the secret answers, shown together
                for q in e["non_drinkers"]:
                    status[q] = NON_DRINKER
                for q, at in hidden.items():
                    actions[at] = ("id", q, r.DECLARE if q in e["non_drinkers"] else r.PASS)
                hidden = {}
            elif kind == "flip":
                d = sidx[e["card"]]
                v = 0 if game.snack_value[d][0] == e["value"] else 1
                actions.append(("id", e["seat"], r.FLIP + 2 * d + v))
            elif kind == "stop":
                actions.append(("id", e["seat"], r.STOP))
            elif kind == "arrange":
                q = e["seat"]
                arranged[q] = [sidx[code] for code in e["order"]] if q == seat else []
                actions.append(("arrange", q, None))
            elif kind == "judge":
                judged[e["seat"]].append((e["own_trick"], e["flipped"]))
            if len(trick) == n:  # the trick is over: its winner's tricks and status (HO-4.4)
                leader = (e["seat"] + 1) % n  # the last to play sits just before the leader
                w = (leader + lead_suit_result(trick)[0]) % n
                won[w] += 1
                status[w] = r.won_trick(status[w], won[w], game.hangover_trick, game.non_drinker_tricks)
                trick = []
        self.seat, self.actions, self.plays, self.discard_count = seat, actions, plays, discard_count
        self.others = [q for q in range(n) if q != seat]

        # -- drink cards: the unseen ones and where they may lie ----------------------------------
        self.own_hand = [DRINK_INDEX[c] for c in you["hand"]] if you else []
        self.own_down = [DRINK_INDEX[c] for c in you["face_down"]] if you else []
        unseen = Counter(game.drink_cards)
        unseen.subtract(self.own_hand)
        unseen.subtract(self.own_down)
        for q in range(n):
            unseen.subtract(plays[q])
        self.drink_pool = sorted(unseen.elements())
        self.slots = [(seats[q]["hand"] + discard_count[q], _suits(void[q])) for q in self.others]
        self.slots.append((view["set_aside"]["drink"], 0))
        self.tries = 64
        allowed: dict[int, int] | None = None  # each card's _allowed slots, for the slots chosen
        if likely:
            likely_slots = [
                (cap, forbidden | not_held[q])
                for (cap, forbidden), q in zip(self.slots, self.others, strict=False)
            ]
            likely_slots.append(self.slots[-1])
            likely_kind = {c: _allowed(c, likely_slots) for c in self.drink_pool}
            if _fits(Counter(likely_kind.values()), [cap for cap, _ in likely_slots]):
                # few shuffles: these hands rarely fit one once some plays are read, and the room-led
                # deal is quick
                self.slots, self.tries, allowed = likely_slots, 2, likely_kind
        self.kind = allowed if allowed is not None else {c: _allowed(c, self.slots) for c in self.drink_pool}

        # -- snack cards: the unseen ones, and each other player's columns as they fill ------------
        unseen_snacks = Counter(game.snack_deck)
        if you:
            unseen_snacks.subtract(sidx[c] for c in you["snacks"])
            unseen_snacks.subtract(sidx[c] for col in you["columns"] for c in col)
        for q in range(n):
            unseen_snacks.subtract(sidx[f["card"]] for f in seats[q]["flipped"])
        self.snack_pool = sorted(unseen_snacks.elements())
        self.sizes = [len(range(j, m, cols_n)) for j in range(cols_n)]
        self.snack_hands: list[list[int] | None] = [None] * n  # the seat's own, known
        self.arrange_ids = [0] * n
        # per other player: None (not arranged yet: a hand of that size) or, per column now, its flipped
        # cards, how many face down, and which first columns feed it (public slides)
        self.unarranged: list[int] = [0] * n
        self.columns: list[list[tuple[list[int], int, list[int]]] | None] = [None] * n
        for q in range(n):
            order = arranged[q]
            if q == seat:
                if order is None:
                    self.snack_hands[q] = [sidx[c] for c in you["snacks"]] if you else []
                else:
                    hand = sorted(order)
                    a = r.arrangement_for(game, tuple(hand), r.columns_of_order(game, order))
                    assert a is not None
                    self.snack_hands[q], self.arrange_ids[q] = hand, a
                continue
            if order is None:
                self.unarranged[q] = seats[q]["snacks_in_hand"]
                continue
            feeds = [[j] for j in range(cols_n)]
            for k, f in judged[q]:
                if f == 0 and k < cols_n:
                    feeds[k] += feeds[k - 1]
                    feeds[k - 1] = []
            self.columns[q] = [
                (
                    [sidx[f["card"]] for f in seats[q]["flipped"] if f["column"] == col + 1],
                    seats[q]["columns"][col],
                    feeds[col],
                )
                for col in range(cols_n)
            ]
        self.snack_aside = view["set_aside"]["snack"]

    def sample(self, rng: random.Random) -> HangoverState:
        """A state consistent with the view: deal the unseen cards, then replay the actions."""
        game, seat, n = self.game, self.seat, self.game.num_players
        dealt = _assign(self.drink_pool[:], self.slots, self.kind, rng, self.tries)
        hands: list[list[int]] = [[] for _ in range(n)]
        hidden_discards: list[list[int]] = [[] for _ in range(n)]
        for q, cards in zip(self.others, dealt, strict=False):
            shuffle(rng, cards)
            hidden_discards[q] = cards[: self.discard_count[q]]
            hands[q] = cards + self.plays[q]
        if seat is not None:
            hands[seat] = self.own_hand + self.own_down + self.plays[seat]
        aside = dealt[-1]

        snack_pool = self.snack_pool[:]
        shuffle(rng, snack_pool)
        at = 0

        def take(k: int) -> list[int]:
            nonlocal at
            part = snack_pool[at : at + k]
            at += k
            return part

        snack_hands: list[list[int]] = [[] for _ in range(n)]
        arrange_ids = self.arrange_ids[:]
        sizes = self.sizes
        for q in range(n):
            own = self.snack_hands[q]
            columns = self.columns[q]
            if own is not None:
                snack_hands[q] = own[:]
            elif columns is None:
                snack_hands[q] = take(self.unarranged[q])
            else:
                # rebuild q's first arrangement: which first columns feed each column now
                first: list[list[int]] = [[] for _ in columns]
                for flipped, down, feeds in columns:
                    cards = flipped + take(down)
                    shuffle(rng, cards)
                    i = 0
                    for j in feeds:
                        first[j] = cards[i : i + sizes[j]]
                        i += sizes[j]
                snack_hands[q] = sorted(d for col in first for d in col)
                a = r.arrangement_for(game, tuple(snack_hands[q]), first)
                assert a is not None, "the public slides and flips do not fit the columns"
                arrange_ids[q] = a
        snack_aside = take(self.snack_aside)

        # -- start and replay -------------------------------------------------------------------
        state = game.blank_state(rng)
        assert isinstance(state, HangoverState)
        setup.start(state, hands, aside, snack_hands, snack_aside)
        for kind, q, payload in self.actions:
            if kind == "id":
                a = payload
            elif kind == "discard":
                a = r.DISCARD + hidden_discards[q][payload]
            elif kind == "declare":  # an unseen secret answer (HO-D29): either, by chance
                a = r.DECLARE if rng.random() < 0.5 else r.PASS
            else:
                a = arrange_ids[q]
            try:
                state.apply(a, seat=q)
            except IllegalAction as exc:  # pragma: no cover - a view this game did not make
                raise ValueError(f"the view's log cannot be replayed: {exc}") from None
        return state
