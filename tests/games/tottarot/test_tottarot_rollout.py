"""Tottarot's quick policy (`bodoge.games.tottarot.rollout`, issue #17): always legal, deciding only
on what the seat to move knows, clearly better than random play, and the obvious good moves."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import bodoge
from bodoge.agents import make
from bodoge.core.registry import game_class
from bodoge.games.tottarot.rollout import act
from bodoge.games.tottarot.rules import TottarotState

GAME = game_class("tottarot")
PLAYERS = list(range(GAME.min_players, GAME.max_players + 1))
HEURISTIC = make("heuristic")

#: A deck with two INVERT types, a repeated icon and lopsided points.
CUSTOM_DECK = [
    {"code": "JUDGE", "points": 2, "icon": "INVERT", "copies": 2},
    {"code": "WHEEL", "points": 0, "icon": "INVERT", "copies": 2},
    {"code": "STAR", "points": 7, "icon": "PEEK", "copies": 2},
    {"code": "MOON", "points": -1, "icon": "PEEK", "copies": 3},
    {"code": "SUN", "points": 3, "icon": "EXPOSE", "copies": 2},
    {"code": "LOVERS", "points": 1, "icon": "SHARE", "copies": 3},
    {"code": "DEVIL", "points": -9, "copies": 2},
]


def positions(game: Any, seed: int) -> Iterator[TottarotState]:
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
        (3, {"max_will": 4, "turns_per_round": 5, "target": 3}),
        (4, {"deck": CUSTOM_DECK, "turns_per_round": 4}),
        (2, {"turns_per_round": 1, "max_will": 1, "target": 5}),
    ],
)
def test_quick_moves_are_legal(players: int, options: dict[str, Any]) -> None:
    game = bodoge.make("tottarot", players=players, **options)
    rng = random.Random(players)
    moves = 0
    for seed in range(40):
        for state in positions(game, seed):
            assert act(state, rng) in state.legal_actions(), state.decision()
            moves += 1
    assert moves > 200


@pytest.mark.parametrize("players", PLAYERS)
def test_quick_moves_use_only_what_the_seat_knows(players: int) -> None:
    """A state sampled from the mover's view (unknown declared cards, the deck and this turn's hidden
    bids dealt anew) gets the same move for the same random stream."""
    game = bodoge.make("tottarot", players=players)
    checked = 0
    for seed in range(12):
        for step, state in enumerate(positions(game, 100 + seed)):
            if step % 2:
                continue
            p = state.current_player
            view = state.view(p)
            for k in range(3):
                sampled = game.sample_state(view, random.Random(k))
                for j in range(3):
                    assert act(state, random.Random(j)) == act(sampled, random.Random(j)), state.decision()
                    checked += 1
    assert checked > 300


@pytest.mark.parametrize("players", [3, 4, 6])
def test_quick_beats_random_play(players: int) -> None:
    """One seat on the quick policy, the others uniformly at random, seats rotated: the quick seat
    wins about twice its fair share (the margin leaves room to spare)."""
    game = bodoge.make("tottarot", players=players)
    games = 120
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


# -- the obvious good moves -----------------------------------------------------------------------


def test_quick_keeps_a_good_card_and_steals_a_known_one() -> None:
    """P1 peeked at P0's WORLD (TT-5.3). P0 keeps its WORLD out of play with its lowest token; P1,
    holding a DEVIL, bids to act alone, discards it and takes the WORLD (TT-4.5)."""
    game = bodoge.make("tottarot", players=3)
    state = game.new_state(seed=0, deck=["TOWER", "MOON", "DEVIL", "WORLD", "DEVIL", "TOWER"])
    for text in ("bid 3", "bid 0", "bid 1", "steal none", "peek P0"):
        state.apply(text)
    rng = random.Random(0)
    assert state.current_player == 0
    assert state.action_text(act(state, rng)) == "bid 0"
    state.apply("bid 0")
    assert state.current_player == 1
    assert state.action_text(act(state, rng)) == "bid 3"  # none beats P2's unused 3: its highest
    state.apply("bid 3")
    state.apply("bid 0")
    assert state.current_player == 1
    assert state.action_text(act(state, rng)) == "steal P0"


def test_quick_takes_nothing_rather_than_a_known_bad_card() -> None:
    """P0 acts alone with a TOWER and has seen (EXPOSE, TT-5.4) P1's DEVIL; P2's card is unknown, and
    the unknown cards average below nothing: `steal none`."""
    game = bodoge.make("tottarot", players=3)
    state = game.new_state(seed=0)
    state.declared = [game.code_index["TOWER"], game.code_index["DEVIL"], game.code_index["WORLD"]]
    state.knows = [1, game.all_mask, 4]
    state.discard = [game.code_index[c] for c in ("WORLD", "WORLD", "SUN", "SUN", "SUN", "LOVERS")]
    state._legal = None
    state.apply("bid 3")
    state.apply("bid 0")
    state.apply("bid 0")
    assert state.current_player == 0  # P0 discarded its TOWER
    assert state.action_text(act(state, random.Random(0))) == "steal none"
