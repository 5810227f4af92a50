"""The standard environments pass their ecosystems' own checks on every game and player count."""

from __future__ import annotations

import random

import numpy as np
import pytest

import bodoge
import bodoge.rl
from bodoge.core.registry import game_class

pytest.importorskip("pettingzoo", reason="the rl extra (pettingzoo) is not installed")
gymnasium = pytest.importorskip("gymnasium", reason="the rl extra (gymnasium) is not installed")

CASES = [
    (name, players)
    for name in bodoge.games()
    for players in range(game_class(name).min_players, game_class(name).max_players + 1)
]
IDS = [f"{name}-{players}p" for name, players in CASES]


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_observation_is_fixed_size_bounded_and_from_the_view(name: str, players: int) -> None:
    game = bodoge.make(name, players=players)
    shape = game.observation_shape
    state = game.new_state(seed=3)
    rng = random.Random(3)
    while not state.is_terminal:
        for seat in range(players):
            obs = state.observation_tensor(seat)
            assert obs.shape == shape and obs.dtype == np.float32
            assert np.all(obs >= -1.0) and np.all(obs <= 1.0), f"{name} encoding leaves [-1, 1]"
            # Built from the view alone: a determinization with the same view encodes the same.
            sampled = game.sample_state(state.view(seat), rng)
            assert np.array_equal(sampled.observation_tensor(seat), obs)
        mask = state.legal_mask()
        assert mask.shape == (game.num_actions,) and list(np.flatnonzero(mask)) == state.legal_actions()
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_pettingzoo_api_and_seed(name: str, players: int) -> None:
    from pettingzoo.test import api_test, seed_test

    api_test(bodoge.rl.pettingzoo_env(name, players=players), num_cycles=200)
    seed_test(lambda: bodoge.rl.pettingzoo_env(name, players=players), num_cycles=100)


@pytest.mark.parametrize("name", bodoge.games())
def test_gymnasium_env_checker_and_registered_ids(name: str) -> None:
    from gymnasium.utils.env_checker import check_env

    from bodoge.rl.gymnasium_adapter import env_id

    env = bodoge.rl.gym_env(name, seat=1, opponents="random")
    check_env(env, skip_render_check=True)
    made = gymnasium.make(env_id(name), opponents="random")
    obs, info = made.reset(seed=4)
    assert obs.shape == made.observation_space.shape
    total = 0.0
    done = False
    while not done:
        action = int(np.flatnonzero(info["action_mask"])[0])
        obs, reward, done, _, info = made.step(action)
        total += reward
    assert 0.0 <= total <= 1.0


def test_gym_env_penalizes_or_raises_illegal_actions() -> None:
    name = bodoge.games()[0]
    env = bodoge.rl.gym_env(name, opponents="random")
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, done, _, info = env.step(illegal)
    assert reward == -1.0 and done and "illegal" in info["illegal_action"]
    strict = bodoge.rl.gym_env(name, opponents="random", illegal="raise")
    _, info = strict.reset(seed=1)
    with pytest.raises(bodoge.errors.IllegalAction):
        strict.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))


@pytest.mark.parametrize("name", bodoge.games())
def test_openspiel_random_simulation_and_ismcts(name: str) -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="the rl extra (open_spiel) is not installed")
    from open_spiel.python.algorithms import ismcts, mcts

    assert f"bodoge_{name}" in bodoge.rl.register_openspiel()
    game = pyspiel.load_game(f"bodoge_{name}")
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)

    state = game.new_initial_state()
    bot = ismcts.ISMCTSBot(
        game=game,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1)),
        uct_c=2.0,
        max_simulations=8,
        random_state=np.random.RandomState(2),
    )
    chance = random.Random(3)
    while not state.is_terminal():
        if state.is_chance_node():  # explicit chance (the deal, each draw): by its probabilities
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(chance.choices(outcomes, probs)[0])
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert len(state.returns()) == game.num_players()
