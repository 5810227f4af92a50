"""What stands between the internet and the tables: input checks, limits, and security headers.

Every limit here is a `Limits` field, set on `bodoge serve` and listed in docs/protocol.md:

- `parse_json` reads a request body or a websocket message: valid JSON, valid Unicode (no lone
  surrogates), finite numbers, nested at most `MAX_DEPTH` deep. Anything else is a `BadInput` that
  says what was wrong; nothing reaches the tables. `json_body` reads an endpoint's body with it.
- `BodyLimit` answers 413 to a request body over `max_body` bytes before the app reads it.
- `SecurityHeaders` sends a Content-Security-Policy without inline script, and its companions.
- `AddressLimits` counts per client address: table creations (a moving window, by the `limits`
  library), open tables and open websockets.
- `origin_allowed` is the websocket handshake's Origin check (same origin unless widened).
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import socket
import struct
import threading
import time
from collections import Counter
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any, TypeVar
from urllib.parse import urlsplit

import limits
import limits.storage
import limits.strategies
from fastapi import HTTPException, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ValidationError

from bodoge.core.options import valid_text
from bodoge.errors import is_int_in, is_number_in

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_DEPTH = 16  # nesting of any JSON we read: the deepest real body (a Tokkuri deck) is 4 deep


MAX_RATE = 10**6  # the largest count of a rate limit


@dataclass
class Limits:
    """The server's limits against abuse and accidents; each one a `bodoge serve` flag."""

    max_body: int = 65536  # bytes of one HTTP request body (413 beyond)
    create_rate: str = "30/minute"  # table creations per client address ("N/second|minute|hour|day")
    open_tables: int = 20  # tables in play made by one client address at once
    ws_per_address: int = 64  # websockets open at once from one client address
    message_rate: str = "20/second"  # messages one websocket may send (closed with 1008 beyond)
    idle_timeout: float = 86400.0  # seconds without a move before a table in play is abandoned
    unstarted_timeout: float = 3600.0  # seconds a table in play may wait for its first move
    away_grace: float = 60.0  # seconds a person may be disconnected before a stand-in plays for them
    chat_rate: str = "10/minute"  # chat lines one connection may say
    work_timeout: float = 20.0  # seconds for setting up, rebuilding or replaying one table
    allow_origins: list[str] = field(default_factory=list)  # more websocket Origins; "*": any
    review_rate: str = "10/hour"  # game reviews one client address may start (server/reviews.py)
    review_queue: int = 8  # reviews queued or running at one process at once (503 beyond)
    review_timeout: float = 180.0  # seconds one review may run before it is stopped as failed
    signup_rate: str = "10/hour"  # players made from one client address (server/players.py)
    player_rate: str = "120/minute"  # requests one player's key may make (beside its address's limits)

    def __post_init__(self) -> None:
        for name in ("create_rate", "message_rate", "chat_rate", "review_rate", "signup_rate", "player_rate"):
            try:
                amount = limits.parse(getattr(self, name)).amount
            except (ValueError, TypeError):
                amount = 0
            if not 1 <= amount <= MAX_RATE:  # 0 would refuse everything, a huge count nothing
                raise ValueError(
                    f"{name}: {getattr(self, name)!r} is not a rate such as '30/minute' "
                    f"(a count from 1 to {MAX_RATE} per second, minute, hour or day)"
                )
        for name, most in (
            ("max_body", 2**24),
            ("open_tables", 10**5),
            ("ws_per_address", 10**5),
            ("review_queue", 10**4),
        ):
            value = getattr(self, name)
            if not is_int_in(value, 1, most):
                raise ValueError(f"{name} is an integer from 1 to {most}")
        for name in ("idle_timeout", "work_timeout", "unstarted_timeout", "away_grace", "review_timeout"):
            value = getattr(self, name)
            if not is_number_in(value, 0, 10**9) or value == 0:
                raise ValueError(f"{name} is a number of seconds above 0, at most {10**9}")
        for origin in self.allow_origins:
            if origin != "*" and not origin.startswith(("http://", "https://")):
                raise ValueError(
                    f"allow_origins: {origin!r} is not an origin such as https://play.example.org, or *"
                )


