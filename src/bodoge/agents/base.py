"""What an agent is: `act(game, view, rng) -> int`, seeing only a seat's view (DESIGN.md §4)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Protocol

from bodoge.core.game import Game


class Agent(Protocol):
    spec: str  # the spec string that makes this agent again, e.g. "ismcts:iterations=2000"

    def act(self, game: Game, view: dict[str, Any], rng: random.Random) -> int: ...


def legal_ids(view: Mapping[str, Any]) -> list[int]:
    """The legal action ids a view offers its seat; ValueError if it is not that seat's decision."""
    legal = view.get("legal_actions")
    if not legal:
        raise ValueError(f"the view of seat {view.get('seat')} asks for no decision")
    return [a["id"] for a in legal]
