"""Positions of finished games for the replay viewer, without replaying from move 0 at each step.

The first look at a table's replay plays its record through once and keeps a clone every `EVERY`
moves; a later step starts from the nearest one at or before it, so a step costs fewer than `EVERY`
actions. The newest `TABLES` tables are kept. Runs in worker threads, never on the event loop.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from bodoge.core.game import State
from bodoge.core.records import replay

EVERY = 16  # moves between kept positions
TABLES = 16  # tables whose positions are kept


class _Game:
    def __init__(self, record: dict[str, Any]) -> None:
        self.record = record
        self.actions: list[int] = list(record["actions"])
        state = replay({**record, "actions": [], "result": None})
        self.kept: list[State] = [state.clone()]
        for i, action in enumerate(self.actions, start=1):
            state.apply(action)
            if i % EVERY == 0:
                self.kept.append(state.clone())

    def position(self, move: int) -> State:
        state = self.kept[move // EVERY].clone()
        for action in self.actions[move - move % EVERY : move]:
            state.apply(action)
        return state


class Replays:
    def __init__(self, tables: int = TABLES) -> None:
        self.tables = tables
        self._games: OrderedDict[str, _Game] = OrderedDict()
        self._lock = threading.Lock()

    def position(self, table_id: str, record: dict[str, Any], move: int) -> State:
        """The game of `record` after its first `move` actions (0 ≤ move ≤ its length)."""
        with self._lock:
            game = self._games.get(table_id)
            if game is not None and game.actions == record["actions"]:
                self._games.move_to_end(table_id)
            else:
                game = None
        if game is None:
            game = _Game(record)  # outside the lock: other tables' steps need not wait for it
            with self._lock:
                self._games[table_id] = game
                while len(self._games) > self.tables:
                    self._games.popitem(last=False)
        return game.position(move)


def replay_answer(
    replays: Replays, table_id: str, record: dict[str, Any], move: int, seat: int | None
) -> dict[str, Any]:
    """The `/replay` answer: the position after `move` actions as `seat` saw it, or (seat None)
    every seat's view and the spectator's."""
    state = replays.position(table_id, record, move)
    out: dict[str, Any] = {
        "table": table_id,
        "game": record["game"],
        "move": move,
        "moves": len(record["actions"]),
    }
    if seat is None:
        out["views"] = [state.view(p) for p in range(state.game.num_players)]
        out["view"] = state.view(None)
    else:
        out["view"] = state.view(seat)
    return out
