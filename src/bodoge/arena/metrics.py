"""Numbers a designer wants from each finished game, beyond scores and winners.

`game_metrics(state)` reads only the final **spectator** view (public information, without the log,
which would cost more than the game itself) and returns a
flat dict of numbers, averaged by the summary and compared across variants:
- for every game: `tie` (1 if several players share the win), `no_winner`, and `rounds` where the
  view counts rounds;
- per game, what its rules make interesting (`_EXTRA`), e.g. Hangover's `hung_over` (the share of
  players who hung over) and `non_drinkers`.
A game class may also define `arena_metrics(state) -> dict[str, float]`; its numbers are added.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from bodoge.core.game import State


def _count(players: list[dict[str, Any]], test: Callable[[dict[str, Any]], bool]) -> float:
    return sum(1 for p in players if test(p)) / len(players) if players else 0.0


def _hangover(view: dict[str, Any]) -> dict[str, float]:
    players = next((v for v in (view.get("seats"), view.get("players")) if isinstance(v, list)), [])
    out = {
        "hung_over": _count(players, lambda p: p.get("status") == "hung_over"),
        "non_drinkers": _count(players, lambda p: p.get("declared") is True),
    }
    if isinstance(view.get("trick_number"), int):
        out["tricks"] = float(view["trick_number"])
    return out


_EXTRA: dict[str, Callable[[dict[str, Any]], dict[str, float]]] = {"hangover": _hangover}


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
    extra = _EXTRA.get(state.game.name)
    if extra is not None:
        # a view of another shape: the generic numbers still stand
        with contextlib.suppress(KeyError, TypeError, ValueError, AttributeError):
            out.update(extra(view))
    hook = getattr(type(state.game), "arena_metrics", None)
    if hook is not None:
        out.update({k: float(v) for k, v in hook(state).items()})
    return out
