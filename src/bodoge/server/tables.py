"""The tables this process has loaded (TableManager): it makes new ones, rebuilds the others from
the log when they are asked for or when the server starts, abandons the idle ones, and beside other
processes (cluster.py) routes their messages to the table each is about. One table in play is a
TableRuntime (table/runtime.py), which sees its manager only as `table.ports.Manager` (the
one interface where the two meet: this module imports the runtime, never the other way).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from bodoge import agents
from bodoge.core.game import Game, State
from bodoge.core.registry import game_class, make
from bodoge.errors import BodogeError
from bodoge.server import longplay
from bodoge.server.bots import BotPool
from bodoge.server.cluster import HERE_INTERVAL, Cluster
from bodoge.server.replays import Replays
from bodoge.server.storage import Storage, TableRow, Writer
from bodoge.server.table.connection import ActionError, hash_token, new_token
from bodoge.server.table.plain import clean_name, name_key
from bodoge.server.table.runtime import TableRuntime, table_summary

T = TypeVar("T")

log = logging.getLogger("bodoge.server")


# The fields of a table beside its options (POST /api/tables): no option may be named as one.
TABLE_FIELDS = ("game", "players", "options", "seats", "name", "seed", "clock", "standin", "hints")


class TableBusy(Exception):
    """Setting up, rebuilding or replaying a table took longer than the work time limit."""


class TableManager:
    """Every table this server has loaded; creates tables and rebuilds them from the log.

    Work that grows with a game (making one, replaying its log, replay steps) runs in worker
    threads, at most WORKERS at once and each awaited at most `work_timeout` seconds: the event
    loop only moves messages, so one heavy table never holds up another."""

    WORKERS = 4
    # Tables set up at once. A crowd of creations (a site's start, or every game ending together
    # and its players making new tables) interleaves on the one event loop with the moves of the
    # tables in play: taken a few at a time, most creations are done sooner and the moves wait less
    # between their steps. bench/load.py, six 15 s runs each, taking turns: client actions over 40 ms
    # in the first two seconds 0–33 (33, 5, 24, 0, 1, 7) before, 0–8 (3, 0, 0, 0, 8, 0) two at a
    # time; p99 26.4–42.9 ms before, 21.8–33.0 ms after.
    CREATING = 2

    def __init__(
        self,
        storage: Storage,
        bots: BotPool,
        bot_delay: float = 0.0,
        idle_timeout: float = 86400.0,
        work_timeout: float = 20.0,
        unstarted_timeout: float = 3600.0,
        away_grace: float = 60.0,
        cluster: Cluster | None = None,
    ) -> None:
        self.storage = storage
        self.cluster = cluster or Cluster()
        self.writer = Writer(storage)
        self.bots = bots
        self.bot_delay = bot_delay
        self.idle_timeout = idle_timeout
        self.work_timeout = work_timeout
        self.unstarted_timeout = unstarted_timeout
        self.away_grace = away_grace
        self.tables: dict[str, TableRuntime] = {}
        self.broken: dict[str, str] = {}
        self.replays = Replays()
        self.closing = False
        self._loading: dict[str, asyncio.Future[TableRuntime | None]] = {}
        self._work = asyncio.Semaphore(self.WORKERS)
        self._creating = asyncio.Semaphore(self.CREATING)
        self._background: set[asyncio.Task[None]] = set()
        self.loop: asyncio.AbstractEventLoop | None = None  # the event loop it runs on, once started
        # A player's seat key at a table (server/players.py, `Players.seat_key`), set by the app: a
        # rematch gives a player's new seat the key derived for the new table.
        self.seat_key: Callable[[str, str], str] | None = None
        # What follows the end of a table's game beside the table itself (server/ratings.py rates
        # it): each hook is run in the background, once the last action is committed.
        self.over_hooks: list[Callable[[str], Coroutine[Any, Any, None]]] = []

    async def off_loop(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` in a worker thread; TableBusy past the work time limit (the thread finishes
        on its own; its result is dropped)."""
        async with self._work:
            try:
                return await asyncio.wait_for(asyncio.to_thread(fn, *args), self.work_timeout)
            except TimeoutError:
                raise TableBusy(
                    f"that took longer than the server's limit of {self.work_timeout:g} s"
                ) from None

    def _in_background(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def start(self) -> None:
        """Start the bots' workers, then (in the background, so that the server answers at once)
        expire idle tables and rebuild the others, whose bots play on as soon as each is loaded.
        Beside other processes (a shared cluster), rebuild the tables that no process owns, now and
        whenever one's owner goes."""
        self.loop = asyncio.get_running_loop()  # where work from other threads is sent (tests, tools)
        await self.bots.start()
        if self.cluster.shared:
            await self.cluster.start(self._heard, self._claimed)
            self.storage.channel, self.storage.origin = self.cluster.channel, self.cluster.process
            self._in_background(self._claimed(await self.cluster.claim_orphans()))
            self._in_background(self._keep_in_touch())
        else:
            self._in_background(self._resume())
        self._in_background(self._expire_idle())

    # -- beside other processes (cluster.py) ------------------------------------------------------

    def tell(self, message: dict[str, Any]) -> None:
        """Tell the other processes, without waiting (in order: publish takes one lock, in turn)."""
        self._in_background(self._tell(message))

    async def _tell(self, message: dict[str, Any]) -> None:
        try:
            await self.cluster.publish(message)
        except Exception as exc:
            log.error("could not tell the other processes (%s): %s", message.get("kind"), exc)

    async def _claimed(self, ids: list[str]) -> None:
        """This process owns these tables now (nobody did): rebuild each, or make its replica the
        owner, and let its bots play."""
        for table_id in ids:
            runtime = self.tables.get(table_id)
            try:
                if runtime is not None:
                    await self.promote(runtime)
                else:
                    runtime = await self.get(table_id)
            except TableBusy:
                log.error("table %s: taking it over took too long; it is left for later", table_id)
                await self.cluster.release(table_id)
                continue
            if runtime is None:
                await self.cluster.release(table_id)
            else:
                log.info("table %s: this process owns it now", table_id)

    async def promote(self, runtime: TableRuntime) -> bool:
        """Own the table if nobody does: read what its last owner logged, then run its clock and
        bots. False if another process owns it."""
        if runtime.owned:
            return True
        try:
            if not await self.cluster.claim(runtime.id):
                return False
        except Exception as exc:
            log.error("table %s: could not claim it: %s", runtime.id, exc)
            return False
        await self.catch_up(runtime)
        runtime.owned, runtime.owner_summary, runtime.presence.remote = True, None, {}
        self.tell({"kind": "owner", "table": runtime.id})  # the replicas say who is there
        runtime.people_changed()
        return True

    def demote(self, runtime: TableRuntime) -> None:
        """Another process owns the table now (this one lost its lock): stop its bots and clock."""
        if not runtime.owned:
            return
        runtime.owned = False
        runtime.bots.stop()
        runtime.stop_timers()
        runtime.presence.remote = {}
        runtime.presence.tell_here()

    def catch_up_later(self, runtime: TableRuntime) -> None:
        self._in_background(self.catch_up(runtime))

    async def catch_up(self, runtime: TableRuntime) -> None:
        """Read the table's row and the actions logged since the replica's move, and take them."""
        async with runtime.lock:
            try:
                row = await asyncio.to_thread(self.storage.load_table, runtime.id)
                logged = await asyncio.to_thread(self.storage.load_actions, runtime.id, runtime.seq)
            except Exception as exc:
                log.error("table %s: could not read its log: %s", runtime.id, exc)
                return
            nxt: State | None = None
            for entry in logged:
                at = nxt if nxt is not None else runtime.state
                if entry.seq != len(at.history):
                    continue  # heard meanwhile
                nxt = nxt if nxt is not None else runtime.state.clone()
                try:
                    nxt.apply(entry.action, seat=entry.seat)
                except BodogeError as exc:  # a log this server cannot replay: stay where it was
                    log.error("table %s: logged action %s does not apply: %s", runtime.id, entry.seq, exc)
                    nxt = None
                    break
            if row is not None:
                for name in ("status", "result", "seats", "settings", "updated_at"):
                    setattr(runtime.row, name, getattr(row, name))
            if nxt is not None:
                runtime.moved(nxt)
            runtime.broadcast_table()

    def unload(self, runtime: TableRuntime) -> None:
        """The table leaves memory (and this process lets it go: another may own it)."""
        if self.tables.get(runtime.id) is runtime:
            del self.tables[runtime.id]
        if runtime.owned and self.cluster.shared:
            self._in_background(self.cluster.release(runtime.id))

    def _heard(self, message: dict[str, Any]) -> None:
        """A message from another process (cluster.py): each kind goes to its table."""
        kind = message.get("kind")
        if kind == "lost":  # this process's locks went with its database session
            for table_id in message["tables"]:
                runtime = self.tables.get(table_id)
                if runtime is not None:
                    self.demote(runtime)
            return
        if kind == "resync":  # notifications were missed: every replica reads its log again
            for runtime in list(self.tables.values()):
                if not runtime.owned:
                    self.catch_up_later(runtime)
                    runtime.presence.tell_here()
            return
        table_id = message.get("table")
        runtime = self.tables.get(table_id) if isinstance(table_id, str) else None
        if runtime is None:
            return
        origin = str(message.get("origin"))
        if kind == "move":
            seq, seat, action = message.get("seq"), message.get("seat"), message.get("action")
            if not (isinstance(seq, int) and isinstance(seat, int) and isinstance(action, int)):
                return
            if runtime.owned:
                # Only this process logs the table's moves while it holds the lock; were the lock
                # lost, its next statement would say so (and the log's key refuses a move twice).
                log.warning("table %s: a move %r it did not log was announced; ignored", runtime.id, seq)
                return
            runtime.heard_move(seq, seat, action)
        elif kind == "abandoned":
            runtime.heard_abandoned()
        elif kind == "ask" and runtime.owned:
            self._in_background(self._answer(runtime, message))
        elif kind == "here" and runtime.owned:
            seats, spectators = message.get("seats"), message.get("spectators")
            if isinstance(seats, list) and isinstance(spectators, int):
                runtime.presence.heard_here(origin, seats, spectators)
        elif kind == "seat":
            seat, keep = message.get("seat"), message.get("keep")
            if isinstance(seat, int) and isinstance(keep, str) and runtime.replace(seat, keep):
                runtime.people_changed()
        elif kind == "table" and not runtime.owned:
            summary = message.get("summary")
            if isinstance(summary, dict):
                runtime.heard_summary(summary)
        elif kind == "chat" and not runtime.owned:
            line = message.get("line")
            if isinstance(line, dict):
                with contextlib.suppress(TypeError):
                    runtime.chat.heard(line)
        elif kind == "owner" and not runtime.owned:
            runtime.presence.tell_here()

    async def _answer(self, runtime: TableRuntime, message: dict[str, Any]) -> None:
        answer = await runtime.answer(message)
        await self._tell(dict(answer, kind="answer", to=message.get("origin"), ask=message.get("ask")))

    async def _keep_in_touch(self) -> None:
        """Replicas remind the owners who is connected; owners forget processes gone silent; a
        replica that nobody here watches (loaded for a look at the table) leaves memory."""
        while not self.closing:
            await asyncio.sleep(HERE_INTERVAL)
            for runtime in list(self.tables.values()):
                if runtime.owned:
                    runtime.presence.forget_silent()
                elif runtime.connections:
                    runtime.presence.tell_here()
                elif time.monotonic() - runtime.idle_since > REPLICA_IDLE:
                    self.unload(runtime)

    async def _resume(self) -> None:
        await self._abandon_idle()
        ids = await asyncio.to_thread(self.storage.playing_ids)
        for table_id in ids:
            try:
                runtime = await self.get(table_id)
            except TableBusy:
                log.error("table %s: rebuilding it took too long; it is left for later", table_id)
                continue
            if runtime is not None:
                runtime.bots.schedule()
        if ids:
            log.info("rebuilt %d unfinished tables from the log", len(self.tables))

    async def _expire_idle(self) -> None:
        """Every so often, abandon the tables in play where nobody has moved for idle_timeout."""
        while not self.closing:
            await asyncio.sleep(min(60.0, max(0.05, min(self.idle_timeout, self.unstarted_timeout) / 10)))
            try:
                await self._abandon_idle()
            except Exception:
                log.exception("expiring idle tables failed; trying again later")

    async def _abandon_idle(self) -> None:
        now = time.time()
        ids = await asyncio.to_thread(
            self.storage.idle_ids, now - self.idle_timeout, now - self.unstarted_timeout
        )
        # A table played over days is never idle: its clock hands every move on (longplay.py).
        ids = await asyncio.to_thread(longplay.not_over_days, self.storage, ids)
        for table_id in ids:
            runtime = self.tables.get(table_id)
            if runtime is not None and runtime.owned:
                await runtime.abandon()
            else:  # its owner (another process) hears of it
                await self.writer.abandon(table_id)
            log.info("table %s: abandoned: nobody moved for too long", table_id)

    async def close(self) -> None:
        """Stop: the bots, then the writer (everything queued is committed), then, beside other
        processes, let every table go (another process takes them over from the log)."""
        self.closing = True
        tasks = [t.bots.task for t in self.tables.values() if t.bots.task is not None]
        tasks += list(self._background)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        await asyncio.to_thread(self.writer.close)
        await self.cluster.close()
        await self.bots.close()
        await asyncio.to_thread(self.storage.close)

    def open_tables_of(self, address: str) -> int:
        """Tables in play made from `address` (since this server started: every table in play is
        loaded)."""
        return sum(1 for t in self.tables.values() if t.creator == address and t.row.status == "playing")

    async def create(
        self,
        game_name: str,
        players: int | None,
        options: dict[str, Any],
        seats: list[dict[str, Any]],
        creator: str = "",
        settings: dict[str, Any] | None = None,
        token_hashes: list[str | None] | None = None,
        table_id: str | None = None,
    ) -> tuple[TableRuntime, list[str | None]]:
        """A new table; BodogeError/ValueError for a bad game, options, seats or stand-in, TableBusy
        if setting it up takes too long. Returns its tokens (a rematch passes the seats' hashes of
        the tokens they had: the same link opens a person's new seat). `table_id`: the id to give it,
        where the caller derived its seats' keys from the id (server/players.py, `seat_key`)."""
        settings = dict(settings or {})
        standin = settings.get("standin")
        if standin is not None:
            if not isinstance(standin, str) or len(standin) > 200:
                raise ValueError("standin is a bot spec such as 'heuristic'")
            agents.make(standin)  # BadOption for an unknown agent or bad parameters
        for name in options:
            if name in TABLE_FIELDS:
                raise ValueError(
                    f"{name!r} is a field of the table, not one of its options: give it beside "
                    f'"options" (options are the game\'s own, listed by GET /api/games)'
                )
        async with self._creating:
            seed = secrets.randbits(63)
            game, state, clean, tokens = await self.off_loop(
                _set_up, game_name, players, options, seats, seed
            )
            now = time.time()
            row = TableRow(
                id=table_id or new_table_id(),
                game=game.name,
                rules_version=game.rules_version,
                players=game.num_players,
                options=game.options_json(),
                seed=seed,
                seats=clean,
                token_hashes=token_hashes or [None if t is None else hash_token(t) for t in tokens],
                created_at=now,
                updated_at=now,
                settings=settings,
                to_move=[] if state.current_player is None else [state.current_player],
            )
            # Owned before its row exists: another process's sweep never sees it without an owner.
            owned = await self.cluster.claim(row.id)
            try:
                await self.writer.create_table(row)
            except BaseException:
                await self.cluster.release(row.id)
                raise
            runtime = TableRuntime(self, row, game, state, creator)
            runtime.owned = owned
            self.tables[row.id] = runtime
            runtime.presence.expect_absent()  # nobody has opened a link yet: the grace periods run
            runtime.bots.schedule()
            return runtime, tokens

    async def create_rematch(self, row: TableRow, creator: str) -> TableRuntime:
        """The same game again: its options, bots and people, every seat moved on by one (who
        started last time does not start again), each person's old token opening their new seat (a
        player's: the seat key of the new table)."""
        n = row.players
        seats: list[dict[str, Any]] = [{}] * n
        hashes: list[str | None] = [None] * n
        table_id = new_table_id()
        for old, info in enumerate(row.seats):
            new = (old + 1) % n
            moved = {k: v for k, v in info.items() if k in ("kind", "name", "spec", "player")}
            if moved.get("name") == f"P{old}":  # a default name follows the seat number
                moved["name"] = None
            seats[new], hashes[new] = moved, row.token_hashes[old]
            if moved.get("player") and self.seat_key is not None:
                # A player's seat: the key derived for the new table (their tables page has it too).
                hashes[new] = hash_token(self.seat_key(moved["player"], table_id))
        settings: dict[str, Any] = {
            k: row.settings[k] for k in ("clock", "standin", "hints", "private") if k in row.settings
        }
        settings["rematch_of"] = row.id
        try:
            runtime, _tokens = await self.create(
                row.game, row.players, row.options, seats, creator, settings, hashes, table_id
            )
        except (BodogeError, ValueError) as exc:  # e.g. a bot this server no longer has
            raise ActionError("rematch", f"the game cannot be played again here: {exc}") from None
        except TableBusy as exc:
            raise ActionError("busy", str(exc)) from None
        return runtime

    def game_over(self, table_id: str) -> None:
        """The table's game ended here: its over hooks run."""
        for hook in self.over_hooks:
            self._in_background(hook(table_id))

    def joined_rematch(self, row: TableRow, seat: int) -> None:
        """A seat's person came to a rematch for the first time: the table it follows, if it is in
        memory here (someone still looks at it), tells its people "Ben joined the new table". The
        rematch moved every seat on by one, so it is the seat before this one there."""
        before = self.tables.get(row.settings.get("rematch_of") or "")
        if before is None or row.seats[seat].get("kind") != "human":
            return
        before.presence.note("joined_next", (seat - 1) % row.players, table=row.id)

    async def get(self, table_id: str) -> TableRuntime | None:
        """The table, rebuilt from its row and log if it is not loaded yet; None if unknown/broken;
        TableBusy if rebuilding takes longer than the work limit (it goes on, and a later call gets
        the table)."""
        runtime = self.tables.get(table_id)
        if runtime is not None:
            return runtime
        if table_id in self.broken or not isinstance(table_id, str) or len(table_id) > 32:
            return None
        pending = self._loading.get(table_id)
        if pending is None:
            pending = self._loading[table_id] = asyncio.ensure_future(self._load(table_id))
        try:
            return await asyncio.wait_for(asyncio.shield(pending), self.work_timeout)
        except TimeoutError:
            raise TableBusy("the table is still being loaded; try again in a moment") from None

    async def _load(self, table_id: str) -> TableRuntime | None:
        try:
            async with self._work:
                runtime = await asyncio.to_thread(self._rebuild, table_id)
            if runtime is not None and table_id not in self.tables:
                self.tables[table_id] = runtime
                if self.cluster.shared:
                    # A replica until it owns the table; either way it takes what was logged
                    # while it was being rebuilt.
                    runtime.owned = False
                    if not await self.promote(runtime):
                        await self.catch_up(runtime)
                else:
                    runtime.tick_clock()  # a clock over days runs whoever is here (longplay.py)
            return self.tables.get(table_id)
        finally:
            del self._loading[table_id]

    def _rebuild(self, table_id: str) -> TableRuntime | None:
        try:
            row = self.storage.load_table(table_id)
        except ValueError as exc:
            log.error("table %s cannot be read: %s", table_id, exc)
            self.broken[table_id] = str(exc)
            return None
        if row is None:
            return None
        try:
            game = make(row.game, row.players, **row.options)
            problem = _replay_problem(row)
            if problem is not None:
                raise ValueError(problem)
            state = game.new_state(seed=row.seed, rules_version=row.rules_version)
            for i, logged in enumerate(self.storage.load_actions(table_id)):
                if logged.seq != i:
                    raise ValueError(f"the log has a gap at action {i}")
                state.apply(logged.action, seat=logged.seat)
        except (BodogeError, ValueError, TypeError) as exc:
            log.error("table %s cannot be rebuilt: %s", table_id, exc)
            self.broken[table_id] = str(exc)
            return None
        row.moves = len(state.history)
        runtime = TableRuntime(self, row, game, state)
        runtime.chat.lines = self.storage.load_chat(table_id)
        longplay.restore(runtime, self.storage)  # its story, and a clock over days (longplay.py)
        return runtime

    async def list(self, statuses: tuple[str, ...], limit: int) -> list[dict[str, Any]]:
        rows = await asyncio.to_thread(self.storage.list_tables, statuses, limit)
        out = []
        for row in rows:
            if row.settings.get("private"):  # a private open table's: link only (server/seating.py)
                continue
            problem = _replay_problem(row)
            if problem is not None:
                if row.id not in self.broken:  # said once
                    log.warning("table %s: %s; left out of the lists", row.id, problem)
                    self.broken[row.id] = problem
                continue
            runtime = self.tables.get(row.id)
            if runtime is not None:
                out.append(runtime.summary())
            else:
                out.append(table_summary(row, row.moves, None, set()))
        return out


# Seconds a replica stays in memory after its last connection at this process closed: longer than
# a new websocket may take to say hello, so that one that just fetched the table still finds it.
REPLICA_IDLE = 60.0


def new_table_id() -> str:
    return secrets.token_urlsafe(9)


def _replay_problem(row: TableRow) -> str | None:
    """Why this server cannot replay the table's game (a game or rules version it lacks), or None.
    A table of an older rules version that its game still replays is rebuilt by that version."""
    try:
        versions = game_class(row.game).replays_versions
    except BodogeError:
        return f"this server has no game {row.game[:40]!r}"
    if row.rules_version not in versions:
        return (
            f"the table was played under rules version {row.rules_version}, this server replays "
            f"{row.game} versions {', '.join(map(str, versions))}"
        )
    return None


def _set_up(
    game_name: Any, players: Any, options: dict[str, Any], seats: list[dict[str, Any]], seed: int
) -> tuple[Game, State, list[dict[str, Any]], list[str | None]]:
    """A new table's game, first state, seats and tokens (in a worker thread: options decide how
    long this takes)."""
    game = make(game_name, players, **options)
    if len(seats) != game.num_players:
        raise ValueError(f"{game.name} with {game.num_players} players needs {game.num_players} seats")
    clean: list[dict[str, Any]] = []
    tokens: list[str | None] = []
    given: dict[str, int] = {}  # the names given, as read (name_key): no two seats go by one name
    for i, seat in enumerate(seats):
        kind = seat.get("kind")
        name = clean_name(seat.get("name"), f"seat {i}: a name")
        default_bot = kind == "bot" and name == (seat.get("spec") or "random")  # named by its kind
        if name and not default_bot and given.setdefault(name_key(name), i) != i:
            raise ValueError(f"seat {i}: {name!r} is the name of seat {given[name_key(name)]} already")
        if kind == "human":
            person: dict[str, Any] = {"kind": "human", "name": name or f"P{i}"}
            player = seat.get("player")
            if player is not None:  # an identified player's seat (server/players.py)
                if not isinstance(player, str) or not 0 < len(player) <= 16:
                    raise ValueError(f"seat {i}: a player is a player's id")
                person["player"] = player
            clean.append(person)
            tokens.append(new_token())
        elif kind == "bot":
            spec = seat.get("spec") or "random"
            if not isinstance(spec, str) or len(spec) > 200:
                raise ValueError(f"seat {i}: a bot spec is a short text such as 'heuristic'")
            check = getattr(agents.make(spec), "check", None)  # BadOption: unknown agent, bad parameters
            if check is not None:
                check(game)  # ... or one this game cannot have (nn without a model for it)
            clean.append({"kind": "bot", "name": name or spec, "spec": spec})
            tokens.append(None)
        else:
            raise ValueError(f"seat {i}: kind is 'human' or 'bot', not {kind!r}")
    return game, game.new_state(seed=seed), clean, tokens
