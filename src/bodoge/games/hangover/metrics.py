"""Hangover's own numbers for designers' reports (`bodoge sim`): how the game ended for the players."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

DEFINITIONS = {
    "hung_over": "the share of players who hung over (HO-5.4: too many own tricks; they cannot win)",
    "non_drinkers": "the share of players who declared non-drinker (HO-4.2)",
    "tricks": "tricks played before the game ended (HO-4.8)",
    "snacks_flipped": "the share of the snack cards dealt that were flipped (HO-4.5): how much the snacks are used",
}


#: The bounds of these numbers (shares in [0, 1], tricks never below 0): intervals are cut to them.
RANGES = {
    "hung_over": (0.0, 1.0),
    "non_drinkers": (0.0, 1.0),
    "tricks": (0.0, float("inf")),
    "snacks_flipped": (0.0, 1.0),
}


def game_metrics(view: Mapping[str, Any]) -> dict[str, float]:
    """From the final spectator view: the share of players who hung over (HO-5.4) and who declared
    non-drinker (HO-4.2), the tricks played, and the share of the dealt snack cards flipped (HO-4.5)."""
    seats = view["seats"]
    n = len(seats)
    flipped = sum(len(s["flipped"]) for s in seats)
    dealt = flipped + sum(sum(s["columns"]) + s["snacks_in_hand"] for s in seats)
    return {
        "snacks_flipped": flipped / dealt if dealt else 0.0,
        "hung_over": sum(1 for s in seats if s["status"] == "hung_over") / n,
        "non_drinkers": sum(1 for s in seats if s["declared"] is True) / n,
        "tricks": float(view["trick_number"]),
    }
