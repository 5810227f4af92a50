"""One game between agents, each seeing only its own view."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bodoge.agents.base import Agent
from bodoge.arena.choices import ChoiceTally
from bodoge.arena.quality import Trace
from bodoge.core.game import Game, State


@dataclass
class MatchResult:
    seed: int
    agents: list[str]  # the spec of the agent at each seat
    scores: list[int]
    winners: list[int]
    returns: list[float]
    length: int  # actions in the game
    record: dict[str, Any]
    decisions: list[int] = field(default_factory=list)  # decisions each seat took
    seconds: list[float] = field(default_factory=list)  # each seat's thinking time, in total
    quality: dict[str, float] = field(default_factory=dict)  # `arena.quality` numbers of the game
    choices: dict[str, dict[str, list[int]]] = field(default_factory=dict)  # `arena.choices` of the game
    state: State | None = field(default=None, repr=False)  # the final state (not sent between processes)


def play_match(
    game: Game,
    agents: Sequence[Agent],
    seed: int,
    deck: Any = None,
    rngs: Sequence[random.Random] | None = None,
) -> MatchResult:
    """Play one game from `seed`. Each seat's agent draws its own randomness from `rngs[seat]`; by
    default those are seeded from `seed` too, so a match repeats exactly."""
    n = game.num_players
    if len(agents) != n:
        raise ValueError(f"{game.name} with {n} players needs {n} agents")
    if rngs is None:
        rngs = [random.Random(seed * 1_000_003 + seat) for seat in range(n)]
    state: State = game.new_state(seed=seed, deck=deck)
    decisions = [0] * n
    seconds = [0.0] * n
    clock = time.perf_counter
    trace = Trace()
    tally = ChoiceTally(game)
    trace.see(0, state.scores())
    while state.current_player is not None:
        seat = state.current_player
        legal = state.legal_actions()
        trace.decide(len(legal))  # (computed here, kept for the agent's view)
        start = clock()
        action = agents[seat].act(game, state.lazy_view(seat), rngs[seat])
        seconds[seat] += clock() - start
        decisions[seat] += 1
        tally.decide(state, legal, action)
        state.apply(action, seat=seat)
        trace.see(len(state.history), state.scores())
    winners = state.winners()
    return MatchResult(
        seed=seed,
        agents=[agent.spec for agent in agents],
        scores=state.scores(),
        winners=winners,
        returns=state.returns(),
        length=len(state.history),
        record=state.to_record(),
        decisions=decisions,
        seconds=seconds,
        quality=trace.numbers(len(state.history), winners, n),
        choices=tally.to_json(),
        state=state,
    )
