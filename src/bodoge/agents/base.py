"""What an agent is: `act(game, view, rng) -> int`, seeing only a seat's view (DESIGN.md §4)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Protocol

from bodoge.core.game import Game, LazyView


class Agent(Protocol):
    """An agent sees a view: `state.view(seat)`, or in the arena the same as a `LazyView`, which
    builds only what the agent reads (and holds only during `act`)."""

    spec: str  # the spec string that makes this agent again, e.g. "ismcts:iterations=2000"

    def act(self, game: Game, view: Mapping[str, Any], rng: random.Random) -> int: ...


def legal_ids(view: Mapping[str, Any]) -> list[int]:
    """The legal action ids a view offers its seat; ValueError if it is not that seat's decision."""
    if isinstance(view, LazyView):  # straight from the state: no view built
        ids = view.legal_ids()
    else:
        ids = [a["id"] for a in view.get("legal_actions") or ()]
    if not ids:
        raise ValueError(f"the view of seat {view.get('seat')} asks for no decision")
    return ids
