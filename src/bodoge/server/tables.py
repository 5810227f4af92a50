"""Tables in play: each holds its state in memory, logs every action, and sends every seat its view.

The flow of one action (from a seat's websocket or a bot): under the table's lock, check that it is
that seat's decision and the action is legal, apply it to a clone, commit it to the log, and only
then make the clone the table's state and send the new views: seat p gets exactly `view(p)`,
spectators `view(None)`. Anything wrong (not your turn, stale, illegal) is answered with an error
and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import secrets
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import orjson

from bodoge import agents
from bodoge.core.game import Game, State
from bodoge.core.registry import game_class, make
from bodoge.errors import BodogeError
from bodoge.server.bots import BotPool
from bodoge.server.storage import Append, Storage, TableRow, Writer

log = logging.getLogger("bodoge.server")

MAX_NAME = 40


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


@dataclass(eq=False)
class Connection:
    """One websocket at a table. Outgoing messages queue here; a writer task sends them.

    A view supersedes any older view not yet sent (a slow client gets the newest, never a backlog).
    """

    seat: int | None
    outbox: deque[tuple[str, str]] = field(default_factory=deque)  # (kind, json text)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    closed: bool = False

    def push(self, kind: str, text: str) -> None:
        if self.closed:
            return
        if kind == "view":
            self.outbox = deque(item for item in self.outbox if item[0] != "view")
        self.outbox.append((kind, text))
        if len(self.outbox) > 256:  # a client that reads nothing: stop queueing for it
            self.closed = True
        self.wake.set()


class TableRuntime:
    def __init__(self, manager: TableManager, row: TableRow, game: Game, state: State) -> None:
        self.manager = manager
        self.row = row
        self.game = game
        self.state = state
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self.bot_task: asyncio.Task[None] | None = None
        self._views: dict[int | None, str] = {}  # json of each seat's view at the current seq

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def seq(self) -> int:
        return len(self.state.history)

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token opens, or None (a spectator) for no or a wrong token."""
        if not token or not isinstance(token, str) or len(token) > 200:
            return None
        digest = hash_token(token)
        found = None
        for seat, stored in enumerate(self.row.token_hashes):
            if stored is not None and hmac.compare_digest(stored, digest):
                found = seat
        return found

    # -- what is sent ---------------------------------------------------------------------------

    def view_message(self, seat: int | None) -> str:
        text = self._views.get(seat)
        if text is None:
            text = dumps({"type": "view", "table": self.id, "seq": self.seq, "view": self.state.view(seat)})
            self._views[seat] = text
        return text

    def summary(self) -> dict[str, Any]:
        """What anyone may know of the table (the lobby, spectators): never the seed or tokens."""
        present = {c.seat for c in self.connections if c.seat is not None}
        return table_summary(self.row, self.seq, self.state, present, spectators=self._spectators())

    def _spectators(self) -> int:
        return sum(1 for c in self.connections if c.seat is None)

    def broadcast(self) -> None:
        self._views = {}
        for conn in list(self.connections):
            conn.push("view", self.view_message(conn.seat))

    def broadcast_table(self) -> None:
        text = dumps({"type": "table", "table": self.summary()})
        for conn in list(self.connections):
            conn.push("table", text)

    def attach(self, conn: Connection) -> None:
        self.connections.add(conn)
        self.broadcast_table()
        conn.push("view", self.view_message(conn.seat))

    def detach(self, conn: Connection) -> None:
        conn.closed = True
        self.connections.discard(conn)
        self.broadcast_table()
        self.maybe_unload()

    def maybe_unload(self) -> None:
        """A finished table nobody watches leaves memory; it is rebuilt from the log when asked for."""
        if self.state.is_terminal and not self.connections:
            self.manager.tables.pop(self.id, None)

    # -- actions --------------------------------------------------------------------------------

    async def submit(self, seat: int, action: Any, seq: int | None = None) -> None:
        """Take `action` for `seat`; ActionError (and nothing changed) if it may not be taken."""
        async with self.lock:
            state = self.state
            if state.is_terminal:
                raise ActionError("game_over", "the game is over")
            if seq is not None and seq != self.seq:
                raise ActionError(
                    "stale", f"your action was for move {seq}, but the table is at move {self.seq}"
                )
            if seat != state.current_player:
                raise ActionError("not_your_turn", "it is not your decision now")
            legal = state.legal_actions()
            if isinstance(action, bool) or not isinstance(action, int) or action not in legal:
                raise ActionError(
                    "illegal",
                    f"{action!r} is not one of your legal action ids now ({', '.join(map(str, legal))})",
                )
            nxt = state.clone()
            try:
                nxt.apply(action, seat=seat)
            except BodogeError as exc:  # a legal id refused: the game's bug, not the client's
                log.error("table %s: legal action %s refused: %s", self.id, action, exc)
                raise ActionError("illegal", "the game refused that action") from None
            result = None
            if nxt.is_terminal:
                result = {"scores": nxt.scores(), "winners": nxt.winners()}
            try:
                await self.manager.writer.append(Append(self.id, self.seq, seat, action, result))
            except Exception as exc:
                log.error("table %s: could not log action %s: %s", self.id, self.seq, exc)
                raise ActionError("storage", "the action could not be saved; try again") from None
            self.state = nxt
            now = time.time()
            self.row.moves = self.seq
            self.row.updated_at = now
            if result is not None:
                self.row.status = "over"
                self.row.result = result
            self.broadcast()
            if result is not None:
                self.broadcast_table()
                self.maybe_unload()
        self.schedule_bots()

    def bot_spec(self, seat: int | None) -> str | None:
        if seat is None:
            return None
        info = self.row.seats[seat]
        return info.get("spec") if info.get("kind") == "bot" else None

    def schedule_bots(self) -> None:
        if self.state.is_terminal or self.bot_spec(self.state.current_player) is None:
            return
        if self.bot_task is None or self.bot_task.done():
            self.bot_task = asyncio.create_task(self._bots(), name=f"bots-{self.id}")

    async def _bots(self) -> None:
        """Play while a bot is to move (one move at a time, each on that seat's view)."""
        manager = self.manager
        failures = 0
        while not manager.closing:
            seat = self.state.current_player
            spec = self.bot_spec(seat)
            if seat is None or spec is None:
                return
            if manager.bot_delay > 0:
                await asyncio.sleep(manager.bot_delay)
            seq = self.seq
            if self.state.current_player != seat:
                continue
            view = self.state.view(seat)
            move = await manager.bots.act(self.row.game, self.row.players, self.row.options, spec, view)
            try:
                # submit() ends by scheduling bots; this task is still running, so it starts none,
                # and this loop carries on with the next bot decision itself.
                await self.submit(seat, move.action, seq)
                failures = 0
            except ActionError as exc:
                failures += 1
                log.warning("table %s: bot move refused (%s): %s", self.id, exc.code, exc.message)
                if failures >= 5:
                    log.error("table %s: bots stopped after repeated failures", self.id)
                    return
                await asyncio.sleep(0.5 * failures)

    def record(self) -> dict[str, Any]:
        """The game record — only once the game is over (before, it would reveal the deal)."""
        if not self.state.is_terminal:
            raise ActionError("running", "the record is offered only once the game is over")
        return self.state.to_record()