# -- input ----------------------------------------------------------------------------------------


class BadInput(ValueError):
    """Input that is not what the protocol reads; the message says what was wrong."""


def _no_constant(name: str) -> Any:
    raise BadInput(f"{name} is not a JSON number")


def parse_json(data: str | bytes) -> Any:
    """The JSON value of `data`, checked (see the module's docstring); BadInput otherwise."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise BadInput(f"the body is not UTF-8 text (byte {exc.start})") from None
    try:
        # The json module, not orjson: it keeps integers of any size exact (orjson turns those past
        # 64 bits into floats), so the options' own bounds can name what was given.
        value = json.loads(data, parse_constant=_no_constant)
    except RecursionError:
        raise BadInput(f"JSON nested more than {MAX_DEPTH} deep") from None
    except BadInput:
        raise
    except ValueError as exc:
        raise BadInput(f"not valid JSON: {exc}") from None
    check_value(value)
    return value


Body = TypeVar("Body", bound=BaseModel)


def json_media(request: Request, refusal: str) -> None:
    """JSON bodies only, 415 with `refusal` otherwise: a form or text/plain body is a "simple"
    cross-site request that a page of another site could send from its visitors' browsers;
    application/json needs the browser's preflight."""
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        raise HTTPException(415, refusal)


async def json_body(request: Request, model: type[Body], refusal: str) -> Body:
    """The request's body as `model`: JSON only (`json_media`), read by `parse_json` (422 saying
    what was wrong), then validated (422 with pydantic's errors, as FastAPI gives its own). The body
    is read here, not by FastAPI: its JSON must pass the strict reader first."""
    json_media(request, refusal)
    try:
        return model.model_validate(parse_json(await request.body()))
    except BadInput as exc:
        raise HTTPException(422, str(exc)) from None
    except ValidationError as exc:
        raise RequestValidationError(exc.errors(include_url=False, include_context=False)) from None


def check_value(value: Any) -> None:
    """BadInput unless `value` is nested at most MAX_DEPTH deep, its texts are valid Unicode and its
    floats finite. Iterative: a hostile depth cannot exhaust the stack."""
    stack: list[tuple[Any, int, str]] = [(value, 0, "")]
    while stack:
        item, depth, where = stack.pop()
        if isinstance(item, str):
            check_text(item, where or "the value")
        elif isinstance(item, float):
            if not math.isfinite(item):
                raise BadInput(f"{where or 'the value'}: numbers must be finite")
        elif isinstance(item, dict | list):
            if depth >= MAX_DEPTH:
                raise BadInput(f"JSON nested more than {MAX_DEPTH} deep")
            if isinstance(item, dict):
                for key, sub in item.items():
                    check_text(key, f"a key in {where or 'the object'}")
                    stack.append((sub, depth + 1, f"{where}.{key}" if where else str(key)))
            else:
                stack.extend((sub, depth + 1, f"{where}[{i}]") for i, sub in enumerate(item))


def check_text(text: str, where: str) -> None:
    try:
        valid_text(text, where[:80])
    except ValueError as exc:
        raise BadInput(str(exc)) from None


# Unicode's Default_Ignorable_Code_Point property (DerivedCoreProperties.txt; the same 4,174 code
# points from Unicode 14.0 to 16.0), as inclusive ranges: code points that a renderer shows as
# nothing at all where it does not support them (joiners, variation selectors, fillers, tags, bidi
# and other format controls, and the code points reserved for more of them). Names are compared
# without them.
DEFAULT_IGNORABLE: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD),  # soft hyphen
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x061C, 0x061C),  # Arabic letter mark
    (0x115F, 0x1160),  # Hangul choseong and jungseong fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180B, 0x180F),  # Mongolian free variation selectors, vowel separator
    (0x200B, 0x200F),  # zero width space, (non-)joiner, left-to-right and right-to-left marks
    (0x202A, 0x202E),  # bidi embeddings and overrides
    (0x2060, 0x206F),  # word joiner, invisible operators, bidi isolates, deprecated format controls
    (0x3164, 0x3164),  # Hangul filler
    (0xFE00, 0xFE0F),  # variation selectors 1 to 16
    (0xFEFF, 0xFEFF),  # zero width no-break space (byte order mark)
    (0xFFA0, 0xFFA0),  # halfwidth Hangul filler
    (0xFFF0, 0xFFF8),  # reserved
    (0x1BCA0, 0x1BCA3),  # shorthand format controls
    (0x1D173, 0x1D17A),  # musical symbol format controls
    (0xE0000, 0xE0FFF),  # tags, variation selectors 17 to 256, and the rest of the plane's block
)
_IGNORED = dict.fromkeys(cp for lo, hi in DEFAULT_IGNORABLE for cp in range(lo, hi + 1))


