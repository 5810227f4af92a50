"""One connection at a table: the messages queued for its websocket, the protocol's JSON, the seats'
secret tokens, and the refusal an action or request may be answered with (ActionError)."""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import orjson


def dumps(message: Any) -> str:
    """A message as JSON text. orjson: a view is serialized once per seat after every action, so
    this is the server's hottest line (about 9 times faster than the json module)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


def new_token() -> str:
    """128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class ActionError(Exception):
    """An action refused; `code` is one of the protocol's error codes (docs/protocol.md)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# Messages that only say how things are now: a newer one replaces one not yet sent.
COALESCED = ("view", "table")
# Others' words: past MAX_OUTBOX of them unsent, the oldest is dropped (a reconnect gets the chat).
DROPPABLE = ("chat",)
MAX_OUTBOX = 64  # answers to its own messages queued for one connection before it is closed (1008)


@dataclass(eq=False)
class Connection:
    """One websocket at a table. Outgoing messages queue here; a writer task sends them.

    A `view` or `table` message replaces the one of its kind not yet sent, in its place: a slow
    client gets the newest, never a backlog, and no one else's comings and goings can fill its
    queue. Only the connection's own messages (answers to what it sent) add up; a client that sends
    and does not read is closed with 1008 once MAX_OUTBOX of them wait.
    """

    seat: int | None
    token: str | None = None  # the token it said hello with, for its seat's rematch link
    outbox: deque[tuple[str, str]] = field(default_factory=deque)  # (kind, json text)
    # Log entries the client has (or will have once its queued view is sent): its next view
    # carries only the entries after these. 0 on a new connection: its first view is whole.
    log_len: int = 0
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    closed: bool = False
    close_code: int = 1000
    close_reason: str = ""
    id: str = field(default_factory=lambda: secrets.token_hex(8))

    @property
    def backlogged(self) -> bool:
        return len(self.outbox) >= MAX_OUTBOX // 2

    def push(self, kind: str, text: str = "") -> None:
        """Queue a message. A `view` is queued without its text: the sender builds it when it is
        sent, of the newest move, with the log entries this client lacks by then."""
        if self.closed:
            return
        if kind in COALESCED:
            for i, (queued, _text) in enumerate(self.outbox):
                if queued == kind:
                    self.outbox[i] = (kind, text)
                    self.wake.set()
                    return
        self.outbox.append((kind, text))
        if kind in DROPPABLE:
            said = [i for i, (k, _t) in enumerate(self.outbox) if k == kind]
            if len(said) > MAX_OUTBOX:
                del self.outbox[said[0]]
        answers = sum(1 for k, _t in self.outbox if k not in COALESCED and k not in DROPPABLE)
        if answers > MAX_OUTBOX:
            self.close(1008, "the connection does not read its messages")
        self.wake.set()

    def close(self, code: int, reason: str) -> None:
        """Close after what is queued is sent (the sender closes the websocket with `code`); a
        connection closed for its behaviour (1008) is sent nothing more."""
        if not self.closed:
            self.closed = True
            self.close_code = code
            self.close_reason = reason
        if code == 1008:
            self.outbox.clear()
        self.wake.set()
