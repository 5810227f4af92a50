"""One game between agents, each seeing only its own view."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bodoge.agents.base import Agent
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


def play_match(game: Game, agents: Sequence[Agent], seed: int, deck: Any = None) -> MatchResult:
    """Play one game from `seed`; the agents' own randomness is seeded from it too, so it repeats."""
    if len(agents) != game.num_players:
        raise ValueError(f"{game.name} with {game.num_players} players needs {game.num_players} agents")
    state: State = game.new_state(seed=seed, deck=deck)
    rngs = [random.Random(seed * 1_000_003 + seat) for seat in range(game.num_players)]
    while state.current_player is not None:
        seat = state.current_player
        state.apply(agents[seat].act(game, state.view(seat), rngs[seat]), seat=seat)
    return MatchResult(
        seed=seed,
        agents=[agent.spec for agent in agents],
        scores=state.scores(),
        winners=state.winners(),
        returns=state.returns(),
        length=len(state.history),
        record=state.to_record(),
    )
