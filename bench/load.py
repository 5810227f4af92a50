"""Load test of `bodoge serve`: N tables with bots and M websocket clients at once, on loopback;
meanwhile `GET /api/health` probed all the time, and the heaviest table creations the games allow.

    python bench/load.py --tables 100 --clients 200 --duration 30
    python bench/load.py --tables 400 --clients 800 --think 1 --bot-delay 0.5   # a paced load
    python bench/load.py --servers 2 --db postgresql://bodoge:bodoge@127.0.0.1/bodoge  # 2 processes
    python bench/load.py --ceiling                # the tables and actions/s at which p99 passes 100 ms

By default every move is made as soon as it can be (a closed loop): the server then runs as many
actions as it can, and the latencies are those of a saturated server at that rate. `--think S` and
`--bot-delay S` pace the load as people and the server's bots at a table do (a client waits a random
0–2S before each action; the server waits S before each bot move), so that the latency is measured
at a chosen rate below saturation. `--ramp S` spreads the clients' arrival over S seconds (client i
sets out i·S/T seconds after the start; its spectators join its table as soon as it is made) instead
of making every table and opening every websocket at once.

Starts the server (what `bodoge serve` runs) on a free 127.0.0.1 port with a fresh SQLite file and
its per-address limits raised, as every client here comes from the one address 127.0.0.1 (or uses
--url; give --db too so the log can be checked). Each table has seat 0 played by a client here
(random legal actions, sent as soon as its view asks) and bots at the other seats; the clients beyond
one per table watch as spectators. A table that ends is replaced by a new one until the time is up.

The clients run in --client-processes processes (4 by default, each its own event loop): table i,
its player and its spectators in process i mod P. A latency ends when the client's event loop reads
the view, so a client process that is itself busy adds its own wait to the server's: with every
client in one process, the start (100 tables made and 200 websockets opened at once, all from that
process) left views unread for up to 125 ms after the server had sent them (timed on both sides),
and that wait, not the server's, was most of the whole run's slowest 1%.

`--db postgresql://…` (without --url) serves from a fresh schema made in that database for the run
and dropped at the end (also after an error or Ctrl-C), so nothing of an earlier run is in it.
`--servers N` (2 to 8; it needs such a PostgreSQL --db, and no --url) starts N `bodoge serve`
processes on N free loopback ports, all on that one schema, with the same raised limits and
--bot-delay, and spreads the load over them: table i is made through server i mod N and its player's
websocket joins server (i + 1) mod N, so the player is never on the process that owns the table and
every one of its actions is forwarded between processes; spectator j watches client j mod T's first
table and joins server (j + j // N) mod N (round-robin, shifted by one each round, so that spectators
sit on a table's owner and on the other processes alike). The health probe and the heavy creates go
to server 0, and the log check reads the shared schema. Server 0 starts first and alone (it makes
the schema's tables: processes started together on an empty schema race to make them), then the
others together. The processes are stopped at the end, every time (terminated, killed if one has
not stopped 30 s later).

`--ceiling` searches for the ceiling the server runs at (one process, or --servers N): it steps the
tables up (50, 100, 150, 200, 300, 400, 600, 800, …, up to --max-tables, 800 by default), with 2
clients per table, each step --duration seconds (20 by default) --repeat times (2), at the paced load
(--think 1 and --bot-delay 0.5 unless given), without the heavy creates, and stops once the median
p99 of a step's runs is over 100 ms. Its figures are the steady load's: they count from --warmup
seconds (a quarter of --duration) after every table is made and every client has set out, as the
start (every table made and every client connecting at once) is a burst that no steady load has; in
a short run it alone makes the p99 (50 tables, 5 s: 107 ms over the whole run, 25 ms over 20 s). It
prints tables, clients, actions/s, p50 and p99 (the median of the runs, and their range), the health
probe's p99 and the lost actions of each step, then "ceiling: about T tables, A actions/s (p99
crosses 100 ms between T and T' tables)", or "not reached up to T tables". Every run starts fresh
servers on a fresh database (a new SQLite file, or a new schema; a SQLite --db given is reused):
the runs are then independent (no tables, cached states or finished games left by an earlier run,
no database grown by it), so the range of a step's runs is the run-to-run spread of the figures, not
a drift; a start costs a few seconds against 20 of load. Ctrl-C prints the runs done.

Beside the load, a separate process (its own event loop and connections, so that what it measures is
the server, not this busy client) does two things:

- it sends `GET /api/health` every --health-interval seconds (20 ms) from before the load starts until
  everything is done, one request at a time on one connection: when the server stalls, the probe
  waits, and its latency shows the stall;
- after --heavy-after seconds of load (a quarter of it), unless --no-heavy, it makes one table at a
  time with the largest options each game allows (oversized but allowed): it raises each size option
  in turn (a deck's copies up to its deck-size bound, hand sizes, Hangover's `hangover_trick` and
  snack deck, Troika's `tile_counts`, Tottarot's `turns_per_round`) to the bound the game declares
  (`Option.hi`, or the number in an option's `allowed` text), and where the server refuses (400) it
  searches down (the refusal's own bound, else halving) until the largest accepted value is found.
  Every seat is human, so nobody plays these tables afterwards. The heaviest accepted body is then
  made --heavy-repeat more times and those creations timed. Last, for each game, one deliberately
  over-sized create (copies 80000, hangover_trick 300000, …) that must be refused at once.

Then it prints:

- which servers ran (their ports) and on what database,
- actions per second (every action logged: the clients' and the bots'),
- p50/p99 action-to-broadcast latency: from sending an action to receiving the view it produced
  (and, with --warmup S, both again counted from S seconds after every client set out), and when the
  slowest 1% of the client actions were sent, by second of the run (where the whole run's p99 comes
  from: the start's burst or the load itself),
- a check that every action a client sent was logged exactly once, at the move it was sent for (or
  refused with an error, and then not logged), that each table's log has no gap, and `lost actions`:
  actions seen taken but not logged, or never answered (0 is the only good answer),
- `GET /api/health` latency (p50/p99/max): idle before the load, under load while none of the heavy
  creates runs, while a heaviest allowed create runs, while the search's other creates run, and while
  an over-sized create runs (a probe counts for a create when their times overlap),
- each game's heaviest accepted body, its create latencies and the health latency during them,
- each over-sized create: its status and how fast it was refused,
- a server that exited before it was stopped, and error lines in the servers' logs.

It exits 1 on a log problem, a lost action, a client error, a server that exited by itself, a heavy
create that failed (not 201 or 400), or an over-sized create that was not refused (in --ceiling: on
any run's log problem, lost action, client error or exited server). Every loop is bounded in time;
only loopback addresses are used. Against --url, the heavy tables it makes stay there (idle, all
seats human).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import copy
import json
import multiprocessing
import os
import random
import re
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect

from bodoge.server.storage import Storage, normalize_url


@dataclass
class TableRun:
    id: str
    token: str
    sent: dict[int, int] = field(default_factory=dict)  # seq -> action, every action sent
    acked: dict[int, int] = field(default_factory=dict)  # seq -> action, seen taken (a view of seq+1)
    refused: dict[int, int] = field(default_factory=dict)  # seq -> action, answered with an error
    final_seq: int = 0
    over: bool = False
    player: int = 0  # the client that made and plays it (its index: tables are routed by it)
    warm_seq: int = 0  # its last move seen during the warm-up (--warmup)


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    sent_at: list[float] = field(default_factory=list)  # when each of those actions was sent (perf_counter)
    # those of actions sent after the warm-up: picked out once the client processes' are merged
    steady: list[float] = field(default_factory=list)
    begun: float = 0.0  # when the clients set out (perf_counter)
    warm_at: float = float("inf")  # when the warm-up (--warmup) ends, on time.perf_counter
    warm_mono: float = float("inf")  # the same, on time.monotonic
    views: int = 0
    errors: list[str] = field(default_factory=list)
    tables: list[TableRun] = field(default_factory=list)


def free_ports(n: int) -> list[int]:
    """n different free loopback ports: the sockets are held open together, so none is given twice."""
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(socket.socket()) for _ in range(n)]
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [int(s.getsockname()[1]) for s in sockets]


# Every client of this bench comes from 127.0.0.1: the server's per-address limits are raised.
RAISED_LIMITS = [
    "--create-rate",
    "100000/minute",
    "--open-tables",
    "100000",
    "--ws-per-address",
    "100000",
    "--message-rate",
    "100000/second",
]


async def create_table(
    http: httpx.AsyncClient, game: str, players: int, bots: str, options: dict[str, Any]
) -> TableRun:
    seats = [{"kind": "human", "name": "bench"}] + [{"kind": "bot", "spec": bots}] * (players - 1)
    response = await http.post(
        "/api/tables", json={"game": game, "players": players, "options": options, "seats": seats}
    )
    response.raise_for_status()
    created = response.json()
    return TableRun(created["id"], created["seats"][0]["token"])


# -- the observer: health probes and heavy creates, in a process of its own ------------------------

FALLBACK = 1000  # the first value tried for a size whose game declares no bound (an older engine)
OVERSIZED = 80_000  # copies of each card type / tile in the deliberately over-sized creates
# Bounds written in an option's `allowed` text: a deck's copies per type, its cards in all, a list's length.
COPIES = r"copies'? \(?(?:an integer )?(?:from )?[01] to (\d+)"
CARDS_IN_ALL = r"(?:to|at most) (\d+) cards in all"
SNACK_CODES = r"(?:0 to|at most) (\d+) snack codes"
HINT = r"(?:from -?\d+ to|at most|up to|≤)\s*(\d+)"  # the bound a refusal of an integer names


@dataclass
class Knob:
    """One size option of a heavy create, raised as far as the server accepts it."""

    option: str  # the option the server names when it refuses this knob's value
    label: str  # what its value counts
    start: int  # a value known to be allowed (the default's)
    ceiling: int  # the first value tried: the game's declared bound, else FALLBACK
    declared: bool  # whether `ceiling` is a bound the game declares
    apply: Callable[[dict[str, Any], int], None]
    integer: bool = True  # a plain integer option: its refusal names the allowed range


@dataclass
class HeavyPlan:
    game: str
    players: int
    base: dict[str, Any]  # options set before the knobs
    knobs: list[Knob]
    oversized: dict[str, Any]  # options far past any sane bound
    oversized_label: str


def _spec(game: str, name: str) -> Any:
    from bodoge.core.registry import game_class

    return {spec.name: spec for spec in game_class(game).option_specs}[name]


def _text_bound(spec: Any, pattern: str) -> int | None:
    found = [int(n) for n in re.findall(pattern, spec.allowed)]
    return min(found) if found else None


def _int_knob(game: str, name: str) -> Knob:
    spec = _spec(game, name)
    hi = getattr(spec, "hi", None)
    if not isinstance(hi, int):
        hi = _text_bound(spec, r"from -?\d+ to (\d+)")
    return Knob(
        name,
        name,
        spec.default,
        FALLBACK if hi is None else hi,
        hi is not None,
        lambda o, k: o.update({name: k}),
    )


def _spread(
    deck: list[dict[str, Any]], total: int, fixed: Callable[[dict[str, Any]], bool], cap: int | None
) -> Any:
    """`deck` with `total` cards: fixed types keep their copies, the others share the rest evenly."""
    out = copy.deepcopy(deck)
    free = [t for t in out if not fixed(t)]
    each, extra = divmod(total - sum(t["copies"] for t in out if fixed(t)), len(free))
    for i, t in enumerate(free):
        t["copies"] = max(1, each + (i < extra))
        if cap is not None:
            t["copies"] = min(t["copies"], cap)
    return out


def _deck_knob(game: str, name: str, fixed: Callable[[dict[str, Any]], bool]) -> Knob:
    """A deck (a list of card types with copies): its cards in all, up to its deck-size bound."""
    spec = _spec(game, name)
    deck = spec.to_json(spec.convert(spec.default))
    kept = sum(t["copies"] for t in deck if fixed(t))
    free = sum(1 for t in deck if not fixed(t))
    per_type = _text_bound(spec, COPIES)
    bounds = [b for b in (_text_bound(spec, CARDS_IN_ALL), per_type and per_type * free + kept) if b]
    return Knob(
        name,
        f"{name} cards",
        sum(t["copies"] for t in deck),
        min(bounds) if bounds else FALLBACK,
        bool(bounds),
        lambda o, k: o.update({name: _spread(deck, k, fixed, per_type)}),
        integer=False,
    )


def _list_knob(game: str, name: str, pattern: str) -> Knob:
    """A list option (Hangover's snack deck): its default repeated up to the length bound."""
    spec = _spec(game, name)
    items = list(spec.to_json(spec.convert(spec.default)))
    bound = _text_bound(spec, pattern)
    return Knob(
        name,
        f"{name} length",
        len(items),
        FALLBACK if bound is None else bound,
        bound is not None,
        lambda o, k: o.update({name: [items[i % len(items)] for i in range(k)]}),
        integer=False,
    )


def _tiles_knob() -> Knob:
    """Troika's tile set: every number 1–15 with as many copies as one number may have."""
    bound = _text_bound(_spec("troika", "tile_counts"), COPIES)
    return Knob(
        "tile_counts",
        "tile_counts copies of each number",
        3,
        FALLBACK if bound is None else bound,
        bound is not None,
        lambda o, k: o.update(tile_counts={str(n): k for n in range(1, 16)}),
        integer=False,
    )


def _players(game: str) -> int:
    from bodoge.core.registry import game_class

    players: int = game_class(game).max_players  # the most seats: the most hands and views
    return players


def _oversized_deck(game: str, fixed: Callable[[dict[str, Any]], bool]) -> list[dict[str, Any]]:
    spec = _spec(game, "deck")
    deck = spec.to_json(spec.convert(spec.default))
    return [t if fixed(t) else dict(t, copies=OVERSIZED) for t in deck]


def _trouble(t: dict[str, Any]) -> bool:
    return t.get("kind") == "trouble"  # Tokkuri allows one troublesome tokkuri at most


def heavy_plans() -> tuple[list[HeavyPlan], list[str]]:
    """For each game, the size options to raise (in order) and an over-sized body; notes on failures."""
    plans: list[HeavyPlan] = []
    notes: list[str] = []
    builders: dict[str, Callable[[], HeavyPlan]] = {
        "tokkuri": lambda: HeavyPlan(
            "tokkuri",
            _players("tokkuri"),
            {},
            [_deck_knob("tokkuri", "deck", _trouble), _int_knob("tokkuri", "hand_size")],
            {"deck": _oversized_deck("tokkuri", _trouble)},
            f"deck copies {OVERSIZED}",
        ),
        "hangover": lambda: HeavyPlan(
            "hangover",
            _players("hangover"),
            {"removed_numbers": []},  # every drink card in play: the largest hands
            [
                _list_knob("hangover", "snack_deck", SNACK_CODES),
                _int_knob("hangover", "hangover_trick"),
                _int_knob("hangover", "hand_size"),
                _int_knob("hangover", "snacks_per_player"),
            ],
            {"hangover_trick": 300_000},
            "hangover_trick 300000",
        ),
        "tottarot": lambda: HeavyPlan(
            "tottarot",
            _players("tottarot"),
            {"max_will": _int_knob("tottarot", "max_will").ceiling},  # lets turns_per_round be largest
            [_deck_knob("tottarot", "deck", lambda t: False), _int_knob("tottarot", "turns_per_round")],
            {"deck": _oversized_deck("tottarot", lambda t: False)},
            f"deck copies {OVERSIZED}",
        ),
        "troika": lambda: HeavyPlan(
            "troika",
            _players("troika"),
            {},
            [_tiles_knob()],
            {"tile_counts": {str(n): OVERSIZED for n in range(1, 16)}},
            f"tile_counts {OVERSIZED} of each",
        ),
    }
    for game, build in builders.items():
        try:
            plans.append(build())
        except Exception as exc:  # an engine in the middle of a change: measure the others
            notes.append(f"{game}: no heavy plan ({type(exc).__name__}: {exc})")
    return plans, notes


def describe(options: dict[str, Any]) -> str:
    """A create body's options, short: decks by their size, not their cards."""
    parts = []
    for name, value in options.items():
        if isinstance(value, list) and value and all(isinstance(t, dict) and "copies" in t for t in value):
            parts.append(f"{name} {len(value)} types/{sum(t['copies'] for t in value)} cards")
        elif isinstance(value, dict) and value and all(isinstance(v, int) for v in value.values()):
            parts.append(f"{name} {len(value)}×{max(value.values())} (={sum(value.values())})")
        elif isinstance(value, list) and value:
            parts.append(f"{name} {len(value)} items")
        else:
            parts.append(f"{name} {json.dumps(value)}")
    return ", ".join(parts) or "defaults"


class Observer:
    """Health probes and heavy creates, timed on this process's own clock (time.monotonic, which is
    the same clock in every process of the machine)."""

    def __init__(self, base_url: str, settings: dict[str, Any]) -> None:
        self.base_url = base_url
        self.settings = settings
        self.samples: list[tuple[float, float, int]] = []  # (start, end, status; 0 = no answer)
        self.creates: list[dict[str, Any]] = []
        self.notes: list[str] = []

    async def create(
        self,
        http: httpx.AsyncClient,
        plan: HeavyPlan,
        options: dict[str, Any],
        kind: str,
        timeout: float,
        step: str = "",
    ) -> dict[str, Any]:
        seats = [{"kind": "human", "name": f"heavy{i}"} for i in range(plan.players)]
        body = {"game": plan.game, "players": plan.players, "options": options, "seats": seats}
        start = time.monotonic()
        try:
            response = await http.post("/api/tables", json=body, timeout=timeout)
            status, detail = response.status_code, ""
            if status != 201:
                try:
                    detail = str(response.json().get("detail"))
                except ValueError:
                    detail = response.text[:500]
        except httpx.TimeoutException:
            status, detail = 0, f"no answer within {timeout:g} s"
        except httpx.HTTPError as exc:
            status, detail = 0, f"{type(exc).__name__}: {exc}"
        end = time.monotonic()
        record = {
            "game": plan.game,
            "players": plan.players,
            "kind": kind,  # search, heavy (the heaviest body, timed) or oversized
            "step": step,  # in a search: the value tried
            "describe": describe(options) if kind != "oversized" else plan.oversized_label,
            "status": status,
            "detail": detail,
            "start": start,
            "end": end,
        }
        self.creates.append(record)
        await asyncio.sleep(0.05)  # one create at a time, with a gap the probes can see
        return record

    async def search(self, http: httpx.AsyncClient, plan: HeavyPlan) -> dict[str, Any] | None:
        """The heaviest options the server accepts, one knob after another; None if a create failed."""
        timeout = self.settings["heavy_timeout"]
        options = copy.deepcopy(plan.base)
        for knob in plan.knobs:
            if not knob.declared:
                self.notes.append(
                    f"{plan.game}: {knob.label}: no bound declared; tried from {knob.ceiling} down"
                )
            # ok: the largest value known allowed; bad: the smallest refused. A refusal of an integer
            # option names its bound for these options ("an integer from 1 to 11 for 5 players"):
            # that is tried next, then one past it; else the gap is halved.
            ok, bad, value = knob.start, None, max(knob.start, knob.ceiling)
            hinted = False
            for _ in range(16):
                trial = copy.deepcopy(options)
                knob.apply(trial, value)
                record = await self.create(http, plan, trial, "search", timeout, f"{knob.label} {value}")
                if record["status"] == 201:
                    ok = value
                elif record["status"] == 400:
                    bad = value
                else:
                    return None
                if bad is None or bad - ok <= 1:
                    break
                value = ok + 1 if hinted and record["status"] == 201 else (ok + bad) // 2
                hinted = False
                if knob.integer and record["status"] == 400 and f"'{knob.option}'" in record["detail"]:
                    hints = [int(n) for n in re.findall(HINT, record["detail"]) if ok <= int(n) < bad]
                    if hints:
                        value, hinted = max(hints), True
                    if value == ok:  # the server's bound is the value already allowed
                        break
            knob.apply(options, ok)
        return options

    async def heavy(self, heavy_at: float) -> None:
        await asyncio.sleep(max(0.0, heavy_at - time.monotonic()))
        plans, notes = heavy_plans()
        self.notes += notes
        async with httpx.AsyncClient(base_url=self.base_url, timeout=60) as http:
            for plan in plans:
                options = await self.search(http, plan)
                if options is None:
                    continue
                for _ in range(self.settings["heavy_repeat"]):
                    await self.create(http, plan, options, "heavy", self.settings["heavy_timeout"])
            for plan in plans:
                await self.create(http, plan, plan.oversized, "oversized", self.settings["oversized_timeout"])

    async def run(self, conn: Connection) -> None:
        """Probe until told to stop and the heavy creates are done. Says "ready" after a second of
        idle probes; then ("go", heavy_at or None) starts the heavy creates, ("stop",) ends it."""
        interval = self.settings["health_interval"]
        heavy: asyncio.Task[None] | None = None
        stopping = False
        ready_at, said_ready = time.monotonic() + 1.0, False
        limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
        async with httpx.AsyncClient(base_url=self.base_url, timeout=60, limits=limits) as http:
            next_at = time.monotonic()
            while True:
                while conn.poll():
                    message = conn.recv()
                    if message[0] == "go" and message[1] is not None:
                        heavy = asyncio.create_task(self.heavy(message[1]))
                    elif message[0] == "stop":
                        stopping = True
                if stopping and (heavy is None or heavy.done()):
                    break
                start = time.monotonic()
                try:
                    status = (await http.get("/api/health")).status_code
                except httpx.HTTPError:
                    status = 0
                end = time.monotonic()
                self.samples.append((start, end, status))
                if not said_ready and end >= ready_at:
                    conn.send(("ready",))
                    said_ready = True
                next_at = max(next_at + interval, end)
                await asyncio.sleep(next_at - end)
        if heavy is not None and heavy.exception() is not None:
            exc = heavy.exception()
            self.notes.append(f"the heavy creates stopped: {type(exc).__name__}: {exc}")


def observer_main(conn: Connection, base_url: str, settings: dict[str, Any]) -> None:
    """The observer process: its results go back as plain data (tuples, dicts), once it is stopped.
    Ctrl-C is left to the main process, which stops this one."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    observer = Observer(base_url, settings)
    try:
        asyncio.run(observer.run(conn))
    except Exception as exc:
        observer.notes.append(f"the observer failed: {type(exc).__name__}: {exc}")
    conn.send(("done", {"samples": observer.samples, "creates": observer.creates, "notes": observer.notes}))


async def hello(ws_url: str, table_id: str, token: str | None) -> ClientConnection:
    ws = await connect(f"{ws_url}/ws/tables/{table_id}", max_size=2**24, open_timeout=60)
    await ws.send(json.dumps({"type": "hello", "token": token}))
    return ws


async def player(
    http: httpx.AsyncClient,
    ws_url: str,
    args: argparse.Namespace,
    stats: Stats,
    stop_at: float,
    rng: random.Random,
    index: int = 0,
    route: str = "",
    arrival: float = 0.0,
    first: asyncio.Future[str] | None = None,
) -> None:
    """Play seat 0 of a table; when its game ends, open a new table; until the time is up. Its tables
    are made through `http`'s server and played on `ws_url`'s (`route` says which, in its errors).
    It sets out `arrival` seconds after the start (--ramp), and tells `first` its first table."""
    await asyncio.sleep(arrival)
    while time.monotonic() < stop_at:
        run = await create_table(http, args.game, args.players, args.bots, args.options)
        run.player = index
        stats.tables.append(run)
        if first is not None and not first.done():
            first.set_result(run.id)
        ws = await hello(ws_url, run.id, run.token)
        pending: tuple[int, float] | None = None  # (seq, sent at) of the action awaiting its view
        try:
            while True:
                # Past the deadline, only wait (briefly) for the answer to an action already sent.
                if time.monotonic() >= stop_at and pending is None:
                    break
                wait = max(0.1, stop_at - time.monotonic()) if pending is None else 30.0
                try:
                    text = await asyncio.wait_for(ws.recv(), wait)
                except TimeoutError:
                    if pending is not None:
                        stats.errors.append(
                            f"table {run.id}{route}: no answer to the action at move {pending[0]}"
                        )
                    break
                message = orjson.loads(text)
                if message["type"] == "error":
                    if pending is not None and message.get("action") == run.sent.get(pending[0]):
                        run.refused[pending[0]] = run.sent[pending[0]]
                        pending = None
                    stats.errors.append(f"table {run.id}{route}: {message['code']}: {message['message']}")
                    continue
                if message["type"] != "view":
                    continue
                stats.views += 1
                seq, view = message["seq"], message["view"]
                run.final_seq = max(run.final_seq, seq)
                if time.perf_counter() < stats.warm_at:
                    run.warm_seq = run.final_seq
                if pending is not None and seq > pending[0]:
                    stats.latencies.append(time.perf_counter() - pending[1])
                    stats.sent_at.append(pending[1])
                    run.acked[pending[0]] = run.sent[pending[0]]
                    pending = None
                if view["is_terminal"]:
                    run.over = True
                    break
                legal = view.get("legal_actions")
                if legal and pending is None and time.monotonic() < stop_at:
                    if args.think > 0:  # a person's thinking time (paced load), up to twice the mean
                        await asyncio.sleep(rng.uniform(0, 2 * args.think))
                    action = rng.choice(legal)["id"]
                    run.sent[seq] = action
                    pending = (seq, time.perf_counter())
                    await ws.send(json.dumps({"type": "action", "action": action, "seq": seq}))
        finally:
            await ws.close()
        if not run.over:
            return


async def spectator(ws_url: str, table_id: str, stats: Stats, stop_at: float) -> None:
    ws = await hello(ws_url, table_id, None)
    try:
        while (left := stop_at - time.monotonic()) > 0:
            try:
                text = await asyncio.wait_for(ws.recv(), left)
            except TimeoutError:
                break
            message = orjson.loads(text)
            if message["type"] == "view":
                stats.views += 1
                if message["view"]["is_terminal"]:
                    break
    finally:
        await ws.close()


def check_log(storage: Storage, stats: Stats) -> tuple[int, list[str], int]:
    """Every table's log: no gap, and seat 0's actions exactly those the client sent and saw taken.
    Returns the actions logged, the problems, and the lost actions (seen taken but not logged as
    sent, or never answered)."""
    problems: list[str] = []
    total = 0
    lost = 0
    for run in stats.tables:
        logged = storage.load_actions(run.id)
        total += len(logged)
        if [a.seq for a in logged] != list(range(len(logged))):
            problems.append(f"table {run.id}: the log has gaps or repeats")
        mine = {a.seq: a.action for a in logged if a.seat == 0}
        if mine != run.acked:
            missing = {s: a for s, a in run.acked.items() if mine.get(s) != a}
            extra = {s: a for s, a in mine.items() if run.acked.get(s) != a}
            lost += len(missing)
            problems.append(f"table {run.id}: sent and taken {missing} not logged; logged {extra} not sent")
        unanswered = set(run.sent) - set(run.acked) - set(run.refused)
        if unanswered:
            lost += len(unanswered)
            problems.append(f"table {run.id}: actions at moves {sorted(unanswered)} were never answered")
        if set(run.refused) & set(mine):
            problems.append(f"table {run.id}: a refused action was logged")
    return total, problems, lost


def _port(url: str) -> str:
    return ":" + url.rpartition(":")[2]


def spectators(
    args: argparse.Namespace,
    ws_urls: list[str],
    firsts: dict[int, asyncio.Future[str]],
    stats: Stats,
    stop_at: float,
) -> list[asyncio.Task[None]]:
    """The clients beyond one per table: spectator j watches client j mod T's first table (whose owner
    is server j mod N) as soon as it is made, and joins server (j + j // N) mod N. Those of this
    process are those of its tables (`firsts`)."""
    n = len(ws_urls)

    async def watch(j: int) -> None:
        try:  # a client that failed before making its table has none to watch
            table_id = await asyncio.wait_for(
                asyncio.shield(firsts[j % args.tables]), stop_at - time.monotonic()
            )
        except TimeoutError:
            return
        await spectator(ws_urls[(j + j // n) % n], table_id, stats, stop_at)

    watchers = [j for j in range(max(0, args.clients - args.tables)) if j % args.tables in firsts]
    return [asyncio.create_task(watch(j)) for j in watchers]


@dataclass
class Step:
    """What the client processes and the main one share while the load runs (shared memory, each
    slot written by one process only): how many tables each client process has made, and when the
    warm-up ends (perf_counter, monotonic; inf until every table is made), which the main process
    sets once they add up to --tables."""

    made: Any  # multiprocessing RawArray("i"), one slot per client process
    warm: Any  # multiprocessing RawArray("d", 2)


async def keep_in_step(step: Step, part: int, stats: Stats, stop_at: float) -> None:
    """Tell the main process how many tables this one has made, and take the end of the warm-up from
    it (every 10 ms)."""
    while time.monotonic() < stop_at + 1:
        step.made[part] = len(stats.tables)
        if stats.warm_at == float("inf") and step.warm[0] != float("inf"):
            stats.warm_at, stats.warm_mono = step.warm[0], step.warm[1]
        await asyncio.sleep(0.01)


def client_main(conn: Connection, args: argparse.Namespace, urls: list[str], part: int, step: Step) -> None:
    """A client process: its share of the load (`run_load`) once told ("go", stop_at); its Stats go
    back once done. Ctrl-C is left to the main process, which stops this one."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    conn.send(("ready",))
    message = conn.recv()
    if message[0] != "go":
        return
    try:
        stats = asyncio.run(run_load(args, urls, part, step, message[1]))
    except Exception as exc:
        stats = Stats(errors=[f"client process {part} failed: {type(exc).__name__}: {exc}"])
    conn.send(("done", stats))


def merged(parts: list[Stats], begun: float, warm: tuple[float, float]) -> Stats:
    """The client processes' Stats as one: the run began at `begun`, its warm-up ended at `warm`."""
    stats = Stats(begun=begun, warm_at=warm[0], warm_mono=warm[1])
    for part in parts:
        stats.latencies += part.latencies
        stats.sent_at += part.sent_at
        stats.views += part.views
        stats.errors += part.errors
        stats.tables += part.tables
    stats.steady = [lat for lat, sent in zip(stats.latencies, stats.sent_at, strict=True) if sent >= warm[0]]
    return stats


async def run_load(args: argparse.Namespace, urls: list[str], part: int, step: Step, stop_at: float) -> Stats:
    """Client process `part`'s share of the load (tables i with i mod P = part, P the client
    processes, and the spectators of those tables), spread over the servers at `urls` (one or more
    processes on one database): table i is made through server i mod N and played on server
    (i + 1) mod N, so that with several processes its player is on another process than the table's
    owner; spectator j watches the first table of client j mod T and joins server (j + j // N) mod N:
    round-robin over the servers, shifted by one each round, so that spectators sit on the tables'
    owners and on the other processes alike (about 1 in N on the owner; exactly, over N × N of them,
    when N divides the tables)."""
    n, parts = len(urls), len(step.made)
    ws_urls = ["ws" + url[len("http") :] for url in urls]
    stats = Stats(begun=time.perf_counter())
    rngs = random.Random(args.seed)
    seeds = [rngs.random() for _ in range(args.tables)]  # the same for table i whatever process plays it
    mine = [i for i in range(args.tables) if i % parts == part]
    async with contextlib.AsyncExitStack() as stack:
        https = [await stack.enter_async_context(httpx.AsyncClient(base_url=url, timeout=60)) for url in urls]
        loop = asyncio.get_running_loop()
        firsts: dict[int, asyncio.Future[str]] = {i: loop.create_future() for i in mine}
        tasks = []
        for i in mine:
            made, played = i % n, (i + 1) % n
            route = f" (made on {_port(urls[made])}, played on {_port(urls[played])})" if n > 1 else ""
            tasks.append(
                asyncio.create_task(
                    player(
                        https[made],
                        ws_urls[played],
                        args,
                        stats,
                        stop_at,
                        random.Random(seeds[i]),
                        i,
                        route,
                        i * args.ramp / args.tables,
                        firsts[i],
                    )
                )
            )
        # Spectators join the first tables as they are made.
        tasks += spectators(args, ws_urls, firsts, stats, stop_at)
        in_step = asyncio.create_task(keep_in_step(step, part, stats, stop_at))
        try:
            gathered = asyncio.gather(*tasks, return_exceptions=True)
            gathered.add_done_callback(lambda f: None if f.cancelled() else f.exception())
            results = await asyncio.wait_for(gathered, args.duration + 120)
        finally:  # Ctrl-C: the clients are stopped, and what they raised then is not told as unhandled
            for task in [*tasks, in_step]:
                task.cancel()
            await asyncio.gather(*tasks, in_step, return_exceptions=True)
        for result in results:
            if isinstance(result, BaseException):
                stats.errors.append(f"client failed: {type(result).__name__}: {result}")
    return stats


def slowest_when(stats: Stats) -> str:
    """When the slowest 1% of the client actions were sent, by second of the run: where a whole run's
    p99 comes from (the start, when every table is made and every client connects at once, or the
    load itself)."""
    count = max(1, len(stats.latencies) // 100)
    slowest = sorted(zip(stats.latencies, stats.sent_at, strict=True), reverse=True)[:count]
    seconds = Counter(int(sent - stats.begun) for _, sent in slowest)
    spread = ", ".join(f"{s}–{s + 1} s: {k}" for s, k in sorted(seconds.items()))
    return f"the slowest 1% ({count} actions, {slowest[-1][0] * 1000:.1f} ms and more), by when they were sent: {spread}"


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


Window = tuple[float, float]


def _overlaps(start: float, end: float, windows: list[Window]) -> bool:
    return any(w_start < end and start < w_end for w_start, w_end in windows)


def _latencies(samples: list[tuple[float, float, int]]) -> str:
    ms = [(end - start) * 1000 for start, end, _ in samples]
    failed = sum(1 for *_, status in samples if status != 200)
    text = f"n {len(ms):>5}   p50 {percentile(ms, 0.5):7.1f} ms   p99 {percentile(ms, 0.99):7.1f} ms   max {max(ms):7.1f} ms"
    return text + (f"   ({failed} not answered 200)" if failed else "")


def report_health(observed: dict[str, Any], load: Window, interval: float) -> None:
    samples: list[tuple[float, float, int]] = observed["samples"]
    creates: list[dict[str, Any]] = observed["creates"]
    windows = {
        kind: [(c["start"], c["end"]) for c in creates if c["kind"] == kind]
        for kind in ("heavy", "search", "oversized")
    }
    every = [w for ws in windows.values() for w in ws]
    groups = [
        ("idle, before the load", [s for s in samples if s[1] <= load[0]]),
        (
            "under load, no heavy create running",
            [s for s in samples if load[0] <= s[0] < load[1] and not _overlaps(s[0], s[1], every)],
        ),
        (
            "while a heaviest allowed create runs",
            [s for s in samples if _overlaps(s[0], s[1], windows["heavy"])],
        ),
        (
            "while the search's other creates run",
            [s for s in samples if _overlaps(s[0], s[1], windows["search"])],
        ),
        (
            "while an over-sized create runs",
            [s for s in samples if _overlaps(s[0], s[1], windows["oversized"])],
        ),
    ]
    failed = sum(1 for *_, status in samples if status != 200)
    print(
        f"GET /api/health, every {interval * 1000:g} ms from a separate process: {len(samples)} probes"
        + (f", {failed} not answered 200" if failed else ", all answered 200")
    )
    for label, group in groups:
        if group:
            print(f"  {label:<40} {_latencies(group)}")


def _short(detail: str) -> str:
    """A refusal without the (long) value it repeats, nor what is allowed: its reason."""
    reason = detail.partition("; allowed:")[0]
    head, _, rest = reason.partition(": ")
    if rest[:1] in "[{(" and max(rest.rfind("]: "), rest.rfind("}: "), rest.rfind("): ")) > 0:
        rest = rest[0] + "…" + rest[max(rest.rfind("]: "), rest.rfind("}: "), rest.rfind("): ")) :]
    short = f"{head}: {rest}" if rest else head
    return short if len(short) <= 200 else short[:200] + "…"


def report_creates(observed: dict[str, Any], load_end: float) -> bool:
    """The heavy and over-sized creates, each with the health latency while it ran; True if one went
    wrong (a heavy create not answered 201 or 400, an over-sized one not refused)."""
    samples: list[tuple[float, float, int]] = observed["samples"]
    creates: list[dict[str, Any]] = observed["creates"]
    failed = False

    def ms(c: dict[str, Any]) -> float:
        return (c["end"] - c["start"]) * 1000

    def health_during(group: list[dict[str, Any]]) -> str:
        seen = [
            (e - s) * 1000 for s, e, _ in samples if _overlaps(s, e, [(c["start"], c["end"]) for c in group])
        ]
        return f"{len(seen)} probes, max {max(seen):.1f} ms" if seen else "no probe overlapped"

    heavy_kinds = ("search", "heavy")
    games = list(dict.fromkeys(c["game"] for c in creates if c["kind"] in heavy_kinds))
    if games:
        print("heavy creates: the largest options each game allows, found by trying (all seats human):")
    for game in games:
        search = [c for c in creates if c["game"] == game and c["kind"] == "search"]
        heavy = [c for c in creates if c["game"] == game and c["kind"] == "heavy"]
        print(f"  {game}, {(search or heavy)[0]['players']} players:")
        if heavy:
            statuses = "/".join(str(c["status"] or "no answer") for c in heavy)
            print(f"    accepted: {heavy[0]['describe']}")
            print(
                f"    create {statuses} in {' / '.join(f'{ms(c):.1f}' for c in heavy)} ms; "
                f"GET /api/health meanwhile: {health_during(heavy)}"
            )
        tries = ", ".join(f"{c['step']} → {c['status'] or 'no answer'} ({ms(c):.0f} ms)" for c in search)
        print(f"    search: {tries}; health meanwhile: {health_during(search)}")
        wrong = [c for c in search if c["status"] not in (201, 400)] + [
            c for c in heavy if c["status"] != 201
        ]
        if wrong:
            failed = True
            print(f"    FAILED: {wrong[0]['status'] or 'no answer'}: {_short(wrong[0]['detail'])}")
    oversized = [c for c in creates if c["kind"] == "oversized"]
    if oversized:
        print("over-sized creates (past every bound): each must be refused, at once:")
    for c in oversized:
        refused = c["status"] in (400, 413, 422)
        failed |= not refused
        print(
            f"  {c['game']} {c['describe']}: {c['status'] or 'no answer'} in {ms(c):.1f} ms, "
            f"{'refused' if refused else 'NOT REFUSED'}; health meanwhile: {health_during([c])}"
        )
        if c["detail"]:
            print(f"    {_short(c['detail'])}")
    late = max((c["end"] for c in creates), default=load_end) - load_end
    if late > 0:
        print(
            f"  note: the creates ran {late:.1f} s past the end of the load (a longer --duration avoids that)"
        )
    for note in observed["notes"]:
        print(f"  note: {note}")
    return failed


# -- the servers: started here (one or more processes on one database), or given by --url ----------

MAX_SERVERS = 8  # processes --servers may start
DEFAULT_CLIENT_PROCESSES = 4
MAX_CLIENT_PROCESSES = 64
SCHEMA_PREFIX = "bench_load_"  # the fresh PostgreSQL schema of a run: this and 12 hex digits
START_TIMEOUT = 60.0  # seconds a server may take to answer /api/health (15 more per further server)
STOP_TIMEOUT = 30.0  # seconds the servers have to stop once terminated, before they are killed
ERROR_LINE = re.compile(r" (?:ERROR|CRITICAL) |Traceback \(most recent call last\)")


def database_kind(db: str) -> str:
    """The database a URL names ('sqlite', 'postgresql', …); ValueError if it is not a URL."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return str(make_url(normalize_url(db)).get_backend_name())
    except (ArgumentError, ValueError, TypeError) as exc:
        raise ValueError(str(exc)) from None


def shown(db: str) -> str:
    """A database URL as it may be printed: without its password."""
    from sqlalchemy.engine import make_url

    return str(make_url(db).render_as_string(hide_password=True))


def _reason(exc: Exception) -> str:
    """A database error's first line (the driver's own words), not SQLAlchemy's long wrapping."""
    cause = getattr(exc, "orig", None) or exc
    text = str(cause).strip()
    return text.splitlines()[0] if text else type(cause).__name__


@contextlib.contextmanager
def fresh_schema(db: str) -> Iterator[tuple[str, str]]:
    """A new schema in the PostgreSQL database `db`, dropped on the way out (after an error or Ctrl-C
    too): yields the URL whose every connection works in it (`options=-csearch_path=…`, as the
    server's tests make theirs) and its name. The servers then start on empty tables, of this run
    alone, and several processes share them as they would a database of their own."""
    import sqlalchemy as sa
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import SQLAlchemyError
    from sqlalchemy.pool import NullPool

    url = make_url(normalize_url(db))
    schema = SCHEMA_PREFIX + uuid.uuid4().hex[:12]
    engine = sa.create_engine(url, poolclass=NullPool, connect_args={"connect_timeout": 10})
    try:
        with engine.begin() as conn:
            conn.execute(sa.text(f"CREATE SCHEMA {schema}"))
    except SQLAlchemyError as exc:
        engine.dispose()
        raise SystemExit(f"--db {shown(db)}: cannot make a schema there: {_reason(exc)}") from None
    given = url.query.get("options")  # the URL's own libpq options are kept, the search path added
    options = [given] if isinstance(given, str) else list(given or [])
    schema_url = url.update_query_dict({"options": " ".join([*options, f"-csearch_path={schema}"])})
    try:
        yield schema_url.render_as_string(hide_password=False), schema
    finally:
        try:
            with engine.begin() as conn:
                conn.execute(sa.text("SET LOCAL lock_timeout = '30s'"))
                conn.execute(sa.text(f"DROP SCHEMA {schema} CASCADE"))
        except SQLAlchemyError as exc:
            print(
                f"could not drop the schema {schema} ({_reason(exc)}): drop it by hand, "
                f"DROP SCHEMA {schema} CASCADE",
                file=sys.stderr,
            )
        finally:
            engine.dispose()


def _tail(path: Path, lines: int = 20) -> str:
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])


