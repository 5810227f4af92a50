"""Load of quick match on one `bodoge serve` process: N identified players (made through the API)
press Quick match for one game at once, are seated together, and play their games to the end.

    python bench/load_match.py                      # 200 players, Tottarot for 2, arriving over 5 s
    python bench/load_match.py --players 40 --ramp 1 --games 1   # a smaller, quicker run

Starts `bodoge serve` on a free 127.0.0.1 port with a fresh SQLite file and its per-address limits
raised (every player here comes from 127.0.0.1: bench/load_servers.py's RAISED_LIMITS, and the
signup and per-player rates), or uses --url. Every player is made first (POST /api/players), outside
the figures. Then player i sets out i·ramp/N seconds after the start, in --client-processes processes
(each its own event loop, player i in process i mod P, as bench/load.py does, so that a busy client
does not add its own wait to the server's):

1. POST /api/quickmatch {game, players}; the answer is its seating: started at once for the player
   whose seat filled it (its `you.join_url` is there), else the player waits for it to change, as the
   lobby's waiting panel does (GET /api/seatings/ID?version=V&wait=--wait: the long poll answers at
   the change), until it has started;
2. opens its seat's link (the websocket, hello with the seat key) and waits for its first view.

**join → seated** is from sending the quick-match request to receiving that first view: for the
player who filled the table it is the server's own work (the seating, the table made, the socket and
its view); for the players who were already waiting it also holds the wait for the others to come; both
are given, apart. Then each player plays its seat (random legal actions, sent as
soon as its view asks; --think S waits a random 0–2S first) to the end of the game, and **action →
broadcast** is from sending an action to receiving the view it produced (as bench/load.py measures).
With --games G each player quick-matches again after a game, G games in all.

It prints the players, tables and games finished, p50/p99/max of each figure, actions per second,
and errors; it exits 1 if any player did not finish, any request failed, or a table did not have
exactly the players who were told they sat at it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from load_common import percentile
from load_servers import RAISED_LIMITS, free_ports

MAX_PLAYERS = 2000
RATES = ["--signup-rate", "100000/hour", "--player-rate", "100000/minute"]
GAME_TIMEOUT = 300.0  # seconds one player's whole run (its games) may take


@dataclass
class Result:
    """What one client process measured."""

    seated_filler: list[float] = field(default_factory=list)  # seconds, the players who filled a table
    seated_waiter: list[float] = field(default_factory=list)  # seconds, those who waited for others
    answered: list[float] = field(default_factory=list)  # seconds from quick match to its answer
    actions: list[float] = field(default_factory=list)  # seconds from an action to its view
    games: int = 0
    seats: list[tuple[str, int, str]] = field(default_factory=list)  # (table, seat, player) as told
    errors: list[str] = field(default_factory=list)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200, help="identified players (2 to 2000)")
    parser.add_argument("--game", default="tottarot")
    parser.add_argument("--table-size", type=int, default=2, help="players a table (quick match's count)")
    parser.add_argument("--ramp", type=float, default=5.0, help="seconds over which the players set out")
    parser.add_argument("--games", type=int, default=1, help="games each player plays (1 to 20)")
    parser.add_argument("--think", type=float, default=0.0, help="mean seconds before an action")
    parser.add_argument("--wait", type=float, default=20.0, help="seconds one long poll of a seating waits")
    parser.add_argument("--client-processes", type=int, default=4)
    parser.add_argument("--bot-workers", type=int, default=None)
    parser.add_argument("--url", help="a server already running (its own limits apply)")
    args = parser.parse_args(argv)
    if not 2 <= args.players <= MAX_PLAYERS:
        parser.error(f"--players is 2 to {MAX_PLAYERS}")
    if not 1 <= args.games <= 20:
        parser.error("--games is 1 to 20")
    if not 2 <= args.table_size <= 16 or args.players % args.table_size:
        parser.error("--table-size is 2 to 16, and divides --players (every table fills with people)")
    if not 1 <= args.client_processes <= 64:
        parser.error("--client-processes is 1 to 64")
    if args.ramp < 0 or args.think < 0 or not 1 <= args.wait <= 25:
        parser.error("--ramp and --think are 0 or more; --wait is 1 to 25 seconds")
    return args


# -- one player ---------------------------------------------------------------------------------


async def play_seat(
    ws: Any, sent_at: dict[int, float], result: Result, think: float, rng: random.Random
) -> bool:
    """Play the seat to the end of the game; True once the game is over."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), GAME_TIMEOUT))
        if message["type"] == "error":
            result.errors.append(f"error at the table: {message.get('code')}: {message.get('message')}")
            continue
        if message["type"] != "view":
            continue
        seq = message["seq"]
        sent = sent_at.pop(seq - 1, None)
        if sent is not None:
            result.actions.append(time.perf_counter() - sent)
        view = message["view"]
        if view["is_terminal"]:
            return True
        legal = view.get("legal_actions")
        if legal and seq not in sent_at:
            if think:
                await asyncio.sleep(rng.uniform(0, 2 * think))
            sent_at[seq] = time.perf_counter()
            await ws.send(json.dumps({"type": "action", "action": rng.choice(legal)["id"], "seq": seq}))


