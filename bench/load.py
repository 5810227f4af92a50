"""Load test of `bodoge serve`: N tables with bots and M websocket clients at once, on loopback;
meanwhile `GET /api/health` probed all the time, and the heaviest table creations the games allow.

    python bench/load.py --tables 100 --clients 200 --duration 30
    python bench/load.py --tables 400 --clients 800 --think 1 --bot-delay 0.5   # a paced load

By default every move is made as soon as it can be (a closed loop): the server then runs as many
actions as it can, and the latencies are those of a saturated server at that rate. `--think S` and
`--bot-delay S` pace the load as people and the server's bots at a table do (a client waits a random
0–2S before each action; the server waits S before each bot move), so that the latency is measured
at a chosen rate below saturation.

Starts the server (what `bodoge serve` runs) on a free 127.0.0.1 port with a fresh SQLite file and
its per-address limits raised, as every client here comes from the one address 127.0.0.1 (or uses
--url; give --db too so the log can be checked). Each table has seat 0 played by a client here
(random legal actions, sent as soon as its view asks) and bots at the other seats; the clients beyond
one per table watch as spectators. A table that ends is replaced by a new one until the time is up.

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

- actions per second (every action logged: the clients' and the bots'),
- p50/p99 action-to-broadcast latency: from sending an action to receiving the view it produced,
- a check that every action a client sent was logged exactly once, at the move it was sent for (or
  refused with an error, and then not logged), that each table's log has no gap, and `lost actions`:
  actions seen taken but not logged, or never answered (0 is the only good answer),
- `GET /api/health` latency (p50/p99/max): idle before the load, under load while none of the heavy
  creates runs, while a heaviest allowed create runs, while the search's other creates run, and while
  an over-sized create runs (a probe counts for a create when their times overlap),
- each game's heaviest accepted body, its create latencies and the health latency during them,
- each over-sized create: its status and how fast it was refused.

It exits 1 on a log problem, a lost action, a client error, a heavy create that failed (not 201 or
400), or an over-sized create that was not refused. Every loop is bounded in time; only loopback
addresses are used. Against --url, the heavy tables it makes stay there (idle, all seats human).
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
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect

from bodoge.server.storage import Storage


@dataclass
class TableRun:
    id: str
    token: str
    sent: dict[int, int] = field(default_factory=dict)  # seq -> action, every action sent
    acked: dict[int, int] = field(default_factory=dict)  # seq -> action, seen taken (a view of seq+1)
    refused: dict[int, int] = field(default_factory=dict)  # seq -> action, answered with an error
    final_seq: int = 0
    over: bool = False


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    views: int = 0
    errors: list[str] = field(default_factory=list)
    tables: list[TableRun] = field(default_factory=list)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


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
    """The observer process: its results go back as plain data (tuples, dicts), once it is stopped."""
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
    ws_url: str,
    http: httpx.AsyncClient,
    args: argparse.Namespace,
    stats: Stats,
    stop_at: float,
    rng: random.Random,
) -> None:
    """Play seat 0 of a table; when its game ends, open a new table; until the time is up."""
    while time.monotonic() < stop_at:
        run = await create_table(http, args.game, args.players, args.bots, args.options)
        stats.tables.append(run)
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
                        stats.errors.append(f"table {run.id}: no answer to the action at move {pending[0]}")
                    break
                message = orjson.loads(text)
                if message["type"] == "error":
                    if pending is not None and message.get("action") == run.sent.get(pending[0]):
                        run.refused[pending[0]] = run.sent[pending[0]]
                        pending = None
                    stats.errors.append(f"table {run.id}: {message['code']}: {message['message']}")
                    continue
                if message["type"] != "view":
                    continue
                stats.views += 1
                seq, view = message["seq"], message["view"]
                run.final_seq = max(run.final_seq, seq)
                if pending is not None and seq > pending[0]:
                    stats.latencies.append(time.perf_counter() - pending[1])
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


async def run_load(args: argparse.Namespace, base_url: str) -> Stats:
    ws_url = "ws" + base_url[len("http") :]
    stats = Stats()
    rng = random.Random(args.seed)
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as http:
        stop_at = time.monotonic() + args.duration
        tasks = [
            asyncio.create_task(player(ws_url, http, args, stats, stop_at, random.Random(rng.random())))
            for _ in range(args.tables)
        ]
        # Spectators join the first tables once they exist.
        while len(stats.tables) < args.tables and time.monotonic() < stop_at:
            await asyncio.sleep(0.05)
        watchers = max(0, args.clients - args.tables)
        tables: list[str | None] = [t.id for t in stats.tables[: args.tables]] or [None]
        for i in range(watchers):
            table_id = tables[i % len(tables)]
            if table_id is not None:
                tasks.append(asyncio.create_task(spectator(ws_url, table_id, stats, stop_at)))
        results = await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), args.duration + 120)
        for result in results:
            if isinstance(result, BaseException):
                stats.errors.append(f"client failed: {type(result).__name__}: {result}")
    return stats


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100, help="tables played at once")
    parser.add_argument("--clients", type=int, default=200, help="websocket clients (≥ tables)")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds of load")
    parser.add_argument("--game", default="troika")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default="random", help="agent spec of the bots")
    parser.add_argument("--set", dest="settings", action="append", default=[], help="game option name=value")
    parser.add_argument("--bot-workers", type=int, default=None)
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="mean seconds a client thinks before each action, uniform on [0, 2×] (default 0: at once)",
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=0.0,
        help="the started server's --bot-delay: seconds before each bot move (default 0)",
    )
    parser.add_argument("--url", help="an already running server on loopback (default: start one)")
    parser.add_argument("--db", help="its database URL, to check the log (default: a fresh SQLite file)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--health-interval", type=float, default=0.02, help="seconds between GET /api/health probes (0.02)"
    )
    parser.add_argument("--no-heavy", action="store_true", help="skip the heavy and over-sized creates")
    parser.add_argument(
        "--heavy-after",
        type=float,
        default=None,
        help="seconds of load before the heavy creates (default: a quarter)",
    )
    parser.add_argument(
        "--heavy-repeat",
        type=int,
        default=3,
        help="times the heaviest accepted body of each game is made and timed (3)",
    )
    parser.add_argument(
        "--heavy-timeout", type=float, default=30.0, help="seconds a heavy create may take (30)"
    )
    parser.add_argument(
        "--oversized-timeout",
        type=float,
        default=10.0,
        help="seconds an over-sized create may take to be refused (10)",
    )
    args = parser.parse_args()
    for name in ("think", "bot_delay"):
        if not 0 <= getattr(args, name) <= 60:
            parser.error(f"--{name.replace('_', '-')} takes seconds from 0 to 60, not {getattr(args, name)}")
    args.clients = max(args.clients, args.tables)
    args.options = {}
    for item in args.settings:
        name, _, value = item.partition("=")
        try:
            args.options[name] = json.loads(value)
        except ValueError:
            args.options[name] = value
    heavy_after = args.duration / 4 if args.heavy_after is None else args.heavy_after

    tmp = tempfile.TemporaryDirectory(prefix="bodoge-load-")
    process = None
    db = args.db or f"sqlite:///{Path(tmp.name) / 'load.db'}"
    server_note = f"{args.url} (its own per-address limits apply)"
    if args.url:
        base_url = args.url.rstrip("/")
        host = httpx.URL(base_url).host
        if host not in ("127.0.0.1", "localhost", "::1"):
            parser.error("--url must be a loopback address")
    else:
        port = free_port()
        base_url = f"http://127.0.0.1:{port}"
        command = [sys.executable, "-m", "bodoge.cli", "serve", "--port", str(port), "--db", db]
        command += ["--bot-delay", str(args.bot_delay), *RAISED_LIMITS]
        if args.bot_workers:
            command += ["--bot-workers", str(args.bot_workers)]
        log = open(Path(tmp.name) / "serve.log", "wb")  # noqa: SIM115 (closed below)
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=dict(os.environ))
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(base_url + "/api/health", timeout=2).status_code == 200:
                    break
            if process.poll() is not None or time.monotonic() > deadline:
                print((Path(tmp.name) / "serve.log").read_text())
                raise SystemExit("the server did not start")
            time.sleep(0.1)
        server_note = "bodoge serve " + " ".join(RAISED_LIMITS)
    observer_settings = {
        "health_interval": args.health_interval,
        "heavy_repeat": args.heavy_repeat,
        "heavy_timeout": args.heavy_timeout,
        "oversized_timeout": args.oversized_timeout,
    }
    context = multiprocessing.get_context("spawn")
    conn, child_conn = context.Pipe()
    observer = context.Process(
        target=observer_main, args=(child_conn, base_url, observer_settings), daemon=True
    )
    observed: dict[str, Any] | None = None
    try:
        observer.start()
        if not conn.poll(60) or conn.recv()[0] != "ready":
            raise SystemExit("the health probe did not start")
        started = time.perf_counter()
        load_start = time.monotonic()
        conn.send(("go", None if args.no_heavy else load_start + heavy_after))
        stats = asyncio.run(run_load(args, base_url))
        elapsed = time.perf_counter() - started
        load_end = time.monotonic()
        conn.send(("stop",))
        # The heavy creates may still be running: each is bounded by its timeout.
        if conn.poll(max(60.0, 20 * args.heavy_timeout)):
            observed = conn.recv()[1]
    finally:
        if observer.is_alive():
            observer.join(5)
            if observer.is_alive():
                observer.terminate()
        if process is not None:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
            log.close()

    pace = (
        f"; clients think {args.think:g} s on average, bots wait {args.bot_delay:g} s"
        if args.think or args.bot_delay
        else "; every move at once (closed loop)"
    )
    print(
        f"load: {args.tables} tables of {args.game} ({args.players} players, seat 0 a client, "
        f"bots {args.bots}), {args.clients} websocket clients, {args.duration:g} s{pace}"
    )
    print(f"server: {server_note}")
    games_over = sum(1 for t in stats.tables if t.over)
    print(f"tables: {len(stats.tables)} played, {games_over} to the end")
    failed = False
    # Throughput: the moves the clients saw made within the run (bots may move on a little after).
    total = sum(t.final_seq for t in stats.tables)
    if args.url and not args.db:
        print("log check: skipped (give --db to check the log of a server started elsewhere)")
        print("lost actions: not checked")
    else:
        storage = Storage(db)
        try:
            _logged, problems, lost = check_log(storage, stats)
        finally:
            storage.close()
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
    print(f"views received: {stats.views} ({stats.views / elapsed:,.0f}/s)")
    if observed is None:
        print("health and heavy creates: FAILED (the observer process sent no results)")
        failed = True
    else:
        report_health(observed, (load_start, load_end), args.health_interval)
        failed |= report_creates(observed, load_end)
    if stats.errors:
        print(f"errors: {len(stats.errors)}; first: {stats.errors[:5]}")
        failed = True
    tmp.cleanup()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