@dataclass
class Servers:
    """What serves the load: the processes started here (server 0 first), or the one at --url."""

    urls: list[str]
    db: str | None  # the database the log is checked in; None: not checked (--url without --db)
    note: str  # what served, for the summary
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    logs: list[Path] = field(default_factory=list)
    stopped: bool = False

    def stop(self) -> list[str]:
        """Stop every process: terminated, killed if still running STOP_TIMEOUT s later (all of
        them killed if this is interrupted). Says which had exited by themselves, with the end of
        their log. A second call does nothing."""
        if self.stopped:
            return []
        self.stopped = True
        died = [
            f"server {i} ({_port(self.urls[i])}) exited by itself, with code {process.returncode}; "
            f"its log ends:\n{_tail(self.logs[i])}"
            for i, process in enumerate(self.processes)
            if process.poll() is not None
        ]
        try:
            for process in self.processes:
                if process.poll() is None:
                    process.terminate()
            deadline = time.monotonic() + STOP_TIMEOUT
            for process in self.processes:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(timeout=max(0.1, deadline - time.monotonic()))
        finally:
            for process in self.processes:
                if process.poll() is None:
                    process.kill()
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        process.wait(timeout=10)
        return died

    def log_errors(self) -> list[str]:
        """For each server whose log tells of an error (ERROR, a traceback): how many, and the first."""
        notes = []
        for i, path in enumerate(self.logs):
            found = [
                line for line in path.read_text(errors="replace").splitlines() if ERROR_LINE.search(line)
            ]
            if found:
                notes.append(
                    f"server {i} ({_port(self.urls[i])}): {len(found)} error lines; first: {found[0]}"
                )
        return notes


