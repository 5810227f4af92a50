"""Helpers for the server tests: a live server (in a thread or a subprocess) and a websocket player.

Everything runs on 127.0.0.1 only, and every wait is bounded.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from websockets.sync.client import ClientConnection, connect

import bodoge
from bodoge.core import State
from bodoge.server import WS_MAX_SIZE, ServerConfig, create_app, listening_sockets

TOY = "highcard"


def real_games() -> list[str]:
    return [name for name in bodoge.games() if name != TOY]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def roundtrip(value: Any) -> Any:
    return json.loads(json.dumps(value))


def states_along(record: dict[str, Any]) -> list[State]:
    """The state after each prefix of the record's actions: [start, after 1 action, ...]."""
    game = bodoge.make(record["game"], record["players"], **record["options"])
    state = game.new_state(
        seed=record["seed"], deck=record.get("deck"), rules_version=record["rules_version"]
    )
    out = [state.clone()]
    for action in record["actions"]:
        state.apply(action)
        out.append(state.clone())
    return out


def assert_views_exact(player: Player, record: dict[str, Any], seat: int | None) -> None:
    """Every view the connection got is exactly view(seat) of the game at that move."""
    states = states_along(record)
    assert player.views, "no view received"
    for seq, view in player.views.items():
        expected = roundtrip(states[seq].view(seat))
        if view != expected:
            diff = {
                k: (view.get(k), expected.get(k))
                for k in set(view) | set(expected)
                if view.get(k) != expected.get(k)
            }
            if "log" in diff:
                got, want = diff.pop("log")
                n = next(
                    (i for i, (a, b) in enumerate(zip(got, want, strict=False)) if a != b),
                    min(len(got), len(want)),
                )
                diff["log"] = (len(got), len(want), got[n : n + 3], want[n : n + 3])
            raise AssertionError(f"view of seat {seat} at move {seq} differs: {diff}")


def finished_hangover(db: str, table_id: str) -> str:
    """A finished three-player Hangover written straight to the server's database `db` as table
    `table_id`: seed 0 played by random moves (P2 wins with 2 VP; P0 with 8 and P1 with 5 are hung
    over), its seats the people Aki, Ben and Cho. Returns the table's id."""
    from bodoge.core.registry import make
    from bodoge.server.storage import Append, Storage, TableRow

    game = make("hangover", 3)
    state = game.new_state(seed=0)
    rng = random.Random(0)
    moves = []
    while state.current_player is not None:
        action = rng.choice(state.legal_actions())
        moves.append((state.current_player, action))
        state.apply(action)
    assert state.winners() == [2] and state.scores() == [8, 5, 2]
    now = time.time()
    row = TableRow(
        id=table_id, game="hangover", rules_version=game.rules_version, players=3,
        options=game.options_json(), seed=0, seats=[{"kind": "human", "name": n} for n in ("Aki", "Ben", "Cho")],
        token_hashes=[None] * 3, created_at=now, updated_at=now,
    )  # fmt: skip
    result = {"scores": state.scores(), "winners": state.winners()}
    storage = Storage(db)
    try:
        storage.create_tables([row])
        last = len(moves) - 1
        storage.append_actions(
            [Append(row.id, i, s, a, result if i == last else None) for i, (s, a) in enumerate(moves)]
        )
    finally:
        storage.close()
    return row.id


def make_config(db: str, **overrides: object) -> ServerConfig:
    config = ServerConfig(db=db, bot_workers=1, bot_budget=10.0, bot_delay=0.0, preload=["server_toygame"])
    # Every test's players come from 127.0.0.1: the per-address signup rate would refuse most of them.
    config.limits.signup_rate = "10000/hour"
    for key, value in overrides.items():
        setattr(config, key, value)
    return config


class ThreadServer:
    """The app under uvicorn in a background thread (its own event loop), on a loopback port (and
    the metrics' own port, if the config has one, as `bodoge serve` listens)."""

    def __init__(self, config: ServerConfig, port: int | None = None) -> None:
        self.server = uvicorn.Server(
            uvicorn.Config(
                create_app(config),
                host="127.0.0.1",
                port=port or 0,
                ws_max_size=WS_MAX_SIZE,
                ws_per_message_deflate=False,
                log_level="warning",
                lifespan="on",
            )
        )
        # Bound here and handed to uvicorn, so no other process can take the port in between (port 0:
        # the system picks a free one, read back from the socket).
        self.sockets = listening_sockets(self.server.config, config)
        self.port = self.sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.server.run, args=(self.sockets,), daemon=True)

    def __enter__(self) -> ThreadServer:
        self.thread.start()
        deadline = time.monotonic() + 60
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=60)

    def http(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=30)


