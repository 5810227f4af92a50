"""Bytes a game sends to the people at a table: whole views (what the server sent before #16) against
views that carry only the log entries a connection lacks, each raw and deflated.

    python bench/bytes.py --game troika --games 5

Starts `bodoge serve` on a free 127.0.0.1 port with a fresh SQLite file, makes tables whose every
seat is a person played here (random legal actions), and plays each game to the end over one
websocket per seat. For every `view` message received it counts:

- `delta`: the message as sent (its log holds only the entries after `log_from`);
- `whole`: the same view with its whole log, as the server sent every view before (the log put back
  together here, exactly as a client does);
- each of them deflated as permessage-deflate does with context takeover (one zlib stream per
  connection, a sync flush after each message, RFC 7692), which is what a browser receives now.

It also fetches the page's scripts and styles with and without `Accept-Encoding: gzip`. Figures are
per game, summed over the seats' connections, averaged over --games games.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

ASSETS = ("/t/x", "/static/common.js", "/static/table.js", "/static/app.css", "/static/boards/troika.js")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Deflated:
    """Bytes of messages after permessage-deflate with context takeover (RFC 7692 §7.2.1)."""

    def __init__(self) -> None:
        self._stream = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -15)
        self.bytes = 0

    def add(self, text: str) -> None:
        data = self._stream.compress(text.encode()) + self._stream.flush(zlib.Z_SYNC_FLUSH)
        self.bytes += len(data) - 4  # the flush's empty block tail is left off on the wire


@dataclass
class Counts:
    views: int = 0
    delta: int = 0
    whole: int = 0
    delta_deflated: list[Deflated] = field(default_factory=list)
    whole_deflated: list[Deflated] = field(default_factory=list)


async def play_seat(url: str, table_id: str, token: str, counts: Counts, rng: random.Random) -> None:
    """One person's connection: a random legal action whenever the view asks, until the end."""
    delta_z, whole_z = Deflated(), Deflated()
    counts.delta_deflated.append(delta_z)
    counts.whole_deflated.append(whole_z)
    log: list[Any] = []
    async with connect(f"{url}/ws/tables/{table_id}", max_size=2**26, compression=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        async for text in ws:
            message = json.loads(text)
            if message["type"] != "view":
                continue
            log = log[: message["log_from"]] + message["view"]["log"]
            whole = dict(message, view=dict(message["view"], log=log))
            del whole["log_from"]
            whole_text = json.dumps(whole, ensure_ascii=False, separators=(",", ":"))
            counts.views += 1
            counts.delta += len(text.encode())
            counts.whole += len(whole_text.encode())
            delta_z.add(str(text))
            whole_z.add(whole_text)
            view = message["view"]
            if view["is_terminal"]:
                return
            if view.get("legal_actions"):
                action = rng.choice(view["legal_actions"])["id"]
                await ws.send(json.dumps({"type": "action", "action": action, "seq": message["seq"]}))


async def one_game(base: str, game: str, players: int | None, rng: random.Random) -> Counts:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        seats = [{"kind": "human"}] * (players or 4)
        body = {"game": game, "players": players, "seats": seats}
        created = (await http.post("/api/tables", json=body)).raise_for_status().json()
    counts = Counts()
    ws_url = base.replace("http://", "ws://")
    tokens = [seat["token"] for seat in created["seats"]]
    await asyncio.wait_for(
        asyncio.gather(*(play_seat(ws_url, created["id"], t, counts, rng) for t in tokens)), 600
    )
    return counts


def assets(base: str) -> tuple[int, int]:
    """Bytes of the table page and its scripts and style: plain, and gzip-compressed on the wire."""
    plain = gzipped = 0
    with httpx.Client(base_url=base, timeout=30) as http:
        for path in ASSETS:
            raw = http.get(path, headers={"Accept-Encoding": "identity"})
            packed = http.get(path, headers={"Accept-Encoding": "gzip"})
            plain += raw.num_bytes_downloaded
            gzipped += packed.num_bytes_downloaded
    return plain, gzipped


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="troika")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if not 1 <= args.games <= 100:
        parser.error("--games is 1 to 100")
    tmp = tempfile.TemporaryDirectory(prefix="bodoge-bytes-")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "bodoge.cli", "serve", "--port", str(port)]
    command += ["--db", f"sqlite:///{Path(tmp.name) / 'bytes.db'}", "--bot-delay", "0"]
    command += ["--create-rate", "1000/minute", "--open-tables", "1000", "--message-rate", "1000/second"]
    with open(Path(tmp.name) / "serve.log", "wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=dict(os.environ))
    try:
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(base + "/api/health", timeout=2).status_code == 200:
                    break
            if process.poll() is not None or time.monotonic() > deadline:
                print((Path(tmp.name) / "serve.log").read_text())
                return 1
            time.sleep(0.1)
        rng = random.Random(args.seed)
        games = [asyncio.run(one_game(base, args.game, args.players, rng)) for _ in range(args.games)]
        plain, gzipped = assets(base)
    finally:
        process.terminate()
        process.wait(timeout=30)
        tmp.cleanup()

    def per_game(values: list[int]) -> float:
        return sum(values) / len(values) / 1000

    views = per_game([g.views for g in games]) * 1000
    whole = per_game([g.whole for g in games])
    delta = per_game([g.delta for g in games])
    whole_z = per_game([sum(d.bytes for d in g.whole_deflated) for g in games])
    delta_z = per_game([sum(d.bytes for d in g.delta_deflated) for g in games])
    print(f"{args.game}, {args.players} players, {args.games} games, every seat a connection here")
    print(f"view messages per game (all seats): {views:.0f}")
    print(f"{'per game, all seats':<34}{'raw kB':>10}{'deflated kB':>14}")
    print(f"{'whole views (before)':<34}{whole:>10.1f}{whole_z:>14.1f}")
    print(f"{'log deltas (now)':<34}{delta:>10.1f}{delta_z:>14.1f}")
    print(f"whole raw / deltas deflated: {whole / delta_z:.0f}x fewer bytes")
    print(f"page and scripts: {plain / 1000:.1f} kB plain, {gzipped / 1000:.1f} kB gzip")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