def serve_command(args: argparse.Namespace, port: int, db: str) -> list[str]:
    command = [sys.executable, "-m", "bodoge.cli", "serve", "--port", str(port), "--db", db]
    command += ["--bot-delay", str(args.bot_delay), *RAISED_LIMITS]
    if args.bot_workers:
        command += ["--bot-workers", str(args.bot_workers)]
    return command


def wait_until_healthy(servers: Servers, waiting: list[int], timeout: float) -> None:
    """Until each of the servers `waiting` answers GET /api/health; SystemExit, after its log, for one
    that exits or has not answered within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while waiting:
        for i in list(waiting):
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(servers.urls[i] + "/api/health", timeout=2).status_code == 200:
                    waiting.remove(i)
                    continue
            process = servers.processes[i]
            if process.poll() is not None or time.monotonic() > deadline:
                print(servers.logs[i].read_text(errors="replace"))
                why = (
                    f"it exited with code {process.returncode}"
                    if process.returncode is not None
                    else f"no answer to GET /api/health within {timeout:g} s"
                )
                raise SystemExit(f"the server {i} (127.0.0.1{_port(servers.urls[i])}) did not start: {why}")
        if waiting:
            time.sleep(0.1)


def _servers_note(ports: list[int], where: str) -> str:
    limits = " ".join(RAISED_LIMITS)
    if len(ports) == 1:
        return f"bodoge serve {limits}, on 127.0.0.1:{ports[0]}; database: {where}"
    n = len(ports)
    return (
        f"{n} × bodoge serve {limits}, on 127.0.0.1 ports {', '.join(map(str, ports))} (server 0 first: "
        f"it gets the health probe and the heavy creates); one database: {where}; table i made through "
        f"server i mod {n}, its player on server (i + 1) mod {n}, spectators round-robin"
    )


@contextlib.contextmanager
def running_servers(args: argparse.Namespace) -> Iterator[Servers]:
    """The servers of one run, stopped on the way out (after an error or Ctrl-C too), then their
    database removed (the temporary SQLite file, or the fresh PostgreSQL schema)."""
    if args.url:
        yield Servers([args.url.rstrip("/")], args.db, f"{args.url} (its own per-address limits apply)")
        return
    with contextlib.ExitStack() as stack:
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bodoge-load-")))
        if args.db and database_kind(args.db) == "postgresql":
            db, schema = stack.enter_context(fresh_schema(args.db))
            where = f"PostgreSQL {shown(args.db)}, schema {schema} (made for this run, dropped after)"
        else:
            db = args.db or f"sqlite:///{workdir / 'load.db'}"
            where = shown(db) if args.db else "a fresh SQLite file"
        ports = free_ports(args.servers)
        servers = Servers([f"http://127.0.0.1:{port}" for port in ports], db, _servers_note(ports, where))
        stack.callback(servers.stop)  # before the schema is dropped and the files removed
        # Server 0 alone first: it makes the schema's tables. Processes started together on an empty
        # schema race to make them, and all but one fail (a duplicate pg_type name).
        for first, last in ((0, 1), (1, len(ports))):
            for i in range(first, last):
                servers.logs.append(workdir / f"serve-{i}.log")
                with servers.logs[i].open("wb") as log:
                    process = subprocess.Popen(
                        serve_command(args, ports[i], db),
                        stdout=log,
                        stderr=subprocess.STDOUT,
                        env=dict(os.environ),
                    )
                servers.processes.append(process)
            wait_until_healthy(servers, list(range(first, last)), START_TIMEOUT + 15 * (last - first - 1))
        yield servers


# -- one run: the load and the observer, then the log checked ------------------------------------------


@dataclass
class Run:
    stats: Stats
    elapsed: float  # seconds of load
    load: Window  # its start and end, on time.monotonic
    observed: dict[str, Any] | None  # the observer's results; None if it sent none
    servers: str  # what served, for the summary
    ports: list[str]  # the servers' ports (":8000"), server 0 first
    died: list[str]  # servers that exited before they were stopped
    log_errors: list[str]  # servers whose log tells of an error
    log: tuple[int, list[str], int] | None  # check_log's answer; None: not checked


def observed_load(
    args: argparse.Namespace, urls: list[str]
) -> tuple[Stats, float, Window, dict[str, Any] | None]:
    """The load on `urls`, from --client-processes processes, with the observer (health probes, heavy
    creates) on server 0 in a process of its own: the load's stats, its seconds and window, and the
    observer's results."""
    observer_settings = {
        "health_interval": args.health_interval,
        "heavy_repeat": args.heavy_repeat,
        "heavy_timeout": args.heavy_timeout,
        "oversized_timeout": args.oversized_timeout,
    }
    context = multiprocessing.get_context("spawn")
    conn, child_conn = context.Pipe()
    observer = context.Process(
        target=observer_main, args=(child_conn, urls[0], observer_settings), daemon=True
    )
    processes = min(args.client_processes, args.tables)  # each plays one table or more
    step = Step(context.RawArray("i", processes), context.RawArray("d", [float("inf")] * 2))
    clients: list[tuple[Any, Connection]] = []
    for part in range(processes):
        mine, theirs = context.Pipe()
        process = context.Process(target=client_main, args=(theirs, args, urls, part, step), daemon=True)
        clients.append((process, mine))
    observed: dict[str, Any] | None = None
    try:
        observer.start()
        for process, _conn in clients:
            process.start()
        if not conn.poll(60) or conn.recv()[0] != "ready":
            raise SystemExit("the health probe did not start")
        for part, (_process, client) in enumerate(clients):
            if not client.poll(60) or client.recv()[0] != "ready":
                raise SystemExit(f"client process {part} did not start")
        begun = started = time.perf_counter()
        load_start = time.monotonic()
        stop_at = load_start + args.duration
        conn.send(("go", None if args.no_heavy else load_start + args.heavy_after))
        for _process, client in clients:
            client.send(("go", stop_at))
        stats = gather_clients(args, clients, step, begun, stop_at)
        elapsed = time.perf_counter() - started
        load_end = time.monotonic()
        conn.send(("stop",))
        # The heavy creates may still be running: each is bounded by its timeout.
        if conn.poll(max(60.0, 20 * args.heavy_timeout)):
            observed = conn.recv()[1]
    finally:
        # Each has sent its results and is ending; else (an error, Ctrl-C) each is stopped now.
        for process in [observer, *(process for process, _conn in clients)]:
            if process.is_alive():
                process.join(5 if observed is not None else 0)
                if process.is_alive():
                    process.terminate()
                    process.join(5)
    return stats, elapsed, (load_start, load_end), observed


