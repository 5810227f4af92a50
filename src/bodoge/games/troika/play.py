"""Troika's play (spec §4, and the declaration of §5): the turn-start flip, the legal actions, their
effect and the end-of-turn check.

Action ids (fixed, 47): `take n` = n − 1 (0–14), `draw` = 15, `return hand n` = 15 + n (16–30),
`return container n` = 30 + n (31–45), `troika` = 46.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from operator import add
from typing import Final

from bodoge.errors import BadOption, IllegalAction
from bodoge.games.troika import setup
from bodoge.games.troika.cards import N_NUMBERS
from bodoge.games.troika.scoring import end_round, zero_waste_with_fuel
from bodoge.games.troika.state import TroikaGame, TroikaState

TAKE: Final = 0  # + (n − 1)
DRAW: Final = 15
RETURN_HAND: Final = 16  # + (n − 1)
RETURN_CONTAINER: Final = 31  # + (n − 1)
TROIKA: Final = 46
NUM_ACTIONS: Final = 47


def start_turn(state: TroikaState) -> None:
    """TR-4.2: the mandatory turn-start flip."""
    t = setup.take_from_pool(state, None)
    state.mine[t - 1] += 1
    state.events.append(("flip", state.current_player, t))
    if state.known_total:
        pool_exit(state, t, None)


def pool_exit(state: TroikaState, t: int, drawer: int | None) -> None:
    """Update each seat's known returned tiles after tile t left the pool (flipped: drawer None)."""
    known = state.known
    sizes = state.known_sizes
    pool_size = len(state.pool)
    for q in range(state.game.num_players):
        if not sizes[q]:
            continue
        if (drawer is None or drawer == q) and known[q][t - 1]:
            known[q][t - 1] -= 1  # seen leaving: counted as the returned one
            sizes[q] -= 1
            state.known_total -= 1
            continue
        if sizes[q] > pool_size:
            # The pool held only q's known tiles and one of them left unseen or against
            # expectation: keep only what is still certain.
            kq = known[q]
            for i in range(N_NUMBERS):
                if kq[i]:
                    kq[i] -= 1
                    sizes[q] -= 1
                    state.known_total -= 1


def legal_actions(state: TroikaState) -> list[int]:
    p = state.current_player
    assert p is not None
    g = state.game
    # (number by number in typed loops: what mypyc, bodoge.compiled, makes plain C)
    mine = state.mine
    legal = [TAKE + i for i in range(N_NUMBERS) if mine[i]]
    hs = state.hand_sizes[p]
    if hs < g.hand_limit and state.pool:
        legal.append(DRAW)
    if hs:
        hand = state.hands[p]
        for i in range(N_NUMBERS):
            if hand[i]:
                legal.append(RETURN_HAND + i)
    cs = state.container_sizes[p]
    if cs:
        container = state.containers[p]
        for i in range(N_NUMBERS):
            if container[i]:
                legal.append(RETURN_CONTAINER + i)
    if g.troika_on and cs >= g.troika_min_container and (cs + hs) % 3 == 0 and may_declare(state, p):
        legal.append(TROIKA)
    return legal


def may_declare(state: TroikaState, p: int) -> bool:
    """TR-5.5.1 (declarations on and 3+ players are checked by the caller)."""
    cs = state.container_sizes[p]
    if cs < state.game.troika_min_container or (cs + state.hand_sizes[p]) % 3:
        return False
    return zero_waste_with_fuel(tuple(map(add, state.hands[p], state.containers[p])))


def apply(state: TroikaState, action: int) -> None:
    if state._stack is not None:
        backup = state.clone()
        try:
            act(state, action)
        except BadOption:
            state.__dict__.update(backup.__dict__)
            state.history.pop()
            raise
    else:
        act(state, action)


def action_text(state: TroikaState, action: int) -> str:
    """`take 7`, `draw`, `return hand 7`, `return container 7`, `troika`."""
    if TAKE <= action < DRAW:
        return f"take {action - TAKE + 1}"
    if action == DRAW:
        return "draw"
    if RETURN_HAND <= action < RETURN_CONTAINER:
        return f"return hand {action - RETURN_HAND + 1}"
    if RETURN_CONTAINER <= action < TROIKA:
        return f"return container {action - RETURN_CONTAINER + 1}"
    if action == TROIKA:
        return "troika"
    return f"action {action}"


