"""The FastAPI app: the lobby API, the table websocket, and the static web client.

The message protocol is documented in docs/protocol.md; this module is its reference server.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import os
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import JSONResponse, Response
from starlette.websockets import WebSocketState

from bodoge import agents
from bodoge.core.guide import game_guide
from bodoge.core.registry import game_class
from bodoge.core.registry import games as game_names
from bodoge.core.text import LANGUAGES
from bodoge.errors import BodogeError
from bodoge.server.bodies import CreateTableIn, HintIn
from bodoge.server.bots import BotPool
from bodoge.server.cluster import Cluster, PgCluster
from bodoge.server.forms import option_form
from bodoge.server.guard import (
    SWEEP_INTERVAL,
    AbortHandle,
    AddressLimits,
    BadInput,
    BodyLimit,
    Limits,
    SecurityHeaders,
    TooMany,
    client_address,
    json_body,
    json_media,
    origin_allowed,
    parse_json,
    quiet_bad_frames,
)
from bodoge.server.hints import creation_refusal, hint_for, hints_refusal
from bodoge.server.lessons import router as lessons_router
from bodoge.server.longplay import router as longplay_router
from bodoge.server.metrics import Metrics, MetricsListener, ServerErrors
from bodoge.server.players import Players
from bodoge.server.players import router as players_router
from bodoge.server.ratings import router as ratings_router
from bodoge.server.ratings import start as start_ratings
from bodoge.server.replays import replay_answer
from bodoge.server.reviews import ReviewRefused, Reviews, answer_text
from bodoge.server.safety import Safety
from bodoge.server.safety import router as safety_router
from bodoge.server.seating import Seatings
from bodoge.server.seating_api import router as seating_router
from bodoge.server.storage import Storage
from bodoge.server.table.chat import CHAT_SHOWN
from bodoge.server.table.connection import ActionError, Connection, dumps
from bodoge.server.table.plain import chat_line
from bodoge.server.table.runtime import TableRuntime
from bodoge.server.tables import TableBusy, TableManager
from bodoge.server.webclient import add_web_client

log = logging.getLogger("bodoge.server")

PROTOCOL = 1
MAX_MESSAGE = 4096  # bytes of one client message; anything longer is refused unread
WS_MAX_SIZE = 65536  # frames beyond this are closed by the websocket layer itself
HELLO_TIMEOUT = 20.0
CLOSE_TIMEOUT = 10.0  # seconds a client closed for its behaviour has to take the close, then dropped


def default_workers() -> int:
    return max(1, min(4, os.cpu_count() or 1))


@dataclass
class ServerConfig:
    db: str = "sqlite:///bodoge.db"
    bot_workers: int = field(default_factory=default_workers)
    bot_budget: float = 5.0  # seconds a bot may think about one move
    bot_delay: float = 0.5  # pause before each bot move, so that people can follow the play
    preload: list[str] = field(default_factory=list)  # modules to import first (out-of-tree games/agents)
    limits: Limits = field(default_factory=Limits)
    forwarded_allow_ips: str = "127.0.0.1"  # proxies whose X-Forwarded-For is believed (uvicorn)
    # GET /metrics (Prometheus) on a listener of its own, at this address and port; None: no metrics.
    metrics_port: int | None = None
    metrics_host: str = "127.0.0.1"
    # Deals per decision of a game review (server/reviews.py); None: 8, or 4 for a game whose
    # playouts are slow (Troika).
    review_deals: int | None = None


def component_tips(texts: Any) -> dict[str, dict[str, str]]:
    """Each component's rule in each language ({lang: {key: text}}), the [tip] table of the game's
    texts: the board shows it on hover or a long press (boards/common.js, data-tip keys)."""
    if texts is None:
        return {}
    return {
        lang: {key[len("tip.") :]: text for key, text in table.items() if key.startswith("tip.")}
        for lang, table in texts.tables.items()
    }


def game_info(name: str) -> dict[str, Any]:
    cls = game_class(name)
    try:
        rules = {lang: cls.rules_summary(lang) for lang in LANGUAGES}
    except NotImplementedError:  # a game package without texts (the test suite's toy games)
        rules = {lang: "" for lang in LANGUAGES}
    texts = getattr(cls.part("text"), "TEXTS", None)

    def words(spec: Any) -> dict[str, str]:
        """An option's help and allowed values in Japanese, where the game's texts give them."""
        said = None if texts is None else texts.option_words("ja", spec)
        return {} if said is None else {"help_ja": said[0], "allowed_ja": said[1]}

    return {
        "name": name,
        "title": dict(cls.title),
        "min_players": cls.min_players,
        "max_players": cls.max_players,
        "default_players": cls.default_players,
        "options": [
            {
                "name": spec.name,
                "default": _default_json(spec),
                "allowed": spec.allowed,
                "min": getattr(spec, "lo", None),
                "max": getattr(spec, "hi", None),
                "help": spec.help,
                **words(spec),
                **option_form(cls, spec),  # the lobby's form: label and control, in words
            }
            for spec in cls.option_specs
        ],
        "rules": rules,
        "tips": component_tips(texts),
    }


def rules_answer(game: str, lang: str) -> JSONResponse:
    """GET /api/games/GAME/rules: the rules text (read once per game and language, then cached by
    load_guide), 404 for an unknown game or one without rules for players."""
    if game not in game_names():
        raise HTTPException(404, f"no game {game[:40]!r}; the games are {', '.join(game_names())}")
    if lang not in LANGUAGES:
        raise HTTPException(400, f"lang is one of {', '.join(LANGUAGES)}")
    guide = game_guide(game_class(game), lang)
    if guide is None:
        raise HTTPException(404, f"{game} has no rules for players")
    return JSONResponse({"game": game, "lang": lang, **guide}, headers={"Cache-Control": "max-age=300"})


def _default_json(spec: Any) -> Any:
    """An option's default as JSON (a default may be written in either form: convert it first)."""
    try:
        return spec.to_json(spec.convert(spec.default))
    except (ValueError, TypeError, AttributeError):
        return spec.default


