"""Hangover's quick policy (`bodoge.games.hangover.rollout`, issue #17): always legal, deciding only on
what the seat to move knows, and the very move of the view heuristic, whose rules of thumb it shares."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import bodoge
from bodoge.games.hangover import heuristic
from bodoge.games.hangover.rollout import act
from bodoge.games.hangover.rules import HangoverState

ODD = [
    (3, {}),
    (4, {}),
    (5, {}),
    (3, {"hangover_trick": 2, "snacks_per_player": 3}),  # one column, snacks wrapping into it
    (4, {"non_drinker": False, "snacks_per_player": 0}),  # everyone drinks, no snacks
    (5, {"hangover_trick": 8, "hand_size": 9, "end_when_one_active": True}),  # drinking is safe
    (4, {"removed_numbers": [1, 2, 3], "hand_size": 7, "vp_over": -2}),
]


def positions(game: Any, seed: int) -> Iterator[HangoverState]:
    """Every position of one game whose seats play the quick policy or uniformly at random."""
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    while not state.is_terminal:
        yield state
        state.apply(act(state, rng) if rng.random() < 0.6 else rng.choice(state.legal_actions()))


@pytest.mark.parametrize("players, options", ODD)
def test_quick_moves_are_legal(players: int, options: dict[str, Any]) -> None:
    game = bodoge.make("hangover", players=players, **options)
    rng = random.Random(players)
    moves = 0
    for seed in range(25):
        for state in positions(game, seed):
            assert act(state, rng) in state.legal_actions(), state.decision()
            moves += 1
    assert moves > 300


@pytest.mark.parametrize("players, options", ODD)
def test_quick_moves_use_only_what_the_seat_knows_and_are_the_heuristics(
    players: int, options: dict[str, Any]
) -> None:
    """On states sampled from the mover's view (the others' hands, their discards and the set-aside
    dealt anew), the quick policy makes the same move for the same random stream, and so does the
    view heuristic on the view itself."""
    game = bodoge.make("hangover", players=players, **options)
    checked = 0
    for seed in range(8):
        for state in positions(game, 200 + seed):
            if len(state.legal_actions()) == 1:
                continue
            view = state.view(state.current_player)
            for k in range(2):
                sampled = game.sample_state(view, random.Random(k))
                for j in range(2):
                    move = act(state, random.Random(j))
                    assert act(sampled, random.Random(j)) == move, state.decision()
                    assert heuristic.act(game, view, random.Random(j)) == move, state.decision()
                    checked += 1
    assert checked > 100


@pytest.mark.parametrize("players", [3, 4, 5])
def test_quick_beats_random_play(players: int) -> None:
    """One seat on the quick policy, the others uniformly at random, seats rotated: the quick seat
    wins well above its fair share."""
    game = bodoge.make("hangover", players=players)
    games = 100
    share = 0.0
    for i in range(games):
        me = i % players
        rng = random.Random(i)
        state = game.new_state(seed=5000 + i)
        while not state.is_terminal:
            legal = state.legal_actions()
            state.apply(act(state, rng) if state.current_player == me else rng.choice(legal))
        share += state.returns()[me]
    assert share / games > 1 / players + 0.15, share / games