def stacked_state(game: TroikaGame, outcomes: Sequence[int], rng: random.Random) -> TroikaState:
    """The start of a game whose first round takes its chance outcomes from `outcomes` (TR-3.4),
    with no seed and its own future chance from `rng`: what `sample_state` builds on, playing
    on with `play_stacked`. BadOption if an outcome is not face down when used."""
    s = game.blank_state(rng)
    assert isinstance(s, TroikaState)
    s._stack = list(outcomes) or None
    s._stack_pos = 0
    s.chips = [0] * game.num_players
    s.round = 0
    s.last_placements = None
    s._next_outcomes = None
    setup.new_round(s)
    start_turn(s)
    return s


def play_stacked(state: TroikaState, actions: Sequence[int], next_round: Sequence[int] | None = None) -> None:
    """Apply `actions` through the rules to a state of `stacked_state`, each checked
    (IllegalAction if not legal). `next_round` stacks the chance outcomes of the round that the
    last action starts by ending this one (TR-3.4); BadOption if a stacked outcome is not face
    down when used. Unlike `apply`, a refusal leaves the state part-played: `sample_state`, its
    user, throws such a state away."""
    state._next_outcomes = None if next_round is None else list(next_round)
    for a in actions:
        if state.current_player is None or a not in legal_actions(state):
            raise IllegalAction(a, state.decision(), "not legal in the history being rebuilt")
        state._legal = None
        state.history.append(a)
        act(state, a)  # not `_apply`: no backup copy per action for a stacked deck
    if state._next_outcomes is not None:
        state._next_outcomes = None
        raise IllegalAction(actions[-1] if actions else None, state.decision(), "the round did not end")


def act(state: TroikaState, a: int) -> None:
    p = state.current_player
    assert p is not None
    events = state.events
    if a < DRAW:  # take n
        state.mine[a] -= 1
        state.containers[p][a] += 1
        state.container_sizes[p] += 1
        events.append(("take", p, a + 1))
    elif a == DRAW:  # TR-4.4
        t = setup.take_from_pool(state, (p,))
        state.hands[p][t - 1] += 1
        state.hand_sizes[p] += 1
        events.append(("draw", p, t))
        if state.known_total:
            pool_exit(state, t, p)
    elif a < RETURN_CONTAINER:  # return hand n: face down, only p knows it (TR-D9)
        i = a - RETURN_HAND
        state.hands[p][i] -= 1
        state.hand_sizes[p] -= 1
        state.pool.append(i + 1)
        state.known[p][i] += 1
        state.known_sizes[p] += 1
        state.known_total += 1
        events.append(("return_hand", p, i + 1))
    elif a < TROIKA:  # return container n: face up into the mine
        i = a - RETURN_CONTAINER
        state.containers[p][i] -= 1
        state.container_sizes[p] -= 1
        state.mine[i] += 1
        events.append(("return_container", p, i + 1))
    else:  # TR-5.5
        first = state.first_declarer is None
        if first:
            state.first_declarer = p
        state.declared[p] = True
        state.n_declared += 1
        events.append(("troika", p, first))
    # TR-4.5: the end-of-turn check.
    n = state.game.num_players
    pool = state.pool
    if not pool:
        _round_over(state, 0)
    elif state.n_declared == n - 1:
        _round_over(state, 1)
    else:
        q = p + 1  # TR-4.1: the next seat clockwise that has not declared
        if q == n:
            q = 0
        if state.n_declared:
            while state.declared[q]:
                q = (q + 1) % n
        state.current_player = q
        if state._stack is not None or state.explicit_chance:
            start_turn(state)
            return
        # TR-4.2, the turn-start flip (`_start_turn` inlined for the unstacked hot path)
        m = len(pool)
        bits = state.rng.getrandbits
        k = m.bit_length()
        i = bits(k)
        while i >= m:
            i = bits(k)
        t = pool[i]
        pool[i] = pool[-1]
        pool.pop()
        state.mine[t - 1] += 1
        events.append(("flip", q, t))
        if state.known_total:
            pool_exit(state, t, None)


def _round_over(state: TroikaState, reason: int) -> None:
    """TR-4.6: score the round; then the next round and its first turn, or the end (TR-6.5)."""
    if end_round(state, reason):
        setup.new_round(state)
        start_turn(state)
    else:  # TR-6.5: the last round is played; TR-6.6 names the winners
        state.current_player = None
        placements = state.last_placements
        assert placements is not None
        state.events.append(("game_end", tuple(state.winners()), tuple(state.chips), tuple(placements)))