def create_app(config: ServerConfig | None = None) -> FastAPI:
    config = config or ServerConfig()
    for module in config.preload:
        importlib.import_module(module)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        storage = await asyncio.to_thread(Storage, config.db)
        # PostgreSQL may be shared with other `bodoge serve` processes (cluster.py).
        cluster = Cluster() if storage.is_sqlite else PgCluster(storage.url)
        manager = TableManager(
            storage,
            BotPool(config.bot_workers, config.bot_budget, config.preload, on_move=metrics.bot_move),
            config.bot_delay,
            idle_timeout=config.limits.idle_timeout,
            work_timeout=config.limits.work_timeout,
            unstarted_timeout=config.limits.unstarted_timeout,
            away_grace=config.limits.away_grace,
            cluster=cluster,
        )
        app.state.manager = manager
        app.state.players = await asyncio.to_thread(Players, storage.engine)
        manager.seat_key = app.state.players.seat_key  # a rematch's seats of players (tables.py)
        app.state.safety = Safety(storage.engine)
        reviews = app.state.reviews = Reviews(manager, config.limits, guard, config.review_deals)
        metrics.start(manager)
        await start_ratings(app)  # finished games rate their people (server/ratings.py)
        await manager.start()
        await reviews.start()
        # Open tables: their background task starts those whose wait is over (server/seating.py).
        seatings = app.state.seatings = Seatings(manager, app.state.players)
        seatings.start()
        sweeper = asyncio.create_task(_sweep_limits(guard))
        try:
            yield
        finally:
            sweeper.cancel()
            await seatings.close()
            await reviews.close()
            await manager.close()
            metrics.stop()

    app = FastAPI(title="bodoge", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    quiet_bad_frames()
    app.state.config = config
    guard = app.state.guard = AddressLimits(config.limits)
    metrics = app.state.metrics = Metrics(guard)
    # Each middleware added wraps the ones before it: the security headers go on every answer, a 413
    # too; AbortHandle sees the server's own `send`, and MetricsListener, outermost, answers the
    # metrics port before anything else runs.
    app.add_middleware(BodyLimit, limit=config.limits.max_body, refused=guard.refused)
    app.add_middleware(GZipMiddleware, minimum_size=1024)  # the pages' scripts, lists, replays
    app.add_middleware(ServerErrors, metrics=metrics)
    app.add_middleware(SecurityHeaders, docs_path="/api/docs")
    app.add_middleware(AbortHandle)
    app.add_middleware(MetricsListener, metrics=metrics, port=config.metrics_port)

    def manager_of(request: Request | WebSocket) -> TableManager:
        manager: TableManager = request.app.state.manager
        return manager

    async def table_or_404(request: Request, table_id: str) -> TableRuntime:
        try:
            runtime = await manager_of(request).get(table_id)
        except TableBusy as exc:
            raise HTTPException(503, str(exc), headers={"Retry-After": "5"}) from None
        if runtime is None:
            raise HTTPException(404, f"no table {table_id[:40]!r}")
        return runtime

    add_web_client(app)  # the pages (one shell, rendered here once) and /static (server/webclient.py)
    app.include_router(lessons_router())  # learning to play (server/lessons.py, docs/learn.md)
    app.include_router(longplay_router)  # a player's tables, games over days (server/longplay.py)
    app.include_router(ratings_router)  # ratings, profiles, leaderboards (server/ratings.py)
    app.include_router(seating_router)  # open tables and quick match (server/seating.py)
    app.include_router(players_router)  # players without sign-up (server/players.py)
    app.include_router(safety_router)  # muting and reporting (server/safety.py)

    @app.get("/api/health")
    async def health(request: Request) -> dict[str, Any]:
        manager = manager_of(request)
        return {
            "ok": True,
            "protocol": PROTOCOL,
            "tables_loaded": len(manager.tables),
            # Seconds a person may be away before a stand-in bot plays for them (the lobby says so).
            "away_grace": manager.away_grace,
        }

    @app.get("/api/games")
    async def list_games() -> list[dict[str, Any]]:
        return [game_info(name) for name in game_names()]

    @app.get("/api/games/{game}/rules")
    async def game_rules(game: str, lang: str = "en") -> JSONResponse:
        """The game's rules for players in `lang` (core/guide.py; the page /rules/GAME)."""
        return rules_answer(game, lang)

    @app.get("/api/agents")
    async def list_agents() -> list[str]:
        return agents.names()

    @app.get("/api/tables")
    async def list_tables(request: Request, limit: int = 50) -> dict[str, Any]:
        limit = max(1, min(limit, 200))
        manager = manager_of(request)
        return {
            "open": await manager.list(("playing",), limit),
            "recent": await manager.list(("over", "abandoned"), limit),
        }

    @app.post(
        "/api/tables",
        status_code=201,
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": CreateTableIn.model_json_schema()}},
            }
        },
    )
    async def create_table(request: Request) -> dict[str, Any]:
        manager = manager_of(request)
        address = client_address(request)
        try:
            guard.hit_create(address)
            guard.check_open_tables(manager.open_tables_of(address))
        except TooMany as exc:
            raise HTTPException(429, exc.message, headers={"Retry-After": str(exc.retry_after)}) from None
        body = await json_body(
            request, CreateTableIn, "a table is made with a JSON body (Content-Type: application/json)"
        )
        settings: dict[str, Any] = {"clock": None if body.clock is None else body.clock.model_dump()}
        if body.standin is not None:
            settings["standin"] = body.standin
        if body.hints:
            refusal = creation_refusal([s.model_dump() for s in body.seats])
            if refusal is not None:
                raise HTTPException(400, refusal)
            settings["hints"] = True
        try:
            runtime, tokens = await manager.create(
                body.game,
                body.players,
                body.options,
                [s.model_dump() for s in body.seats],
                address,
                settings,
            )
        except TableBusy as exc:
            raise HTTPException(503, f"setting up the table: {exc}") from None
        except (BodogeError, ValueError) as exc:
            raise HTTPException(400, str(exc)) from None
        seats = []
        for seat, token in enumerate(tokens):
            info = dict(runtime.row.seats[seat], seat=seat)
            if token is not None:
                info["token"] = token
                info["join_url"] = f"/t/{runtime.id}#token={token}"
            seats.append(info)
        return {
            "id": runtime.id,
            "table": runtime.summary(),
            "seats": seats,
            "spectator_url": f"/t/{runtime.id}",
        }

    @app.get("/api/tables/{table_id}")
    async def get_table(request: Request, table_id: str) -> dict[str, Any]:
        runtime = await table_or_404(request, table_id)
        # `hints`: a practice table, whose person may ask for hints (server/hints.py)
        return dict(runtime.summary(), hints=hints_refusal(runtime.row) is None)

    @app.get("/api/tables/{table_id}/record")
    async def get_record(request: Request, table_id: str) -> JSONResponse:
        runtime = await table_or_404(request, table_id)
        try:
            record = runtime.record()
        except ActionError as exc:
            raise HTTPException(409, exc.message) from None
        return JSONResponse(
            record,
            headers={
                "Content-Disposition": f'attachment; filename="bodoge-{runtime.row.game}-{table_id}.json"'
            },
        )

    @app.get("/api/tables/{table_id}/replay")
    async def get_replay(request: Request, table_id: str, move: int = 0, seat: str = "all") -> dict[str, Any]:
        """A finished game's position after `move` actions, as `seat` saw it (`view(seat)`), or with
        every card shown (`seat=all`: every seat's view, and the spectator's). 409 while it runs."""
        runtime = await table_or_404(request, table_id)
        try:
            record = runtime.record()
        except ActionError as exc:
            raise HTTPException(409, exc.message) from None
        moves = len(record["actions"])
        if not 0 <= move <= moves:
            raise HTTPException(400, f"move is 0 to {moves}")
        p: int | None = None
        if seat != "all":
            if not (seat.isascii() and seat.isdigit() and int(seat) < runtime.game.num_players):
                raise HTTPException(
                    400, f"seat is a seat number from 0 to {runtime.game.num_players - 1}, or 'all'"
                )
            p = int(seat)
        manager = manager_of(request)
        try:
            answer = await manager.off_loop(replay_answer, manager.replays, table_id, record, move, p)
        except TableBusy as exc:
            raise HTTPException(503, str(exc), headers={"Retry-After": "5"}) from None
        # The chat as it stood at that move (said before the move's action was taken).
        return dict(answer, chat=[line.as_json() for line in runtime.chat if line.move <= move])

    @app.get("/api/tables/{table_id}/review")
    async def get_review(request: Request, table_id: str) -> Response:
        """A finished game's review: `status` none, queued, running (`done` of `total` decisions),
        done (with `review`, docs/review.md) or failed (`error`). docs/protocol.md has the rest."""
        runtime = await table_or_404(request, table_id)
        reviews: Reviews = request.app.state.reviews
        row = await reviews.read(table_id)
        return Response(
            answer_text(runtime.id, row, runtime.state.is_terminal), media_type="application/json"
        )

    @app.post("/api/tables/{table_id}/review", status_code=202)
    async def ask_review(request: Request, table_id: str) -> Response:
        """Ask for a finished game's review (every seat), made once and shared: 202 while it is
        queued or running, 200 once done. 409 for a game not finished, 429 past the address's rate,
        503 when the server's review queue is full."""
        json_media(request, "a review is asked with a JSON body {} (Content-Type: application/json)")
        body = await request.body()
        try:
            options = parse_json(body) if body.strip() else {}
        except BadInput as exc:
            raise HTTPException(422, str(exc)) from None
        if options != {}:
            raise HTTPException(422, "a review takes no options: the body is {} (every seat is reviewed)")
        runtime = await table_or_404(request, table_id)
        if not runtime.state.is_terminal:
            raise HTTPException(
                409,
                "only a finished game is reviewed: this one "
                + (
                    "was abandoned before its end"
                    if runtime.row.status == "abandoned"
                    else "is still being played"
                ),
            )
        reviews: Reviews = request.app.state.reviews
        try:
            row = await reviews.ask(runtime.id, client_address(request))
        except ReviewRefused as exc:
            headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after else None
            raise HTTPException(exc.status, exc.message, headers=headers) from None
        return Response(
            answer_text(runtime.id, row, True),
            status_code=200 if row.status == "done" else 202,
            media_type="application/json",
        )

    @app.post("/api/tables/{table_id}/hint")
    async def ask_hint(request: Request, table_id: str) -> dict[str, Any]:
        """The bots' preferred moves at the seat's decision, ranked (server/hints.py): only at a
        practice table (`hints`, one person); the body is {"token": the seat's token}."""
        body = await json_body(
            request, HintIn, 'a hint is asked with a JSON body {"token": ...} (application/json)'
        )
        runtime = await table_or_404(request, table_id)
        seat = runtime.seat_of(body.token)
        if seat is None:
            raise HTTPException(403, "that token opens no seat here: hints are for the table's person")
        try:
            return await hint_for(runtime, seat)
        except ActionError as exc:
            raise HTTPException(409 if exc.code == "not_your_turn" else 403, exc.message) from None

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        origin = websocket.headers.get("origin")
        if not origin_allowed(origin, websocket.headers.get("host"), config.limits.allow_origins):
            log.warning("websocket from origin %r refused", origin)
            await websocket.close(1008)  # before accepting: the handshake is answered 403
            return
        address = client_address(websocket)
        if not guard.open_socket(address):
            await websocket.accept()
            await websocket.send_text(
                _error(
                    "too_many_connections",
                    f"at most {config.limits.ws_per_address} connections from one address",
                )
            )
            await websocket.close(1008)
            return
        try:
            await play_socket(
                manager_of(websocket), websocket, table_id, guard, config.limits, address, metrics
            )
        finally:
            guard.close_socket(address)

    return app


