"""Hints at a practice table (docs/learn.md): the bots' preferred moves at the seat's decision.

A table made with `"hints": true` is a practice table: exactly one person sits at it, the other seats
are bots, and that person may ask for a hint (`POST /api/tables/{id}/hint`, or the websocket's
`{"type": "hint"}`). A table of two or more people never gives hints: one could ask for the other's
advantage. Seats are fixed when a table is made, so a second person cannot join one later; the
creation refuses hints for a table with more than one person (or none), and every hint asked checks
again. The hint is computed in a bot worker, on the seat's view only (bodoge.learn.hints).
"""

from __future__ import annotations

import secrets
import time
from typing import Any

from bodoge.server.bots import ReviewFailed
from bodoge.server.storage import TableRow
from bodoge.server.table.connection import ActionError
from bodoge.server.table.runtime import TableRuntime

HINT_SECONDS = 15.0  # a hint waits at most this long for a worker and its answer


def people(seats: list[dict[str, Any]]) -> int:
    return sum(1 for seat in seats if seat.get("kind") == "human")


def creation_refusal(seats: list[dict[str, Any]]) -> str | None:
    """Why a table of these seats cannot have hints, or None."""
    n = people(seats)
    if n != 1:
        return (
            f"hints are for a practice table where exactly one person sits and the other seats are bots; "
            f"this table has {n} people"
        )
    return None


def hints_refusal(row: TableRow) -> str | None:
    """Why this table gives no hints, or None."""
    if not row.settings.get("hints"):
        return 'hints are off at this table (a practice table with one person is made with "hints": true)'
    return creation_refusal(row.seats)


async def hint_for(runtime: TableRuntime, seat: int | None) -> dict[str, Any]:
    """The hint for `seat` at the table's current decision; ActionError says why there is none."""
    if seat is None:
        raise ActionError("no_hints", "hints are for the person at the table: spectators get none")
    refusal = hints_refusal(runtime.row)
    if refusal is not None:
        raise ActionError("no_hints", refusal)
    state = runtime.state
    if state.is_terminal or state.current_player != seat:
        raise ActionError("not_your_turn", "a hint is for your own decision: it is not yours now")
    unit = {
        "game": runtime.game.name,
        "players": runtime.game.num_players,
        "options": runtime.game.options_json(),
        "view": state.view(seat),
        "seed": secrets.randbits(32),
        "move": runtime.seq,
    }
    try:
        ranked = await runtime.manager.bots.hint(unit, time.monotonic() + HINT_SECONDS)
    except ReviewFailed as exc:
        raise ActionError("hint_failed", f"no hint this time: {exc}") from None
    return {"type": "hint", "seat": seat, "move": unit["move"], "hints": ranked}
