"""Tottarot's quick policy (`bodoge.games.tottarot.rollout`, issue #17): its obvious good moves. That it is
always legal, decides only on what the seat to move knows and beats random play is checked for every
game with a quick policy in `tests/conformance/test_quick_policies.py`."""

from __future__ import annotations

import random

import bodoge
from bodoge.games.tottarot.rollout import act


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