def table_summary(
    row: TableRow, moves: int, state: State | None, present: set[int], spectators: int = 0
) -> dict[str, Any]:
    title = {"en": row.game, "ja": row.game}
    with contextlib.suppress(BodogeError):
        title = dict(game_class(row.game).title)
    seats = []
    for seat, info in enumerate(row.seats):
        seats.append(
            {
                "seat": seat,
                "kind": info.get("kind"),
                "name": info.get("name"),
                "spec": info.get("spec"),
                "connected": seat in present,
            }
        )
    summary: dict[str, Any] = {
        "id": row.id,
        "game": row.game,
        "title": title,
        "players": row.players,
        "options": row.options,
        "seats": seats,
        "status": row.status,
        "moves": moves,
        "current_player": None if state is None else state.current_player,
        "result": row.result,
        "spectators": spectators,
        "created_at": row.created_at,
        "updated_at": row.updated_at,
    }
    return summary


class TableManager:
    """Every table this server has loaded; creates tables and rebuilds them from the log."""

    def __init__(self, storage: Storage, bots: BotPool, bot_delay: float = 0.0) -> None:
        self.storage = storage
        self.writer = Writer(storage)
        self.bots = bots
        self.bot_delay = bot_delay
        self.tables: dict[str, TableRuntime] = {}
        self.broken: dict[str, str] = {}
        self.closing = False
        self._loading: dict[str, asyncio.Future[TableRuntime | None]] = {}

    async def start(self) -> None:
        await self.bots.start()
        ids = await asyncio.to_thread(self.storage.playing_ids)
        for table_id in ids:
            runtime = await self.get(table_id)
            if runtime is not None:
                runtime.schedule_bots()
        if ids:
            log.info("rebuilt %d unfinished tables from the log", len(self.tables))

    async def close(self) -> None:
        self.closing = True
        tasks = [t.bot_task for t in self.tables.values() if t.bot_task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        await self.bots.close()
        await asyncio.to_thread(self.writer.close)
        await asyncio.to_thread(self.storage.close)

    async def create(
        self, game_name: str, players: int | None, options: dict[str, Any], seats: list[dict[str, Any]]
    ) -> tuple[TableRuntime, list[str | None]]:
        """A new table; BodogeError/ValueError for a bad game, options or seats. Returns its tokens."""
        game = make(game_name, players, **options)
        if len(seats) != game.num_players:
            raise ValueError(f"{game.name} with {game.num_players} players needs {game.num_players} seats")
        clean: list[dict[str, Any]] = []
        tokens: list[str | None] = []
        for i, seat in enumerate(seats):
            kind = seat.get("kind")
            name = seat.get("name")
            if name is not None and (not isinstance(name, str) or len(name) > MAX_NAME):
                raise ValueError(f"seat {i}: a name is a text of at most {MAX_NAME} characters")
            name = (name or "").strip()
            if kind == "human":
                clean.append({"kind": "human", "name": name or f"P{i}"})
                tokens.append(new_token())
            elif kind == "bot":
                spec = seat.get("spec") or "random"
                if not isinstance(spec, str) or len(spec) > 200:
                    raise ValueError(f"seat {i}: a bot spec is a short text such as 'heuristic'")
                agents.make(spec)  # BadOption for an unknown agent or bad parameters
                clean.append({"kind": "bot", "name": name or spec, "spec": spec})
                tokens.append(None)
            else:
                raise ValueError(f"seat {i}: kind is 'human' or 'bot', not {kind!r}")
        seed = secrets.randbits(63)
        state = game.new_state(seed=seed)
        now = time.time()
        row = TableRow(
            id=secrets.token_urlsafe(9),
            game=game.name,
            rules_version=game.rules_version,
            players=game.num_players,
            options=game.options_json(),
            seed=seed,
            seats=clean,
            token_hashes=[None if t is None else hash_token(t) for t in tokens],
            created_at=now,
            updated_at=now,
        )
        await self.writer.create_table(row)
        runtime = TableRuntime(self, row, game, state)
        self.tables[row.id] = runtime
        runtime.schedule_bots()
        return runtime, tokens

    async def get(self, table_id: str) -> TableRuntime | None:
        """The table, rebuilt from its row and log if it is not loaded yet; None if unknown/broken."""
        runtime = self.tables.get(table_id)
        if runtime is not None:
            return runtime
        if table_id in self.broken or not isinstance(table_id, str) or len(table_id) > 32:
            return None
        pending = self._loading.get(table_id)
        if pending is not None:
            return await pending
        future: asyncio.Future[TableRuntime | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            runtime = await asyncio.to_thread(self._rebuild, table_id)
            if runtime is not None:
                self.tables[table_id] = runtime
            future.set_result(runtime)
            return runtime
        except BaseException as exc:
            future.set_exception(exc)
            raise
        finally:
            del self._loading[table_id]
            if not future.done():
                future.cancel()
            elif future.exception() is not None:
                future.exception()  # retrieved: no "never retrieved" warning

    def _rebuild(self, table_id: str) -> TableRuntime | None:
        row = self.storage.load_table(table_id)
        if row is None:
            return None
        try:
            game = make(row.game, row.players, **row.options)
            if game.rules_version != row.rules_version:
                raise ValueError(
                    f"the table was played under rules version {row.rules_version}, "
                    f"this server plays {game.rules_version}"
                )
            state = game.new_state(seed=row.seed)
            for i, logged in enumerate(self.storage.load_actions(table_id)):
                if logged.seq != i:
                    raise ValueError(f"the log has a gap at action {i}")
                state.apply(logged.action, seat=logged.seat)
        except (BodogeError, ValueError) as exc:
            log.error("table %s cannot be rebuilt: %s", table_id, exc)
            self.broken[table_id] = str(exc)
            return None
        row.moves = len(state.history)
        return TableRuntime(self, row, game, state)

    async def list(self, status: str, limit: int) -> list[dict[str, Any]]:
        rows = await asyncio.to_thread(self.storage.list_tables, status, limit)
        out = []
        for row in rows:
            runtime = self.tables.get(row.id)
            if runtime is not None:
                out.append(runtime.summary())
            else:
                out.append(table_summary(row, row.moves, None, set()))
        return out
