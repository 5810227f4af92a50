"""OpenSpiel's ISMCTS as a bodoge agent, for the bench scripts that seat it (bench/peer.py,
bench/leaderboard.py): `openspiel:seconds=S` or `openspiel:simulations=K` once `register()` ran.

The peer is OpenSpiel's Python `ISMCTSBot` with one random rollout per simulation, UCT c = 2 and the
max-visit final policy (bench/search.py's `spiel_bot`), playing through bodoge's OpenSpiel
registration. It decides from the seat's view only: it searches from a state sampled from that view
(`game.sample_state`), whose information state is the view itself, so it resamples exactly as it
would from the true state.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from agents import positions  # bench/agents.py
from bodoge import agents
from bodoge.core.game import Game
from bodoge.rl.openspiel_adapter import BodogeSpielState
from search import spiel_bot, spiel_game, spiel_rate  # bench/search.py

MAX_SIMULATIONS = 100_000  # the most `openspiel:simulations=K` (and peer.py's `--peer-simulations`) allows


class SpielAgent:
    """OpenSpiel's ISMCTSBot as a bodoge agent with a time budget: `openspiel:seconds=S`.

    The bot has only a number of simulations, so each move gets as many as it ran in S seconds on the
    moves before (a running mean of its own speed on this machine, under the same load as ours).
    `openspiel:simulations=K` gives every move K simulations instead, whatever the load."""

    def __init__(self, seconds: float = 0.1, simulations: int = 0) -> None:
        if not 0 <= simulations <= MAX_SIMULATIONS:
            raise ValueError(f"simulations must be 0 (use seconds) to {MAX_SIMULATIONS}, not {simulations}")
        self.seconds = seconds
        self.fixed = simulations
        self.spec = (
            f"openspiel:simulations={simulations}" if simulations else f"openspiel:seconds={seconds:g}"
        )
        self._games: dict[str, Any] = {}
        self._rate: dict[str, float] = {}  # simulations per second, per game

    def act(self, game: Game, view: Mapping[str, Any], rng: random.Random) -> int:
        key = repr(game)
        if key not in self._games:
            self._games[key] = spiel_game(game)
            if not self.fixed:
                self._rate[key] = spiel_rate(game, positions(game, 3), 30)
        sgame = self._games[key]
        legal = agents.legal_ids(view)
        if len(legal) == 1:
            return legal[0]
        simulations = self.fixed or max(1, round(self._rate[key] * self.seconds))
        start = time.perf_counter()
        state = BodogeSpielState(sgame, game.sample_state(view, rng))
        seed = rng.getrandbits(32)
        ran = 0  # simulations of every try, for the rate: the time below counts them all
        while True:
            ran += simulations
            try:
                action = int(spiel_bot(sgame, simulations, seed).step(state))
                break
            except AssertionError:
                # OpenSpiel's ISMCTS asserts that a legal move of the real state was visited; with a
                # handful of simulations (its rate falls on a loaded machine) none may be. Give it more.
                if simulations > 10_000:
                    raise
                simulations *= 2
        if not self.fixed:
            rate = ran / (time.perf_counter() - start)
            self._rate[key] = 0.8 * self._rate[key] + 0.2 * rate
        return action


def register() -> None:
    """Make `openspiel:...` an agent spec in this process (and in the arena's workers it forks)."""
    agents.register("openspiel", SpielAgent)
