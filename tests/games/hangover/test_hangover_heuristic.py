"""Hangover's heuristic bot: legal from views only, on odd options too, and better than random."""

from __future__ import annotations

import random

import pytest

import bodoge
from bodoge.agents import make as make_agent
from bodoge.games.hangover.heuristic import act, best_flips

OPTS = {"vp_under": 1, "vp_just": 3, "vp_over": 0}


def test_best_flips_plans() -> None:
    """HO-E9 and HO-E12 from the bot's side: it finds the 9 VP and 12 VP plans."""
    assert best_flips(9, ["+1/+2", "-1/+1"], 12, OPTS) == (9, [("+1/+2", "+2"), ("-1/+1", "+1")])
    vp, plan = best_flips(10, ["-2/-3", "+1/+3", "-1/+1"], 7, OPTS)
    assert vp == 12 and len(plan) == 3
    assert best_flips(5, [], 7, OPTS) == (1, [])
    assert best_flips(14, ["-4/+4"], 12, OPTS) == (2, [("-4/+4", "-4")])


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize(
    "options",
    [{}, {"snacks_per_player": 0, "non_drinker": False}, {"hangover_trick": 2, "snacks_per_player": 3}],
)
def test_heuristic_plays_legal_games(players: int, options: dict[str, object]) -> None:
    game = bodoge.make("hangover", players=players, **options)
    agent = make_agent("heuristic")
    for seed in range(3):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            p = state.current_player
            assert p is not None
            state.apply(agent.act(game, state.view(p), rng), seat=p)


def test_heuristic_beats_random() -> None:
    game = bodoge.make("hangover", players=4)
    games, share = 80, 0.0
    for i in range(games):
        seat = i % 4
        state = game.new_state(seed=1000 + i)
        rng = random.Random(i)
        while not state.is_terminal:
            p = state.current_player
            assert p is not None
            state.apply(act(game, state.view(p), rng) if p == seat else rng.choice(state.legal_actions()))
        share += state.returns()[seat]
    assert share / games > 0.35  # a fair share is 0.25


def test_designers_metrics_come_from_the_final_view() -> None:
    """Hangover's `metrics` part (bodoge sim's per-game numbers): shares of players hung over and of
    non-drinkers, and the tricks played, as the final spectator view tells them."""
    from bodoge.arena.metrics import game_metrics

    game = bodoge.make("hangover", players=4)
    state = game.new_state(seed=3)
    agent = make_agent("heuristic")
    rng = random.Random(3)
    while not state.is_terminal:
        p = state.current_player
        assert p is not None
        state.apply(agent.act(game, state.view(p), rng))
    view = state.view(None)
    found = game_metrics(state)
    assert found["hung_over"] == sum(s["status"] == "hung_over" for s in view["seats"]) / 4
    assert found["non_drinkers"] == sum(s["declared"] is True for s in view["seats"]) / 4
    assert found["tricks"] == view["trick_number"] == len(view["tricks_played"])
    assert set(found) >= {"tie", "no_winner", "hung_over", "non_drinkers", "tricks"}
