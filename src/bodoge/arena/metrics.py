"""Numbers a designer wants from each finished game, beyond scores and winners.

`game_metrics(state)` reads only the final **spectator** view (public information, without the log,
which would cost more than the game itself) and returns a
flat dict of numbers, averaged by the summary and compared across variants:
- for every game: `tie` (1 if several players share the win), `no_winner`, and `rounds` where the
  view counts rounds;
- per game, what its rules make interesting: the game package's optional `metrics` part,
  `game_metrics(view) -> dict[str, float]` on that same view (e.g. Hangover's `hung_over`, the share of
  players who hung over, and `non_drinkers`);
- `normal_end` (1 if the game ended by its rules' normal end, 0 by an exceptional path) where the
  game says which ends are normal (`normal_ends`).

`end_reason(state)` is why a finished game ended, in the game's words (Hangover's `hands_empty`,
`no_active_player`, `one_active_player`): the game's `scoring.end_reason(state)` where it has one
(the same reason its log's `game_end` event gives; the log itself costs more than a fast game, so it
is not read here).
"""

from __future__ import annotations

import math

from bodoge.arena import quality
from bodoge.arena.stats import SHARE
from bodoge.core.game import State
from bodoge.core.registry import game_class
from bodoge.errors import BadOption

#: What every game's numbers mean (a game's own are in its `metrics` part's DEFINITIONS).
DEFINITIONS: dict[str, str] = {
    "tie": "1 if several players share the win, else 0",
    "no_winner": "1 if nobody wins, else 0",
    "rounds": "rounds played",
    "normal_end": "1 if the game ended by its rules' normal end (Hangover: every card played, HO-4.8), "
    "0 if by an exceptional path (Hangover: no active player left)",
    **quality.DEFINITIONS,
}


#: The values each number can take, where it is bounded: shares and 0/1 numbers lie in [0, 1], counts
#: and times never below 0. A mean's interval is cut to them (a share's t interval can run past 0 or 1;
#: the number cannot, issue #54). A game's `metrics` part adds its own (`RANGES`).
COUNT = (0.0, math.inf)
RANGES: dict[str, tuple[float, float]] = {
    "tie": SHARE,
    "no_winner": SHARE,
    "normal_end": SHARE,
    "rounds": COUNT,
    "lead_changes": COUNT,
    "comeback": SHARE,
    "decided_at": SHARE,
    "leaders_won": SHARE,
    "forced": SHARE,
    "decisions_per_person": COUNT,
    "minutes": COUNT,
}


def ranges(game: str) -> dict[str, tuple[float, float]]:
    """The bounds of every bounded number a report of `game` may show (see RANGES)."""
    try:
        part = game_class(game).part("metrics")
    except BadOption:
        part = None
    return {**RANGES, **(getattr(part, "RANGES", {}) if part is not None else {})}


def definitions(game: str) -> dict[str, str]:
    """Every number a report of `game` may show, with its meaning."""
    try:
        part = game_class(game).part("metrics")
    except BadOption:  # a game no longer registered (a report of old records): the common numbers
        part = None
    return {**DEFINITIONS, **(getattr(part, "DEFINITIONS", {}) if part is not None else {})}


#: The normal ends of the games that have several ways to end (the others may say so in their `metrics`
#: part: `NORMAL_ENDS = ("reason", ...)`). Hangover (HO-4.8): the cards run out; the game's other ends
#: (nobody active, or one with `end_when_one_active`) are exceptional paths.
NORMAL_ENDS: dict[str, tuple[str, ...]] = {"hangover": ("hands_empty",)}


def normal_ends(game: str) -> tuple[str, ...] | None:
    """The end reasons of `game` that are its rules' normal end, or None if the game does not say."""
    try:
        part = game_class(game).part("metrics")
    except BadOption:
        part = None
    declared = getattr(part, "NORMAL_ENDS", None) if part is not None else None
    if declared is not None:
        return tuple(declared)
    return NORMAL_ENDS.get(game)


def end_reason(state: State) -> str | None:
    """Why a finished game ended (see the module docstring), or None if the game does not say."""
    scoring = state.game.part("scoring")
    reason = getattr(scoring, "end_reason", None) if scoring is not None else None
    return str(reason(state)) if reason is not None else None


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
    normal = normal_ends(state.game.name)
    if normal is not None:
        out["normal_end"] = 1.0 if end_reason(state) in normal else 0.0
    return out
