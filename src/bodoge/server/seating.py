"""Open tables and quick match: seatings that wait for people before their game exists.

An **open table** (a seating) is a game, a number of players, the game's options and a clock, chosen
by its creator, and the players who have sat down so far. It is public (listed in the lobby for
anyone to take a seat) or private (only who has its link, `/#open=ID`, finds it). When every seat is
taken it becomes a real table (TableManager.create), each person's seat opened by their **seat key**
(players.seat_key: the server gives it again to the player's own key, and to nobody else). The
creator may allow bots: `bots_after` seconds after the seating was made, the seats still free are
filled with bots (`bot`, one of the server's agents) and the table starts, if anyone is seated.

**Quick match** (POST /api/quickmatch {game, players}) seats a player at the oldest public seating of
that game and number of players that was itself made by quick match, or makes one. Quick-match
seatings all play the game's standard options with the QUICK_CLOCK, and fill with bots after
QUICK_BOTS_AFTER seconds: a person who asks for "any table" gets exactly that, and a table that its
creator set up with other options (or to wait for friends) is never taken by a stranger who did not
choose it. A player already waiting at a quick seating of that game and count gets that one again.

Rules that bound what people can size: a player waits at MAX_WAITING seatings at most; a server
holds MAX_OPEN seatings waiting at once; a seating nobody filled within EXPIRES is cancelled; the
rows of seatings long started or cancelled are deleted after KEPT. Only identified players
(players.need_player) create, join, leave, remove or quick-match; anyone may look.

Everything lives in the database (`bodoge_seatings`), nothing only in memory: the time bots come is
`created_at + bots_after`, so a restart changes nothing, and a background task (`Seatings.run`, and
also every read of a seating) starts the tables that are due. Several processes may share the
database: each change is a compare-and-swap on the row's `version`, so two processes never both seat
the last person, and a start is claimed (status `starting`, with the table's id chosen) before the
table is made, so that whoever finds a start interrupted (a crash) finishes it with the same id.

A seat whose person never came: before the start, the creator removes it (POST .../remove {seat},
the seat's place in the list); after the start, at the table, the creator hands it to a stand-in
bot at once (the table's own grace period, `away_grace`, would do the same later), if that person has
not connected since the table was loaded.

The rows and their transactions are in seating_store.py, the HTTP routes in seating_api.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import random
import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar

from fastapi.exceptions import RequestValidationError
from pydantic import ValidationError

from bodoge import agents
from bodoge.core.registry import game_class, make
from bodoge.core.registry import games as game_names
from bodoge.errors import BodogeError
from bodoge.server.bodies import ClockIn, QuickIn, RemoveIn, SeatingIn
from bodoge.server.forms import option_form
from bodoge.server.players import FORMER, Player, Players
from bodoge.server.seating_store import Lost, QuickCheck, Seating, Store, seatings_table
from bodoge.server.table.connection import hash_token
from bodoge.server.tables import TABLE_FIELDS, TableBusy, _set_up, new_table_id

if TYPE_CHECKING:
    from bodoge.server.tables import TableManager

log = logging.getLogger("bodoge.server")

T = TypeVar("T")

MAX_WAITING = 5  # seatings one player waits at at once
MAX_OPEN = 5000  # seatings waiting on a server at once (503 beyond)
EXPIRES = 86400.0  # seconds a seating waits before it is cancelled: nobody came
KEPT = 7 * 86400.0  # seconds the row of a started or cancelled seating is kept (links to it work)
QUICK_BOTS_AFTER = 60  # seconds a quick match waits for people before bots fill its seats
QUICK_CLOCK = {"turn_seconds": 60, "reserve_seconds": 300}  # strangers: nobody waits forever
FILL_EVERY = 1.0  # seconds between two looks for seatings due to start
QUICK_LOOKS = 5  # the oldest quick seatings a quick match looks at (one that fills starts at once)
QUICK_BATCH = 100  # quick matches looked at and written in one transaction at most
MAX_WAIT = 25.0  # seconds a long poll of one seating (GET /api/seatings/ID?version=V&wait=S) may wait
STATUSES = ("waiting", "starting", "started", "cancelled")


class Refused(Exception):
    """A change refused: the HTTP status and what to say."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


