"""The kept log (issue #19): a state builds each seat's log entries once, and a clone shares them until
either writes. Whatever the order of views, clones and moves, a log equals the log of the same game
replayed afresh."""

from __future__ import annotations

import random

import pytest

import bodoge
from bodoge.core import State


def fresh_log(state: State, seat: int | None) -> list[dict[str, object]]:
    again = state.game.new_state(seed=state.seed, deck=state.deck)
    for a in state.history:
        again.apply(a)
    return [dict(e) for e in again.log(seat)]


@pytest.mark.parametrize("name", bodoge.games())
def test_clones_share_the_kept_log_and_diverge_safely(name: str) -> None:
    game = bodoge.make(name)
    rng = random.Random(7)
    state = game.new_state(seed=7)
    family = [state]
    for _ in range(60):
        s = rng.choice(family)
        if s.is_terminal:
            continue
        roll = rng.random()
        if roll < 0.3:
            family.append(s.clone())
        elif roll < 0.6:
            s.view(rng.choice([None, *range(game.num_players)]))
        else:
            s.apply(rng.choice(s.legal_actions()))
    for s in family:
        for seat in [None, *range(game.num_players)]:
            assert [dict(e) for e in s.log(seat)] == fresh_log(s, seat), (name, seat, len(s.history))


def test_a_log_entry_is_read_only_and_a_view_can_be_changed() -> None:
    state = bodoge.make("troika").new_state(seed=1)
    view = state.view(0)
    with pytest.raises(TypeError, match="read-only"):
        view["log"][0]["text"] = "changed"
    view["log"].append({"type": "mine"})  # the list is the view's own
    assert len(state.view(0)["log"]) == len(view["log"]) - 1