async def one_player(
    http: httpx.AsyncClient,
    ws_url: str,
    key: str,
    args: argparse.Namespace,
    result: Result,
    rng: random.Random,
) -> None:
    headers = {"Authorization": f"Bearer {key}"}
    for _ in range(args.games):
        began = time.perf_counter()
        answer = await http.post(
            "/api/quickmatch", headers=headers, json={"game": args.game, "players": args.table_size}
        )
        if answer.status_code != 200:
            result.errors.append(f"quick match: {answer.status_code} {answer.text[:200]}")
            return
        result.answered.append(time.perf_counter() - began)
        seating = answer.json()
        filled = seating["status"] == "started"
        while seating["status"] != "started":
            if seating["status"] == "cancelled":
                result.errors.append(f"seating {seating['id']} was cancelled: {seating.get('problem')}")
                return
            look = await http.get(
                f"/api/seatings/{seating['id']}",
                headers=headers,
                params={"version": seating["version"], "wait": args.wait},
            )
            if look.status_code != 200:
                result.errors.append(f"seating: {look.status_code} {look.text[:200]}")
                return
            seating = look.json()
        link = seating["you"]["join_url"]
        table_id, token = link[len("/t/") :].split("#token=")
        result.seats.append((table_id, seating["you"]["seat"], key))
        async with connect(f"{ws_url}/ws/tables/{table_id}", max_size=2**24, open_timeout=60) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            first: dict[str, Any] = {}
            while first.get("type") != "view":
                first = json.loads(await asyncio.wait_for(ws.recv(), 60))
                if first.get("type") == "error":
                    result.errors.append(f"hello: {first.get('message')}")
            (result.seated_filler if filled else result.seated_waiter).append(time.perf_counter() - began)
            # The first view is played from, as any later one.
            sent_at: dict[int, float] = {}
            await replay_first(ws, first, sent_at, args.think, rng)
            if await play_seat(ws, sent_at, result, args.think, rng):
                result.games += 1


async def replay_first(
    ws: Any, message: dict[str, Any], sent_at: dict[int, float], think: float, rng: random.Random
) -> None:
    """Act on the first view if it is the player's turn (play_seat takes the views after it)."""
    legal = message["view"].get("legal_actions")
    if legal and not message["view"]["is_terminal"]:
        if think:
            await asyncio.sleep(rng.uniform(0, 2 * think))
        seq = message["seq"]
        sent_at[seq] = time.perf_counter()
        await ws.send(json.dumps({"type": "action", "action": rng.choice(legal)["id"], "seq": seq}))


async def client_part(
    url: str, keys: list[tuple[int, str]], args: argparse.Namespace, start_at: float
) -> Result:
    result = Result()
    ws_url = "ws" + url[len("http") :]
    limits = httpx.Limits(max_connections=len(keys) + 4)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as http:

        async def setting_out(i: int, key: str) -> None:
            await asyncio.sleep(max(0.0, start_at + i * args.ramp / args.players - time.time()))
            try:
                await asyncio.wait_for(
                    one_player(http, ws_url, key, args, result, random.Random(i)), GAME_TIMEOUT
                )
            except Exception as exc:
                result.errors.append(f"player {i}: {type(exc).__name__}: {exc}")

        await asyncio.gather(*(setting_out(i, key) for i, key in keys))
    return result


def client_main(
    url: str, keys: list[tuple[int, str]], args: argparse.Namespace, start_at: float, out: Any
) -> None:
    out.send(asyncio.run(client_part(url, keys, args, start_at)))


# -- the run ------------------------------------------------------------------------------------


