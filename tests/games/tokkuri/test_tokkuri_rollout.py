"""Tokkuri's quick policy (`bodoge.games.tokkuri.rollout`, issue #17): always legal, deciding only on
what the seat to move knows, clearly better than random play, and the obvious good moves."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import bodoge
from bodoge.agents import make
from bodoge.core.registry import game_class
from bodoge.games.tokkuri.play import ACTION
from bodoge.games.tokkuri.rollout import act
from bodoge.games.tokkuri.rules import TokkuriState

GAME = game_class("tokkuri")
PLAYERS = list(range(GAME.min_players, GAME.max_players + 1))
HEURISTIC = make("heuristic")

#: A deck with ranges, several ranges on one card, every effect and a troublesome tokkuri.
CUSTOM_DECK = [
    {"code": "1~4+2", "kind": "number", "slots": ["1~4", 2], "effect": "pass", "copies": 3},
    {"code": "5+5", "kind": "number", "slots": [5, 5], "effect": "discard", "copies": 3},
    {"code": "3", "kind": "number", "slots": [3], "effect": "bonus", "copies": 4},
    {"code": "1~2+1~2", "kind": "number", "slots": ["1~2", "1~2"], "effect": "draw", "copies": 2},
    {"code": "dummy", "kind": "dummy", "copies": 2},
    {"code": "trouble", "kind": "trouble", "copies": 1},
]


def positions(game: Any, seed: int) -> Iterator[TokkuriState]:
    """Every position of one game whose seats play, move by move, the quick policy, uniformly at
    random, or (now and then) the view heuristic."""
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    while not state.is_terminal:
        yield state
        roll = rng.random()
        if roll < 0.5:
            action = act(state, rng)
        elif roll < 0.9:
            action = rng.choice(state.legal_actions())
        else:
            action = HEURISTIC.act(game, state.view(state.current_player, log=False), rng)
        state.apply(action)


@pytest.mark.parametrize(
    "players, options",
    [(n, {}) for n in PLAYERS]
    + [
        (2, {"max_tokkuri": 3, "hand_size": 5}),
        (3, {"deck": CUSTOM_DECK, "hand_size": 3, "rounds": 4}),
        (4, {"tokkuri_level": 6, "penalty_level": 2, "penalty_points": 0}),
    ],
)
def test_quick_moves_are_legal(players: int, options: dict[str, Any]) -> None:
    game = bodoge.make("tokkuri", players=players, **options)
    rng = random.Random(players)
    moves = 0
    for seed in range(25):
        for state in positions(game, seed):
            assert act(state, rng) in state.legal_actions(), state.decision()
            moves += 1
    assert moves > 200


@pytest.mark.parametrize("players", PLAYERS)
def test_quick_moves_use_only_what_the_seat_knows(players: int) -> None:
    """A state sampled from the mover's view (other hands, other tokkuri faces and the deck dealt
    anew) gets the same move for the same random stream."""
    game = bodoge.make("tokkuri", players=players)
    checked = 0
    for seed in range(12):
        for step, state in enumerate(positions(game, 100 + seed)):
            if step % 3:
                continue
            p = state.current_player
            view = state.view(p)
            for k in range(3):
                sampled = game.sample_state(view, random.Random(k))
                for j in range(3):
                    assert act(state, random.Random(j)) == act(sampled, random.Random(j)), state.decision()
                    checked += 1
    assert checked > 300


@pytest.mark.parametrize("players", PLAYERS)
def test_quick_beats_random_play(players: int) -> None:
    """One seat on the quick policy, the others uniformly at random, seats rotated: the quick seat
    wins far more than its fair share (it wins nearly all; the margin leaves room to spare)."""
    game = bodoge.make("tokkuri", players=players)
    games = 80
    share = 0.0
    for i in range(games):
        me = i % players
        rng = random.Random(i)
        state = game.new_state(seed=2000 + i)
        while not state.is_terminal:
            legal = state.legal_actions()
            state.apply(act(state, rng) if state.current_player == me else rng.choice(legal))
        share += state.returns()[me]
    assert share / games > 1 / players + 0.4, share / games


# -- the obvious good moves -----------------------------------------------------------------------


def test_quick_empties_its_own_full_tokkuri() -> None:
    """P0 holds 5, 3 and a dummy; T0.1 (its own) and T1.1 are at level 5, T1.2 at 10. Emptying
    T0.1 captures it and spares P0 the penalty (TK-6.1): `drink 5`, then `target T0.1`."""
    game = bodoge.make("tokkuri", players=2)
    state = game.new_state(seed=0)
    codes = game.code_index
    N = game.total
    state.hands = [sorted(codes[c] for c in ("5", "3", "dummy")), [codes["7"]]]
    state.table = [0, N, N + 1]
    state.levels = [5, 5, 10]
    state.faces = [codes["6"], codes["2"], codes["4"]]
    state.sorted_levels = sorted(state.levels)
    state.placed = [1, 2]
    state.phase = ACTION
    state.active = state.current_player = 0
    state._legal = None
    rng = random.Random(0)
    action = act(state, rng)
    assert state.action_text(action) == "drink 5"
    state.apply(action)
    assert state.action_text(act(state, rng)) == "target T0.1"


def test_quick_opens_with_a_dummy() -> None:
    """A dummy scores nothing for whoever empties it (TK-5.6): the least useful card to open with."""
    game = bodoge.make("tokkuri", players=2)
    deck = ["5", "2", "dummy", "3", "9", "4", "1~3", "6", "8", "7", "1+1+1", "2", "6+4", "3"]
    rest = list(game.all_cards)
    for code in deck:
        rest.remove(game.code_index[code.lower()])
    state = game.new_state(seed=0, deck=deck + [game.codes[t] for t in rest])
    assert state.action_text(act(state, random.Random(0))) == "place dummy"