class ProcessServer:
    """`bodoge serve` as a real process (for the crash test: it is killed with SIGKILL)."""

    def __init__(
        self, db: str, port: int, log_path: Path, bot_delay: float = 0.0, extra: tuple[str, ...] = ()
    ) -> None:
        self.db = db
        self.bot_delay = bot_delay
        self.extra = extra  # more `bodoge serve` options
        self._at(port)
        self.log_path = log_path
        self.process: subprocess.Popen[bytes] | None = None
        self.started = False

    def _at(self, port: int) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.ws_url = f"ws://127.0.0.1:{port}"

    def start(self) -> None:
        """Start `bodoge serve` and wait for its health check. The port was free when picked, but
        another process may bind it before this one does: a first start that finds it taken moves
        to another free port (a restart keeps its port, which the clients know)."""
        for _ in range(3):
            done = self.log_path.stat().st_size if self.log_path.exists() else 0
            try:
                self._start()
            except RuntimeError:
                said = self.log_path.read_bytes()[done:]
                if self.started or b"address already in use" not in said.lower():
                    raise
                self._at(free_port())
                continue
            self.started = True
            return
        raise RuntimeError(f"no free port for the server after 3 tries:\n{self.log_path.read_text()}")

    def _start(self) -> None:
        log = self.log_path.open("ab")
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "bodoge.cli",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--db",
                self.db,
                "--signup-rate",
                "10000/hour",
                "--bot-delay",
                str(self.bot_delay),
                "--bot-workers",
                "1",
                *self.extra,
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
        )
        log.close()
        deadline = time.monotonic() + 60
        while True:
            if self.process.poll() is not None:
                raise RuntimeError("the server exited:\n" + self.log_path.read_text())
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.url + "/api/health", timeout=2).status_code == 200:
                    return
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start:\n" + self.log_path.read_text())
            time.sleep(0.1)

    def kill(self) -> None:
        """Crash it: SIGKILL, no shutdown of any kind."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


def create_table(
    http: httpx.Client, game: str, seats: list[dict[str, Any]], players: int | None = None, **options: Any
) -> dict[str, Any]:
    response = http.post(
        "/api/tables",
        json={"game": game, "players": players or len(seats), "options": options, "seats": seats},
    )
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


class Player:
    """One websocket at a table: says hello, keeps every message, answers with actions."""

    def __init__(self, ws_url: str, table_id: str, token: str | None, name: str | None = None) -> None:
        self.ws: ClientConnection = connect(
            f"{ws_url}/ws/tables/{table_id}", open_timeout=20, close_timeout=5, max_size=2**24
        ).__enter__()  # (entered: websockets 17 warns about a connection used without `with`)
        hello: dict[str, Any] = {"type": "hello", "token": token}
        if name is not None:
            hello["name"] = name
        self.ws.send(json.dumps(hello))
        self.messages: list[dict[str, Any]] = []
        self.views: dict[int, dict[str, Any]] = {}  # seq -> view
        self.last: dict[str, Any] | None = None  # the newest view message
        self.errors: list[dict[str, Any]] = []
        self.sent: list[tuple[int, int]] = []  # (move number, action id) of every action sent
        self.log: list[dict[str, Any]] = []  # the whole log, put together from the views' deltas

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ws.close()

    def __enter__(self) -> Player:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def send(self, message: dict[str, Any] | str) -> None:
        if isinstance(message, dict) and message.get("type") == "action":
            self.sent.append((message.get("seq", -1), message["action"]))
        self.ws.send(message if isinstance(message, str) else json.dumps(message))

    def recv(self, timeout: float = 30) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        self.messages.append(message)
        if message["type"] == "view":
            # A view carries only the log entries this connection lacks (docs/protocol.md): put the
            # whole log back, as a client does, so that every view kept is whole.
            entries = message["view"]["log"]
            assert message["log_from"] <= len(self.log), (message["log_from"], len(self.log))
            self.log = self.log[: message["log_from"]] + entries
            message["view"]["log"] = list(self.log)
            self.views[message["seq"]] = message["view"]
            if self.last is None or message["seq"] >= self.last["seq"]:
                self.last = message
        elif message["type"] == "error":
            self.errors.append(message)
        return message

    def recv_until(self, kind: str, timeout: float = 30, **match: Any) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {kind} message matching {match} within {timeout} s")
            message = self.recv(left)
            if message["type"] == kind and all(message.get(k) == v for k, v in match.items()):
                return message

    def view_at_least(self, seq: int, timeout: float = 30) -> dict[str, Any]:
        """The first view message with a move number ≥ seq (maybe one already received)."""
        if self.last is not None and self.last["seq"] >= seq:
            return self.last
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no view of move ≥ {seq} within {timeout} s")
            message = self.recv(left)
            if message["type"] == "view" and message["seq"] >= seq:
                return message

    def quiet(self, seconds: float) -> list[dict[str, Any]]:
        """Whatever arrives within `seconds` (to check that nothing does)."""
        got = []
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                got.append(self.recv(left))
            except TimeoutError:
                break
        return got

    def play(self, rng: random.Random, timeout: float = 120, stop_at: int | None = None) -> dict[str, Any]:
        """Play this seat with random legal actions until the game ends (or the table reaches
        move `stop_at`); returns the last view message. Every action sent is acknowledged."""
        deadline = time.monotonic() + timeout
        message = self.view_at_least(0, timeout)
        while True:
            if message["view"]["is_terminal"] or (stop_at is not None and message["seq"] >= stop_at):
                return message
            if time.monotonic() > deadline:
                raise TimeoutError(f"the game did not end within {timeout} s")
            legal = message["view"].get("legal_actions")
            if legal:
                seq = message["seq"]
                self.send({"type": "action", "action": rng.choice(legal)["id"], "seq": seq})
                message = self.view_at_least(seq + 1, max(1.0, deadline - time.monotonic()))
            else:
                message = self.view_at_least(message["seq"] + 1, max(1.0, deadline - time.monotonic()))


@contextlib.contextmanager
def players(ws_url: str, table_id: str, tokens: list[str | None]) -> Iterator[list[Player]]:
    opened = [Player(ws_url, table_id, token) for token in tokens]
    try:
        yield opened
    finally:
        for p in opened:
            p.close()


def play_together(conns: list[Player], rng: random.Random, timeout: float = 120) -> dict[str, Any]:
    """Play every seat these connections hold, with random legal actions, to the end of the game."""
    deadline = time.monotonic() + timeout
    seq = max(c.view_at_least(0)["seq"] for c in conns)
    while True:
        views = [c.view_at_least(seq, max(1.0, deadline - time.monotonic())) for c in conns]
        if views[0]["view"]["is_terminal"]:
            return views[0]
        if time.monotonic() > deadline:
            raise TimeoutError(f"the game did not end within {timeout} s")
        for conn, message in zip(conns, views, strict=True):
            legal = message["view"].get("legal_actions")
            if legal and message["seq"] == seq:
                conn.send({"type": "action", "action": rng.choice(legal)["id"], "seq": seq})
                break
        seq += 1


def signup(where: ThreadServer | Any, name: str) -> tuple[str, str]:
    """A new player named `name` (POST /api/players) on a ThreadServer, or through an HTTP client
    of an app (a TestClient): their id and key."""
    if isinstance(where, ThreadServer):
        with where.http() as http:
            answer = http.post("/api/players", json={"name": name})
    else:
        answer = where.post("/api/players", json={"name": name})
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    return made["player"]["id"], made["key"]


def on_server(server: ThreadServer, coro: Any, timeout: float = 60) -> Any:
    """Run a coroutine on a ThreadServer's event loop (where its TableManager lives) and wait for it."""
    manager = server.server.config.app.state.manager
    return asyncio.run_coroutine_threadsafe(coro, manager.loop).result(timeout)