def _error(code: str, message: str, **extra: Any) -> str:
    return dumps({"type": "error", "code": code, "message": message, **extra})


async def _receive_text(websocket: WebSocket) -> str | None:
    """The next text message; None for a binary one. WebSocketDisconnect when the client is gone."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        return None
    return str(text)


def _parse(text: str | None) -> tuple[dict[str, Any] | None, str | None]:
    """A client message as a dict, or (None, an error message as JSON text)."""
    if text is None:
        return None, _error("malformed", "messages are JSON text, not binary")
    if len(text) > MAX_MESSAGE or len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE:
        return None, _error("too_large", f"a message is at most {MAX_MESSAGE} bytes")
    try:
        message = parse_json(text)
    except BadInput as exc:
        return None, _error("malformed", f"a message is a JSON object: {exc}")
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        return None, _error("malformed", 'a message is a JSON object with a "type"')
    return message, None


async def _sweep_limits(guard: AddressLimits) -> None:
    """Drop the rate limits' expired entries now and then (see SweptMemoryStorage)."""
    while True:
        await asyncio.sleep(SWEEP_INTERVAL)
        try:
            guard.storage.sweep()
        except Exception:  # a later sweep may well succeed; the limits still hold meanwhile
            log.exception("sweeping the rate limits failed")


