"""Tokkuri's quick policy (`bodoge.games.tokkuri.rollout`, issue #17): its obvious good moves. That it is
always legal, decides only on what the seat to move knows and beats random play is checked for every
game with a quick policy in `tests/conformance/test_quick_policies.py`."""

from __future__ import annotations

import random

import bodoge
from bodoge.games.tokkuri.rollout import act
from bodoge.games.tokkuri.state import ACTION


def test_quick_empties_its_own_full_tokkuri() -> None:
    """P0 holds 5, 3 and a dummy; T0.1 (its own) and T1.1 are at level 5, T1.2 at 10. Emptying
    T0.1 captures it and spares P0 the penalty (TK-6.1): `drink 5`, then `target T0.1`."""
    game = bodoge.make("tokkuri", players=2)
    state = game.new_state(seed=0)
    codes = game.code_index
    N = game.total
    state.hands = [sorted(codes[c] for c in ("5", "3", "dummy")), [codes["7"]]]
    state.table = [0, N, N + 1]
    state.levels = [5, 5, 10]
    state.faces = [codes["6"], codes["2"], codes["4"]]
    state.sorted_levels = sorted(state.levels)
    state.placed = [1, 2]
    state.phase = ACTION
    state.active = state.current_player = 0
    state._legal = None
    rng = random.Random(0)
    action = act(state, rng)
    assert state.action_text(action) == "drink 5"
    state.apply(action)
    assert state.action_text(act(state, rng)) == "target T0.1"


def test_quick_opens_with_a_dummy() -> None:
    """A dummy scores nothing for whoever empties it (TK-5.6): the least useful card to open with."""
    game = bodoge.make("tokkuri", players=2)
    deck = ["5", "2", "dummy", "3", "9", "4", "1~3", "6", "8", "7", "1+1+1", "2", "6+4", "3"]
    rest = list(game.all_cards)
    for code in deck:
        rest.remove(game.code_index[code.lower()])
    state = game.new_state(seed=0, deck=deck + [game.codes[t] for t in rest])
    assert state.action_text(act(state, random.Random(0))) == "place dummy"
