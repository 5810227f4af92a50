"""The Tottarot heuristic: legal from the view alone, and clearly better than random play."""

from __future__ import annotations

import random

import pytest

import bodoge
from bodoge.games.tottarot.heuristic import act


@pytest.mark.parametrize("players", [2, 4])
def test_heuristic_beats_random(players: int) -> None:
    game = bodoge.make("tottarot", players=players)
    rng = random.Random(players)
    games = 200
    share = 0.0
    for i in range(games):
        me = i % players
        state = game.new_state(seed=1000 + i)
        while not state.is_terminal:
            p = state.current_player
            if p == me:
                view = state.view(p)
                action = act(game, view, rng)
                assert action in state.legal_actions()
            else:
                action = rng.choice(state.legal_actions())
            state.apply(action)
        share += state.returns()[me]
    assert share / games > 1 / players + 0.06, share / games


def test_heuristic_steals_the_known_good_card() -> None:
    """P1 peeked at P0's WORLD; acting alone with a DEVIL, it discards and takes the WORLD."""
    game = bodoge.make("tottarot", players=3)
    state = game.new_state(seed=0, deck=["TOWER", "MOON", "DEVIL", "WORLD", "DEVIL", "TOWER"])
    for text in ("bid 3", "bid 0", "bid 1", "steal none", "peek P0"):
        state.apply(text)
    rng = random.Random(0)
    assert state.current_player == 0
    assert state.action_text(act(game, state.view(0), rng)) == "bid 0"  # keeps its WORLD out of play
    for text in ("bid 0", "bid 3", "bid 0"):
        state.apply(text)
    assert state.current_player == 1
    assert state.action_text(act(game, state.view(1), rng)) == "steal P0"
