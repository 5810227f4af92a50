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

This file is the command line; each part is a module of its own beside it: load_tables.py (the
websocket tables under load, in the client processes, and the log check), load_health.py (the
health probe, in the observer process), load_heavy.py (the heavy and over-sized creates, made by
the observer), load_servers.py (the servers started, one or --servers N, and their database),
load_run.py (one run, and its summary), load_ceiling.py (--ceiling), load_common.py (what they
share).
"""

from __future__ import annotations

import argparse
import json
import resource
import signal
import sys
from typing import Any

import httpx

from load_ceiling import MAX_REPEAT, ceiling
from load_run import measure, report
from load_servers import MAX_SERVERS, database_kind
from load_tables import DEFAULT_CLIENT_PROCESSES, MAX_CLIENT_PROCESSES

MAX_TABLES = 5000  # tables at once (--tables, --max-tables); every client is one open file here
MAX_CLIENTS = 20_000

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