def without_ignorables(text: str) -> str:
    """`text` without its default-ignorable code points (DEFAULT_IGNORABLE)."""
    return text.translate(_IGNORED)


BAD_UTF8_LOG_INTERVAL = 60.0  # seconds: at most one log line this often for text frames not UTF-8


class BadUtf8Log(logging.Filter):
    """uvicorn closes a websocket whose text frame is not UTF-8 with 1007, as RFC 6455 requires, and
    logs each one as an error with a traceback: a client could fill the log with them. On uvicorn's
    logger, this filter turns them into one warning line at most every BAD_UTF8_LOG_INTERVAL
    seconds, which says how many there were (`count` keeps the total, for the metrics)."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0
        self._unsaid = 0
        self._said_at = -math.inf

    def filter(self, record: logging.LogRecord) -> bool:
        if not (isinstance(record.msg, str) and record.msg.startswith("Invalid UTF-8")):
            return True
        self.count += 1
        self._unsaid += 1
        now = time.monotonic()
        if now - self._said_at < BAD_UTF8_LOG_INTERVAL:
            return False
        record.msg = (
            "closed %d websocket(s) with 1007: a text frame that is not UTF-8 (said at most every %g s)"
        )
        record.args = (self._unsaid, BAD_UTF8_LOG_INTERVAL)
        record.exc_info = record.exc_text = record.stack_info = None
        record.levelno, record.levelname = logging.WARNING, logging.getLevelName(logging.WARNING)
        self._unsaid, self._said_at = 0, now
        return True


BAD_UTF8 = BadUtf8Log()  # one per process: uvicorn's logger is


def quiet_bad_frames() -> None:
    """Put BAD_UTF8 on uvicorn's error logger (once)."""
    uvicorn_log = logging.getLogger("uvicorn.error")
    if BAD_UTF8 not in uvicorn_log.filters:
        uvicorn_log.addFilter(BAD_UTF8)


# -- HTTP -----------------------------------------------------------------------------------------


async def _answer(send: Send, status: int, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class BodyLimit:
    """413 for a request body over `limit` bytes, by its Content-Length or as it streams in (each
    counted in `refused`, as "max_body").

    The body is read here (at most `limit` bytes are ever held) and handed on to the app."""

    def __init__(self, app: ASGIApp, limit: int, refused: Counter[str] | None = None) -> None:
        self.app = app
        self.limit = limit
        self.refused: Counter[str] = Counter() if refused is None else refused

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_large = f"a request body is at most {self.limit} bytes"
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and (not value.isdigit() or int(value) > self.limit):
                self.refused["max_body"] += 1
                await _answer(send, 413, too_large)
                return
        held: list[Message] = []
        size = 0
        while True:
            message = await receive()
            held.append(message)
            if message["type"] != "http.request":
                break
            size += len(message.get("body", b""))
            if size > self.limit:
                self.refused["max_body"] += 1
                await _answer(send, 413, too_large)
                return
            if not message.get("more_body", False):
                break

        async def replay() -> Message:
            return held.pop(0) if held else await receive()

        await self.app(scope, replay, send)


# Scripts and styles come from the server's own files only: no inline script, no other origin.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
# The API's own documentation page (Swagger UI) loads its script and style from a CDN with an inline
# starter script; it gets a policy of its own that allows just that, on that page alone.
DOCS_CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' https://cdn.jsdelivr.net; img-src 'self' data: https://fastapi.tiangolo.com; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)


class SecurityHeaders:
    def __init__(self, app: ASGIApp, docs_path: str | None = None) -> None:
        self.app = app
        self.docs_path = docs_path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = SECURITY_HEADERS
        if self.docs_path is not None and scope.get("path") == self.docs_path:
            headers = [(b"content-security-policy", DOCS_CSP.encode()), *SECURITY_HEADERS[1:]]

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), *headers]
            await send(message)

        await self.app(scope, receive, send_with_headers)