@contextlib.contextmanager
def server(args: argparse.Namespace) -> Any:
    """The server's URL and process id: --url (no id), or `bodoge serve` started here on a fresh
    SQLite file (stopped after)."""
    if args.url:
        yield args.url.rstrip("/"), None
        return
    with tempfile.TemporaryDirectory(prefix="bodoge-match-") as work:
        port = free_ports(1)[0]
        command = [sys.executable, "-m", "bodoge.cli", "serve", "--port", str(port)]
        command += [
            "--db",
            f"sqlite:///{Path(work) / 'match.db'}",
            "--bot-delay",
            "0",
            *RAISED_LIMITS,
            *RATES,
        ]
        if args.bot_workers:
            command += ["--bot-workers", str(args.bot_workers)]
        log = Path(work) / "serve.log"
        with log.open("wb") as out:
            process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(url + "/api/health", timeout=2).status_code == 200:
                        break
                if process.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("the server did not start:\n" + log.read_text(errors="replace"))
                time.sleep(0.1)
            yield url, process.pid
        finally:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
            errors = [line for line in log.read_text(errors="replace").splitlines() if " ERROR " in line]
            for line in errors[:10]:
                print("server log:", line)


def cpu_seconds(pid: int | None) -> float | None:
    """The CPU time the server process has used so far (Linux: /proc), or None where unknown."""
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def make_players(url: str, n: int) -> list[str]:
    """n players, made through the API (outside the figures); their keys."""
    run = f"{random.randrange(16**6):06x}"
    keys = []
    with httpx.Client(base_url=url, timeout=30) as http:
        for i in range(n):
            answer = http.post("/api/players", json={"name": f"match {run} {i}", "lang": "en"})
            answer.raise_for_status()
            keys.append(answer.json()["key"])
    return keys


def figures(name: str, values: list[float]) -> str:
    if not values:
        return f"{name}: none"
    ms = [v * 1000 for v in values]
    return (
        f"{name}: p50 {percentile(ms, 0.5):.1f} ms, p99 {percentile(ms, 0.99):.1f} ms, "
        f"max {max(ms):.1f} ms (n={len(ms)})"
    )


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    with server(args) as (url, pid):
        keys = make_players(url, args.players)
        cpu_before = cpu_seconds(pid)
        start_at = time.time() + 2.0
        parts = args.client_processes
        pipes, processes = [], []
        context = multiprocessing.get_context("spawn")
        for p in range(parts):
            mine = [(i, key) for i, key in enumerate(keys) if i % parts == p]
            receive, send = context.Pipe(duplex=False)
            process = context.Process(target=client_main, args=(url, mine, args, start_at, send))
            process.start()
            pipes.append(receive)
            processes.append(process)
        results: list[Result] = [pipe.recv() for pipe in pipes]
        for process in processes:
            process.join(timeout=30)
        elapsed = time.time() - start_at
        cpu = None if cpu_before is None else (cpu_seconds(pid) or 0.0) - cpu_before
    total = Result()
    for r in results:
        for name in ("seated_filler", "seated_waiter", "answered", "actions", "seats", "errors"):
            getattr(total, name).extend(getattr(r, name))
        total.games += r.games
    tables: dict[str, set[int]] = {}
    for table_id, seat, _key in total.seats:
        tables.setdefault(table_id, set()).add(seat)
    wrong = [t for t, seats in tables.items() if seats != set(range(args.table_size))]
    print(
        f"quick match: {args.players} players, {args.game} for {args.table_size}, setting out over "
        f"{args.ramp:g} s, {args.games} game(s) each, {parts} client processes"
    )
    print(f"tables: {len(tables)} made, {len(wrong)} without exactly their players; games finished "
          f"(by a player): {total.games} of {args.players * args.games}")  # fmt: skip
    print(figures("join → seated, the player who filled the table", total.seated_filler))
    print(figures("join → seated, the players who waited for others", total.seated_waiter))
    print(figures("quick match answered (the HTTP request alone)", total.answered))
    print(figures("action → broadcast", total.actions))
    print(
        f"actions: {len(total.actions)} by players in {elapsed:.1f} s = {len(total.actions) / elapsed:,.0f}/s"
    )
    if cpu is not None:
        print(
            f"server CPU: {cpu:.1f} s in {elapsed:.1f} s ({cpu / elapsed:.0%} of one core), "
            f"{cpu / args.players / args.games * 1000:.0f} ms per player and game (joining and playing); "
            f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores at the end"
        )
    for error in total.errors[:20]:
        print("error:", error)
    failed = bool(total.errors) or bool(wrong) or total.games != args.players * args.games
    print("result: FAILED" if failed else "result: ok")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
