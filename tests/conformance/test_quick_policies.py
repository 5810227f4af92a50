"""Every game's quick policy (`rollout.act(state, rng)`, issue #17), wherever a game has one: always
legal, on the default options and on odd ones; deciding only on what the seat to move knows (a state
sampled from its view gets the same move for the same random stream); and clearly better than random
play. Each game's own test file checks its obvious good moves."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from conformance_games import CASES, CLASSES

import bodoge
from bodoge.agents import make
from bodoge.agents.heuristic import QuickPolicy, quick_policy
from bodoge.core import Game, State

HEURISTIC = make("heuristic")

#: Odd option sets per game: decks with every kind of card, small and large sizes, extreme limits.
ODD: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "tokkuri": [
        (2, {"max_tokkuri": 3, "hand_size": 5}),
        (
            3,
            {
                "deck": [
                    {"code": "1~4+2", "kind": "number", "slots": ["1~4", 2], "effect": "pass", "copies": 3},
                    {"code": "5+5", "kind": "number", "slots": [5, 5], "effect": "discard", "copies": 3},
                    {"code": "3", "kind": "number", "slots": [3], "effect": "bonus", "copies": 4},
                    {
                        "code": "1~2+1~2",
                        "kind": "number",
                        "slots": ["1~2", "1~2"],
                        "effect": "draw",
                        "copies": 2,
                    },
                    {"code": "dummy", "kind": "dummy", "copies": 2},
                    {"code": "trouble", "kind": "trouble", "copies": 1},
                ],
                "hand_size": 3,
                "rounds": 4,
            },
        ),
        (4, {"tokkuri_level": 6, "penalty_level": 2, "penalty_points": 0}),
    ],
    "tottarot": [
        (3, {"max_will": 4, "turns_per_round": 5, "target": 3}),
        (
            4,
            {
                "deck": [
                    {"code": "JUDGE", "points": 2, "icon": "INVERT", "copies": 2},
                    {"code": "WHEEL", "points": 0, "icon": "INVERT", "copies": 2},
                    {"code": "STAR", "points": 7, "icon": "PEEK", "copies": 2},
                    {"code": "MOON", "points": -1, "icon": "PEEK", "copies": 3},
                    {"code": "SUN", "points": 3, "icon": "EXPOSE", "copies": 2},
                    {"code": "LOVERS", "points": 1, "icon": "SHARE", "copies": 3},
                    {"code": "DEVIL", "points": -9, "copies": 2},
                ],
                "turns_per_round": 4,
            },
        ),
        (2, {"turns_per_round": 1, "max_will": 1, "target": 5}),
    ],
    "hangover": [
        (3, {"hangover_trick": 2, "snacks_per_player": 3}),  # one column, snacks wrapping into it
        (4, {"non_drinker": False, "snacks_per_player": 0}),  # everyone drinks, no snacks
        (5, {"hangover_trick": 8, "hand_size": 9, "end_when_one_active": True}),  # drinking is safe
        (4, {"removed_numbers": [1, 2, 3], "hand_size": 7, "vp_over": -2}),
    ],
}


def policy_of(name: str) -> QuickPolicy | None:
    return quick_policy(bodoge.make(name)) if CLASSES[name].__module__.startswith("bodoge.") else None


QUICK = [name for name in sorted(CLASSES) if policy_of(name) is not None]
QUICK_CASES = [(name, n) for name, n in CASES if name in QUICK]
ODD_CASES = [(name, n, options) for name in QUICK for n, options in ODD.get(name, [])]


def test_the_games_with_a_quick_policy_are_checked() -> None:
    assert {"tokkuri", "tottarot", "hangover"} <= set(QUICK)
    assert set(ODD) <= set(QUICK)


def positions(game: Game, act: QuickPolicy, seed: int) -> Iterator[State]:
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


def check_legal(game: Game, act: QuickPolicy, seeds: int) -> None:
    rng = random.Random(game.num_players)
    moves = 0
    for seed in range(seeds):
        for state in positions(game, act, seed):
            assert act(state, rng) in state.legal_actions(), state.decision()
            moves += 1
    assert moves > 100


@pytest.mark.parametrize("name, players", QUICK_CASES)
def test_quick_moves_are_legal(name: str, players: int) -> None:
    game = bodoge.make(name, players=players)
    check_legal(game, quick_policy(game), 25)  # type: ignore[arg-type]


@pytest.mark.parametrize("name, players, options", ODD_CASES)
def test_quick_moves_are_legal_on_odd_options(name: str, players: int, options: dict[str, Any]) -> None:
    game = bodoge.make(name, players=players, **options)
    check_legal(game, quick_policy(game), 25)  # type: ignore[arg-type]


@pytest.mark.parametrize("name, players", QUICK_CASES)
def test_quick_moves_use_only_what_the_seat_knows(name: str, players: int) -> None:
    """A state sampled from the mover's view (what it cannot see dealt anew) gets the same move for
    the same random stream."""
    game = bodoge.make(name, players=players)
    act = quick_policy(game)
    assert act is not None
    checked = 0
    for seed in range(12):
        for step, state in enumerate(positions(game, act, 100 + seed)):
            if step % 3:
                continue
            view = state.view(state.current_player)
            for k in range(2):
                sampled = game.sample_state(view, random.Random(k))
                for j in range(2):
                    assert act(state, random.Random(j)) == act(sampled, random.Random(j)), state.decision()
                    checked += 1
    assert checked > 100


@pytest.mark.parametrize("name, players", QUICK_CASES)
def test_quick_beats_random_play(name: str, players: int) -> None:
    """One seat on the quick policy, the others uniformly at random, seats rotated: the quick seat
    wins well above its fair share (the margin leaves room to spare)."""
    game = bodoge.make(name, players=players)
    act = quick_policy(game)
    assert act is not None
    games = 80
    share = 0.0
    for i in range(games):
        me = i % players
        rng = random.Random(i)
        state = game.new_state(seed=3000 + i)
        while not state.is_terminal:
            legal = state.legal_actions()
            state.apply(act(state, rng) if state.current_player == me else rng.choice(legal))
        share += state.returns()[me]
    assert share / games > 1 / players + 0.15, share / games
