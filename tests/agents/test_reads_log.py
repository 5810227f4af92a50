"""Which agents read their view's log (the server leaves it out of a bot's view when not)."""

from __future__ import annotations

import random

import bodoge
from bodoge import agents
from bodoge.core import registry


def test_random_and_heuristic_decide_without_the_log_ismcts_reads_it() -> None:
    assert agents.reads_log("random") is False
    assert agents.reads_log("heuristic") is False
    assert agents.reads_log("ismcts:iterations=10") is True
    assert agents.reads_log("no-such-agent") is True  # unknown: given everything it may read


def test_heuristics_play_the_same_without_the_log() -> None:
    for name in registry.declared():  # (a server test's toy game is not one of them)
        game = bodoge.make(name)
        bot = agents.make("heuristic")
        state = game.new_state(seed=5)
        rng = random.Random(5)
        for _ in range(60):
            if state.is_terminal:
                break
            seat = state.current_player
            with_log = bot.act(game, state.view(seat), random.Random(1))
            assert bot.act(game, state.view(seat, log=False), random.Random(1)) == with_log, name
            state.apply(rng.choice(state.legal_actions()))