async def play_socket(
    manager: TableManager,
    websocket: WebSocket,
    table_id: str,
    guard: AddressLimits,
    limits: Limits,
    address: str,
    metrics: Metrics,
) -> None:
    await websocket.accept()
    try:
        runtime = await manager.get(table_id)
    except TableBusy as exc:
        await websocket.send_text(_error("busy", str(exc)))
        await websocket.close(1013)  # try again later
        return
    if runtime is None:
        await websocket.send_text(_error("no_table", f"no table {table_id[:40]!r}"))
        await websocket.close(4404)
        return
    # The first message says who this is: {"type": "hello", "token": ...}. Without a valid token,
    # the connection is a spectator.
    try:
        text = await asyncio.wait_for(_receive_text(websocket), HELLO_TIMEOUT)
    except (TimeoutError, WebSocketDisconnect):
        with contextlib.suppress(Exception):
            await websocket.close(4408)
        return
    hello, problem = _parse(text)
    if hello is None or hello.get("type") != "hello":
        await websocket.send_text(problem or _error("malformed", 'the first message is {"type": "hello"}'))
        await websocket.close(4400)
        return
    token = hello.get("token")
    seat = runtime.seat_of(token if isinstance(token, str) else None)
    conn = Connection(seat, token=token if seat is not None else None)
    if token and seat is None:
        conn.push("error", _error("bad_token", "that token opens no seat here; you are a spectator"))
    # A player's seat carries the player's name: the name a browser keeps for link seats is not sent to it.
    if seat is not None and hello.get("name") is not None and not runtime.row.seats[seat].get("player"):
        try:
            await runtime.rename(seat, hello["name"])
        except ActionError as exc:
            conn.push("error", _error(exc.code, exc.message))
    conn.push(
        "welcome",
        dumps(
            {
                "type": "welcome",
                "protocol": PROTOCOL,
                "table": runtime.summary(),
                "seat": seat,
                "role": "spectator" if seat is None else "player",
                "chat": [line.as_json() for line in runtime.chat[-CHAT_SHOWN:]],
            }
        ),
    )
    runtime = runtime.attach(conn)
    rematch = runtime.rematch_message(conn)
    if rematch is not None:
        conn.push("rematch", rematch)
    sender = asyncio.create_task(_send_loop(websocket, conn, runtime))
    too_fast = False
    try:
        while not conn.closed:
            text = await _receive_text(websocket)
            received = time.perf_counter()
            if conn.closed:
                # Closed while it waited for this message: replaced by a newer connection of its seat
                # (a seat is played from one place at a time). What it sends now is not played.
                break
            if not guard.hit_message(conn.id):
                conn.close(1008, f"more than {guard.config.message_rate} messages")
                too_fast = True
                break
            message, problem = _parse(text)
            if message is None:
                conn.push("error", problem or "")
                continue
            kind = message["type"]
            if kind == "ping":
                conn.push("pong", dumps({"type": "pong", "seq": runtime.seq}))
            elif kind == "action":
                if await _action(runtime, conn, message):
                    metrics.action_seconds.observe(time.perf_counter() - received)
            elif kind == "hint":
                _ask_hint(runtime, conn)
            elif kind in SEAT_MESSAGES:
                await _seat_message(runtime, conn, message, guard, limits, address)
            elif kind == "sync":
                conn.log_len = 0  # the client lost track of its log: its next view is whole
                conn.push("view")
            elif kind == "hello":
                conn.push("error", _error("malformed", "hello is only the first message"))
            else:
                conn.push("error", _error("malformed", f"unknown message type {kind[:40]!r}"))
            if conn.backlogged:
                # Messages that came in one burst are read without a pause: let the sender send
                # their answers before reading on, so that only a client that really does not read
                # fills its queue (and is closed, 1008).
                await asyncio.sleep(0)
    except WebSocketDisconnect:
        pass
    finally:
        closed_here = conn.closed  # by the server (replaced, or 1008), not by the client's going
        if conn.close_code == 1008 and not too_fast:
            guard.refused["unread"] += 1  # (a flood is counted by hit_message)
        runtime.detach(conn)
        # A client closed for its behaviour may be blocked sending to us while we stop reading:
        # keep reading (and dropping) what it sends until it has taken the close, so that it can.
        drain = asyncio.create_task(_discard_input(websocket)) if conn.close_code == 1008 else None
        if closed_here and conn.close_code != 1008:
            # Replaced: the sender sends what is queued (the `replaced` message), then the close.
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(sender, CLOSE_TIMEOUT)
        sender.cancel()
        with contextlib.suppress(BaseException):
            await sender
        await _close(websocket, conn)
        if drain is not None:
            await drain