def gather_clients(
    args: argparse.Namespace, clients: list[tuple[Any, Connection]], step: Step, begun: float, stop_at: float
) -> Stats:
    """Wait for the client processes' Stats, merged; meanwhile end the warm-up --warmup s after every
    table is made and every client set out (the start, every table made and every client connecting
    at once, is a burst no steady load has)."""
    while sum(step.made) < args.tables and time.monotonic() < stop_at:
        time.sleep(0.01)
    step.warm[0], step.warm[1] = time.perf_counter() + args.warmup, time.monotonic() + args.warmup
    parts = []
    for part, (process, client) in enumerate(clients):
        try:
            if not client.poll(max(0.0, stop_at - time.monotonic()) + 180):
                raise EOFError
            parts.append(client.recv()[1])
        except EOFError:
            parts.append(
                Stats(errors=[f"client process {part} sent no results (exit code {process.exitcode})"])
            )
    return merged(parts, begun, (step.warm[0], step.warm[1]))


def measure(args: argparse.Namespace) -> Run:
    """One run on its own servers: they are stopped (and so done with the log) before it is checked."""
    with running_servers(args) as servers:
        stats, elapsed, load, observed = observed_load(args, servers.urls)
        died = servers.stop()
        log = None
        if servers.db is not None:
            storage = Storage(servers.db)
            try:
                log = check_log(storage, stats)
            finally:
                storage.close()
        ports = [_port(url) for url in servers.urls]
        return Run(stats, elapsed, load, observed, servers.note, ports, died, servers.log_errors(), log)