# -- what a seating may be ----------------------------------------------------------------------


BOT_CHOICES = (
    "heuristic",
    "random",
)  # the bot that fills seats when the creator names none: the first that fits


def check_table(
    game: Any, players: Any, options: dict[str, Any], bot: str | None
) -> tuple[str, int, dict[str, Any], str]:
    """The game's name, its number of players, its options in full, and the bot that fills free
    seats (`bot`, or the first of BOT_CHOICES that can play the game), for a seating: checked exactly
    as a table's creation checks them (the options' names, then `_set_up` with one person and the
    bot at the other seats); BodogeError or ValueError saying what was wrong."""
    for name in options:
        if name in TABLE_FIELDS:
            raise ValueError(
                f"{name!r} is a field of the open table, not one of its options: give it beside "
                '"options" (options are the game\'s own, listed by GET /api/games)'
            )
    made = make(game, players, **options)
    if made.num_players < 2:
        raise ValueError("an open table is for 2 or more players")
    for choice in [bot] if bot is not None else [b for b in BOT_CHOICES if b in agents.names()]:
        seats = [{"kind": "human"}] + [{"kind": "bot", "spec": choice}] * (made.num_players - 1)
        try:
            _set_up(made.name, made.num_players, options, seats, 0)
        except (BodogeError, ValueError):
            if bot is not None or choice == BOT_CHOICES[-1]:
                raise
            continue
        return made.name, made.num_players, made.options_json(), choice
    raise ValueError("this server has no bot that can play the game")


@functools.lru_cache(maxsize=256)
def standard_options(game: str, players: int) -> dict[str, Any]:
    """The game's own options at that number of players (made once: every answer names them)."""
    return make(game, players).options_json()


YES_NO = {"en": ("yes", "no"), "ja": ("はい", "いいえ")}
CHANGED = {"en": "changed", "ja": "変更あり"}


def option_words(game: str, players: int, options: dict[str, Any]) -> dict[str, list[str]]:
    """The options that are not the game's standard ones, in each language's words, as the lobby
    shows a table's (the game's WORDS, server/forms.py): {"en": ["Rounds: 1"], "ja": [...]}. An option
    the form has no words for is named, and said to be changed."""
    cls = game_class(game)
    standard = standard_options(game, players)
    out: dict[str, list[str]] = {lang: [] for lang in YES_NO}
    for spec in cls.option_specs:
        if spec.name not in options or options[spec.name] == standard.get(spec.name):
            continue
        value = options[spec.name]
        form = option_form(cls, spec)
        for lang in out:
            label = form.get("label", {}).get(lang) or form.get("label", {}).get("en")
            if not label:
                out[lang].append(f"{spec.name}: {CHANGED[lang]}")
                continue
            words: Any = value
            if form["kind"] == "boolean":
                words = YES_NO[lang][0 if value else 1]
            elif form["kind"] == "choice":
                said: dict[str, str] = next((c["words"] for c in form["choices"] if c["value"] == value), {})
                words = said.get(lang) or said.get("en") or value
            elif value is None and form.get("none"):
                words = form["none"].get(lang) or form["none"].get("en")
            sep = "：" if lang == "ja" else ": "
            out[lang].append(f"{label}{sep}{words}")
    return out


def new_seating(
    player: Player,
    game: str,
    n: int,
    options: dict[str, Any],
    clock: dict[str, int] | None,
    public: bool,
    quick: bool,
    bots_after: float | None,
    bot: str,
) -> Seating:
    """A seating just made, its creator seated."""
    now = time.time()
    return Seating(
        id=new_table_id(),
        game=game,
        players=n,
        options=options,
        clock=clock,
        public=public,
        quick=quick,
        bots_after=None if bots_after is None else float(bots_after),
        bot=bot,
        creator=player.id,
        seats=(player.id,),
        table_seats=None,
        status="waiting",
        table_id=None,
        problem=None,
        version=0,
        created_at=now,
        updated_at=now,
    )