async def _action(runtime: TableRuntime, conn: Connection, message: dict[str, Any]) -> bool:
    """Take the message's action; True once it is committed and everyone's view queued, False if
    it was refused (and answered with an error)."""
    action = message.get("action")
    seq = message.get("seq")
    if conn.seat is None:
        conn.push("error", _error("spectator", "spectators take no actions", action=_echo(action)))
        return False
    if seq is not None and (isinstance(seq, bool) or not isinstance(seq, int)):
        conn.push("error", _error("malformed", '"seq" is the move number of the view acted on'))
        return False
    if isinstance(action, bool) or not isinstance(action, int):
        conn.push("error", _error("malformed", '"action" is an integer action id', action=_echo(action)))
        return False
    try:
        await runtime.submit(conn.seat, action, seq)
    except ActionError as exc:
        conn.push("error", _error(exc.code, exc.message, action=_echo(action)))
        return False
    return True


_hinting: dict[str, asyncio.Task[None]] = {}  # connection id -> its hint being worked out


def _ask_hint(runtime: TableRuntime, conn: Connection) -> None:
    """One hint at a time per connection (each takes a bot worker a moment); answered when ready,
    without holding up the reading of its other messages."""
    if conn.id in _hinting:
        conn.push("error", _error("hint_busy", "a hint is being worked out already; wait for it"))
        return
    task = asyncio.create_task(_hint(runtime, conn))
    _hinting[conn.id] = task
    task.add_done_callback(lambda _t: _hinting.pop(conn.id, None))


