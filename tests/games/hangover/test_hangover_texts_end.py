"""The end of a game says why it ended (issue #16): with four heuristic bots the default game often
ends after a few tricks with everyone out as a non-drinker, and the page shows the log's last line."""

from __future__ import annotations

import random

import bodoge
from bodoge.agents import make as make_agent


def test_an_early_end_explains_itself() -> None:
    """HO-4.8 case 1: no active player left, the cards still in hand are never played."""
    game = bodoge.make("hangover", players=4)
    bots = [make_agent("heuristic") for _ in range(4)]
    for seed in range(20):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            p = state.current_player
            assert p is not None
            state.apply(bots[p].act(game, state.view(p, log=False), rng))
        last = state.log(None)[-1]
        if "no active player left" in last["text"]:
            assert "every player is out" in last["text"] and "not played" in last["text"]
            assert "脱落" in last["text_ja"] and "残りの手札は出さず" in last["text_ja"]
            return
    raise AssertionError("no early end in 20 games of four heuristic bots")