def report(args: argparse.Namespace, run: Run) -> bool:
    """The summary of one run; True if something went wrong."""
    stats, elapsed = run.stats, run.elapsed
    pace = (
        f"; clients think {args.think:g} s on average, bots wait {args.bot_delay:g} s"
        if args.think or args.bot_delay
        else "; every move at once (closed loop)"
    )
    print(
        f"load: {args.tables} tables of {args.game} ({args.players} players, seat 0 a client, "
        f"bots {args.bots}), {args.clients} websocket clients, {args.duration:g} s{pace}"
        + (f"; the clients set out over {args.ramp:g} s" if args.ramp else "")
    )
    print(f"{'servers' if len(run.ports) > 1 else 'server'}: {run.servers}")
    games_over = sum(1 for t in stats.tables if t.over)
    print(f"tables: {len(stats.tables)} played, {games_over} to the end")
    failed = False
    # Throughput: the moves the clients saw made within the run (bots may move on a little after).
    total = sum(t.final_seq for t in stats.tables)
    if run.log is None:
        print("log check: skipped (give --db to check the log of a server started elsewhere)")
        print("lost actions: not checked")
    else:
        _logged, problems, lost = run.log
        sent = sum(len(t.sent) for t in stats.tables)
        refused = sum(len(t.refused) for t in stats.tables)
        if problems:
            failed = True
            print(f"log check: FAILED ({len(problems)} problems)")
            for problem in problems[:20]:
                print("  " + problem)
        else:
            print(
                f"log check: ok — every one of {sent} actions sent by clients logged exactly once "
                f"({refused} refused, none logged); no gaps"
            )
        print(f"lost actions: {lost} (of {sent} sent by clients)")
        failed |= lost > 0
    print(f"actions: {total} in {elapsed:.1f} s = {total / elapsed:,.0f} actions/s (clients' and bots')")
    lat = stats.latencies
    if lat:
        print(
            f"action-to-broadcast latency over {len(lat)} client actions: "
            f"p50 {percentile(lat, 0.5) * 1000:.1f} ms, p99 {percentile(lat, 0.99) * 1000:.1f} ms, "
            f"mean {statistics.fmean(lat) * 1000:.1f} ms"
        )
        print(f"  {slowest_when(stats)}")
    if args.warmup:
        steady = stats.steady
        print(
            f"from {args.warmup:g} s after every client set out (--warmup): {steady_rate(run):,.0f} actions/s; "
            f"latency over {len(steady)} client actions: p50 {percentile(steady, 0.5) * 1000:.1f} ms, "
            f"p99 {percentile(steady, 0.99) * 1000:.1f} ms"
        )
    print(f"views received: {stats.views} ({stats.views / elapsed:,.0f}/s)")
    if run.observed is None:
        print("health and heavy creates: FAILED (the observer process sent no results)")
        failed = True
    else:
        report_health(run.observed, run.load, args.health_interval)
        failed |= report_creates(run.observed, run.load[1])
    for died in run.died:
        print(f"FAILED: {died}")
        failed = True
    for note in run.log_errors:
        print(f"server log: {note}")
    if stats.errors:
        print(f"errors: {len(stats.errors)}; first: {stats.errors[:5]}")
        failed = True
    return failed