async def _hint(runtime: TableRuntime, conn: Connection) -> None:
    """Answer a hint message (server/hints.py) when it is ready, without holding up the reading."""
    try:
        conn.push("hint", dumps(await hint_for(runtime, conn.seat)))
    except ActionError as exc:
        conn.push("error", _error(exc.code, exc.message))


SEAT_MESSAGES = ("back", "chat", "rematch", "name")


async def _seat_message(
    runtime: TableRuntime,
    conn: Connection,
    message: dict[str, Any],
    guard: AddressLimits,
    limits: Limits,
    address: str,
) -> None:
    """The messages of a person at their seat: "I'm back", chat, "play again", a new name."""
    kind = message["type"]
    seat = conn.seat
    if seat is None:
        conn.push("error", _error("spectator", f"spectators cannot send {kind!r}: it is for the players"))
        return
    try:
        if kind == "back":
            await runtime.come_back(seat)
        elif kind == "name":
            # Every rename is a write to the database: names share the chat's rate.
            if not guard.hit_chat(conn.id):
                raise ActionError("name_rate", f"at most {limits.chat_rate} renames and chat lines together")
            await runtime.rename(seat, message.get("name"))
        elif kind == "chat":
            text = chat_line(message.get("text"))
            if not guard.hit_chat(conn.id):
                raise ActionError("chat_rate", f"at most {limits.chat_rate} chat lines; wait a little")
            await runtime.say(seat, text)
        elif kind == "rematch":
            if runtime.row.status == "playing":  # refused before anything is counted
                raise ActionError("running", "a rematch is offered once the game is over")
            if not runtime.row.settings.get("next_table"):  # a new table: the creation limits
                try:
                    guard.hit_create(address)
                    guard.check_open_tables(runtime.manager.open_tables_of(address))
                except TooMany as exc:
                    raise ActionError("too_many_tables", exc.message) from None
            following = await runtime.rematch(address)
            log.info("table %s: played again at %s", runtime.id, following)
    except ActionError as exc:
        conn.push("error", _error(exc.code, exc.message))


