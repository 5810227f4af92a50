"""Tokkuri's setup (spec §3): a stacked deck's check, a new game, and each round's shuffle and deal."""

from __future__ import annotations

import math
import random
from typing import Any

from bodoge.errors import BadOption
from bodoge.games.tokkuri.state import TokkuriState


def stacked(state: TokkuriState, deck: Any) -> list[int]:
    g = state.game
    allowed = f"a list of all {g.total} card codes of the deck, top first, each code as often as its copies"
    if not isinstance(deck, list | tuple) or not all(isinstance(c, str) for c in deck):
        raise BadOption("deck", deck, allowed, "not a list of codes")
    if len(deck) != g.total:
        raise BadOption("deck", deck, allowed, f"{len(deck)} codes, but the deck has {g.total} cards")
    order = []
    for c in deck:
        t = g.code_index.get(c.strip().lower())
        if t is None:
            raise BadOption("deck", deck, allowed, f"no card has code {c!r}")
        order.append(t)
    if sorted(order) != g.all_cards:
        raise BadOption("deck", deck, allowed, "the codes are not exactly the deck's cards")
    return order


def shuffled(cards: list[int], rng: random.Random) -> list[int]:
    """The round's shuffle (rules version 2 on): Fisher–Yates on the seeded RNG, linear in the deck."""
    cards = cards.copy()
    rng.shuffle(cards)
    return cards


def shuffled_v1(cards: list[int], rng: random.Random) -> list[int]:
    """The round's shuffle of rules version 1, kept so that version 1's records replay forever
    (docs/protocol.md, Records): a uniform Fisher–Yates driven by one uniform number below N!, read
    digit by digit in the mixed radix N, N − 1, …, 2. As uniform as `shuffled`, but another deal
    from the same seed; version 2 replaced it (commit 74be900) because N! grew with the deck, which
    had no bound then. Within the deck's bounds (at most 200 cards) it takes well under a millisecond."""
    cards = cards.copy()
    x = rng.randrange(math.factorial(len(cards)))
    for i in range(len(cards) - 1, 0, -1):
        x, j = divmod(x, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def begin_game(state: TokkuriState, forced: dict[int, list[int]], steals: list[int] | None) -> None:
    g = state.game
    n = g.num_players
    state._forced_decks = forced
    state._forced_steals = steals
    state.balances = [g.options["start_points"]] * n
    state.round_no = 0
    state.last_round_scores = None
    start_round(state)


def start_round(state: TokkuriState) -> None:
    """TK-3.3: shuffle everything, deal one at a time from the start player, then OPEN."""
    g = state.game
    n = g.num_players
    state.round_no += 1
    r = state.round_no
    start = (r - 1) % n
    order = state._forced_decks.get(r) if state._forced_decks else None
    dealt = n * g.options["hand_size"]
    if order is None and state.explicit_chance:
        # Chance from outside: each card dealt is a chance event (one card type per outcome), in the
        # order of the deal; the stock holds the rest in no order (each draw from it is a chance
        # event too). A seat learns its hand as a whole (the `deal` event), not card by card.
        stock = g.all_cards.copy()
        hands: list[list[int]] = [[] for _ in range(n)]
        for i in range(dealt):
            hands[(start + i) % n].append(state.chance_draw(stock))
        hands = [sorted(hand) for hand in hands]
    else:
        if order is not None:
            cards = list(order)
        elif state.rules_version == 1:
            cards = shuffled_v1(g.all_cards, state.rng)
        else:
            cards = shuffled(g.all_cards, state.rng)
        # Card i (from 0) goes to seat (start + i) mod n.
        hands = [sorted(cards[(k - start) % n : dealt : n]) for k in range(n)]
        stock = cards[dealt:]
        stock.reverse()
    state.hands = hands  # hands are kept sorted: the legal actions come out in order
    state.stock = stock  # top card last
    state.table = []
    state.levels = []
    state.faces = []
    state.sorted_levels = []  # the levels on the table, low to high
    state.placed = [0] * n
    state.captured = [[] for _ in range(n)]
    state.bonus = [[] for _ in range(n)]
    state.discard = []
    state.start = start
    state.active = start
    state.pending = [-1] * n
    state.ask = [(start + i) % n for i in range(n)]
    state.ask_i = 0
    state.d_var = -1
    state.d_targets = []
    state.victims = []
    ev = state.events
    ev.append(("round_start", r, start))
    for s in state.ask:
        ev.append(("deal", s, tuple(sorted(hands[s]))))
    # the round's first decision, OPEN (TK-4.1), is play's: `play.begin_round`