# -- --ceiling: the tables and actions/s at which p99 passes 100 ms --------------------------------------

MAX_TABLES = 5000  # tables at once (--tables, --max-tables); every client is one open file here
MAX_CLIENTS = 20_000
MAX_REPEAT = 10
CEILING_STEPS = (50, 100, 150, 200, 300, 400, 600, 800, 1000, 1500, 2000, 3000, 4000, 5000)
CEILING_P99_MS = 100.0
START_COST = 8.0  # seconds a run of --ceiling spends besides its load (start, stop, log check), about


def ceiling_steps(max_tables: int) -> list[int]:
    """The tables of each step, up to max_tables (which is the last step if it is not on the ladder)."""
    steps = [t for t in CEILING_STEPS if t <= max_tables]
    if not steps or steps[-1] < max_tables:
        steps.append(max_tables)
    return steps


@dataclass
class Figures:
    """One run of --ceiling in numbers (ms), and what went wrong in it."""

    actions_per_s: float
    p50: float  # inf when no client action was answered: a step that cannot count as under
    p99: float
    health_p99: float  # GET /api/health under load; nan without the observer's results
    lost: int | None  # None: the log was not checked
    problems: list[str]
    notes: list[str]  # error lines in the servers' logs: told, not counted as failures


def steady_rate(run: Run) -> float:
    """Actions per second after the warm-up: the moves seen made since then, over the time since."""
    seconds = run.load[1] - run.stats.warm_mono
    return sum(t.final_seq - t.warm_seq for t in run.stats.tables) / seconds if seconds > 0 else 0.0


