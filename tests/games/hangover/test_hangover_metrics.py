"""Hangover's own report numbers: snack use (issue #54: tune reports component use beside the goals)."""

from __future__ import annotations

import random

from bodoge.arena.runner import make_game
from bodoge.games.hangover.metrics import game_metrics


def _final_view(options: dict[str, object], seed: int) -> dict:
    game = make_game("hangover", 4, options)
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    while state.current_player is not None:
        state.apply(rng.choice(state.legal_actions()))
    return state.view(None)


def test_snacks_flipped_is_the_share_of_dealt_snacks_that_were_flipped() -> None:
    for seed in range(20):
        view = _final_view({"non_drinker": False}, seed)
        flipped = sum(len(s["flipped"]) for s in view["seats"])
        got = game_metrics(view)["snacks_flipped"]
        assert got == flipped / 16  # 4 snacks dealt to each of 4 players (HO-2.2)
    assert game_metrics(_final_view({"snacks_per_player": 0}, 1))["snacks_flipped"] == 0.0


def _play_with_drinkers(players: int, drinkers: set[int], seed: int) -> list[str]:
    """A random game whose declarations are fixed: the seats in `drinkers` pass, the others declare."""
    game = make_game("hangover", players, {})
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    while state.current_player is not None:
        legal = state.legal_actions()
        texts = {state.action_text(a): a for a in legal}
        if "declare" in texts:
            action = texts["pass" if state.current_player in drinkers else "declare"]
        else:
            action = rng.choice(legal)
        state.apply(action)
    return [s["status"] for s in state.view(None)["seats"]]


def test_the_drinkers_the_rules_force_to_hang_over_hang_over_whatever_anyone_plays() -> None:
    """The Hangover note's robust facts (HO-5.3.2, HO-5.4, HO-D9 at draft 2's defaults): the n − d
    non-drinkers take at most one trick each and a drinker at most C = 4 before its Hangover trick,
    so at least min(d, 11 − (n − d) − 4d) drinkers hang over, however the cards are played. A lone
    drinker hangs over at every count; at 3 players two drinkers both do. Random play assumes nothing."""
    for seed in range(25):
        for players in (3, 4, 5):
            for drinker in range(players):
                statuses = _play_with_drinkers(players, {drinker}, seed)
                assert statuses[drinker] == "hung_over", (players, drinker, seed)
        statuses = _play_with_drinkers(3, {0, 2}, seed)
        assert statuses[0] == statuses[2] == "hung_over"
        statuses = _play_with_drinkers(4, {1, 3}, seed)  # 11 − 2 − 8 = 1: at least one of the two
        assert "hung_over" in (statuses[1], statuses[3])
