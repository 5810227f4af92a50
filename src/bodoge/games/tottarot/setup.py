"""Tottarot's setup (spec §3): a new game, and each round's shuffle and start player."""

from __future__ import annotations

import random
from typing import Any

from bodoge.errors import BadOption
from bodoge.games.tottarot.state import TottarotGame, TottarotState


def begin(state: TottarotState, stacked: dict[int, list[int]]) -> None:
    """A new game up to its first round's deal; `stacked` gives full deck orders (top first) for
    some rounds. The first turn is play's (`play.start_turn`)."""
    n = state.game.n
    state._stacked = stacked  # read-only once made: clones share it
    state.round = 0
    state.turn = 0
    state.start = 0
    state.tokens = [0] * n
    state.pile = []
    state.declared = [-1] * n
    state.knows = [0] * n
    state.discard = []
    state.rows = [[] for _ in range(n)]
    state.used = [0] * n  # bit v: will token v revealed as used this round
    state.bids = [-1] * n  # this turn's bids (−1: not yet)
    state.nbid = 0
    state.actors = []
    state.qi = 0
    state.icon_queue = []
    state.iq = 0
    state.last_dec = [-1] * n  # card decided in the previous turn (−1: none)
    start_round(state)


def start_round(state: TottarotState) -> None:
    """TT-3.1, TT-3.2: the start player and the deck of a round; its first turn is play's."""
    g = state.game
    n = g.n
    state.round += 1
    state.start = (state.round - 1) % n  # TT-3.1: the marker moves one seat left each round
    order = state._stacked.get(state.round)
    if order is None and state.explicit_chance:
        # Chance taken from outside: each draw (play.start_turn) is its own chance event, one card
        # type per outcome, so the pile holds the deck's cards in no order.
        state.pile = g.full_deck.copy()
    else:
        if order is None:
            # TT-3.2 / TT-4.8, the only chance event. Only the top n × turns_per_round cards are
            # ever drawn (or seen), so a partial Fisher-Yates shuffle of that prefix is the same
            # uniform deal; the cards below it stay in a fixed order, never drawn nor shown.
            order = g.full_deck.copy()
            size = len(order)
            rnd = state.rng.random
            for i in range(g.drawn_per_round):
                j = i + int(rnd() * (size - i))
                order[i], order[j] = order[j], order[i]
        state.pile = order[::-1]
    state.discard = []
    state.rows = [[] for _ in range(n)]
    state.used = [0] * n
    state.last_dec = [-1] * n
    state.turn = 0
    state.events.append(("round", state.round, state.start))


def stacked_order(game: TottarotGame, deck: Any, rng: random.Random) -> list[int]:
    """The first round's deck from `new_state(deck=[codes, top first])`: a prefix of the deck (the
    rest shuffled below it), each code at most its number of copies."""
    allowed = (
        f"a list of at most {game.deck_size} card codes ({', '.join(game.codes)}), top first, "
        "each code at most its number of copies"
    )
    if not isinstance(deck, list | tuple):
        raise BadOption("deck", deck, allowed, "a stacked deck is a list of card codes")
    if len(deck) > game.deck_size:
        raise BadOption("deck", deck, allowed, f"{len(deck)} cards, but the deck has {game.deck_size}")
    left = list(game.copies)
    top = []
    for code in deck:
        i = game.code_index.get(code) if isinstance(code, str) else None
        if i is None:
            raise BadOption("deck", deck, allowed, f"unknown card code {code!r}")
        left[i] -= 1
        if left[i] < 0:
            raise BadOption("deck", deck, allowed, f"more than {game.copies[i]} × {code}")
        top.append(i)
    rest = [i for i, k in enumerate(left) for _ in range(k)]
    rng.shuffle(rest)
    return top + rest