def figures(run: Run) -> Figures:
    """The run's figures after its warm-up: actions/s, latencies, the health probe's p99."""
    stats = run.stats
    ms = [x * 1000 for x in stats.steady]
    problems = list(run.died)
    lost = None
    if run.log is not None:
        _logged, log_problems, lost = run.log
        problems += log_problems
    problems += stats.errors
    health = float("nan")
    if run.observed is None:
        problems.append("the observer process sent no results")
    else:
        samples = run.observed["samples"]
        probes = [(e - s) * 1000 for s, e, _ in samples if stats.warm_mono <= s < run.load[1]]
        health = percentile(probes, 0.99)
    return Figures(
        steady_rate(run),
        percentile(ms, 0.5) if ms else float("inf"),
        percentile(ms, 0.99) if ms else float("inf"),
        health,
        lost,
        problems,
        run.log_errors,
    )


def _median_p99(runs: list[Figures]) -> float:
    return statistics.median(f.p99 for f in runs)


def _median_range(values: list[float], digits: int) -> str:
    """The median of the runs, and their range when there are several."""
    mid = f"{statistics.median(values):,.{digits}f}"
    return mid if len(values) == 1 else f"{mid} ({min(values):,.{digits}f}–{max(values):,.{digits}f})"


def ceiling_table(rows: list[tuple[int, list[Figures]]]) -> None:
    """One line per step: the median of its runs, and their range when there are several."""
    several = max(len(runs) for _, runs in rows) > 1
    header = ["tables", "clients", "actions/s", "p50 ms", "p99 ms", "health p99 ms", "lost"]
    lines = [header]
    for tables, runs in rows:
        lost = [f.lost for f in runs]
        lines.append(
            [
                str(tables),
                str(2 * tables),
                _median_range([f.actions_per_s for f in runs], 0),
                _median_range([f.p50 for f in runs], 1),
                _median_range([f.p99 for f in runs], 1),
                _median_range([f.health_p99 for f in runs], 1),
                "not checked" if None in lost else str(sum(x for x in lost if x is not None)),
            ]
        )
    widths = [max(len(line[k]) for line in lines) for k in range(len(header))]
    if several:
        print("each figure: the median of the step's runs (their lowest–highest)")
    for line in lines:
        cells = [
            cell.rjust(w) if k < 2 else cell.ljust(w)
            for k, (cell, w) in enumerate(zip(line, widths, strict=True))
        ]
        print("  ".join(cells).rstrip())


def ceiling_line(rows: list[tuple[int, list[Figures]]], interrupted: bool) -> str:
    if not rows:
        return "ceiling: no step done"
    over = next((k for k, (_, runs) in enumerate(rows) if _median_p99(runs) > CEILING_P99_MS), None)
    if over is None:
        tables, runs = rows[-1]
        return (
            f"ceiling: not reached up to {tables} tables "
            f"({statistics.median(f.actions_per_s for f in runs):,.0f} actions/s, "
            f"p99 {_median_p99(runs):.1f} ms){' (interrupted)' if interrupted else ''}"
        )
    tables_over, runs_over = rows[over]
    if over == 0:
        return (
            f"ceiling: below {tables_over} tables, the first step (p99 {_median_p99(runs_over):.1f} ms at "
            f"{statistics.median(f.actions_per_s for f in runs_over):,.0f} actions/s); a --max-tables "
            f"below {tables_over} runs that many tables as the only step"
        )
    tables, runs = rows[over - 1]
    return (
        f"ceiling: about {tables} tables, {statistics.median(f.actions_per_s for f in runs):,.0f} actions/s "
        f"(p99 crosses {CEILING_P99_MS:g} ms between {tables} and {tables_over} tables)"
    )


def ceiling(args: argparse.Namespace) -> int:
    """Step the tables up, --repeat runs per step on fresh servers, until the median p99 of a step is
    over CEILING_P99_MS; print each run as it ends, then the table and the ceiling."""
    steps = ceiling_steps(args.max_tables)
    most = len(steps) * args.repeat * (args.duration + START_COST)
    at_most = f"{most / 60:.0f} min" if most >= 120 else f"{most:.0f} s"
    print(
        f"ceiling search: {args.game} ({args.players} players, seat 0 a client, bots {args.bots}), clients think "
        f"{args.think:g} s on average, bots wait {args.bot_delay:g} s; {args.servers} × bodoge serve; "
        f"steps of {', '.join(map(str, steps))} tables with 2 clients each, {args.duration:g} s, "
        f"counted from {args.warmup:g} s after every client set out (--warmup), {args.repeat} "
        f"run{'s' if args.repeat > 1 else ''} each on fresh servers; it stops once a step's median p99 "
        f"is over {CEILING_P99_MS:g} ms (at most about {at_most})",
        flush=True,
    )
    rows: list[tuple[int, list[Figures]]] = []
    failed = interrupted = False
    try:
        for tables in steps:
            runs: list[Figures] = []
            rows.append((tables, runs))  # filled run by run: Ctrl-C keeps the runs of a step begun
            for r in range(args.repeat):
                step = argparse.Namespace(**vars(args))
                step.tables, step.clients, step.no_heavy, step.seed = tables, 2 * tables, True, args.seed + r
                run = measure(step)
                f = figures(run)
                runs.append(f)
                failed |= bool(f.problems) or bool(f.lost)
                print(
                    f"  {tables} tables, run {r + 1}/{args.repeat} (servers {', '.join(run.ports)}): "
                    f"{f.actions_per_s:,.0f} actions/s, p50 {f.p50:.1f} ms, p99 {f.p99:.1f} ms, "
                    f"health p99 {f.health_p99:.1f} ms, lost {'not checked' if f.lost is None else f.lost}"
                    + (f"; {len(f.problems)} problems, first: {f.problems[0]}" if f.problems else ""),
                    flush=True,
                )
                for note in f.notes:
                    print(f"    server log: {note}")
            if _median_p99(runs) > CEILING_P99_MS:
                break
    except KeyboardInterrupt:
        interrupted = True
        print("interrupted: the servers are stopped; the runs done so far:")
        if rows and not rows[-1][1]:
            rows.pop()
    if rows:
        ceiling_table(rows)
    print(ceiling_line(rows, interrupted))
    if failed:
        print("FAILED: a run lost actions, had a log problem, a client error or a server that exited (above)")
    return 130 if interrupted else 1 if failed else 0


# -- the command line ---------------------------------------------------------------------------------


