"""Hangover's quick policy (`bodoge.games.hangover.rollout`, issue #17) is the view heuristic's rules
of thumb on the full state: the very same move, reading only what the seat to move knows. That it
is legal, knows no more than the seat and beats random play is checked for every game with a quick
policy in `tests/conformance/test_quick_policies.py`; the rules of thumb themselves in
`test_hangover_heuristic.py`."""

from __future__ import annotations

import random
from typing import Any

import pytest

import bodoge
from bodoge.core.game import Game
from bodoge.games.hangover import heuristic
from bodoge.games.hangover.rollout import act


@pytest.mark.parametrize(
    "players, options",
    [
        (3, {}),
        (4, {}),
        (5, {}),
        (3, {"hangover_trick": 2, "snacks_per_player": 3}),  # one column, snacks wrapping into it
        (4, {"non_drinker": False, "snacks_per_player": 0}),  # everyone drinks, no snacks
        (5, {"hangover_trick": 8, "hand_size": 9, "end_when_one_active": True}),  # drinking is safe
    ],
)
def test_the_quick_move_is_the_heuristics_move(players: int, options: dict[str, Any]) -> None:
    """At every decision of games played by both bots and random moves, on the true state and on
    states sampled from the mover's view: the quick policy's move is the view heuristic's, for the
    same random stream."""
    game = bodoge.make("hangover", players=players, **options)
    assert quick_moves_checked(game, range(200, 208)) > 60


def quick_moves_checked(game: Game, deals: range) -> int:
    """Plays each deal by both bots and random moves and checks, at every decision with a choice, that
    the quick policy's move on the true state and on a state sampled from the mover's view is the
    view heuristic's; returns how many decisions it checked."""
    checked = 0
    for deal in deals:
        seed = deal - deals.start
        rng = random.Random(seed)
        state = game.new_state(seed=deal)
        while not state.is_terminal:
            if len(state.legal_actions()) > 1:
                view = state.view(state.current_player)
                move = heuristic.act(game, view, random.Random(1))
                assert act(state, random.Random(1)) == move, state.decision()
                sampled = game.sample_state(view, random.Random(seed))
                assert act(sampled, random.Random(1)) == move, state.decision()
                checked += 1
            state.apply(act(state, rng) if rng.random() < 0.6 else rng.choice(state.legal_actions()))
    return checked