def _echo(value: Any) -> Any:
    """The client's own action back in an error, if small (so a client can tell which failed)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**31 else None


async def _close(websocket: WebSocket, conn: Connection) -> None:
    """Close with the connection's code (once: the sender and the reader both end with this). A
    connection closed for its behaviour (1008: a flood, or reading nothing) gets CLOSE_TIMEOUT to
    take the close, then its TCP connection is dropped."""
    if websocket.application_state == WebSocketState.DISCONNECTED:
        return
    if conn.close_code == 1008:
        asyncio.get_running_loop().call_later(CLOSE_TIMEOUT, _drop, websocket)
    with contextlib.suppress(Exception):  # already closed
        await asyncio.wait_for(websocket.close(conn.close_code, conn.close_reason), CLOSE_TIMEOUT)


async def _discard_input(websocket: WebSocket) -> None:
    """Read and drop the client's messages until it is gone (at most CLOSE_TIMEOUT)."""
    with contextlib.suppress(Exception):
        async with asyncio.timeout(CLOSE_TIMEOUT):
            while (await websocket.receive())["type"] != "websocket.disconnect":
                pass


def _drop(websocket: WebSocket) -> None:
    """Drop the TCP connection at once, gracefully closed or not (a no-op once it is gone)."""
    abort = websocket.scope.get("bodoge.abort")
    if abort is not None:
        abort()


async def _send_loop(websocket: WebSocket, conn: Connection, runtime: TableRuntime) -> None:
    try:
        while True:
            await conn.wake.wait()
            conn.wake.clear()
            while conn.outbox:
                kind, text = conn.outbox.popleft()
                if kind == "view":  # built now: the newest move, the log entries it lacks
                    text = await runtime.view_text(conn)
                await websocket.send_text(text)
            if conn.closed:
                await _close(websocket, conn)
                return
    except Exception:
        conn.closed = True