def _raise_open_files(needed: int) -> str | None:
    """Raise this process's limit on open files (the servers inherit it) to what `needed` clients and
    their tables take; what is wrong if the hard limit is below it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = needed + 1000  # the HTTP pools, the servers' database connections, the observer, …
    if hard != resource.RLIM_INFINITY and want > hard:
        return (
            f"{needed} clients and tables need about {want} open files, and the limit is {hard} (ulimit -Hn)"
        )
    if soft != resource.RLIM_INFINITY and soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    return None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--tables", type=int, default=None, help=f"tables played at once (100; 1 to {MAX_TABLES})"
    )
    parser.add_argument(
        "--clients", type=int, default=None, help=f"websocket clients (200; ≥ tables, up to {MAX_CLIENTS})"
    )
    parser.add_argument(
        "--duration", type=float, default=None, help="seconds of load (30; 20 a step in --ceiling; 1 to 3600)"
    )
    parser.add_argument("--game", default="troika")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default="random", help="agent spec of the bots")
    parser.add_argument("--set", dest="settings", action="append", default=[], help="game option name=value")
    parser.add_argument("--bot-workers", type=int, default=None, help="the servers' --bot-workers (1 to 64)")
    parser.add_argument(
        "--think",
        type=float,
        default=None,
        help="mean seconds a client thinks before each action, uniform on [0, 2×] "
        "(default 0: at once; 1 in --ceiling)",
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=None,
        help="the started servers' --bot-delay: seconds before each bot move (default 0; 0.5 in --ceiling)",
    )
    parser.add_argument(
        "--ramp",
        type=float,
        default=0.0,
        help="seconds over which the clients set out, one table's after another, evenly "
        "(default 0: all at once)",
    )
    parser.add_argument(
        "--client-processes",
        type=int,
        default=None,
        help=f"processes the clients are spread over, table by table ({DEFAULT_CLIENT_PROCESSES}; "
        f"1 to {MAX_CLIENT_PROCESSES}; never more than --tables)",
    )
    parser.add_argument("--url", help="an already running server on loopback (default: start one)")
    parser.add_argument(
        "--db",
        help="its database URL, to check the log (default: a fresh SQLite file); a postgresql:// URL "
        "serves from a fresh schema made there for the run",
    )
    parser.add_argument(
        "--servers",
        type=int,
        default=1,
        help=f"bodoge serve processes on one PostgreSQL --db, the load spread over them (1 to {MAX_SERVERS})",
    )
    parser.add_argument(
        "--ceiling",
        action="store_true",
        help="step the tables up (2 clients each) until p99 passes 100 ms; print the ceiling",
    )
    parser.add_argument(
        "--max-tables",
        type=int,
        default=None,
        help=f"--ceiling: the most tables stepped to (800; 1 to {MAX_TABLES})",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=None,
        help=f"--ceiling: runs of each step, each on fresh servers (2; 1 to {MAX_REPEAT})",
    )
    parser.add_argument(
        "--warmup",
        type=float,
        default=None,
        help="seconds after every table is made and every client set out before the steady figures "
        "(actions/s, latencies; in --ceiling the health probe's too) start; printed besides the whole "
        "run's (0: not printed; a quarter of --duration in --ceiling, which uses only them)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--health-interval",
        type=float,
        default=0.02,
        help="seconds between GET /api/health probes (0.02; 0.005 to 10)",
    )
    parser.add_argument("--no-heavy", action="store_true", help="skip the heavy and over-sized creates")
    parser.add_argument(
        "--heavy-after",
        type=float,
        default=None,
        help="seconds of load before the heavy creates (default: a quarter; up to 3600)",
    )
    parser.add_argument(
        "--heavy-repeat",
        type=int,
        default=3,
        help="times the heaviest accepted body of each game is made and timed (3; 0 to 100)",
    )
    parser.add_argument(
        "--heavy-timeout", type=float, default=30.0, help="seconds a heavy create may take (30; up to 600)"
    )
    parser.add_argument(
        "--oversized-timeout",
        type=float,
        default=10.0,
        help="seconds an over-sized create may take to be refused (10; up to 600)",
    )
    return parser


def _check_range(
    parser: argparse.ArgumentParser, flag: str, value: float, lo: float, hi: float, what: str
) -> None:
    if not lo <= value <= hi:
        parser.error(f"{flag} takes {what} from {lo:g} to {hi:g}, not {value:g}")


def _check_servers(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """--servers above 1: processes of its own, on one PostgreSQL database."""
    if args.db is not None:
        try:
            kind = database_kind(args.db)
        except ValueError:
            parser.error(f"--db {args.db!r} is not a database URL; allowed: sqlite:///FILE or postgresql://…")
    if args.servers == 1:
        return
    if args.url:
        parser.error(f"--servers {args.servers} starts its own processes: it cannot be used with --url")
    allowed = "postgresql://USER:PASSWORD@HOST/DATABASE (the processes share it; SQLite serves one process)"
    if args.db is None:
        parser.error(f"--servers {args.servers} needs --db, a PostgreSQL database: {allowed}")
    if kind != "postgresql":
        parser.error(f"--servers {args.servers} needs a PostgreSQL --db, not {kind}: {allowed}")


def _check_ceiling(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """--ceiling chooses the tables and clients itself, and starts fresh servers for each run."""
    if not args.ceiling:
        for flag, value in (("--max-tables", args.max_tables), ("--repeat", args.repeat)):
            if value is not None:
                parser.error(f"{flag} is for --ceiling")
        return
    for flag, value in (
        ("--tables", args.tables),
        ("--clients", args.clients),
        ("--heavy-after", args.heavy_after),
    ):
        if value is not None:
            parser.error(
                f"--ceiling chooses the tables (up to --max-tables, 2 clients each) and makes no heavy "
                f"creates: it takes no {flag}"
            )
    if args.url:
        parser.error("--ceiling starts fresh servers for every run: it cannot be used with --url")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The arguments, every size checked against its bounds, the defaults of the mode filled in."""
    parser = build_parser()
    args = parser.parse_args(argv)
    _check_ceiling(parser, args)
    _check_range(parser, "--servers", args.servers, 1, MAX_SERVERS, "a number of processes")
    _check_servers(parser, args)
    paced = 1.0 if args.ceiling else 0.0, 0.5 if args.ceiling else 0.0
    args.think = paced[0] if args.think is None else args.think
    args.bot_delay = paced[1] if args.bot_delay is None else args.bot_delay
    args.duration = (20.0 if args.ceiling else 30.0) if args.duration is None else args.duration
    args.tables = 100 if args.tables is None else args.tables
    args.clients = 200 if args.clients is None else args.clients
    args.max_tables = 800 if args.max_tables is None else args.max_tables
    args.warmup = (args.duration / 4 if args.ceiling else 0.0) if args.warmup is None else args.warmup
    args.repeat = 2 if args.repeat is None else args.repeat
    args.client_processes = (
        DEFAULT_CLIENT_PROCESSES if args.client_processes is None else args.client_processes
    )
    for flag, value, lo, hi, what in (
        ("--tables", args.tables, 1, MAX_TABLES, "a number of tables"),
        ("--clients", args.clients, 1, MAX_CLIENTS, "a number of clients"),
        ("--max-tables", args.max_tables, 1, MAX_TABLES, "a number of tables"),
        ("--repeat", args.repeat, 1, MAX_REPEAT, "a number of runs"),
        ("--client-processes", args.client_processes, 1, MAX_CLIENT_PROCESSES, "a number of processes"),
        ("--duration", args.duration, 1, 3600, "seconds"),
        ("--think", args.think, 0, 60, "seconds"),
        ("--ramp", args.ramp, 0, args.duration, "seconds, at most --duration"),
        ("--bot-delay", args.bot_delay, 0, 60, "seconds"),
        ("--health-interval", args.health_interval, 0.005, 10, "seconds"),
        ("--heavy-repeat", args.heavy_repeat, 0, 100, "a number of creates"),
        ("--heavy-timeout", args.heavy_timeout, 0.1, 600, "seconds"),
        ("--oversized-timeout", args.oversized_timeout, 0.1, 600, "seconds"),
    ):
        _check_range(parser, flag, value, lo, hi, what)
    if not 0 <= args.warmup < args.duration:
        parser.error(
            f"--warmup takes seconds from 0 to below --duration ({args.duration:g}), not {args.warmup:g}"
        )
    if args.heavy_after is not None:
        _check_range(parser, "--heavy-after", args.heavy_after, 0, 3600, "seconds")
    if args.bot_workers is not None:
        _check_range(parser, "--bot-workers", args.bot_workers, 1, 64, "a number of processes")
    if args.url and httpx.URL(args.url).host not in ("127.0.0.1", "localhost", "::1"):
        parser.error("--url must be a loopback address")
    _check_game(parser, args)
    args.clients = max(args.clients, args.tables)
    clients = 2 * args.max_tables if args.ceiling else args.clients
    problem = _raise_open_files(clients + (args.max_tables if args.ceiling else args.tables))
    if problem:
        parser.error(problem)
    args.options = {}
    for item in args.settings:
        name, _, value = item.partition("=")
        try:
            args.options[name] = json.loads(value)
        except ValueError:
            args.options[name] = value
    args.heavy_after = args.duration / 4 if args.heavy_after is None else args.heavy_after
    return args


def _check_game(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    from bodoge.core.registry import game_class

    try:
        cls = game_class(args.game)
    except ValueError as exc:
        parser.error(f"--game: {exc}")
    if not cls.min_players <= args.players <= cls.max_players:
        parser.error(
            f"--players: {args.game} is for {cls.min_players} to {cls.max_players} players, not {args.players}"
        )


def _interrupted(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt  # a kill (SIGTERM) stops the servers and drops the schema, as Ctrl-C does


def main() -> int:
    args = parse_args()
    signal.signal(signal.SIGTERM, _interrupted)
    if args.ceiling:
        return ceiling(args)
    try:
        run = measure(args)
    except KeyboardInterrupt:
        print("interrupted: the servers are stopped and their database removed", file=sys.stderr)
        return 130
    return 1 if report(args, run) else 0


if __name__ == "__main__":
    sys.exit(main())
