"""Troika's setup (spec §3): a stacked deck's check, each round's setup, and the draw from the pool
(the game's one chance event, TR-D18)."""

from __future__ import annotations

from typing import Any

from bodoge.core import options as opts
from bodoge.errors import BadOption
from bodoge.games.troika.cards import N_NUMBERS
from bodoge.games.troika.state import TroikaState


def checked_deck(state: TroikaState, deck: Any) -> list[int]:
    """TR-3.4: the first round's chance outcomes, checked up front as far as possible."""
    g = state.game
    allowed = "a list of tile numbers 1–15 (the first round's chance outcomes in order, TR-3.4)"
    if isinstance(deck, str):
        deck = opts.parse_text(deck)
        if isinstance(deck, str):
            deck = deck.replace(",", " ").split()
    if not isinstance(deck, list | tuple):
        raise BadOption("deck", deck, allowed)
    out: list[int] = []
    for x in deck:
        try:
            t = opts.as_int(x)
        except ValueError:
            raise BadOption("deck", deck, allowed, f"{x!r} is not a tile number") from None
        if not 1 <= t <= N_NUMBERS or g.tile_counts[t - 1] == 0:
            raise BadOption("deck", deck, allowed, f"there is no tile {x!r} in this game's tile set")
        out.append(t)
    # The setup events (removals, deal, flip) take from the full pool: check them now.
    left = list(g.tile_counts)
    setup_events = g.removed_per_round + g.num_players + 1
    for j, t in enumerate(out[:setup_events]):
        if left[t - 1] == 0:
            raise BadOption(
                "deck", deck, allowed, f"outcome {j + 1} is a {t}, but no {t} is left face down then"
            )
        left[t - 1] -= 1
    return out


def new_round(state: TroikaState, stacked: list[int] | None = None) -> None:
    """Set up the next round (§3). The first round uses the stacked deck, if any (TR-3.4); a
    later round uses the RNG, unless its outcomes are passed as `stacked` or queued by
    `play_stacked`."""
    g = state.game
    n = g.num_players
    state.round += 1
    if state.round > 1:
        if stacked is None:
            stacked, state._next_outcomes = state._next_outcomes, None
        state._stack = stacked or None
        state._stack_pos = 0
    state.start_player = (state.round - 1) % n  # TR-3.1 / TR-D17
    state.pool = list(g.pool_start)
    state.removed = [0] * N_NUMBERS
    state.removed_size = 0
    state.mine = [0] * N_NUMBERS
    state.hands = [[0] * N_NUMBERS for _ in range(n)]
    state.hand_sizes = [0] * n
    state.containers = [[0] * N_NUMBERS for _ in range(n)]
    state.container_sizes = [0] * n
    state.known = [[0] * N_NUMBERS for _ in range(n)]
    state.known_sizes = [0] * n
    state.known_total = 0
    state.declared = [False] * n
    state.n_declared = 0
    state.first_declarer = None
    events = state.events
    events.append(("round_start", state.round, state.start_player))
    # TR-3.3, in this order: 2-player removal, one tile to each hand from the start player, a flip.
    k = g.removed_per_round
    if k:
        for _ in range(k):
            t = take_from_pool(state)  # set aside unseen
            state.removed[t - 1] += 1
        state.removed_size = k
        events.append(("removed", k))
    for i in range(n):
        q = (state.start_player + i) % n
        t = take_from_pool(state, (q,))
        state.hands[q][t - 1] += 1
        state.hand_sizes[q] = 1
        events.append(("deal", q, t))
    t = take_from_pool(state, None)
    state.mine[t - 1] += 1
    events.append(("flip", None, t))
    state.current_player = state.start_player  # TR-3.6: the first turn (and its flip) is play's


def take_from_pool(state: TroikaState, seen_by: tuple[int, ...] | None = ()) -> int:
    """One tile uniformly at random from the face-down pool (or the stacked outcome, TR-3.4).
    `seen_by`: the seats that see it (None: everyone, a flip), for chance taken from outside."""
    pool = state.pool
    stack = state._stack
    if stack is not None and state._stack_pos < len(stack):
        t = stack[state._stack_pos]
        try:
            i = pool.index(t)
        except ValueError:
            raise BadOption(
                "deck",
                stack,
                "tile numbers each present face down when used (TR-3.4)",
                f"outcome {state._stack_pos + 1} is a {t}, but no {t} is face down then",
            ) from None
        state._stack_pos += 1
        if state._stack_pos == len(stack):
            state._stack = None  # used up: the RNG from here on
    elif state.explicit_chance:  # chance from outside: the outcome is the tile's number − 1
        weights = [0] * N_NUMBERS
        for x in pool:
            weights[x - 1] += 1
        seats = tuple(range(state.game.num_players)) if seen_by is None else seen_by
        t = state.chance_pick(weights, seats) + 1
        i = pool.index(t)
    else:
        # rng.randrange(len(pool)), inlined (the same draws): the hot path's chance event.
        n = len(pool)
        bits = state.rng.getrandbits
        k = n.bit_length()
        i = bits(k)
        while i >= n:
            i = bits(k)
        t = pool[i]
    pool[i] = pool[-1]
    pool.pop()
    return t
