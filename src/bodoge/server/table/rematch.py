"""A finished table's rematch: the table that plays its game again, made by the first to ask
(`TableManager.create_rematch`) and kept in the table's settings as `next_table`. Everyone at the
table is offered their seat at it, one on from their seat here, with the link their token opens."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from bodoge.server.table.connection import Connection, dumps

if TYPE_CHECKING:
    from bodoge.server.table.ports import Announcing


class Rematch:
    """The rematch of one table, and the offers of it to the table's people."""

    def __init__(self, table: Announcing) -> None:
        self.table = table
        self._lock = asyncio.Lock()

    async def make(self, creator: str) -> str:
        """The table's owner makes the rematch, unless it has one already, and offers it; its id."""
        table = self.table
        manager = table.manager
        async with self._lock:
            following = table.row.settings.get("next_table")
            if not following:
                runtime = await manager.create_rematch(table.row, creator)
                settings = dict(table.row.settings, next_table=runtime.id)
                await manager.writer.call(manager.storage.set_settings, table.id, settings)
                table.row.settings = settings
                following = runtime.id
        table.broadcast_table()
        self.offer()
        return str(following)

    def learn(self, following: str) -> None:
        """A replica learns of the rematch (from an answer, or the owner's summary)."""
        row = self.table.row
        if row.settings.get("next_table") != following:
            row.settings = dict(row.settings, next_table=following)
            self.offer()

    def offer(self) -> None:
        for conn in list(self.table.connections):
            offer = self.message(conn)
            if offer is not None:
                conn.push("rematch", offer)

    def message(self, conn: Connection) -> str | None:
        """The `rematch` message for a seat's connection: its seat at the next table and its link
        (its token, which opens that seat too); None if there is none for it."""
        row = self.table.row
        following = row.settings.get("next_table")
        if not following or conn.seat is None or conn.token is None:
            return None
        seat = (conn.seat + 1) % row.players
        token = conn.token
        player = row.seats[conn.seat].get("player")
        seat_key = self.table.manager.seat_key
        if player and seat_key is not None:
            token = seat_key(player, following)  # a player's new seat opens with its own key
        return dumps(
            {
                "type": "rematch",
                "table": following,
                "seat": seat,
                "join_url": f"/t/{following}#token={token}",
            }
        )
