"""OpenSpiel games a solver can use (issue #58): explicit chance nodes, serialization, full-state
strings, perfect-recall information-state tensors, and tiny variants small enough for CFR+.

Small sizes throughout: the full games at their fewest players for one random simulation, the tiny
variants enumerated whole."""

from __future__ import annotations

import math
import random
import time
from typing import Any

import numpy as np
import pytest

import bodoge
from bodoge.core.game import CHANCE
from bodoge.core.registry import game_class
from bodoge.errors import BadOption, BadRecord, IllegalAction

pyspiel = pytest.importorskip("pyspiel", reason="the rl extra (open_spiel) is not installed")

from bodoge.rl.openspiel_adapter import TINY, explicit, register_openspiel  # noqa: E402

register_openspiel()
EXACT = [name for name in bodoge.games() if explicit(name)]
# Hangover's tiny variant has 13,000 histories (eight distinct cards dealt to three seats): slow.
TINY_NAMES = [pytest.param(n, marks=pytest.mark.slow) if n == "hangover" else n for n in EXACT if n in TINY]


def _fewest(name: str) -> Any:
    return pyspiel.load_game(f"bodoge_{name}", {"players": game_class(name).min_players})


def _random_walk(state: Any, rng: random.Random, steps: int | None = None) -> Any:
    """Play on at random (chance by its probabilities), checking every chance node on the way."""
    game = state.get_game()
    done = 0
    while not state.is_terminal() and (steps is None or done < steps):
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            ids = [o for o, _ in outcomes]
            assert ids == sorted(ids) == state.legal_actions()
            assert all(0 <= o < game.max_chance_outcomes() for o in ids)
            assert all(p > 0 for _, p in outcomes)
            assert math.isclose(sum(p for _, p in outcomes), 1.0, abs_tol=1e-9)
            state.apply_action(rng.choices(ids, [p for _, p in outcomes])[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        done += 1
    return state


@pytest.mark.parametrize("name", EXACT)
def test_random_sim_test_with_serialization(name: str) -> None:
    game = _fewest(name)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("name", [n for n in TINY if n in EXACT])
def test_tiny_variants_pass_random_sim_test(name: str) -> None:
    game = pyspiel.load_game(f"bodoge_{name}_tiny")
    assert game.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    state = _random_walk(game.new_initial_state(), random.Random(0), 3)
    for p in range(game.num_players()):  # at any node, a chance node too: the seat's tensor
        assert len(state.information_state_tensor(p)) == game.information_state_tensor_size()


@pytest.mark.parametrize("name", EXACT)
def test_serialize_round_trip_and_history_replay(name: str) -> None:
    game = _fewest(name)
    rng = random.Random(5)
    state = game.new_initial_state()
    assert state.is_chance_node()  # the deal is chance's
    for steps in (0, 3, 20, None):
        state = _random_walk(state, rng, steps if steps is None else steps - len(state.history()))
        again = game.deserialize_state(state.serialize())
        assert str(again) == str(state) and again.history() == state.history()
        _, again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
        assert str(again) == str(state)
        replayed = game.new_initial_state()
        for a in state.history():
            replayed.apply_action(a)
        assert str(replayed) == str(state)
    assert state.is_terminal()


@pytest.mark.parametrize("name", EXACT)
def test_full_state_string_shows_hidden_cards(name: str) -> None:
    """`str(state)` is the whole state: two states with one string look the same to every seat,
    and deals that some seat sees differently have different strings."""
    game = _fewest(name)
    rng = random.Random(7)
    views: dict[str, tuple[str, ...]] = {}
    for _ in range(12):
        state = game.new_initial_state()
        while state.is_chance_node():
            state = _random_walk(state, rng, 1)
        seen = tuple(state.information_state_string(p) for p in range(game.num_players()))
        assert views.setdefault(str(state), seen) == seen
    assert len(set(views.values())) == len(views) > 1


@pytest.mark.parametrize("name", TINY_NAMES)
def test_tiny_variant_tensors_are_one_to_one_with_information_states(name: str) -> None:
    game = pyspiel.load_game(f"bodoge_{name}_tiny")
    by_string: dict[str, bytes] = {}
    terminals = 0

    def walk(state: Any) -> None:
        nonlocal terminals
        if state.is_terminal():
            terminals += 1
            assert math.isclose(sum(state.returns()), 1.0), "the tiny variants are constant-sum"
            return
        if state.is_chance_node():
            for o, _ in state.chance_outcomes():
                walk(state.child(o))
            return
        player = state.current_player()
        key = state.information_state_string(player)
        tensor = np.asarray(state.information_state_tensor(player), dtype=np.float32)
        assert tensor.shape == (game.information_state_tensor_size(),)
        found = by_string.setdefault(key, tensor.tobytes())
        assert found == tensor.tobytes(), "one information state, two tensors"
        for a in state.legal_actions():
            walk(state.child(a))

    walk(game.new_initial_state())
    assert terminals > 1 and len(by_string) > 10
    assert len(set(by_string.values())) == len(by_string), "two information states share a tensor"


def test_cfr_plus_lowers_exploitability_on_a_tiny_variant() -> None:
    from open_spiel.python.algorithms import cfr, exploitability

    # bodoge_tottarot_tiny with one turn: 157 histories, solved to 0.01 in about a second.
    game = pyspiel.load_game("bodoge_tottarot_tiny", {"options": '{"turns_per_round": 1}'})
    solver = cfr.CFRPlusSolver(game)
    start = time.perf_counter()
    first = exploitability.exploitability(game, solver.average_policy())
    for _ in range(60):
        solver.evaluate_and_update_policy()
    last = exploitability.exploitability(game, solver.average_policy())
    assert first > 0.05 and last < 0.005, (first, last)
    assert time.perf_counter() - start < 60


def test_ismcts_plays_from_a_sampled_state_of_an_explicit_game() -> None:
    """Resampling gives a state that draws its own chance: OpenSpiel's ISMCTS still searches it."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("bodoge_tottarot_tiny")
    state = _random_walk(game.new_initial_state(), random.Random(1), 2)
    assert not state.is_chance_node()
    bot = ismcts.ISMCTSBot(
        game=game,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1)),
        uct_c=2.0,
        max_simulations=8,
        random_state=np.random.RandomState(2),
    )
    assert bot.step(state) in state.legal_actions()


# -- the engine's side (core/game.py): chance taken from outside --------------------------------------


@pytest.mark.parametrize("name", EXACT)
def test_explicit_chance_engine_protocol(name: str) -> None:
    game = bodoge.make(name, players=game_class(name).min_players)
    state = game.new_state(explicit_chance=True)
    assert state.is_chance_node and state.current_player == CHANCE and not state.is_terminal
    assert state.legal_actions() == []
    with pytest.raises(IllegalAction):
        state.apply(0)
    with pytest.raises(IllegalAction):
        state.apply_chance(-1)
    with pytest.raises(BadRecord):
        state.to_record()
    with pytest.raises(RuntimeError):
        _ = state.rng  # no RNG: every draw is chance's from outside
    with pytest.raises(BadOption):
        game.new_state(seed=1, explicit_chance=True)
    rng = random.Random(2)
    chance = 0
    while not state.is_terminal:
        if state.is_chance_node:
            outcomes = state.chance_outcomes()
            assert math.isclose(sum(p for _, p in outcomes), 1.0)
            assert all(0 <= s < game.num_players for s in state.chance_seen_by)
            before = state.clone()
            state.apply_chance(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
            assert before.is_chance_node  # a clone is its own state
            chance += 1
        else:
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_chance_node:
            state.check_invariants()
    assert 0 < chance <= game.max_chance_events()
    assert len(state.history) <= game.max_game_length()


def test_a_game_without_outside_chance_refuses_it() -> None:
    for name in bodoge.games():
        game = bodoge.make(name)
        if game.num_chance_outcomes is None:
            with pytest.raises(BadOption):
                game.new_state(explicit_chance=True)