WS_SEND_BUFFER = 64 * 1024  # bytes the kernel holds for one websocket's client (it doubles this)


class AbortHandle:
    """Gives a websocket's handler a way to drop its TCP connection at once: `scope["bodoge.abort"]`.

    uvicorn's websocket protocols only ever close gracefully, flushing what is queued first; a
    client that reads nothing would hold that (and the server's buffers) open for ever. The server's
    own `send` (before any middleware wraps it) is a method of the protocol object, which holds the
    transport. Where there is none (another server, the test client), the key is absent.

    It also bounds the kernel's send buffer of the connection (WS_SEND_BUFFER): left to itself, the
    kernel lets it grow to megabytes for a client that reads nothing (Linux's tcp_wmem, 4 MiB by
    default), 64 of them per address; a table's messages need far less."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            transport = getattr(getattr(send, "__self__", None), "transport", None)
            if transport is not None:
                sock = transport.get_extra_info("socket")
                if sock is not None:
                    with contextlib.suppress(OSError):  # gone already, or not a TCP socket
                        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, WS_SEND_BUFFER)
                scope["bodoge.abort"] = lambda: reset(transport)
        await self.app(scope, receive, send)


def reset(transport: Any) -> None:
    """Drop a connection with a TCP reset, discarding what the kernel still has to send.

    A transport's `abort` only closes the socket: the kernel keeps the unsent bytes and goes on
    offering them to the client (FIN-WAIT-1), for minutes if the client reads nothing, and the
    client is never told. A zero linger makes the close a reset that frees them at once."""
    sock = transport.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):  # already gone
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    transport.abort()


# -- per client address ---------------------------------------------------------------------------


class TooMany(Exception):
    """A per-address limit reached: answered 429 with `retry_after` seconds."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.message = message
        self.retry_after = retry_after


class _NeverStarted(threading.Timer):
    """A timer that counts as running, so that limits' MemoryStorage starts no thread of its own."""

    def is_alive(self) -> bool:
        return True


class SweptMemoryStorage(limits.storage.MemoryStorage):
    """limits' in-memory storage, its expired entries dropped by `sweep()` (the server calls it every
    SWEEP_INTERVAL s on its event loop) instead of by a timer thread. That thread is started anew
    10 ms after it last ran, at the next hit: on a busy server, at every websocket message, about
    a hundred thread starts a second, and the event loop waited for the GIL at each."""

    def __init__(self) -> None:
        super().__init__()
        self.timer.cancel()  # the one that __init__ started
        self.timer = _NeverStarted(0, lambda: None)

    def sweep(self) -> None:
        self._MemoryStorage__expire_events()  # type: ignore[attr-defined]
        # A closed connection's key would stay, empty, for ever.
        for key in [key for key, entries in self.events.items() if not entries]:
            del self.events[key]


SWEEP_INTERVAL = 1.0  # seconds between two sweeps of the limits' expired entries


def client_address(request: Request | WebSocket) -> str:
    """Whom the per-address limits count: the peer's IP address (behind a proxy, the address
    the proxy reports when `bodoge serve --forwarded-allow-ips` trusts it)."""
    return request.client.host if request.client is not None else "unknown"


