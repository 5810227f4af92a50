"""`State.lazy_view`: the arena's views, built only as far as an agent reads them (issue #17)."""

from __future__ import annotations

import random

import pytest

import bodoge
from bodoge.agents import legal_ids
from bodoge.core.game import LazyView


@pytest.mark.parametrize("name", bodoge.games())
def test_a_lazy_view_reads_as_the_view(name: str) -> None:
    game = bodoge.make(name)
    state = game.new_state(seed=5)
    rng = random.Random(5)
    for _ in range(30):
        if state.is_terminal:
            break
        for seat in [None, *range(game.num_players)]:
            lazy = state.lazy_view(seat)
            full = state.view(seat)
            assert dict(lazy) == full and len(lazy) == len(full) and set(lazy) == set(full)
            assert lazy["log"] == full["log"] and "log" in lazy and lazy.get("nothing") is None
            if seat == state.current_player:
                assert legal_ids(state.lazy_view(seat)) == legal_ids(full) == state.legal_actions()
            else:
                with pytest.raises(ValueError, match="asks for no decision"):
                    legal_ids(state.lazy_view(seat))
        state.apply(rng.choice(state.legal_actions()))


def test_a_lazy_view_builds_nothing_for_the_legal_ids_and_the_log_only_when_read() -> None:
    state = bodoge.make("troika", players=3).new_state(seed=1)
    lazy = state.lazy_view(state.current_player)
    assert isinstance(lazy, LazyView)
    assert legal_ids(lazy) == state.legal_actions()
    assert lazy._view is None and lazy._log is None  # nothing built for the ids
    assert lazy["seat"] == state.current_player
    assert lazy._view is not None and lazy._log is None  # the log waits until it is read
    assert lazy["log"] == state.log(state.current_player)


def test_a_lazy_view_kept_past_its_move_says_so() -> None:
    state = bodoge.make("tottarot", players=3).new_state(seed=1)
    seat = state.current_player
    unread, half_read, copied = (state.lazy_view(seat) for _ in range(3))
    before = half_read["scores"]
    kept = dict(copied)  # what an agent that keeps a view does
    state.apply(state.legal_actions()[0])
    for late in (lambda: unread["seat"], lambda: legal_ids(unread), lambda: half_read["log"]):
        with pytest.raises(RuntimeError, match="moved on"):
            late()
    assert half_read["scores"] == before  # what was built stays as it was at its move
    assert kept["seat"] == seat and kept["log"] and copied["log"] == kept["log"]


def test_a_lazy_view_checks_its_seat() -> None:
    state = bodoge.make("hangover", players=3).new_state(seed=1)
    with pytest.raises(bodoge.errors.BadOption, match="seat"):
        state.lazy_view(7)
