"""What a table sends of its game: each seat's `view` messages, with the log entries its connection
lacks. A view of a long game is built in a worker thread, so that the event loop never stalls on it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar, cast

from bodoge.core.game import State
from bodoge.server.table.connection import Connection, dumps

T = TypeVar("T")

VIEW_ON_LOOP_EVENTS = 1000  # log events up to which a view is built on the event loop


class Views:
    """The `view` messages of a table's newest move, kept while that move is the newest."""

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        # `view` messages of `_of` by (seat, log entries the client has): (text, log length),
        # or the worker thread's future while a long one is built.
        self._texts: dict[tuple[int | None, int], Any] = {}
        self._of: State | None = None

    async def text(self, state: State, conn: Connection) -> str:
        """The `view` message for `conn` at the newest move, with the log entries it lacks; it then
        has the whole log. Connections of one seat share the text. A whole log in a long game at
        large options runs to megabytes: past VIEW_ON_LOOP_EVENTS events (about 1.5 ms a view) it is
        built in a worker thread, so that the event loop never stalls on it. Smaller ones are built
        here: a thread's hand-off would cost more than they do."""
        if self._of is not state:
            self._texts, self._of = {}, state
        key = (conn.seat, conn.log_len)
        built = self._texts.get(key)
        if built is None:
            if len(state.events) <= VIEW_ON_LOOP_EVENTS:
                built = _view_text(self.table_id, state, conn.seat, conn.log_len)
            else:
                built = asyncio.ensure_future(
                    asyncio.to_thread(_view_text, self.table_id, state, conn.seat, conn.log_len)
                )
            self._texts[key] = built
        if isinstance(built, asyncio.Future):
            try:
                built = await asyncio.shield(built)
            except Exception:
                if self._texts.get(key) is built:
                    del self._texts[key]
                raise
        text, conn.log_len = cast(tuple[str, int], built)
        return text


async def off_loop_if_long(state: State, fn: Callable[..., T], *args: Any) -> T:
    """`fn(*args)`, which builds views of `state`: in a worker thread once its log is long."""
    if len(state.events) <= VIEW_ON_LOOP_EVENTS:
        return fn(*args)
    return await asyncio.to_thread(fn, *args)


def _view_text(table_id: str, state: State, seat: int | None, log_from: int) -> tuple[str, int]:
    """A `view` message whose view's log holds only the entries from `log_from` on (all of them
    for a new connection), and the length of the whole log."""
    view = state.view(seat, log=False)
    entries = state.log(seat)
    if log_from > len(entries):  # never expected (a seat's log only grows): send it whole
        log_from = 0
    view["log"] = entries[log_from:]
    message = {"type": "view", "table": table_id, "seq": len(state.history), "log_from": log_from}
    if view["is_terminal"]:  # the table's order at the end (the game's view is the game's own)
        message["places"] = places(state)
    message["view"] = view
    return dumps(message), len(entries)


def places(state: State) -> list[int]:
    """Each seat's place at the end of the game (1: the best) by the game's winner rule: the winners
    first, all of them 1st; then the others as the game ranks them, by its scoring part's
    `standing(state)` (each seat's key, higher first) where it has one, else by score. Equal keys
    share a place. (The page lists the seats in this order: issue #56, a hung-over Hangover player
    with the most VP is not above the winner.)"""
    n = state.game.num_players
    won = set(state.winners())
    standing = getattr(state.game.part("scoring"), "standing", None)
    keys: list[tuple[Any, ...]] = (
        [tuple(k) for k in standing(state)] if standing is not None else [(s,) for s in state.scores()]
    )
    full = [(p in won, *keys[p]) for p in range(n)]
    try:
        return [1 + sum(1 for other in full if other > mine) for mine in full]
    except TypeError:  # scores that do not compare: the winners first, the others shared
        return [1 if p in won else 1 + len(won) for p in range(n)]
