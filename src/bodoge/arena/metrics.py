"""Numbers a designer wants from each finished game, beyond scores and winners.

`game_metrics(state)` reads only the final **spectator** view (public information, without the log,
which would cost more than the game itself) and returns a
flat dict of numbers, averaged by the summary and compared across variants:
- for every game: `tie` (1 if several players share the win), `no_winner`, and `rounds` where the
  view counts rounds;
- per game, what its rules make interesting: the game package's optional `metrics` part,
  `game_metrics(view) -> dict[str, float]` on that same view (e.g. Hangover's `hung_over`, the share of
  players who hung over, and `non_drinkers`).
"""

from __future__ import annotations

from bodoge.arena import quality
from bodoge.core.game import State
from bodoge.core.registry import game_class
from bodoge.errors import BadOption

#: What every game's numbers mean (a game's own are in its `metrics` part's DEFINITIONS).
DEFINITIONS: dict[str, str] = {
    "tie": "1 if several players share the win, else 0",
    "no_winner": "1 if nobody wins, else 0",
    "rounds": "rounds played",
    **quality.DEFINITIONS,
}


def definitions(game: str) -> dict[str, str]:
    """Every number a report of `game` may show, with its meaning."""
    try:
        part = game_class(game).part("metrics")
    except BadOption:  # a game no longer registered (a report of old records): the common numbers
        part = None
    return {**DEFINITIONS, **(getattr(part, "DEFINITIONS", {}) if part is not None else {})}


def game_metrics(state: State) -> dict[str, float]:
    view = state.view(None, log=False)
    winners = state.winners()
    out: dict[str, float] = {
        "tie": 1.0 if len(winners) > 1 else 0.0,
        "no_winner": 1.0 if not winners else 0.0,
    }
    for key in ("round", "rounds_played"):
        value = view.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            out["rounds"] = float(value)
            break
    part = state.game.part("metrics")
    if part is not None:
        out.update({k: float(v) for k, v in part.game_metrics(view).items()})
    return out