def identified_table(
    server: ThreadServer, game: str, seats: list[dict[str, Any]], **options: Any
) -> tuple[str, list[str | None]]:
    """A table whose human seats belong to players (`{"kind": "human", "name": ..., "player": id}`), as
    open tables make them: its id and each seat's key (None for a bot), derived as server/players.py
    derives them."""
    from bodoge.server.table.connection import hash_token
    from bodoge.server.tables import new_table_id

    app = server.server.config.app
    table_id = new_table_id()
    keys = [app.state.players.seat_key(s["player"], table_id) if s.get("player") else None for s in seats]
    hashes = [None if k is None else hash_token(k) for k in keys]
    on_server(
        server,
        app.state.manager.create(game, len(seats), options, seats, "test", {}, hashes, table_id=table_id),
    )
    return table_id, keys


def play_both_seats(a: Player, b: Player) -> dict[str, Any]:
    """Two seats play random legal moves to the end; the last view message."""
    rng = random.Random(5)
    seq = 0
    while True:
        views = [p.view_at_least(seq) for p in (a, b)]
        seq = max(v["seq"] for v in views)
        views = [p.view_at_least(seq) for p in (a, b)]
        if views[0]["view"]["is_terminal"]:
            return views[0]
        for p, message in zip((a, b), views, strict=True):
            legal = message["view"].get("legal_actions")
            if legal:
                p.send({"type": "action", "action": rng.choice(legal)["id"], "seq": seq})
        seq += 1
