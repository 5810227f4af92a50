"""Determinization for Hangover (DESIGN.md §2): a full state consistent with one seat's view.

The view's log holds every action of the game, with only two kinds of secret: other players' snack
arrangements and other players' face-down discards. So a sample is built in two steps:

1. deal what the seat cannot see at random: the unseen drink cards among the other players' hands, their
   face-down discards and the set-aside pile (never giving a player a suit they showed they lack, since
   nobody draws); the unseen snack cards among the other players' face-down columns (or unarranged hands)
   and the set-aside pile; then rebuild each other player's first arrangement from where their cards lie
   now, the public slides and the public flips;
2. start a state from those initial hands and replay the log's actions, the hidden ones filled in.

Replaying makes every public consequence (tricks, judgements, slides, statuses, VP) come out exactly
as in the view.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bodoge.errors import IllegalAction
from bodoge.games.hangover.cards import DRINK_INDEX, SUIT
from bodoge.games.hangover.rules import shuffle

if TYPE_CHECKING:
    from bodoge.games.hangover.rules import Hangover, HangoverState


def _assign(pool: list[int], slots: list[tuple[int, frozenset[int]]], rng: random.Random) -> list[list[int]]:
    """Deal `pool` into slots of the given sizes, no card of a forbidden suit into a slot.

    Rejection sampling first (exactly uniform over the valid deals); if that keeps failing, a
    sequential deal that checks Hall's condition over the suits before each placement.
    """
    for _ in range(64):
        shuffle(rng, pool)
        out: list[list[int]] = []
        i = 0
        for cap, forbidden in slots:
            part = pool[i : i + cap]
            i += cap
            if forbidden and any(SUIT[c] in forbidden for c in part):
                break
            out.append(part)
        else:
            return out
    caps = [cap for cap, _ in slots]
    left = Counter(SUIT[c] for c in pool)

    def feasible() -> bool:
        for mask in range(1, 16):
            suits = [s for s in range(4) if mask >> s & 1]
            need = sum(left[s] for s in suits)
            if need == 0:
                continue
            room = sum(
                caps[i] for i, (_, forbidden) in enumerate(slots) if any(s not in forbidden for s in suits)
            )
            if need > room:
                return False
        return True

    if not feasible():
        raise ValueError("the view's cards cannot be dealt consistently")
    out = [[] for _ in slots]
    shuffle(rng, pool)
    for c in pool:
        s = SUIT[c]
        cands = [i for i, (_, forbidden) in enumerate(slots) if caps[i] > 0 and s not in forbidden]
        # a random order weighted by the room left (Efraimidis–Spirakis keys)
        cands.sort(key=lambda i: rng.random() ** (1.0 / caps[i]), reverse=True)
        for i in cands:
            caps[i] -= 1
            left[s] -= 1
            if feasible():
                out[i].append(c)
                break
            caps[i] += 1
            left[s] += 1
        else:  # pragma: no cover - Hall's condition guarantees a place
            raise ValueError("the view's cards cannot be dealt consistently")
    return out


def sample_state(game: Hangover, view: Mapping[str, Any], rng: random.Random) -> HangoverState:
    from bodoge.games.hangover import rules as r

    n = game.num_players
    seat = view["seat"]
    seats = view["seats"]
    you = view.get("you")
    sidx = game.snack_index
    cols_n = game.num_columns
    m = game.snacks_per_player

    # -- read the log: the actions in order, and what they reveal ----------------------------------
    actions: list[tuple[str, int, Any]] = []
    plays: list[list[int]] = [[] for _ in range(n)]
    discard_count = [0] * n
    void: list[set[int]] = [set() for _ in range(n)]
    arranged: list[list[int] | None] = [None] * n
    judged: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    pos = 0
    lead_suit = -1
    for e in view["log"]:
        kind = e["type"]
        if kind == "play":
            q, c = e["seat"], DRINK_INDEX[e["card"]]
            if pos == 0:
                lead_suit = SUIT[c]
            elif SUIT[c] != lead_suit:
                void[q].add(lead_suit)  # an active player who does not follow has none of the suit
            plays[q].append(c)
            actions.append(("id", q, r.PLAY + c))
            pos = (pos + 1) % n
        elif kind == "discard":
            q = e["seat"]
            if q == seat:
                actions.append(("id", q, r.DISCARD + DRINK_INDEX[e["card"]]))
            else:
                actions.append(("discard", q, discard_count[q]))
            discard_count[q] += 1
            pos = (pos + 1) % n
        elif kind == "declare":
            actions.append(("id", e["seat"], r.DECLARE if e["non_drinker"] else r.PASS))
        elif kind == "flip":
            d = sidx[e["snack"]]
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

    others = [q for q in range(n) if q != seat]

    # -- drink cards ----------------------------------------------------------------------------
    own_hand = [DRINK_INDEX[c] for c in you["hand"]] if you else []
    own_down = [DRINK_INDEX[c] for c in you["face_down"]] if you else []
    unseen = Counter(game.drink_cards)
    unseen.subtract(own_hand)
    unseen.subtract(own_down)
    for q in range(n):
        unseen.subtract(plays[q])
    drink_pool = sorted(unseen.elements())
    slots = [(seats[q]["hand"] + discard_count[q], frozenset(void[q])) for q in others]
    slots.append((view["set_aside"]["drink"], frozenset()))
    dealt = _assign(drink_pool, slots, rng)
    hands: list[list[int]] = [[] for _ in range(n)]
    hidden_discards: list[list[int]] = [[] for _ in range(n)]
    for q, cards in zip(others, dealt, strict=False):
        shuffle(rng, cards)
        hidden_discards[q] = cards[: discard_count[q]]
        hands[q] = cards + plays[q]
    if seat is not None:
        hands[seat] = own_hand + own_down + plays[seat]
    aside = dealt[-1]

    # -- snack cards ----------------------------------------------------------------------------
    unseen_snacks = Counter(game.snack_deck)
    if you:
        unseen_snacks.subtract(sidx[c] for c in you["snacks"])
        unseen_snacks.subtract(sidx[c] for col in you["columns"] for c in col)
    for q in range(n):
        unseen_snacks.subtract(sidx[f["snack"]] for f in seats[q]["flipped"])
    snack_pool = sorted(unseen_snacks.elements())
    shuffle(rng, snack_pool)
    at = 0

    def take(k: int) -> list[int]:
        nonlocal at
        part = snack_pool[at : at + k]
        at += k
        return part

    snack_hands: list[list[int]] = [[] for _ in range(n)]
    arrange_ids: list[int] = [0] * n
    sizes = [len(range(j, m, cols_n)) for j in range(cols_n)]
    for q in range(n):
        order = arranged[q]
        if q == seat:
            if order is None:
                snack_hands[q] = [sidx[c] for c in you["snacks"]] if you else []
            else:
                snack_hands[q] = sorted(order)
                a = game.arrangement_for(tuple(snack_hands[q]), game.columns_of_order(order))
                assert a is not None
                arrange_ids[q] = a
            continue
        if order is None:
            snack_hands[q] = take(seats[q]["snacks_in_hand"])
            continue
        # rebuild q's first arrangement: which first columns feed each column now (public slides)
        feeds = [[j] for j in range(cols_n)]
        for k, f in judged[q]:
            if f == 0 and k < cols_n:
                feeds[k] += feeds[k - 1]
                feeds[k - 1] = []
        first: list[list[int]] = [[] for _ in range(cols_n)]
        for col in range(cols_n):
            cards = [sidx[f["snack"]] for f in seats[q]["flipped"] if f["column"] == col + 1]
            cards += take(seats[q]["columns"][col])
            shuffle(rng, cards)
            i = 0
            for j in feeds[col]:
                first[j] = cards[i : i + sizes[j]]
                i += sizes[j]
        snack_hands[q] = sorted(d for col in first for d in col)
        a = game.arrangement_for(tuple(snack_hands[q]), first)
        assert a is not None, "the public slides and flips do not fit the columns"
        arrange_ids[q] = a
    snack_aside = take(view["set_aside"]["snack"])

    # -- start and replay -----------------------------------------------------------------------
    state = game.blank_state(rng)
    assert isinstance(state, r.HangoverState)
    state.start(hands, aside, snack_hands, snack_aside)
    for kind, q, payload in actions:
        if kind == "id":
            a = payload
        elif kind == "discard":
            a = r.DISCARD + hidden_discards[q][payload]
        else:
            a = arrange_ids[q]
        try:
            state.apply(a, seat=q)
        except IllegalAction as exc:  # pragma: no cover - a view this game did not make
            raise ValueError(f"the view's log cannot be replayed: {exc}") from None
    return state
