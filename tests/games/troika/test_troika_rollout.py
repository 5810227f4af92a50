"""Troika's quick policy (`bodoge.games.troika.rollout`) is the view heuristic's rules of thumb on the
full state: the very same move, reading only what the seat to move knows. That it is legal, knows no
more than the seat and beats random play is checked for every game with a quick policy in
`tests/conformance/test_quick_policies.py`."""

from __future__ import annotations

import random
from typing import Any

import pytest

import bodoge
from bodoge.agents.ismcts import ISMCTSAgent
from bodoge.games.troika import heuristic
from bodoge.games.troika.rollout import act


@pytest.mark.parametrize(
    "players, options",
    [
        (2, {}),
        (3, {}),
        (4, {}),
        (5, {}),
        (4, {"hand_limit": 6, "troika_min_container": 0, "rounds": 2}),
        (3, {"tile_counts": {"1": 20, "2": 1, "3": 9, "5": 4, "6": 4, "7": 4, "14": 12, "15": 2}}),
        (4, {"troika": False, "hand_limit": 1}),
    ],
)
def test_the_quick_move_is_the_heuristics_move(players: int, options: dict[str, Any]) -> None:
    """At every decision of games played by both bots and random moves, on the true state and on
    states sampled from the mover's view: the quick policy's move is the view heuristic's, for the
    same random stream (ties included)."""
    game = bodoge.make("troika", players=players, **options)
    checked = 0
    for seed in range(4):
        rng = random.Random(seed)
        state = game.new_state(seed=300 + seed)
        while not state.is_terminal:
            if len(state.legal_actions()) > 1:
                view = state.view(state.current_player)
                for luck in range(2):
                    move = heuristic.act(game, view, random.Random(luck))
                    assert act(state, random.Random(luck)) == move, state.decision()
                sampled = game.sample_state(view, random.Random(seed))
                assert act(sampled, random.Random(1)) == heuristic.act(game, view, random.Random(1))
                checked += 1
            state.apply(act(state, rng) if rng.random() < 0.6 else rng.choice(state.legal_actions()))
    assert checked > 60


def test_the_bot_keeps_random_rollouts_in_troika() -> None:
    """ISMCTS's `auto` still plays Troika's simulations at random with UCT for the others (the quick
    policy is the review's until its effect on the bot is measured); asked for, it is used."""
    game = bodoge.make("troika", players=3)
    assert ISMCTSAgent(iterations=10).policies(game) == (None, None)
    policy, model = ISMCTSAgent(iterations=10, rollout="quick", opponents="quick").policies(game)
    assert policy is model is act