# -- the store ----------------------------------------------------------------------------------


class Seatings:
    """The open tables of a server (app.state.seatings): every change is a short transaction in a
    worker thread, taken one at a time here (and a compare-and-swap beside other processes); a
    seating that fills or whose wait is over is started outside that, by `_launch`."""

    def __init__(self, manager: TableManager, players: Players) -> None:
        self.manager = manager
        self.players = players
        self.loop = asyncio.get_running_loop()
        self.store = Store(manager.storage.engine, self._changed_soon)
        self.lock = asyncio.Lock()
        self._waiters: dict[str, asyncio.Event] = {}  # seating id -> set at its next change here
        self._task: asyncio.Task[None] | None = None
        self._launching: dict[str, asyncio.Task[Seating]] = {}
        self._quick: dict[tuple[str, int], asyncio.Future[QuickCheck]] = {}  # checked once each
        self._asking: list[tuple[Player, QuickCheck, asyncio.Future[Seating]]] = []  # quick matches
        self._asker: asyncio.Task[None] | None = None
        self._marking: dict[str, Seating] = {}  # started here, their rows not yet written so
        self._marker: asyncio.Task[None] | None = None

    # -- who waits for a change --------------------------------------------------------------------

    def _changed_soon(self, sid: str) -> None:
        """A seating changed (said from a worker thread): wake those who wait for it here."""
        self.loop.call_soon_threadsafe(self._wake, sid)

    def _wake(self, sid: str) -> None:
        event = self._waiters.pop(sid, None)
        if event is not None:
            event.set()

    async def wait_change(self, sid: str, version: int | None, wait: float) -> Seating:
        """The seating once its version is not `version` (a long poll: the page and the bench ask
        with the version they have), or as it is after `wait` seconds. A change made here wakes the
        waiters at once; one made by another process is seen at the next look, every second."""
        deadline = time.monotonic() + wait
        while True:
            seating = await self.get(sid)
            left = deadline - time.monotonic()
            if seating.version != version or seating.status not in ("waiting", "starting") or left <= 0:
                return seating
            event = self._waiters.setdefault(sid, asyncio.Event())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), min(1.0, left))

    # -- running ----------------------------------------------------------------------------------

    def start(self) -> None:
        self._task = asyncio.create_task(self.run())

    async def close(self) -> None:
        tasks = [t for t in (self._task, self._asker, *self._launching.values()) if t is not None]
        if self._marking:  # the rows of the tables just started say so before the server goes
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self._write_started, list(self._marking))
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task

    async def run(self) -> None:
        """Start the seatings whose wait is over (and those whose start was interrupted), cancel
        the ones nobody filled in EXPIRES, forget the long finished; every FILL_EVERY seconds."""
        swept = 0.0
        while True:
            try:
                await self.fill_due()
                if time.monotonic() - swept > 600:
                    swept = time.monotonic()
                    gone = await asyncio.to_thread(self.store.forget_old, time.time() - KEPT)
                    if gone:
                        log.info("forgot %d seatings started or cancelled long ago", gone)
            except Exception:  # the next look may well succeed; nothing is lost meanwhile
                log.exception("starting the seatings that are due failed; trying again")
            await asyncio.sleep(FILL_EVERY)

    async def fill_due(self) -> None:
        now = time.time()
        c = seatings_table.c
        found = await asyncio.to_thread(
            self.store.where,
            (c.status == "starting")
            | ((c.status == "waiting") & c.bots_after.is_not(None) & (c.created_at + c.bots_after <= now))
            | ((c.status == "waiting") & (c.created_at < now - EXPIRES)),
        )
        for seating in found:
            await self.settle(seating)

    async def settle(self, seating: Seating) -> Seating:
        """The seating as it is now: a due one started with bots, one waiting past EXPIRES cancelled,
        one whose start was interrupted started (so any read of it moves it on)."""
        now = time.time()
        if seating.status == "starting":
            started = self._marking.get(seating.id)  # its table is made; its row not yet written
            return started if started is not None else await self._launch(seating)
        if seating.status != "waiting":
            return seating
        if seating.due(now) or now - seating.created_at > EXPIRES:
            seating = await self._change(seating.id, lambda s: self._fill_or_expire(s, time.time()))
            if seating.status == "starting":
                return await self._launch(seating)
        return seating

    def _fill_or_expire(self, s: Seating, now: float) -> Seating:
        if s.status != "waiting":
            return s
        if s.due(now):
            return self._claim_start(s)
        if now - s.created_at > EXPIRES:
            return self.store.swap(s, status="cancelled", problem="nobody came to fill it")
        return s

    # -- changing one seating ---------------------------------------------------------------------

    async def _change(self, sid: str, decide: Callable[[Seating], Seating]) -> Seating:
        """Read the seating, let `decide` change it (a swap) or refuse, again if another process came
        first; then start it if it is to start."""
        async with self.lock:
            changed = await asyncio.to_thread(self._retrying, sid, decide)
        return changed

    def _retrying(self, sid: str, decide: Callable[[Seating], Seating]) -> Seating:
        for _ in range(20):
            try:
                with self.store.transaction():
                    seating = self.store.load(sid)
                    if seating is None:
                        raise Refused(404, f"no open table {sid[:40]!r}")
                    return decide(seating)
            except Lost:
                continue
        raise Refused(503, "the open table is changing too fast; try again")

    def _sit(self, s: Seating, pid: str) -> Seating:
        """The player sits down; the seating starts if that filled it (one write: the start is claimed
        with the seat taken)."""
        seats = (*s.seats, pid)
        if len(seats) < s.players:
            return self.store.swap(s, seats=seats)
        # `replace` keeps the version read: the claim's swap is still against the row as read.
        return self._claim_start(replace(s, seats=seats))

    def _claim_start(self, s: Seating) -> Seating:
        """Take the step from waiting to starting: the seated players still here (a player who
        deleted themselves is no longer seated), the table's seats in a random order (who plays first
        is luck, not who came first), the bots at the free seats when the wait is over, and the
        table's id, chosen now so that the seat keys follow from it. Not full and not due: it waits."""
        present = self.store.present(s.seats)
        seats = tuple(p for p in s.seats if p in present)
        if seats != s.seats:
            if not seats:
                return self.store.swap(s, seats=seats, status="cancelled", problem="everyone left")
            s = self.store.swap(s, seats=seats)
        if len(seats) < s.players and not s.due(time.time()):
            return s
        order: list[str | None] = [*seats, *([None] * (s.players - len(seats)))]
        random.SystemRandom().shuffle(order)
        return self.store.swap(s, status="starting", table_id=new_table_id(), table_seats=tuple(order))

    async def _launch(self, seating: Seating) -> Seating:
        """Make the table of a seating that is starting (once per process at a time)."""
        running = self._launching.get(seating.id)
        if running is None:
            running = self._launching[seating.id] = asyncio.create_task(self._make_table(seating))
            running.add_done_callback(lambda _t: self._launching.pop(seating.id, None))
        return await asyncio.shield(running)

    async def _make_table(self, s: Seating) -> Seating:
        assert s.table_id is not None and s.table_seats is not None
        tid = s.table_id
        manager = self.manager
        exists = tid in manager.tables or await asyncio.to_thread(manager.storage.load_table, tid) is not None
        if not exists:
            pids = [p for p in s.table_seats if p]
            people = await asyncio.to_thread(self.players.many, pids)
            if len(people) < len(pids):
                log.warning("seating %s: players %s not found; the seats are named by number", s.id, pids)
            seats: list[dict[str, Any]] = []
            hashes: list[str | None] = []
            for pid in s.table_seats:
                if pid is None:
                    seats.append({"kind": "bot", "spec": s.bot})
                    hashes.append(None)
                else:
                    # A player deleted since they sat down is named by their seat's number (P1): two
                    # such would otherwise share one name, which a table refuses.
                    who = people.get(pid)
                    name = who.name if who is not None and not who.deleted else None
                    seats.append({"kind": "human", "name": name, "player": pid})
                    hashes.append(hash_token(self.players.seat_key(pid, tid)))
            settings: dict[str, Any] = {"clock": s.clock, "seating": s.id}
            if not s.public:
                settings["private"] = True
            try:
                await manager.create(
                    s.game, s.players, s.options, seats, "", settings, token_hashes=hashes, table_id=tid
                )
            except TableBusy:
                log.warning("seating %s: making its table took too long; trying again", s.id)
                return s  # still starting: the next look (run, or a read) tries again
            except (BodogeError, ValueError) as exc:  # e.g. its bot is gone from this server
                log.warning("seating %s: its table cannot be made: %s", s.id, exc)
                problem = str(exc)[:400]
                return await self._change(s.id, lambda later: self._failed(later, problem))
            except Exception:
                # Another process may have made it meanwhile (same id): if so it is started.
                if not await asyncio.to_thread(manager.storage.load_table, tid):
                    raise
        log.info("seating %s: started as table %s", s.id, tid)
        if exists:  # made by another process (or before a restart): say so now
            return await asyncio.to_thread(self._retrying, s.id, self._started)
        # The table exists: the seating has started. Its row says so a moment later, with the others
        # started meanwhile, in one write (`_mark_started`); until then this process answers from
        # memory, and those waiting for it here are told at once.
        started = replace(s, status="started")
        self._marking[s.id] = started
        if self._marker is None or self._marker.done():
            self._marker = asyncio.create_task(self._mark_started())
        self._wake(s.id)
        return started

    async def _mark_started(self) -> None:
        while self._marking:
            ids = list(self._marking)
            try:
                await asyncio.to_thread(self._write_started, ids)
            except Exception:  # tried again: the seatings stay started in memory meanwhile
                log.exception("seatings: writing %d started ones failed; trying again", len(ids))
                await asyncio.sleep(FILL_EVERY)
                continue
            for sid in ids:
                self._marking.pop(sid, None)

    def _write_started(self, ids: list[str]) -> None:
        self.store.mark_started(ids)

    def _started(self, s: Seating) -> Seating:
        return self.store.swap(s, status="started") if s.status == "starting" else s

    def _failed(self, s: Seating, problem: str) -> Seating:
        return self.store.swap(s, status="cancelled", problem=problem) if s.status == "starting" else s

    async def _settled(self, seating: Seating) -> Seating:
        return await self.settle(seating) if seating.status == "starting" else seating

    # -- what players do --------------------------------------------------------------------------

    async def create(self, player: Player, body: SeatingIn) -> Seating:
        try:
            game, n, options, bot = await self.manager.off_loop(
                check_table, body.game, body.players, body.options, body.bot
            )
        except TableBusy as exc:
            raise Refused(503, f"checking the table: {exc}") from None
        except (BodogeError, ValueError) as exc:
            raise Refused(400, str(exc)) from None
        clock = None if body.clock is None else _clock(body.clock)
        seating = new_seating(player, game, n, options, clock, body.public, False, body.bots_after, bot)
        async with self.lock:
            return await asyncio.to_thread(self._in_transaction, self._insert, seating, player)

    def _in_transaction(self, fn: Callable[..., T], *args: Any) -> T:
        with self.store.transaction():
            return fn(*args)

    def _insert(self, seating: Seating, player: Player) -> Seating:
        """A new seating, its creator seated (in the lock's turn: the bounds are counted first)."""
        self._room_for(player)
        if self.store.count_waiting() >= MAX_OPEN:
            raise Refused(503, f"the server has {MAX_OPEN} open tables waiting already; try later")
        self.store.insert(seating)
        return seating

    def _room_for(self, player: Player) -> None:
        if len(self.store.of_player(player.id)) >= MAX_WAITING:
            raise Refused(
                409, f"you wait at {MAX_WAITING} open tables already: leave one before taking another"
            )

    async def join(self, player: Player, sid: str) -> Seating:
        def decide(s: Seating) -> Seating:
            if player.id in s.seats:
                return s  # seated already: joining again changes nothing
            if s.status != "waiting":
                raise Refused(409, f"this open table is {s.status} already: it takes nobody now")
            if s.free <= 0:
                raise Refused(409, "every seat of this open table is taken")
            self._room_for(player)
            return self._sit(s, player.id)

        return await self._settled(await self._change(sid, decide))

    async def leave(self, player: Player, sid: str) -> Seating:
        def decide(s: Seating) -> Seating:
            if player.id not in s.seats:
                raise Refused(409, "you are not seated at this open table")
            if s.status != "waiting":
                raise Refused(409, f"this open table is {s.status}: its seats are the table's now")
            seats = tuple(p for p in s.seats if p != player.id)
            if not seats:
                return self.store.swap(s, seats=seats, status="cancelled", problem="everyone left")
            # The creator who leaves hands the table on to who sat down first after them.
            creator = s.creator if s.creator != player.id else seats[0]
            return self.store.swap(s, seats=seats, creator=creator)

        return await self._change(sid, decide)

    async def cancel(self, player: Player, sid: str) -> Seating:
        def decide(s: Seating) -> Seating:
            if s.creator != player.id:
                raise Refused(403, "only the open table's creator may cancel it")
            if s.status != "waiting":
                raise Refused(409, f"this open table is {s.status}: it cannot be cancelled now")
            return self.store.swap(s, status="cancelled", problem="cancelled by its creator")

        return await self._change(sid, decide)

    async def remove(self, player: Player, sid: str, body: RemoveIn) -> Seating:
        """The creator removes a seat whose person never came: from the waiting list, or (started)
        hands the table's seat to a stand-in bot."""
        seating = await asyncio.to_thread(self.store.load, sid)
        if seating is None:
            raise Refused(404, f"no open table {sid[:40]!r}")
        if seating.creator != player.id:
            raise Refused(403, "only the open table's creator may remove a seat")
        if seating.status in ("starting", "started"):
            await self._hand_to_bot(await self._settled(seating), body)
            return await asyncio.to_thread(self.store.load, sid) or seating

        def decide(s: Seating) -> Seating:
            if s.status != "waiting":
                raise Refused(409, f"this open table is {s.status} now; look at it again")
            if not 0 <= body.seat < len(s.seats):
                raise Refused(400, f"seat is a place in the list of who sat down: 0 to {len(s.seats) - 1}")
            pid = s.seats[body.seat]
            if body.player is not None and body.player != pid:
                raise Refused(409, "that seat's person changed since you looked; look again")
            if pid == player.id:
                raise Refused(400, "that is your own seat: leave, or cancel the open table")
            return self.store.swap(s, seats=tuple(p for p in s.seats if p != pid))

        return await self._change(sid, decide)

    async def _hand_to_bot(self, s: Seating, body: RemoveIn) -> None:
        if s.status != "started" or s.table_id is None or s.table_seats is None:
            raise Refused(503, "the table is being made; try again in a moment")
        if not 0 <= body.seat < len(s.table_seats):
            raise Refused(400, f"seat is the table's seat number: 0 to {len(s.table_seats) - 1}")
        pid = s.table_seats[body.seat]
        if pid is None:
            raise Refused(400, "a bot plays that seat already")
        if pid == s.creator:
            raise Refused(400, "that is your own seat")
        if body.player is not None and body.player != pid:
            raise Refused(409, "that seat's person is not who you named")
        try:
            runtime = await self.manager.get(s.table_id)
        except TableBusy as exc:
            raise Refused(503, str(exc)) from None
        if runtime is None or runtime.row.status != "playing":
            raise Refused(409, "the table is no longer in play")
        if not runtime.owned:
            raise Refused(409, "the table is played at another process of this server; try again soon")
        presence = runtime.presence
        if presence.came(body.seat):
            raise Refused(409, "that person came to the table: their seat is theirs")
        presence.hand_over(body.seat)

    async def quick(self, player: Player, body: QuickIn) -> Seating:
        if body.game not in game_names():
            raise Refused(400, f"no game {body.game[:40]!r}; the games are {', '.join(game_names())}")
        key = (body.game, body.players or game_class(body.game).default_players)
        checking = self._quick.get(key)
        if checking is None:  # checked once per game and count (asked together: checked once)
            checking = self._quick[key] = asyncio.ensure_future(
                self.manager.off_loop(check_table, key[0], key[1], {}, None)
            )
        try:
            checked = await asyncio.shield(checking)
        except TableBusy as exc:
            self._quick.pop(key, None)
            raise Refused(503, f"checking the table: {exc}") from None
        except (BodogeError, ValueError) as exc:
            self._quick.pop(key, None)
            raise Refused(400, str(exc)) from None
        asked: asyncio.Future[Seating] = self.loop.create_future()
        self._asking.append((player, checked, asked))
        if self._asker is None or self._asker.done():
            self._asker = asyncio.create_task(self._answer_quick())
        return await self._settled(await asked)

    async def _answer_quick(self) -> None:
        """Seat everyone waiting for a quick match, a batch at a time: the batch is looked at and
        written in one transaction, one commit (in the lock's turn), then each is answered."""
        while self._asking:
            batch, self._asking = self._asking[:QUICK_BATCH], self._asking[QUICK_BATCH:]
            async with self.lock:
                try:
                    found = await asyncio.to_thread(self._quick_batch, [(p, c) for p, c, _f in batch])
                except Exception as exc:  # the batch's transaction failed: each is told
                    log.exception("quick match: a batch of %d failed", len(batch))
                    found = [exc] * len(batch)
            for (_player, _checked, asked), answer in zip(batch, found, strict=True):
                if asked.done():
                    continue
                if isinstance(answer, BaseException):
                    asked.set_exception(answer)
                else:
                    asked.set_result(answer)

    def _quick_batch(self, batch: list[tuple[Player, QuickCheck]]) -> list[Seating | BaseException]:
        for _ in range(20):
            try:
                with self.store.transaction():
                    found: list[Seating | BaseException] = []
                    for player, checked in batch:
                        try:
                            found.append(self._quick_one(player, *checked))
                        except Refused as exc:
                            found.append(exc)
                    return found
            except Lost:  # another process changed a seating this batch wrote: look again
                continue
        return [Refused(503, "the quick-match tables are changing too fast; try again")] * len(batch)

    def _quick_one(self, player: Player, game: str, n: int, options: dict[str, Any], bot: str) -> Seating:
        """The player's own quick seating of this game and count, or the oldest with a free seat
        (taken), or a new one: looked at and made in one turn (else everyone arriving together would
        look, find none, and each make their own)."""
        c = seatings_table.c
        mine = self.store.of_player(player.id)
        for seating in mine:
            if seating.quick and seating.game == game and seating.players == n:
                return seating
        if len(mine) >= MAX_WAITING:
            raise Refused(
                409, f"you wait at {MAX_WAITING} open tables already: leave one before taking another"
            )
        candidates = self.store.where(
            c.status == "waiting",
            c.quick.is_(True),
            c.public.is_(True),
            c.game == game,
            c.players == n,
            limit=QUICK_LOOKS,
        )
        for seating in candidates:
            if seating.free > 0:
                return self._sit(seating, player.id)
        fresh = new_seating(player, game, n, options, dict(QUICK_CLOCK), True, True, QUICK_BOTS_AFTER, bot)
        return self._insert(fresh, player)

    # -- what is shown ----------------------------------------------------------------------------

    def shown(self, s: Seating, names: dict[str, Player], viewer: Player | None) -> dict[str, Any]:
        """What anyone may know of a seating; a seated viewer also gets their own seat's link."""

        def who(pid: str) -> dict[str, Any]:
            p = names.get(pid)
            return {"player": pid, "name": p.shown() if p else FORMER["en"]}

        now = time.time()
        at = s.bots_at()
        cls = game_class(s.game)
        out: dict[str, Any] = {
            "id": s.id,
            "game": s.game,
            "title": dict(cls.title),
            "players": s.players,
            "options": s.options,
            "options_words": option_words(s.game, s.players, s.options),
            "clock": s.clock,
            "public": s.public,
            "quick": s.quick,
            "bots_after": s.bots_after,
            "bot": s.bot,
            "bots_in": None if at is None or s.status != "waiting" else max(0.0, round(at - now, 1)),
            "creator": who(s.creator),
            "seats": [who(p) for p in s.seats],
            "free": s.free if s.status == "waiting" else 0,
            "status": s.status,
            "version": s.version,  # changes with every change: ask ?version=V&wait=S to wait for one
            "table_id": s.table_id if s.status == "started" else None,
            "problem": s.problem,
            "created_at": s.created_at,
            "url": f"/#open={s.id}",
        }
        if s.status == "started" and s.table_seats is not None:
            out["table_seats"] = [None if p is None else who(p) for p in s.table_seats]
            out["spectator_url"] = f"/t/{s.table_id}"
        if viewer is not None:
            you: dict[str, Any] = {"seated": viewer.id in s.seats, "creator": viewer.id == s.creator}
            if (
                s.status == "started"
                and s.table_seats is not None
                and s.table_id is not None
                and viewer.id in s.table_seats
            ):
                seat = s.table_seats.index(viewer.id)
                key = self.players.seat_key(viewer.id, s.table_id)
                you.update(seat=seat, join_url=f"/t/{s.table_id}#token={key}")
            out["you"] = you
        return out

    async def describe(self, seatings: list[Seating], viewer: Player | None) -> list[dict[str, Any]]:
        pids = sorted({p for s in seatings for p in (s.creator, *s.seats, *(s.table_seats or ())) if p})
        names = await asyncio.to_thread(self.players.many, pids) if pids else {}
        return [self.shown(s, names, viewer) for s in seatings]

    async def get(self, sid: str) -> Seating:
        if len(sid) > 16:
            raise Refused(404, f"no open table {sid[:40]!r}")
        seating = await asyncio.to_thread(self.store.load, sid)
        if seating is None:
            raise Refused(404, f"no open table {sid[:40]!r}")
        return await self.settle(seating)

    async def listed(self, game: str | None, limit: int) -> list[Seating]:
        c = seatings_table.c
        conditions = [c.status == "waiting", c.public.is_(True)]
        if game is not None:
            conditions.append(c.game == game)
        return await asyncio.to_thread(lambda: self.store.where(*conditions, limit=limit))

    async def mine(self, player: Player) -> list[Seating]:
        """The player's seatings waiting, and those started in the last ten minutes (so that a page
        opened again finds its table)."""
        found = await asyncio.to_thread(self.store.of_player, player.id, ("waiting", "starting", "started"))
        recent = time.time() - 600
        return [s for s in found if s.status != "started" or s.updated_at > recent]


def _clock(clock: dict[str, Any]) -> dict[str, int]:
    """The clock as a table's creation takes it (bodies.ClockIn); 422 with its errors."""
    try:
        return ClockIn.model_validate(clock).model_dump()
    except ValidationError as exc:
        errors = exc.errors(include_url=False, include_context=False)
        for error in errors:
            error["loc"] = ("clock", *error.get("loc", ()))
        raise RequestValidationError(errors) from None
