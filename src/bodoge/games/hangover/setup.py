"""Hangover's setup (spec §3): the seeded shuffle, a stacked deck's check, and the deal."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from bodoge.errors import BadOption
from bodoge.games.hangover.cards import DRINK_CODES, DRINK_INDEX, NUM_DRINK, normalize_snack
from bodoge.games.hangover.state import ARRANGE, DECLARING, DRINKER, TRICK, HangoverState


def shuffle(rng: random.Random, cards: list[int]) -> None:
    """The engine's seeded shuffle (HO-3.3), in place: sort by one `rng.random()` key per card.

    Uniform like Fisher–Yates, and several times cheaper than `random.shuffle`, which draws bits in
    Python for every card."""
    rand = rng.random
    keys = [rand() for _ in cards]
    order = sorted(range(len(cards)), key=keys.__getitem__)  # float keys: the fast sort path
    cards[:] = [cards[i] for i in order]


def deal(state: HangoverState) -> None:
    """HO-3.3 … HO-3.7: shuffle (or take the stacked decks) and deal."""
    g = state.game
    if state.deck is None and state.explicit_chance:
        explicit_deal(state)
        return
    if state.deck is None:
        drink = list(g.drink_cards)
        shuffle(state.rng, drink)  # HO-3.3: drink deck first, then the snack deck
        snack = list(g.snack_deck)
        shuffle(state.rng, snack)
    else:
        drink, snack = stacked(state, state.deck)
    n = g.num_players
    hands = [drink[p : n * g.hand_size : n] for p in range(n)]
    snack_hands = [snack[p : n * g.snacks_per_player : n] for p in range(n)]
    start(state, hands, drink[n * g.hand_size :], snack_hands, snack[n * g.snacks_per_player :])


def explicit_deal(state: HangoverState) -> None:
    """The deal with chance taken from outside: each card dealt is a chance event, in the order of
    the deal (card i to seat i mod n, the drink cards first, then the snacks); its outcome is the
    drink card, or NUM_DRINK + the snack type. A seat learns its hand as a whole. The cards set
    aside stay in no order (they are never shown)."""
    g = state.game
    n = g.num_players
    drink = list(g.drink_cards)
    hands: list[list[int]] = [[] for _ in range(n)]
    for i in range(n * g.hand_size):
        hands[i % n].append(state.chance_draw(drink))
    snack = [NUM_DRINK + s for s in g.snack_deck]
    snack_hands: list[list[int]] = [[] for _ in range(n)]
    for i in range(n * g.snacks_per_player):
        snack_hands[i % n].append(state.chance_draw(snack) - NUM_DRINK)
    start(state, hands, drink, snack_hands, [s - NUM_DRINK for s in snack])


def stacked(state: HangoverState, deck: Any) -> tuple[list[int], list[int]]:
    g = state.game
    allowed = (
        'a JSON object {"drink": [...], "snack": [...]}: the drink deck in play and the snack deck, '
        "each a reordering of the game's cards, top first (HO-3.3)"
    )
    if not isinstance(deck, Mapping) or set(deck) != {"drink", "snack"}:
        raise BadOption("deck", deck, allowed, 'expected exactly the keys "drink" and "snack"')
    raw_drink, raw_snack = deck["drink"], deck["snack"]
    if not isinstance(raw_drink, list) or not isinstance(raw_snack, list):
        raise BadOption("deck", deck, allowed, "each part must be a list of codes")
    drink: list[int] = []
    for code in raw_drink:
        if not isinstance(code, str) or code.strip() not in DRINK_INDEX:
            raise BadOption("deck", deck, allowed, f"{code!r} is not a drink card code like 'R5^'")
        drink.append(DRINK_INDEX[code.strip()])
    if sorted(drink) != g.drink_cards:
        extra = Counter(drink) - Counter(g.drink_cards)
        lack = Counter(g.drink_cards) - Counter(drink)
        why = "the drink list must hold each card in play exactly once"
        if extra:
            why += "; not in play or repeated: " + " ".join(DRINK_CODES[c] for c in sorted(extra))
        if lack:
            why += "; missing: " + " ".join(DRINK_CODES[c] for c in sorted(lack))
        raise BadOption("deck", deck, allowed, why)
    snack: list[int] = []
    for code in raw_snack:
        try:
            norm = normalize_snack(code)
        except ValueError as exc:
            raise BadOption("deck", deck, allowed, str(exc)) from None
        if norm not in g.snack_index:
            raise BadOption("deck", deck, allowed, f"{norm} is not in the snack_deck option")
        snack.append(g.snack_index[norm])
    if Counter(snack) != Counter(g.snack_deck):
        raise BadOption(
            "deck", deck, allowed, "the snack list must hold exactly the cards of the snack_deck option"
        )
    return drink, snack


def start(
    state: HangoverState,
    hands: list[list[int]],
    aside: list[int],
    snack_hands: list[list[int]],
    snack_aside: list[int],
) -> None:
    """Put the dealt cards in place (HO-3.5–3.7) and open the first decision (HO-3.8)."""
    g = state.game
    n = state.num_players = g.num_players
    state.hands = [sorted(h) for h in hands]
    state.discards = [[] for _ in range(n)]
    state.aside = list(aside)
    state.trick = []
    state.past = []
    state.snack_hands = [sorted(h) for h in snack_hands]
    state.columns = [[[] for _ in range(g.num_columns)] for _ in range(n)]
    state.flipped = [[] for _ in range(n)]
    state.snack_aside = list(snack_aside)
    state.status = [DRINKER] * n
    state.tricks = [0] * n
    state.vp = [0] * n
    state.declared = [-1] * n
    state.leader = 0
    state.judge_sum = 0  # S of the trick being judged
    state.judge_flips = 0  # f
    state.judge_added = 0  # A
    state.current_player = 0
    if g.snacks_per_player:
        state.phase = ARRANGE
    elif g.non_drinker:
        state.phase = DECLARING
    else:
        state.phase = TRICK