class AddressLimits:
    """Per client address: creations in a moving window, open websockets; and per connection, the
    rate of its messages. In memory: a restart forgets them (nothing of a game depends on them).
    `refused` counts what each limit refused, by its flag's name (for the metrics)."""

    def __init__(self, config: Limits) -> None:
        self.config = config
        self.storage = SweptMemoryStorage()
        self._limiter = limits.strategies.MovingWindowRateLimiter(self.storage)
        self._create = limits.parse(config.create_rate)
        self._message = limits.parse(config.message_rate)
        self._chat = limits.parse(config.chat_rate)
        self._review = limits.parse(config.review_rate)
        self._signup = limits.parse(config.signup_rate)
        self._player = limits.parse(config.player_rate)
        self.sockets: Counter[str] = Counter()
        self.refused: Counter[str] = Counter()

    def _hit(self, item: limits.RateLimitItem, kind: str, who: str, flag: str, refusal: str) -> None:
        """Count one `kind` by `who`; TooMany saying `refusal` (and when to try again) past the rate."""
        if not self._limiter.hit(item, kind, who):
            self.refused[flag] += 1
            reset = self._limiter.get_window_stats(item, kind, who).reset_time
            raise TooMany(refusal, max(1, math.ceil(reset - time.time())))

    def hit_create(self, address: str) -> None:
        """Count one table creation from `address`; TooMany past the rate."""
        self._hit(
            self._create,
            "create",
            address,
            "create_rate",
            f"at most {self.config.create_rate} new tables from one address; try again later",
        )

    def hit_review(self, address: str) -> None:
        """Count one game review started from `address`; TooMany past the rate."""
        self._hit(
            self._review,
            "review",
            address,
            "review_rate",
            f"at most {self.config.review_rate} game reviews started from one address; "
            "try again later (a review someone has asked for already is free to read)",
        )

    def hit_signup(self, address: str) -> None:
        """Count one new player from `address`; TooMany past the rate."""
        self._hit(
            self._signup,
            "signup",
            address,
            "signup_rate",
            f"at most {self.config.signup_rate} new players from one address; try again later",
        )

    def hit_player(self, player_id: str) -> None:
        """Count one request made with a player's key, wherever it comes from; TooMany past the rate
        (a player who spreads their requests over many addresses is still one player)."""
        self._hit(
            self._player,
            "player",
            player_id,
            "player_rate",
            f"at most {self.config.player_rate} requests from one player; try again later",
        )

    def check_open_tables(self, open_now: int) -> None:
        """TooMany if an address that has `open_now` tables in play may make no more."""
        if open_now >= self.config.open_tables:
            self.refused["open_tables"] += 1
            raise TooMany(
                f"at most {self.config.open_tables} tables in play made from one address; "
                "finish one, or wait for idle ones to expire",
                60,
            )

    def hit_message(self, connection_id: str) -> bool:
        """Count one websocket message; False once the connection sends faster than its rate."""
        if self._limiter.hit(self._message, "message", connection_id):
            return True
        self.refused["message_rate"] += 1
        return False

    def hit_chat(self, connection_id: str) -> bool:
        """Count one chat line; False past the chat rate (the line is refused, the connection kept)."""
        if self._limiter.hit(self._chat, "chat", connection_id):
            return True
        self.refused["chat_rate"] += 1
        return False

    def open_socket(self, address: str) -> bool:
        """Count a websocket opening; False (and not counted) past the per-address limit."""
        if self.sockets[address] >= self.config.ws_per_address:
            self.refused["ws_per_address"] += 1
            return False
        self.sockets[address] += 1
        return True

    def close_socket(self, address: str) -> None:
        self.sockets[address] -= 1
        if self.sockets[address] <= 0:
            del self.sockets[address]


def origin_allowed(origin: str | None, host: str | None, allowed: list[str]) -> bool:
    """A websocket's Origin check. Browsers always send Origin; a page of another site must not act
    with a visitor's table links. No Origin at all is a program (a bot, a test), not a browser."""
    if origin is None or "*" in allowed:
        return True
    if origin.rstrip("/") in (a.rstrip("/") for a in allowed):
        return True
    try:
        netloc = urlsplit(origin).netloc
    except ValueError:
        return False
    return bool(host) and netloc.lower() == (host or "").lower()
