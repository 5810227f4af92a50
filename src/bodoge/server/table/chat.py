"""A table's chat: each line is stored with the table, then sent to everyone at it (and, beside other
processes, to their replicas of the table). Lines are checked by `plain.chat_line` where they come in."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, overload

from bodoge.server.storage import ChatLine
from bodoge.server.table.connection import ActionError, dumps

if TYPE_CHECKING:
    from bodoge.server.table.ports import Table

log = logging.getLogger("bodoge.server")

MAX_CHAT_LINES = 1000  # chat lines one table keeps; past them the chat is full
CHAT_SHOWN = 100  # chat lines a new connection is sent


class Chat(Sequence[ChatLine]):
    """The chat of one table: its lines in order (`chat[-CHAT_SHOWN:]` are the latest), and saying
    one more."""

    def __init__(self, table: Table, lines: Iterable[ChatLine] = ()) -> None:
        self.table = table
        self.lines = list(lines)
        self._lock = asyncio.Lock()

    def __len__(self) -> int:
        return len(self.lines)

    def __iter__(self) -> Iterator[ChatLine]:
        return iter(self.lines)

    @overload
    def __getitem__(self, index: int) -> ChatLine: ...
    @overload
    def __getitem__(self, index: slice) -> list[ChatLine]: ...
    def __getitem__(self, index: int | slice) -> ChatLine | list[ChatLine]:
        return self.lines[index]

    async def say(self, seat: int, text: str) -> None:
        """The table's owner stores a chat line from `seat`, then sends it to everyone at the table."""
        table = self.table
        manager = table.manager
        async with self._lock:
            if len(self.lines) >= MAX_CHAT_LINES:
                raise ActionError("chat_full", f"this table's chat is full ({MAX_CHAT_LINES} lines)")
            name = table.row.seats[seat].get("name") or f"P{seat}"
            line = ChatLine(len(self.lines), seat, name, text, table.seq, round(time.time(), 3))
            try:
                await manager.writer.call(manager.storage.add_chat, table.id, line)
            except Exception as exc:
                log.error("table %s: could not save a chat line: %s", table.id, exc)
                raise ActionError("storage", "the chat line could not be saved; try again") from None
            self.lines.append(line)
        self._send(line)
        if manager.cluster.shared:
            manager.tell({"kind": "chat", "table": table.id, "line": line.as_json()})

    def heard(self, line: dict[str, Any]) -> None:
        """A replica hears a chat line the owner stored."""
        said = ChatLine(**line)
        if said.n == len(self.lines):
            self.lines.append(said)
            self._send(said)

    def _send(self, line: ChatLine) -> None:
        text = dumps({"type": "chat", "line": line.as_json()})
        for conn in list(self.table.connections):
            conn.push("chat", text)
