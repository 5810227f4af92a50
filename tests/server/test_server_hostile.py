"""Hostile input (issue #15): each numbered failure of the issue as a test, the server's limits
against abuse (rates, sizes, connections, Origin, idle tables), and fuzzing of the lobby API and the
table websocket.

Live servers (`ThreadServer`) where the transport matters (frame sizes, TCP back-pressure, Origin,
close codes); the app in-process (`TestClient`) where it does not, which is much quicker.
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import json
import random
import re
import socket
import statistics
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import anyio
import httpx
import pytest
from fastapi.testclient import TestClient
from hostile_json import HUGE_INTS, JSON_VALUES, TEXTS, Raw, to_json
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from server_helpers import (
    TOY,
    Player,
    ProcessServer,
    ThreadServer,
    create_table,
    free_port,
    make_config,
    roundtrip,
)
from sqlalchemy import func, insert, select
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

import bodoge
from bodoge.core.registry import game_class
from bodoge.errors import BodogeError
from bodoge.server import create_app
from bodoge.server.guard import Limits
from bodoge.server.storage import Storage, tables_table

HUMAN = {"kind": "human"}
RANDOM_BOT = {"kind": "bot", "spec": "random"}
BROKEN_BOT = {"kind": "bot", "spec": "broken"}  # server_toygame: raises on every move
# Limits for the tests that make many tables from one address.
UNLIMITED: dict[str, Any] = {"create_rate": "100000/minute", "open_tables": 100000}


# -- helpers ---------------------------------------------------------------------------------------


@contextlib.contextmanager
def app_client(tmp_path: Path, bot_delay: float = 0.0, **limits: Any) -> Iterator[TestClient]:
    """The app in-process, with its lifespan (storage, tables, a bot worker) running."""
    config = make_config(f"sqlite:///{tmp_path / 'app.db'}", bot_delay=bot_delay, limits=Limits(**limits))
    with TestClient(create_app(config)) as client:
        yield client


def live(tmp_path: Path, **limits: Any) -> ThreadServer:
    return ThreadServer(make_config(f"sqlite:///{tmp_path / 'live.db'}", limits=Limits(**limits)))


def post_raw(http: httpx.Client, body: bytes | str) -> httpx.Response:
    """POST /api/tables with exactly these bytes (JSON escapes such as \\ud800 stay as written)."""
    data = body.encode("utf-8", "surrogatepass") if isinstance(body, str) else body
    return http.post("/api/tables", content=data, headers={"content-type": "application/json"})


def table_body(game: str, players: int, options: Any = None, seats: Any = None) -> dict[str, Any]:
    return {
        "game": game,
        "players": players,
        "options": {} if options is None else options,
        "seats": [HUMAN] * players if seats is None else seats,
    }


def humans(game: str) -> tuple[int, list[dict[str, str]]]:
    n = game_class(game).default_players
    return n, [HUMAN] * n


def detail_of(response: httpx.Response) -> str:
    detail = response.json()["detail"]
    assert detail, response.text
    return detail if isinstance(detail, str) else json.dumps(detail)


def int_options() -> list[tuple[str, Any]]:
    """(game, option spec) of every integer option of every game: those with bounds `lo`/`hi`."""
    found = [
        (game, spec)
        for game in bodoge.games()
        for spec in game_class(game).option_specs
        if getattr(spec, "hi", None) is not None
    ]
    assert found, "no option has bounds (Option.lo/Option.hi): the engine's bounds have not landed"
    return found


def ws_recv(ws: Any, timeout: float = 10.0) -> dict[str, Any]:
    """The next message of a TestClient websocket, within `timeout` (TestClient's own receive waits
    forever); WebSocketDisconnect with the close code when the server closed it."""

    async def get() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    message = ws.portal.call(get)
    if message["type"] == "websocket.close":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason") or "")
    return json.loads(message["text"])


def ws_until(
    ws: Any, predicate: Callable[[dict[str, Any]], bool], timeout: float = 10.0
) -> list[dict[str, Any]]:
    """Every message up to and including the first that satisfies `predicate`."""
    got = []
    deadline = time.monotonic() + timeout
    while True:
        got.append(ws_recv(ws, max(0.1, deadline - time.monotonic())))
        if predicate(got[-1]):
            return got


@contextlib.contextmanager
def seat_ws(client: TestClient, table_id: str, token: str | None) -> Iterator[tuple[Any, dict[str, Any]]]:
    """A TestClient websocket at the table after its hello: (session, the first view message).
    Always closed on the way out (an open one would keep the TestClient from shutting down)."""
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": token}))
        yield ws, ws_until(ws, lambda m: m["type"] == "view")[-1]


def small_segments(sock: socket.socket) -> socket.socket:
    """The socket, asking (before it connects) for segments of at most 1,400 bytes, as on an Ethernet
    link: the server then sends it many segments per window, never one that the window cannot take
    (loopback's own segment size is 64 KiB, as large as the small windows of these tests)."""
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, 1400)
    return sock


def small_window_socket(server: ThreadServer, table_id: str) -> ClientConnection:
    """A websocket whose client reads as little as it can: a small TCP receive window and a
    one-message queue, so that what the server sends it backs up into the server.

    The window must stay well above the server's segment size, or Linux's TCP can stall for good
    (seen: 2.8 MB unsent behind a window of 1,902 bytes, the client reading and getting nothing; and
    with a 64 KiB buffer, on loopback's 64 KiB segments, both sides backing off to 120 s between
    tries, the client blocked in its send), so the close never arrives, whatever the server does.
    Hence a small segment size (`small_segments`) beside the small window."""
    sock = small_segments(socket.socket(socket.AF_INET, socket.SOCK_STREAM))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)  # before connecting: sets the window
    sock.connect(("127.0.0.1", server.port))
    return connect(
        f"{server.ws_url}/ws/tables/{table_id}",
        sock=sock,
        max_queue=1,
        max_size=2**24,
        open_timeout=20,
        close_timeout=5,
        ping_interval=None,  # it does not read, so it could not see the answer to its own pings
    )


def masked_frame(text: str) -> bytes:
    """One text frame as a client sends it (masked), for writing to a socket directly."""
    payload = text.encode()
    assert len(payload) < 126
    mask = random.randbytes(4)
    return bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def raw_websocket(server: ThreadServer, table_id: str) -> socket.socket:
    """A websocket on a bare socket with a receive window of a few KiB, after its handshake: no
    library reads it in the background, so it can take nothing at all from the server."""
    sock = small_segments(socket.socket(socket.AF_INET, socket.SOCK_STREAM))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.settimeout(20)
    sock.connect(("127.0.0.1", server.port))
    key = base64.b64encode(random.randbytes(16)).decode()
    sock.sendall(
        f"GET /ws/tables/{table_id} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = b""
    while not head.endswith(b"\r\n\r\n"):  # byte by byte: nothing after the head is taken
        head += sock.recv(1)
    assert head.startswith(b"HTTP/1.1 101 "), head
    return sock


PROC_NET_TCP = Path("/proc/net/tcp")
TCP_ESTABLISHED = 1  # a state in /proc/net/tcp (4 is FIN-WAIT-1: closed by its process, not yet sent)


def server_end_state(server: ThreadServer, sock: socket.socket) -> int | None:
    """The TCP state of the server's end of the connection of this client socket, from the kernel
    (Linux's /proc/net/tcp), seen without reading anything; None once it is gone."""
    local = f"0100007F:{server.port:04X}"  # 127.0.0.1, as the kernel writes it on little-endian machines
    remote = f"0100007F:{sock.getsockname()[1]:04X}"
    for line in PROC_NET_TCP.read_text().splitlines()[1:]:
        fields = line.split()
        if fields[1] == local and fields[2] == remote:
            return int(fields[3], 16)
    return None


def read_until_closed(ws: ClientConnection, timeout: float = 20.0) -> list[dict[str, Any]]:
    got = []
    deadline = time.monotonic() + timeout
    with contextlib.suppress(ConnectionClosed):
        while time.monotonic() < deadline:
            got.append(json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic()))))
        raise AssertionError(f"the server did not close the connection within {timeout} s")
    return got


def raw_http(port: int, request: bytes, timeout: float = 10.0) -> tuple[int, bytes]:
    """Send these bytes as they are; (status, the answer's head and body)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(request)
        answer = b""
        while True:
            try:
                chunk = sock.recv(65536)
            except (ConnectionResetError, TimeoutError):
                break
            if not chunk:
                break
            answer += chunk
            head, sep, body = answer.partition(b"\r\n\r\n")
            lengths = [h for h in head.split(b"\r\n") if h.lower().startswith(b"content-length:")]
            if sep and lengths and len(body) >= int(lengths[0].split(b":")[1]):
                break
    return int(answer.split(b" ", 2)[1]), answer


class HealthProbe:
    """GET /api/health from its own thread, again and again, timing each answer."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.latencies: list[float] = []
        self.failures: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        with httpx.Client(base_url=self.url, timeout=30) as http:
            while not self._stop.is_set():
                start = time.monotonic()
                try:
                    response = http.get("/api/health")
                except httpx.HTTPError as exc:  # a timeout of 30 s, a refused connection
                    self.failures.append(repr(exc))
                    continue
                self.latencies.append(time.monotonic() - start)
                if response.status_code != 200 or not response.json()["ok"]:
                    self.failures.append(response.text)
                self._stop.wait(0.01)

    def __enter__(self) -> HealthProbe:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=60)

    def check(self, samples: int, limit: float = 1.0) -> None:
        assert not self.failures, self.failures[:3]
        assert len(self.latencies) >= samples, f"only {len(self.latencies)} health samples"
        worst = max(self.latencies)
        assert worst < limit, (
            f"health answered in up to {worst:.3f} s (median {statistics.median(self.latencies):.4f} s)"
        )


# -- issue #15 (1): lone surrogates ----------------------------------------------------------------


def test_lone_surrogate_in_an_option_or_a_name_is_refused_and_nothing_stored(
    server: ThreadServer, db_url: str
) -> None:
    """issue #15 (1): a lone surrogate ("\\ud800", sent as the JSON escape) in a Tokkuri card's code
    was answered 500 but stored, and every GET /api/tables answered 500 from then on; in a seat's
    name it was answered 500. Now both are 422 saying what is wrong, nothing is stored, the lobby
    answers."""

    def card(code: str) -> dict[str, Any]:
        return {"code": code, "kind": "number", "slots": [1], "effect": "none", "copies": 30}

    two = [HUMAN, HUMAN]
    # json.dumps writes a lone surrogate as its escape (\\ud800): the bodies are plain ASCII.
    bodies = [
        json.dumps(table_body("tokkuri", 2, {"deck": [card("\ud800")]})),
        json.dumps(table_body("tokkuri", 2, {"deck": [card("ok\udfffok")]})),
        json.dumps(table_body(TOY, 2, {}, [{"kind": "human", "name": "\ud800"}, HUMAN])),
        json.dumps(table_body(TOY, 2, {}, [{"kind": "bot", "spec": "random\udc00"}, HUMAN])),
        json.dumps(table_body(TOY + "\ud800", 2, {}, two)),
        json.dumps(table_body(TOY, 2, {"\ud800": 1}, two)),
        json.dumps(table_body(TOY, 2, {"tricks": 2}, two) | {"extra": ["\udbff"]}),
    ]
    assert all("\\ud" in body for body in bodies)
    with server.http() as http:
        for body in bodies:
            response = post_raw(http, body)
            assert response.status_code == 422, (body, response.text)
            detail = detail_of(response)
            assert "Unicode" in detail and "surrogate" in detail, detail
            lobby = http.get("/api/tables")
            assert lobby.status_code == 200 and lobby.json() == {"open": [], "recent": []}
        # The same text written as UTF-8 (not an escape) is not UTF-8 at all: refused alike.
        raw = json.dumps(table_body(TOY, 2), ensure_ascii=False).replace(TOY, TOY + "\ud800")
        assert post_raw(http, raw.encode("utf-8", "surrogatepass")).status_code == 422
    storage = Storage(db_url)
    try:
        with storage.engine.connect() as conn:
            assert conn.execute(select(func.count()).select_from(tables_table)).scalar_one() == 0
    finally:
        storage.close()


def test_a_stored_row_with_a_lone_surrogate_breaks_neither_the_lobby_nor_the_start(db_url: str) -> None:
    """issue #15 (1): a database that already holds a row with a lone surrogate (as an older server
    stored it) made GET /api/tables answer 500 for everyone, also after a restart. Now the server
    starts, the row is left out of the lists, asking for it is a 404, and the other tables play on."""
    config = make_config(db_url)
    with ThreadServer(config) as first, first.http() as http:
        good = create_table(http, TOY, [HUMAN, HUMAN])
    version = game_class(TOY).rules_version
    now = time.time()

    def row(table_id: str, status: str, **fields: Any) -> dict[str, Any]:
        base = {
            "id": table_id,
            "game": TOY,
            "rules_version": version,
            "players": 2,
            "options": json.dumps({"tricks": 3}),
            "seed": 12345,
            "seats": json.dumps([{"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}]),
            "token_hashes": json.dumps(["0" * 64, "1" * 64]),
            "status": status,
            "moves": 0,
            "result": None,
            "created_at": now,
            "updated_at": now + 1,  # newest first: these head every list
        }
        return {**base, **fields}

    # json.dumps escapes a lone surrogate as \ud800: the text is plain ASCII, and stores anywhere.
    bad_rows = [
        row("bad-seat", "playing", seats=json.dumps([{"kind": "human", "name": "\ud800"}, HUMAN])),
        row("bad-option", "playing", options=json.dumps({"tricks": 3, "x\udfff": "\ud800"})),
        row("bad-result", "over", moves=6, result=json.dumps({"scores": [1, 2], "winners": ["\udc00"]})),
    ]
    storage = Storage(db_url)
    try:
        with storage.engine.begin() as conn:
            conn.execute(insert(tables_table), bad_rows)
    finally:
        storage.close()
    for restart in range(2):
        with ThreadServer(config) as server, server.http() as http:
            assert http.get("/api/health").json()["ok"]
            lobby = http.get("/api/tables")
            assert lobby.status_code == 200, lobby.text
            assert [t["id"] for t in lobby.json()["open"]] == [good["id"]]
            assert lobby.json()["recent"] == []
            for bad in bad_rows:
                assert http.get(f"/api/tables/{bad['id']}").status_code == 404
                assert http.get(f"/api/tables/{bad['id']}/record").status_code == 404
                with connect(f"{server.ws_url}/ws/tables/{bad['id']}", open_timeout=20) as ws:
                    assert json.loads(ws.recv(timeout=10))["code"] == "no_table"
                    with pytest.raises(ConnectionClosed):
                        ws.recv(timeout=10)
                    assert ws.close_code == 4404
            # The good table plays on: seat 0 leads, then seat 1 follows (one move at each start).
            with Player(server.ws_url, good["id"], good["seats"][restart]["token"]) as me:
                view = me.view_at_least(restart)
                me.send({"type": "action", "action": view["view"]["legal_actions"][0]["id"], "seq": restart})
                me.view_at_least(restart + 1)
            assert http.get(f"/api/tables/{good['id']}").json()["moves"] == restart + 1


def test_a_table_of_a_rules_version_or_game_this_server_lacks_is_left_out_of_the_lists(db_url: str) -> None:
    """docs/protocol.md, Storage: a table whose game no longer replays (another rules_version, or a
    game this server does not have) is left out of the lists; opening it is refused, never a 500."""
    config = make_config(db_url)
    with ThreadServer(config) as first, first.http() as http:
        good = create_table(http, TOY, [HUMAN, HUMAN])
    storage = Storage(db_url)
    try:
        loaded = storage.load_table(good["id"])
        assert loaded is not None
        old = dataclasses.replace(loaded, id="old-rules", rules_version=loaded.rules_version + 1)
        gone = dataclasses.replace(loaded, id="no-such-game", game="nosuchgame")
        storage.create_tables([old, gone])
    finally:
        storage.close()
    with ThreadServer(config) as server, server.http() as http:
        lobby = http.get("/api/tables")
        assert lobby.status_code == 200, lobby.text
        assert [t["id"] for t in lobby.json()["open"]] == [good["id"]]
        for table_id in ("old-rules", "no-such-game"):
            answer = http.get(f"/api/tables/{table_id}")
            assert answer.status_code in (404, 409), answer.text


# -- issue #15 (2): integers past 64 bits ----------------------------------------------------------


def test_every_integer_option_refuses_values_past_its_bounds(tmp_path: Path) -> None:
    """issue #15 (2): every integer option of every game accepted 2**64 (the table was made, then
    every websocket to it closed 1006), and Tokkuri's start_points = 2**64 − 1 overflowed mid-game.
    Now each is a 400 that names the option and the bound it passes; GET /api/games shows the bounds."""
    specs = int_options()
    with app_client(tmp_path, **UNLIMITED) as client:
        games = {g["name"]: g for g in client.get("/api/games").json()}
        for game, spec in specs:
            shown = next(o for o in games[game]["options"] if o["name"] == spec.name)
            assert (shown["min"], shown["max"]) == (spec.lo, spec.hi), (game, spec.name)
            n, seats = humans(game)
            for value, bound in (
                (2**64, f"at most {spec.hi}"),
                (2**64 - 1, f"at most {spec.hi}"),
                (2**63, f"at most {spec.hi}"),
                (10**30, f"at most {spec.hi}"),
                (spec.hi + 1, f"at most {spec.hi}"),
                (-(2**64), f"at least {spec.lo}"),
                (spec.lo - 1, f"at least {spec.lo}"),
            ):
                response = client.post("/api/tables", json=table_body(game, n, {spec.name: value}, seats))
                assert response.status_code == 400, (game, spec.name, value, response.text)
                detail = detail_of(response)
                assert spec.name in detail and bound in detail, (game, spec.name, value, detail)
        # Numbers inside structured options are bounded too.
        for game, options in (
            ("tokkuri", {"start_points": 2**64 - 1}),
            ("tokkuri", {"penalty_points": 2**64}),
            ("hangover", {"drunk_limit": 2**64}),
            ("troika", {"chips": [2**64, 1, -1]}),
            ("troika", {"tile_counts": {"1": 2**64}}),
            ("tottarot", {"deck": [{"code": "A", "points": 2**64, "copies": 3}]}),
            (
                "tokkuri",
                {"deck": [{"code": "A", "kind": "number", "slots": [2**64], "effect": "none", "copies": 30}]},
            ),
        ):
            n, seats = humans(game)
            response = client.post("/api/tables", json=table_body(game, n, options, seats))
            assert response.status_code == 400, (game, options, response.text)
            assert "out of range" in detail_of(response)
        # And the table's own integers (422: the shape of the body).
        for players in (2**64, -(2**64), 10**30):
            response = client.post(
                "/api/tables", json=table_body(TOY, 2, {}, [HUMAN, HUMAN]) | {"players": players}
            )
            assert response.status_code == 422, response.text
        assert client.get("/api/tables").json() == {"open": [], "recent": []}


def test_integer_options_at_their_bounds_make_tables_that_serve_views(tmp_path: Path) -> None:
    """issue #15 (2): at its bound an option is accepted (unless another option rules it out, which
    the answer then says), and the table's views reach a websocket (a value past 64 bits made every
    socket close 1006); a Tokkuri game at the largest start_points plays on."""
    with app_client(tmp_path, **UNLIMITED) as client:
        made = 0
        for game, spec in int_options():
            n, seats = humans(game)
            for value in (spec.lo, spec.hi):
                response = client.post("/api/tables", json=table_body(game, n, {spec.name: value}, seats))
                if response.status_code == 400:  # other options rule it out here, not its own bounds
                    detail = detail_of(response)
                    assert not re.search(rf"at most {spec.hi}(?!\d)|at least {spec.lo}(?!\d)", detail), detail
                    continue
                assert response.status_code == 201, (game, spec.name, value, response.text)
                made += 1
                created = response.json()
                # an option a record leaves out is at its default (Hangover's options added later, #54)
                assert created["table"]["options"].get(spec.name, spec.default) == value
                with seat_ws(client, created["id"], created["seats"][0]["token"]) as (_ws, view):
                    assert view["view"]["options"].get(spec.name, spec.default) == value
        assert made >= len(int_options())  # most bounds are fine on their own
        body = table_body("tokkuri", 2, {"start_points": 1_000_000, "penalty_points": 1_000_000})
        created = client.post("/api/tables", json=body).json()
        with contextlib.ExitStack() as stack:
            conns = [
                stack.enter_context(seat_ws(client, created["id"], s["token"])) for s in created["seats"]
            ]
            rng = random.Random(15)
            seq = 0
            for _ in range(12):
                mover = next((i for i, (_, v) in enumerate(conns) if v["view"].get("legal_actions")), None)
                if mover is None:
                    break
                action = rng.choice(conns[mover][1]["view"]["legal_actions"])["id"]
                conns[mover][0].send_text(json.dumps({"type": "action", "action": action, "seq": seq}))
                seq += 1
                conns = [(ws, FuzzTable.next_view(ws, seq)) for ws, _ in conns]
                assert all(max(v["view"]["scores"]) <= 2**53 for _, v in conns)
            assert seq > 0


# -- issue #15 (3): deep nesting -------------------------------------------------------------------


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_deeply_nested_json_is_malformed_and_the_connection_stays_open(server: ThreadServer) -> None:
    """issue #15 (3): an array nested 1,500–2,000 deep (under 4 KiB) raised RecursionError and closed
    the socket. Now it is `malformed` and the connection stays open; as the first message it is
    `malformed` and the close 4400; in POST /api/tables it is a 422."""
    with server.http() as http:
        created = create_table(http, TOY, [HUMAN, HUMAN])
        for body in (
            nested(1800),
            to_json(table_body(TOY, 2, Raw('{"tricks": ' * 1500 + "1" + "}" * 1500))),
            to_json(table_body(TOY, 2, {}, Raw(nested(2000)))),
            to_json(table_body(TOY, 2, {"tricks": Raw(nested(1600))})),
        ):
            response = post_raw(http, body)
            assert response.status_code == 422, response.text
            assert "nested" in detail_of(response)
        assert len(http.get("/api/tables").json()["open"]) == 1
    table_id, token = created["id"], created["seats"][0]["token"]
    with Player(server.ws_url, table_id, token) as me:
        me.view_at_least(0)
        for message in (
            nested(1500),
            nested(2000),
            to_json({"type": "action", "action": Raw(nested(2000))}),
            to_json({"type": "ping", "x": Raw('{"a":' * 600 + "1" + "}" * 600)}),
        ):
            assert len(message.encode()) < 4096
            me.send(message)
            error = me.recv_until("error", timeout=10)
            assert error["code"] == "malformed" and "nested" in error["message"], error
        me.send({"type": "ping"})
        assert me.recv_until("pong", timeout=10)["seq"] == 0
    for first in (nested(2000), to_json({"type": "hello", "token": Raw(nested(1900))})):
        with connect(f"{server.ws_url}/ws/tables/{table_id}", open_timeout=20) as ws:
            ws.send(first)
            error = json.loads(ws.recv(timeout=10))
            assert error["type"] == "error" and error["code"] == "malformed", error
            with pytest.raises(ConnectionClosed):
                ws.recv(timeout=10)
            assert ws.close_code == 4400


# -- issue #15 (4): options named as table fields --------------------------------------------------


def test_options_named_as_fields_of_the_table_are_refused(tmp_path: Path) -> None:
    """issue #15 (4): options named `players` or `name` made table creation raise TypeError (500).
    Now 400 saying it is a field of the table, for every such name, in every game."""
    with app_client(tmp_path, **UNLIMITED) as client:
        for game in bodoge.games():
            n, seats = humans(game)
            for name, value in (
                ("players", n),
                ("name", "x"),
                ("seed", 1),
                ("game", game),
                ("seats", []),
                ("options", {}),
            ):
                response = client.post("/api/tables", json=table_body(game, n, {name: value}, seats))
                assert response.status_code == 400, (game, name, response.text)
                assert "field of the table" in detail_of(response)
        assert client.get("/api/tables").json() == {"open": [], "recent": []}


# -- issue #15 (5) and (6): expensive tables -------------------------------------------------------


def test_a_tiny_body_asking_for_a_huge_deck_is_refused_at_once(tmp_path: Path) -> None:
    """issue #15 (5): a 200-byte create (a Tokkuri deck with `copies: 80000`) took 12.8 s and froze
    every other request. Now it is refused (400, naming the bound) at once."""
    card = {"code": "x", "kind": "number", "slots": [1], "effect": "none", "copies": 80000}
    body = json.dumps(table_body("tokkuri", 2, {"deck": [card]}))
    assert len(body) < 250
    with app_client(tmp_path, **UNLIMITED) as client:
        for copies in (80000, 51, 2**64):
            start = time.monotonic()
            response = post_raw(client, body.replace("80000", str(copies)))
            took = time.monotonic() - start
            assert response.status_code == 400, response.text
            assert re.search(r"copies.*at most \d+", detail_of(response)), detail_of(response)
            assert took < 5, f"refusing copies={copies} took {took:.1f} s"


def _allowed(game: str, players: int, options: dict[str, Any]) -> bool:
    try:
        bodoge.make(game, players, **options).new_state(seed=0)
    except (BodogeError, ValueError):
        return False
    return True


def largest_options(game: str, players: int) -> dict[str, Any]:
    """The heaviest options the bounds allow: the structured options as large as they are allowed
    (the first of these candidates, largest first, that the game accepts), then every integer
    option at its `hi` where the others still allow it."""
    names = [f"n{i:03d}" for i in range(200)]
    trouble = {"code": "trouble", "kind": "trouble", "slots": [], "effect": "none", "copies": 1}
    candidates: dict[str, list[dict[str, Any]]] = {
        "tokkuri": [
            {
                "deck": [
                    {"code": c, "kind": "number", "slots": [100] * k, "effect": "none", "name_en": "x" * 64}
                    for c in names[:199]
                ]
                + [trouble]
            }
            for k in range(8, 0, -1)
        ],
        "tottarot": [
            {
                "deck": [
                    {"code": c, "points": 10**6, "copies": 1, "icon": "SHARE", "name_en": "x" * 64}
                    for c in names
                ]
            }
        ],
        "troika": [{"tile_counts": {str(t): 20 for t in range(1, 16)}, "chips": [10**6, 10**6, -(10**6)]}],
        "hangover": [{"removed_numbers": [], "snack_deck": ["-4/+4"] * 60, "drunk_limit": 1000}],
    }
    options = next((c for c in candidates.get(game, []) if _allowed(game, players, c)), {})
    assert options or game not in candidates, f"no heavy {game} options are allowed any more"
    for spec in game_class(game).option_specs:
        hi = getattr(spec, "hi", None)
        if hi is not None and _allowed(game, players, trial := {**options, spec.name: hi}):
            options = trial
    return options


def test_health_answers_while_the_largest_allowed_tables_are_made(tmp_path: Path) -> None:
    """issue #15 (5): while the largest tables the bounds allow are being made, over and over from two
    clients, GET /api/health keeps answering quickly (the acceptance criterion of the issue; a very
    generous threshold, over many samples). The server is `bodoge serve` in a process of its own, as it
    runs: in the test's process its event loop would share one interpreter lock with the clients' and
    the probe's threads, and a busy machine then timed the test's threads, not the server (1.17 s once
    on CI)."""
    bodies = []
    for game in bodoge.games():
        if game == TOY:
            continue
        n = game_class(game).max_players
        body = table_body(game, n, largest_options(game, n))
        assert len(json.dumps(body)) < Limits().max_body
        bodies.append(body)
    server = ProcessServer(
        f"sqlite:///{tmp_path / 'health.db'}",
        free_port(),
        tmp_path / "serve.log",
        extra=("--create-rate", UNLIMITED["create_rate"], "--open-tables", str(UNLIMITED["open_tables"])),
    )
    server.start()
    try:
        made: list[float] = []
        problems: list[str] = []
        stop = threading.Event()

        def creator() -> None:
            """Make the largest tables again and again, and watch each: its first view too."""
            try:
                make_and_watch()
            except Exception as exc:  # reported by the test, not lost with the thread
                problems.append(repr(exc))

        def make_and_watch() -> None:
            with httpx.Client(base_url=server.url, timeout=30) as http:
                while not stop.is_set():
                    for body in bodies:
                        start = time.monotonic()
                        response = http.post("/api/tables", json=body)
                        made.append(time.monotonic() - start)
                        if response.status_code != 201:
                            problems.append(f"{body['game']}: {response.status_code} {response.text[:300]}")
                            continue
                        with connect(
                            f"{server.ws_url}/ws/tables/{response.json()['id']}", max_size=2**24
                        ) as ws:
                            ws.send('{"type": "hello", "token": null}')
                            while json.loads(ws.recv(timeout=30))["type"] != "view":
                                pass

        with HealthProbe(server.url) as probe:
            creators = [threading.Thread(target=creator) for _ in range(2)]
            for t in creators:
                t.start()
            deadline = time.monotonic() + 60
            while (len(probe.latencies) < 100 or len(made) < 4 * len(bodies)) and time.monotonic() < deadline:
                time.sleep(0.05)
            stop.set()
            for t in creators:
                t.join(timeout=120)
        assert not problems, problems
        assert len(made) >= 4 * len(bodies)
        probe.check(samples=100, limit=1.0)
        with httpx.Client(base_url=server.url, timeout=30) as http:
            assert len(http.get("/api/tables?limit=200").json()["open"]) == min(200, len(made))
    finally:
        server.stop()


def test_hangover_trick_past_its_bound_is_refused(tmp_path: Path) -> None:
    """issue #15 (6): `hangover_trick = 300000` was accepted (a 3.2 s create, a 1.8 MB view). Now 400,
    naming the bound; the bound itself is accepted and its view is small."""
    spec = next(s for s in game_class("hangover").option_specs if s.name == "hangover_trick")
    with app_client(tmp_path, **UNLIMITED) as client:
        for value in (300000, spec.hi + 1, 2**64):
            start = time.monotonic()
            response = client.post("/api/tables", json=table_body("hangover", 3, {"hangover_trick": value}))
            assert response.status_code == 400, response.text
            assert f"at most {spec.hi}" in detail_of(response) and "hangover_trick" in detail_of(response)
            assert time.monotonic() - start < 5
        response = client.post("/api/tables", json=table_body("hangover", 3, {"hangover_trick": spec.hi}))
        assert response.status_code == 201, response.text
        created = response.json()
        with seat_ws(client, created["id"], created["seats"][0]["token"]) as (_ws, view):
            assert view["view"]["options"]["hangover_trick"] == spec.hi
            assert len(json.dumps(view)) < 100_000


# -- websocket limits ------------------------------------------------------------------------------


def test_a_client_sending_faster_than_the_message_rate_is_closed_1008(tmp_path: Path) -> None:
    with live(tmp_path, message_rate="5/second") as server, server.http() as http:
        created = create_table(http, TOY, [HUMAN, HUMAN])
        with Player(server.ws_url, created["id"], created["seats"][0]["token"]) as me:
            me.view_at_least(0)
            for _ in range(3):  # within the rate: answered
                me.send({"type": "ping"})
                me.recv_until("pong", timeout=10)
            # The server may close it while the burst is still being sent: then a send raises.
            with pytest.raises(ConnectionClosed):
                for _ in range(10):
                    me.send({"type": "ping"})
                me.quiet(10)
                me.recv(10)
            assert me.ws.close_code == 1008
            assert "5/second" in (me.ws.close_reason or "")
        # Only that connection: the table and new connections are fine.
        with Player(server.ws_url, created["id"], created["seats"][0]["token"]) as again:
            again.send({"type": "ping"})
            assert again.recv_until("pong", timeout=10)["seq"] == 0


def seat_1_connected(message: dict[str, Any]) -> bool | None:
    """Whether a `table` message shows seat 1 connected (None for other messages)."""
    return message["table"]["seats"][1]["connected"] if message["type"] == "table" else None


def test_a_client_that_never_reads_and_keeps_sending_is_closed_1008(tmp_path: Path) -> None:
    """Answers pile up for a client that sends but does not read (its TCP window is small); it is
    closed with 1008 once too many wait. The message rate is set high here, so that it is not what
    closes it; each message is an unknown type, whose refusal is ~100 bytes."""
    with live(tmp_path, message_rate="1000000/second") as server, server.http() as http:
        created = create_table(http, TOY, [HUMAN, HUMAN])
        table_id, token = created["id"], created["seats"][1]["token"]

        with Player(server.ws_url, table_id, None) as watcher, small_window_socket(server, table_id) as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            while seat_1_connected(watcher.recv(10)) is not True:
                pass
            unknown = json.dumps({"type": "x" * 40})
            gone = False
            start = time.monotonic()
            deadline = start + 60
            how = "never detached (60 s)"
            try:
                while not gone and time.monotonic() < deadline:
                    for _ in range(1000):
                        ws.send(unknown)
                    gone = any(seat_1_connected(m) is False for m in watcher.quiet(0.002))
                how = f"detached after {time.monotonic() - start:.1f} s"
            except ConnectionClosed:
                how = f"closed while it was still sending, after {time.monotonic() - start:.1f} s"
            answers = read_until_closed(ws)
            # (`how` and the answers read tell a failure's way apart: never detached, or detached
            # without its close arriving)
            assert ws.close_code == 1008, (
                ws.close_code,
                ws.close_reason,
                how,
                f"{len(answers)} answers read",
            )
            assert "read" in (ws.close_reason or "")
        assert http.get("/api/health").json()["ok"]


def test_a_burst_from_a_client_that_reads_is_answered(tmp_path: Path) -> None:
    """A client that reads everything and sends 100 pings at once (one TCP write, within a message
    rate of 1000/second) gets its 100 pongs; it must not be taken for one that does not read."""
    with live(tmp_path, message_rate="1000/second") as server, server.http() as http:
        created = create_table(http, TOY, [HUMAN, HUMAN])
        with Player(server.ws_url, created["id"], created["seats"][1]["token"]) as me:
            me.view_at_least(0)
            me.ws.socket.sendall(masked_frame('{"type": "ping"}') * 100)
            pongs = 0
            try:
                while pongs < 100:
                    if me.recv(10)["type"] == "pong":
                        pongs += 1
            except ConnectionClosed:
                pytest.fail(
                    f"closed {me.ws.close_code} ({me.ws.close_reason!r}) after {pongs} of 100 pongs, "
                    "though it reads everything"
                )


def test_a_client_that_never_takes_its_close_is_dropped(tmp_path: Path) -> None:
    """A client closed for not reading, that goes on reading nothing, cannot take the close either:
    the server drops its TCP connection (documented: within 10 s) rather than hold it for ever."""
    if not PROC_NET_TCP.exists() or sys.byteorder != "little":
        pytest.skip("needs Linux's /proc/net/tcp to see the server's end of a connection")
    with live(tmp_path, message_rate="1000000/second") as server, server.http() as http:
        created = create_table(http, TOY, [HUMAN, HUMAN])
        table_id, token = created["id"], created["seats"][1]["token"]

        with Player(server.ws_url, table_id, None) as watcher, raw_websocket(server, table_id) as sock:
            sock.sendall(masked_frame(json.dumps({"type": "hello", "token": token})))
            while seat_1_connected(watcher.recv(10)) is not True:
                pass
            sock.setblocking(False)
            burst = masked_frame(json.dumps({"type": "x" * 40})) * 100
            pending = b""
            deadline = time.monotonic() + 60
            while True:  # send, never read, until the server gives up on it
                assert time.monotonic() < deadline, "the server never closed a client that reads nothing"
                with contextlib.suppress(BlockingIOError):
                    data = pending or burst
                    pending = data[sock.send(data) :]
                if any(seat_1_connected(m) is False for m in watcher.quiet(0.005)):
                    break
            closed_at = time.monotonic()
            # It still reads nothing, so it cannot see a close: the kernel says when the server let go.
            # Let go with a reset: the server's end is gone at once, not left offering its unsent
            # bytes (FIN-WAIT-1) to a client that reads nothing.
            assert server_end_state(server, sock) == TCP_ESTABLISHED
            while server_end_state(server, sock) is not None:
                held = time.monotonic() - closed_at
                assert held < 20, (
                    f"the server still holds a client that reads nothing {held:.0f} s after closing it"
                )
                time.sleep(0.1)
        assert http.get("/api/health").json()["ok"]


def test_a_message_over_4096_bytes_is_too_large_and_a_frame_over_64_kib_closes_1009(
    server: ThreadServer,
) -> None:
    with server.http() as http:
        created = create_table(http, TOY, [HUMAN, HUMAN])
    with Player(server.ws_url, created["id"], created["seats"][0]["token"]) as me:
        me.view_at_least(0)
        for message in (
            json.dumps({"type": "ping", "pad": "x" * 4100}),
            '{"type": "ping", "pad": "%s"}' % ("酒" * 1400),  # 1,400 characters, 4,200 bytes
            "x" * 65000,
        ):
            me.send(message)
            error = me.recv_until("error", timeout=10)
            assert error["code"] == "too_large", error
        me.send('{"type": "ping", "pad": "%s"}' % ("x" * 4000))  # just under: answered
        assert me.recv_until("pong", timeout=10)["seq"] == 0
        me.ws.send("x" * (65536 + 1))
        with pytest.raises(ConnectionClosed):
            me.quiet(10)
            me.recv(10)
        assert me.ws.close_code == 1009


def test_a_binary_frame_is_malformed_and_the_connection_stays_open(server: ThreadServer) -> None:
    with server.http() as http:
        created = create_table(http, TOY, [HUMAN, HUMAN])
    with Player(server.ws_url, created["id"], created["seats"][0]["token"]) as me:
        me.view_at_least(0)
        for data in (b'{"type": "ping"}', b"\x00\xff" * 100, b""):
            me.ws.send(data)
            error = me.recv_until("error", timeout=10)
            assert error["code"] == "malformed" and "binary" in error["message"], error
        me.send({"type": "ping"})
        assert me.recv_until("pong", timeout=10)["seq"] == 0


def test_spectators_coming_and_going_never_close_a_seat_that_does_not_read(tmp_path: Path) -> None:
    """Fair queues: 320 spectators connect and leave while a seated player reads nothing (its TCP
    window is tiny, so the server's sends to it back up). Its connection is not closed, and once it
    reads it gets the newest view and table summary, not a backlog of one summary per coming and
    going. (The summary is large here, a Tokkuri table with a 150-card deck, so the backlog would be
    tens of megabytes.)"""
    deck = [
        {
            "code": f"d{i:03d}",
            "kind": "dummy",
            "slots": [],
            "effect": "none",
            "copies": 1,
            "name_en": "x" * 64,
            "name_ja": "酒" * 64,
        }
        for i in range(150)
    ] + [{"code": "n1", "kind": "number", "slots": [1], "effect": "none", "copies": 1}]
    churn = 320
    with live(tmp_path) as server, server.http() as http:
        created = create_table(http, "tokkuri", [HUMAN, HUMAN, HUMAN], deck=deck)
        table_id, tokens = created["id"], [s["token"] for s in created["seats"]]
        with small_window_socket(server, table_id) as slow, Player(server.ws_url, table_id, tokens[0]) as p0:
            slow.send(json.dumps({"type": "hello", "token": tokens[2]}))
            view = p0.view_at_least(0)
            for i in range(churn):
                with connect(
                    f"{server.ws_url}/ws/tables/{table_id}", open_timeout=20, max_size=2**24
                ) as spectator:
                    spectator.send('{"type": "hello", "token": null}')
                    if i % 4 == 0:
                        spectator.recv(timeout=10)
                if i == churn // 2:  # the table moves on meanwhile
                    p0.send({"type": "action", "action": view["view"]["legal_actions"][0]["id"], "seq": 0})
            deadline = time.monotonic() + 10
            while (summary := http.get(f"/api/tables/{table_id}").json())["spectators"]:
                assert time.monotonic() < deadline, summary  # the last one's leaving is a moment late
                time.sleep(0.02)
            assert summary["moves"] == 1
            got = []
            with contextlib.suppress(TimeoutError):
                while True:
                    got.append(json.loads(slow.recv(timeout=1)))
            kinds = [m["type"] for m in got]
            assert kinds[0] == "welcome" and kinds.count("welcome") == 1
            views = [m for m in got if m["type"] == "view"]
            tables = [m["table"] for m in got if m["type"] == "table"]
            assert views[-1]["seq"] == 1 and views[-1]["view"]["seat"] == 2
            assert [v["seq"] for v in views] == sorted({v["seq"] for v in views})
            assert tables[-1]["spectators"] == 0 and tables[-1]["moves"] == 1
            assert [s["connected"] for s in tables[-1]["seats"]] == [True, False, True]
            assert len(tables) < 2 * churn * 0.75, (
                f"{len(tables)} summaries for {2 * churn} comings and goings"
            )
            slow.send('{"type": "ping"}')
            assert json.loads(slow.recv(timeout=10)) == {"type": "pong", "seq": 1}
            p0.quiet(0.3)  # it read nothing either: drained, it closes at once


def test_websockets_per_address_are_limited(tmp_path: Path) -> None:
    with live(tmp_path, ws_per_address=3) as server, server.http() as http:
        table_id = create_table(http, TOY, [HUMAN, HUMAN])["id"]
        opened = [Player(server.ws_url, table_id, None) for _ in range(3)]
        try:
            for p in opened:
                p.view_at_least(0)
            with connect(f"{server.ws_url}/ws/tables/{table_id}", open_timeout=20) as fourth:
                error = json.loads(fourth.recv(timeout=10))
                assert error["type"] == "error" and error["code"] == "too_many_connections", error
                with pytest.raises(ConnectionClosed):
                    fourth.recv(timeout=10)
                assert fourth.close_code == 1008
            opened.pop().close()
            deadline = time.monotonic() + 10
            while True:  # the closed one is counted off as its handler ends: a moment after the close
                with connect(f"{server.ws_url}/ws/tables/{table_id}", open_timeout=20) as again:
                    with contextlib.suppress(ConnectionClosed):  # refused: maybe closed already
                        again.send('{"type": "hello", "token": null}')
                    first = json.loads(again.recv(timeout=10))  # its refusal came before the close
                if first["type"] == "welcome":
                    break
                assert first["code"] == "too_many_connections" and time.monotonic() < deadline
                time.sleep(0.05)
        finally:
            for p in opened:
                p.close()


def test_websocket_origin_is_checked_at_the_handshake(tmp_path: Path) -> None:
    with live(tmp_path) as server, server.http() as http:
        table_id = create_table(http, TOY, [HUMAN, HUMAN])["id"]
        url = f"{server.ws_url}/ws/tables/{table_id}"
        for origin in (
            "http://evil.example",
            "null",
            f"http://127.0.0.1:{server.port}.evil.example",
            "https://127.0.0.1",
        ):
            with pytest.raises(InvalidStatus) as refused:
                connect(url, origin=Origin(origin), open_timeout=20)
            assert refused.value.response.status_code == 403, origin
        for same in (Origin(f"http://127.0.0.1:{server.port}"), None):
            with connect(url, origin=same, open_timeout=20) as ws:
                ws.send('{"type": "hello", "token": null}')
                assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
    with live(tmp_path, allow_origins=["http://evil.example"]) as server:
        with connect(
            f"{server.ws_url}/ws/tables/{table_id}",
            origin=Origin("http://evil.example"),
            open_timeout=20,
        ) as ws:
            ws.send('{"type": "hello", "token": null}')
            assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
        with pytest.raises(InvalidStatus):
            connect(
                f"{server.ws_url}/ws/tables/{table_id}",
                origin=Origin("http://other.example"),
                open_timeout=20,
            )


# -- HTTP limits -----------------------------------------------------------------------------------


def test_a_body_over_the_limit_is_413(tmp_path: Path) -> None:
    limit = Limits().max_body
    with live(tmp_path) as server, server.http() as http:
        big = json.dumps(table_body(TOY, 2) | {"pad": "x" * limit}).encode()
        response = post_raw(http, big)
        assert response.status_code == 413 and str(limit) in detail_of(response)

        def chunked(data: bytes) -> bytes:
            parts = [data[i : i + 4096] for i in range(0, len(data), 4096)]
            return b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in parts) + b"0\r\n\r\n"

        head = b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        status, answer = raw_http(server.port, head + b"Transfer-Encoding: chunked\r\n\r\n" + chunked(big))
        assert status == 413, answer
        # A Content-Length that claims more than the limit is refused before any body is read.
        for claimed in (b"%d" % (limit + 1), b"1000000000000", b"9223372036854775807"):
            start = time.monotonic()
            status, answer = raw_http(server.port, head + b"Content-Length: " + claimed + b"\r\n\r\n{}")
            assert status == 413, (claimed, answer)
            assert time.monotonic() - start < 5
        # Lengths the HTTP layer itself cannot read are its 400, never a 5xx.
        for claimed in (b"99999999999999999999999999", b"-1", b"abc"):
            status, answer = raw_http(server.port, head + b"Content-Length: " + claimed + b"\r\n\r\n{}")
            assert status in (400, 413), (claimed, answer)
        # A Content-Length smaller than the body: only that much is read, which is not JSON.
        status, answer = raw_http(
            server.port, head + b"Content-Length: 5\r\nConnection: close\r\n\r\n" + big[:2000]
        )
        assert status == 422, answer
        assert http.get("/api/tables").json() == {"open": [], "recent": []}
        assert http.get("/api/health").json()["ok"]


def test_table_creation_is_rate_limited_per_address(tmp_path: Path) -> None:
    with app_client(tmp_path, create_rate="3/minute") as client:
        statuses = [
            client.post("/api/tables", json=table_body(TOY, 2, {}, [RANDOM_BOT] * 2)).status_code
            for _ in range(3)
        ]
        assert statuses == [201, 201, 201]
        response = client.post("/api/tables", json=table_body(TOY, 2, {}, [RANDOM_BOT] * 2))
        assert response.status_code == 429
        assert "3/minute" in detail_of(response)
        retry_after = response.headers["retry-after"]
        assert retry_after.isdigit() and 1 <= int(retry_after) <= 60
        # A refused (bad) body counts too: the limit is on attempts.
        assert client.post("/api/tables", content=b"{").status_code == 429


def test_open_tables_per_address_are_limited(tmp_path: Path) -> None:
    with app_client(tmp_path, open_tables=2) as client:
        for _ in range(2):
            assert client.post("/api/tables", json=table_body(TOY, 2)).status_code == 201
        response = client.post("/api/tables", json=table_body(TOY, 2))
        assert response.status_code == 429
        assert "2 tables" in detail_of(response)
        assert response.headers["retry-after"].isdigit() and int(response.headers["retry-after"]) >= 1
        assert len(client.get("/api/tables").json()["open"]) == 2


def test_security_headers_on_pages_and_api(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        for path in ("/", "/t/x", "/r/x", "/api/tables", "/api/tables/nope", "/static/table.js"):
            response = client.get(path)
            assert response.status_code in (200, 404), path
            csp = response.headers["content-security-policy"]
            directives = {d.split()[0]: d.split()[1:] for d in csp.split(";") if d.strip()}
            script = directives.get("script-src", directives.get("default-src"))
            assert script and "'unsafe-inline'" not in script and "'unsafe-eval'" not in script, (path, csp)
            assert "*" not in script
            assert directives["frame-ancestors"] == ["'none'"], (path, csp)
            assert response.headers["x-content-type-options"] == "nosniff"
            assert response.headers["referrer-policy"]
        response = client.post("/api/tables", content=b"x" * (Limits().max_body + 1))
        assert (
            response.status_code == 413
            and "frame-ancestors 'none'" in response.headers["content-security-policy"]
        )


# -- tables left alone, bots that fail, replays ----------------------------------------------------


def test_an_idle_table_is_abandoned_and_its_record_kept(tmp_path: Path) -> None:
    with live(tmp_path, idle_timeout=0.5) as server, server.http() as http:
        created = create_table(http, TOY, [HUMAN, HUMAN])
        table_id, tokens = created["id"], [s["token"] for s in created["seats"]]
        moved = 0
        with Player(server.ws_url, table_id, tokens[0]) as p0:
            view = p0.view_at_least(0)
            p0.send({"type": "action", "action": view["view"]["legal_actions"][0]["id"], "seq": 0})
            deadline = time.monotonic() + 10
            while True:  # the move (unless the table was abandoned first), then the news
                message = p0.recv(max(0.1, deadline - time.monotonic()))
                if message["type"] == "view" and message["seq"] == 1:
                    moved = 1
                if message["type"] == "table" and message["table"]["status"] == "abandoned":
                    break
        summary = http.get(f"/api/tables/{table_id}").json()
        assert summary["status"] == "abandoned" and summary["moves"] == moved
        lobby = http.get("/api/tables").json()
        assert table_id in [t["id"] for t in lobby["recent"]]
        assert table_id not in [t["id"] for t in lobby["open"]]
        with Player(server.ws_url, table_id, tokens[moved]) as to_move:  # the seat whose turn it was
            legal = to_move.view_at_least(moved)["view"]["legal_actions"]
            to_move.send({"type": "action", "action": legal[0]["id"], "seq": moved})
            assert to_move.recv_until("error", timeout=10)["code"] == "abandoned"
        record = http.get(f"/api/tables/{table_id}/record").json()
        assert len(record["actions"]) == moved and record["result"] is None
        state = bodoge.replay(record)
        assert not state.is_terminal and len(state.history) == moved
        for k in range(moved + 1):
            answer = http.get(f"/api/tables/{table_id}/replay", params={"move": k})
            assert answer.status_code == 200, answer.text
            assert answer.json()["moves"] == moved and answer.json()["move"] == k
        assert answer.json()["views"] == [roundtrip(state.view(seat)) for seat in range(2)]
        assert http.get(f"/api/tables/{table_id}/replay", params={"move": moved + 1}).status_code == 400


def test_bots_that_fail_every_move_still_finish_the_game(tmp_path: Path) -> None:
    with live(tmp_path) as server, server.http() as http:
        created = create_table(http, TOY, [BROKEN_BOT, BROKEN_BOT, BROKEN_BOT])
        deadline = time.monotonic() + 60
        while (summary := http.get(f"/api/tables/{created['id']}").json())["status"] == "playing":
            assert time.monotonic() < deadline, summary
            time.sleep(0.05)
        assert summary["status"] == "over" and summary["result"]["winners"]
        record = http.get(f"/api/tables/{created['id']}/record").json()
        assert bodoge.replay(record).is_terminal and len(record["actions"]) == 9


def test_replay_steps_are_right_and_health_answers_meanwhile(tmp_path: Path) -> None:
    """Many /replay steps of a finished game, in any order (served from the position cache), each
    exactly the replay of the record cut at that move; GET /api/health answers during them."""
    game, n = "troika", 2  # one round of random play: usually 30-odd moves, sometimes fewer
    with live(tmp_path) as server, server.http() as http:
        deadline = time.monotonic() + 120
        moves = 0
        while moves <= 16:  # more than the cache's spacing: a random game can end early, so play on
            table_id = create_table(http, game, [RANDOM_BOT] * n, rounds=1)["id"]
            while http.get(f"/api/tables/{table_id}").json()["status"] != "over":
                assert time.monotonic() < deadline
                time.sleep(0.05)
            record = http.get(f"/api/tables/{table_id}/record").json()
            moves = len(record["actions"])
        steps = list(range(moves + 1)) * 2
        random.Random(7).shuffle(steps)
        with HealthProbe(server.url) as probe:
            for i, k in enumerate(steps):
                state = bodoge.replay({**record, "actions": record["actions"][:k], "result": None})
                if i % 3 == 0:
                    seat = i % n
                    answer = http.get(
                        f"/api/tables/{table_id}/replay", params={"move": k, "seat": seat}
                    ).json()
                    assert answer["view"] == roundtrip(state.view(seat)), (k, seat)
                else:
                    answer = http.get(f"/api/tables/{table_id}/replay", params={"move": k}).json()
                    assert answer["views"] == [roundtrip(state.view(p)) for p in range(n)], k
                    assert answer["view"] == roundtrip(state.view(None)), k
                assert (answer["move"], answer["moves"], answer["game"]) == (k, moves, game)
        probe.check(samples=5, limit=1.0)
        for params in ({"move": moves + 1}, {"move": -1}, {"seat": str(n)}, {"seat": "-1"}, {"seat": "x"}):
            assert http.get(f"/api/tables/{table_id}/replay", params=params).status_code == 400, params


# -- fuzzing ---------------------------------------------------------------------------------------


OPTION_NAMES = sorted({spec.name for g in bodoge.games() for spec in game_class(g).option_specs})


BOT_SPECS = st.sampled_from(["random", "heuristic", "nope", "random:x=1", "heuristic:seed=1"])


@st.composite
def _plausible_bodies(draw: st.DrawFn) -> dict[str, Any]:
    """A body of the right shape (a game, its player count, one seat each) with hostile option
    values: near and past each integer option's bounds, huge, of the wrong type, nested..."""
    game = draw(st.sampled_from(bodoge.games()))
    cls = game_class(game)
    n = draw(st.integers(cls.min_players, cls.max_players))
    specs = {spec.name: spec for spec in cls.option_specs}
    options = {}
    for name in draw(st.lists(st.sampled_from([*specs, "players", "name", "nope"]), max_size=3, unique=True)):
        spec = specs.get(name)
        if spec is None:
            near: st.SearchStrategy[Any] = st.just(1)
        elif getattr(spec, "hi", None) is not None:
            near = st.integers(spec.lo - 2, spec.hi + 2)
        else:
            near = st.just(spec.to_json(spec.convert(spec.default)))
        options[name] = draw(st.one_of(near, near, HUGE_INTS, JSON_VALUES))
    seat = st.fixed_dictionaries(
        {"kind": st.sampled_from(["human", "bot"])},
        optional={"name": st.one_of(st.none(), TEXTS), "spec": st.one_of(st.none(), BOT_SPECS, TEXTS)},
    )
    return {
        "game": game,
        "players": draw(st.one_of(st.just(n), st.just(n), st.none(), HUGE_INTS)),
        "options": options,
        "seats": draw(st.lists(seat, min_size=n, max_size=n)),
    }


def _create_bodies() -> st.SearchStrategy[bytes]:
    seat = st.one_of(
        st.fixed_dictionaries(
            {"kind": st.sampled_from(["human", "bot", "alien"])},
            optional={
                "name": st.one_of(TEXTS, JSON_VALUES),
                "spec": st.one_of(BOT_SPECS, TEXTS, JSON_VALUES),
            },
        ),
        JSON_VALUES,
    )
    options = st.one_of(
        st.dictionaries(
            st.one_of(st.sampled_from([*OPTION_NAMES, "players", "name", "seed", "nope"]), TEXTS),
            st.one_of(HUGE_INTS, JSON_VALUES),
            max_size=4,
        ),
        JSON_VALUES,
    )
    shaped = st.fixed_dictionaries(
        {},
        optional={
            "game": st.one_of(st.sampled_from(bodoge.games()), TEXTS, JSON_VALUES),
            "players": st.one_of(HUGE_INTS, JSON_VALUES),
            "options": options,
            "seats": st.one_of(st.lists(seat, max_size=5), JSON_VALUES),
            "pad": JSON_VALUES,
        },
    )
    plausible = _plausible_bodies()
    return st.one_of(
        st.one_of(plausible, plausible, plausible, shaped, JSON_VALUES).map(lambda v: to_json(v).encode()),
        st.binary(max_size=64),
        st.integers(65500, 70000).map(lambda n: b'{"game": "' + b"x" * n + b'"}'),
    )


FUZZ_SETTINGS = settings(
    # The same examples every run: the suites assert that the fuzzing reached every kind of answer,
    # which a random draw could miss, and CI must not flake on it.
    derandomize=True,
    deadline=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)


def table_state(client: TestClient, created: dict[str, Any]) -> tuple[Any, ...]:
    """A table's summary and its views (seat 0's and a spectator's) as a newcomer sees them."""
    table_id = created["id"]
    summary = client.get(f"/api/tables/{table_id}").json()
    # The people's story tells of this very visit (seat 0's connection below closes: "left"), so it is
    # not part of what must stay unchanged; it holds only such visits (checked by the caller).
    summary.pop("story", None)
    views = []
    for token in (created["seats"][0]["token"], None):
        with seat_ws(client, table_id, token) as (_ws, view):
            views.append(view)
    return summary, views


def test_fuzz_create_table_bodies(tmp_path: Path) -> None:
    """Arbitrary bodies for POST /api/tables (JSON of any shape at the top, in `options`, in `seats`;
    huge integers, NaN, lone surrogates, deep nesting, bytes that are not UTF-8, bodies over the
    limit): never a 5xx, every refusal says why; afterwards the lobby answers and a table made
    before is untouched."""
    with app_client(tmp_path, bot_delay=3600.0, **UNLIMITED) as client:  # bots never move here
        before = client.post("/api/tables", json=table_body(TOY, 2)).json()
        state = table_state(client, before)
        answered: dict[int, int] = {}

        @settings(FUZZ_SETTINGS, max_examples=400)
        @given(body=_create_bodies())
        def fuzz(body: bytes) -> None:
            response = post_raw(client, body)
            answered[response.status_code] = answered.get(response.status_code, 0) + 1
            assert response.status_code in (201, 400, 413, 422, 429), (body[:300], response.text[:300])
            if response.status_code != 201:
                detail_of(response)

        fuzz()
        assert answered.get(400) and answered.get(422) and answered.get(413), answered
        lobby = client.get("/api/tables?limit=200")
        assert lobby.status_code == 200
        assert before["id"] in [t["id"] for t in lobby.json()["open"]]
        assert table_state(client, before) == state
        story = client.get(f"/api/tables/{before['id']}").json()["story"]
        # Only seat 0's own visits: it left, came back and left again, nothing of the fuzz's bodies.
        assert [(line["what"], line["seat"]) for line in story] == [("left", 0), ("back", 0), ("left", 0)]


class LegalPick(NamedTuple):
    """A legal action of seat 0 at the time it is sent (its `nth`, if it has any; else the id
    0, which may well be illegal), with or without the view's `seq`."""

    nth: int
    with_seq: bool


def _ws_messages() -> st.SearchStrategy[str | bytes | LegalPick]:
    value = st.one_of(HUGE_INTS, JSON_VALUES)
    shaped = st.fixed_dictionaries(
        {
            "type": st.one_of(
                st.sampled_from(
                    [
                        "action",
                        "action",
                        "ping",
                        "hello",
                        "teleport",
                        "",
                        "name",
                        "chat",
                        "back",
                        "sync",
                        "rematch",
                    ]
                ),
                JSON_VALUES,
            )
        },
        optional={
            "action": st.one_of(st.integers(0, 11), value),
            "seq": st.one_of(st.integers(-1, 7), value),
            "token": value,
            "name": st.one_of(TEXTS, value),
            "text": st.one_of(TEXTS, value),
        },
    )
    return st.one_of(
        st.one_of(shaped, shaped, JSON_VALUES).map(to_json),
        st.builds(LegalPick, st.integers(0, 11), st.booleans()),
        TEXTS,
        st.integers(3990, 4300).map(lambda n: json.dumps({"type": "ping", "pad": "x" * n})),
        st.binary(max_size=40),
    )


def _parsed(message: str | bytes) -> Any:
    """The message as the standard JSON reader reads it (None where it cannot)."""
    try:
        return json.loads(message)
    except (ValueError, RecursionError):
        return None


class FuzzTable:
    """A two-seat table of the test game at which the fuzzing plays seat 0; the test plays seat 1
    (whenever it is its turn, so that the game goes on and seat 0 has legal actions again)."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.marker = 10**6
        self.stack = contextlib.ExitStack()
        self.seen: dict[str, int] = {}  # what the fuzzed messages were answered with
        self.new_table()

    def new_table(self) -> None:
        self.close()
        created = self.client.post("/api/tables", json=table_body(TOY, 2)).json()
        self.id = created["id"]
        self.tokens = [s["token"] for s in created["seats"]]
        opened = [self.stack.enter_context(seat_ws(self.client, self.id, t)) for t in self.tokens]
        self.conns = [ws for ws, _ in opened]
        self.views = [view for _, view in opened]

    def close(self) -> None:
        self.stack.close()

    @property
    def seq(self) -> int:
        return int(self.views[0]["seq"])

    def legal(self, seat: int) -> list[int]:
        return [a["id"] for a in self.views[seat]["view"].get("legal_actions") or []]

    def send(self, message: str | bytes | LegalPick) -> None:
        """Send one fuzzed message on seat 0 and check every answer to it."""
        if isinstance(message, LegalPick):
            legal = self.legal(0)
            pick = {"type": "action", "action": legal[message.nth % len(legal)] if legal else 0}
            message = json.dumps(pick | {"seq": self.seq} if message.with_seq else pick)
        ws = self.conns[0]
        if isinstance(message, bytes):
            ws.send_bytes(message)
        else:
            ws.send_text(message)
        # A marker after it: an action id that is never legal, echoed in its refusal. Whatever
        # comes before that refusal is the answer to the fuzzed message.
        self.marker += 1
        ws.send_text(json.dumps({"type": "action", "action": self.marker}))
        answers = ws_until(ws, lambda m: m["type"] == "error" and m.get("action") == self.marker)
        assert answers[-1]["code"] in ("illegal", "not_your_turn", "game_over"), answers[-1]
        parsed = _parsed(message)
        is_action = isinstance(parsed, dict) and parsed.get("type") == "action"
        action = parsed.get("action") if is_action else None
        seq = parsed.get("seq") if is_action else None
        was_legal = (
            is_action
            and type(action) is int
            and action in self.legal(0)
            and (seq is None or (type(seq) is int and seq == self.seq))
        )
        moved = False
        for answer in answers[:-1]:
            kind = answer["type"]
            key = f"error {answer.get('code')}" if kind == "error" else kind
            self.seen[key] = self.seen.get(key, 0) + 1
            assert kind in ("error", "pong", "view", "table", "chat"), answer
            if kind == "error":
                assert isinstance(answer["code"], str) and answer["code"], answer
                assert isinstance(answer["message"], str) and answer["message"], answer
            elif kind == "pong":
                assert isinstance(parsed, dict) and parsed.get("type") == "ping", (message, answer)
            elif kind == "view" and isinstance(parsed, dict) and parsed.get("type") == "sync":
                assert answer["seq"] == self.seq and answer["log_from"] == 0, answer  # whole, unmoved
            elif kind == "chat":
                assert isinstance(parsed, dict) and parsed.get("type") == "chat", (message, answer)
                assert answer["line"]["text"] == parsed["text"].strip() and answer["line"]["seat"] == 0
            elif kind == "view":
                assert was_legal and not moved, f"the view changed after {message!r}"
                assert answer["seq"] == self.seq + 1, answer
                moved = True
                self.views[0] = answer
        if was_legal and isinstance(parsed, dict) and set(parsed) <= {"type", "action", "seq"}:
            assert moved, f"the legal action {message!r} was not taken: {answers}"
        if moved:
            self.views[1] = ws_until(self.conns[1], lambda m: m["type"] == "view" and m["seq"] == self.seq)[
                -1
            ]
            self.seat_1_plays()

    def seat_1_plays(self) -> None:
        while self.legal(1):
            legal = self.legal(1)
            self.conns[1].send_text(
                json.dumps({"type": "action", "action": legal[self.seq % len(legal)], "seq": self.seq})
            )
            self.views = [self.next_view(ws, self.seq + 1) for ws in self.conns]
        if self.views[0]["view"]["is_terminal"]:
            self.new_table()

    @staticmethod
    def next_view(ws: Any, seq: int) -> dict[str, Any]:
        return ws_until(ws, lambda m: m["type"] == "view" and m["seq"] == seq)[-1]

    def hello(self, first: str | bytes | LegalPick) -> None:
        """A new connection whose first message is `first`: welcomed as a spectator (a hello, with a
        token that opens no seat), or refused (malformed, or too large) and closed 4400."""
        if isinstance(first, LegalPick):
            first = json.dumps({"type": "action", "action": first.nth})
        with self.client.websocket_connect(f"/ws/tables/{self.id}") as ws:
            if isinstance(first, bytes):
                ws.send_bytes(first)
            else:
                ws.send_text(first)
            answer = ws_recv(ws)
            parsed = _parsed(first)
            if answer["type"] == "error" and answer["code"] in ("malformed", "too_large"):
                assert answer["message"]
                with pytest.raises(WebSocketDisconnect) as closed:
                    ws_recv(ws)
                assert closed.value.code == 4400
                return
            assert isinstance(parsed, dict) and parsed.get("type") == "hello", (first, answer)
            if answer["type"] == "error":
                assert answer["code"] == "bad_token" and parsed.get("token"), answer
                answer = ws_recv(ws)
            assert answer["type"] == "welcome" and answer["seat"] is None and answer["role"] == "spectator"
            view = ws_until(ws, lambda m: m["type"] == "view")[-1]
            assert view["seq"] == self.seq and view["view"]["seat"] is None


def test_fuzz_websocket_messages(tmp_path: Path) -> None:
    """Arbitrary messages on a seated connection (text that is not JSON, JSON of any shape, deep
    nesting, huge integers, lone surrogates, wrong types for action, seq and token, binary frames,
    messages over the limit) and as the first message of new connections: every answer is an error
    with a code and a message, a pong, a view or a table summary; the connection stays open; the
    table moves only when a legal action was sent."""
    with app_client(tmp_path, message_rate="1000000/second", **UNLIMITED) as client:
        table = FuzzTable(client)
        hello = st.builds(
            lambda token: to_json({"type": "hello", "token": token}), st.one_of(HUGE_INTS, JSON_VALUES)
        )

        @settings(FUZZ_SETTINGS, max_examples=300)
        @given(
            messages=st.lists(_ws_messages(), min_size=1, max_size=4),
            first=st.one_of(st.none(), hello, _ws_messages()),
        )
        # Refusals the assertions below name, whatever the draw reaches (an action's refusal depends
        # on whose turn it is when it comes): first, on the fresh table where seat 0 is to move.
        @example(messages=['{"type": "action", "action": 999999}', LegalPick(0, True)], first=None)
        @example(messages=["{", '{"type": "ping", "pad": "%s"}' % ("x" * 4100)], first=None)
        def fuzz(messages: list[str | bytes | LegalPick], first: str | bytes | LegalPick | None) -> None:
            for message in messages:
                table.send(message)
            if first is not None:
                table.hello(first)
            assert client.get(f"/api/tables/{table.id}").json()["moves"] == table.seq

        try:
            fuzz()
            # It got everywhere: refusals of every kind, pongs, and legal moves (whole games).
            for key in ("view", "pong", "error malformed", "error too_large", "error illegal"):
                assert table.seen.get(key), (key, table.seen)
            ws = table.conns[0]
            ws.send_text('{"type": "ping"}')
            assert ws_until(ws, lambda m: m["type"] == "pong")[-1]["seq"] == table.seq
            for seat in (0, 1):
                with seat_ws(client, table.id, table.tokens[seat]) as (_ws, view):
                    # A new connection's view is whole; the live one's last view carried only the
                    # log's newest entries: the same position, the same log.
                    last = table.views[seat]
                    assert view["seq"] == last["seq"] and view["log_from"] == 0
                    whole, delta = dict(view["view"]), dict(last["view"])
                    assert whole.pop("log")[last["log_from"] :] == delta.pop("log")
                    assert whole == delta
        finally:
            table.close()


def test_a_table_is_made_only_from_a_json_body(tmp_path: Path) -> None:
    """A text/plain or form body is a "simple" cross-site request that another site's page could send
    from its visitors' browsers without a preflight: 415, and nothing is made."""
    with live(tmp_path) as server, server.http() as http:
        body = json.dumps({"game": TOY, "players": 2, "seats": [HUMAN, HUMAN]})
        for media in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data", ""):
            answer = http.post("/api/tables", content=body, headers={"content-type": media})
            assert answer.status_code == 415, (media, answer.text)
            assert "application/json" in answer.json()["detail"]
        assert http.get("/api/tables").json()["open"] == []
        made = http.post(
            "/api/tables", content=body, headers={"content-type": "application/json; charset=utf-8"}
        )
        assert made.status_code == 201, made.text


def test_seat_names_with_control_or_bidi_characters_are_refused(tmp_path: Path) -> None:
    with live(tmp_path) as server, server.http() as http:
        for name in ("Aki\u202eikA", "two\nlines", "bell\x07", "zero\u200bwidth"):
            seats = [{"kind": "human", "name": name}, HUMAN]
            answer = http.post("/api/tables", json={"game": TOY, "players": 2, "seats": seats})
            assert answer.status_code == 400 and "control or formatting" in answer.text, (name, answer.text)
        assert http.get("/api/tables").json()["open"] == []
        family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # joined by zero-width joiners
        seats = [{"kind": "human", "name": family}, HUMAN]
        answer = http.post("/api/tables", json={"game": TOY, "players": 2, "seats": seats})
        assert answer.status_code == 201 and answer.json()["seats"][0]["name"] == family


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("create_rate", "0/minute"),  # would refuse every table
        ("message_rate", "0/second"),  # would close every websocket at its first message
        ("message_rate", "99999999999999999999/second"),
        ("create_rate", "5/fortnight"),
        ("max_body", 0),
        ("open_tables", 10**9),
        ("idle_timeout", float("inf")),
        ("work_timeout", float("nan")),
        ("away_grace", True),  # not 1 second: a bool is not a number here
        ("max_body", True),
        ("allow_origins", [""]),
    ],
)
def test_server_limits_out_of_their_bounds_are_refused(field: str, value: Any) -> None:
    with pytest.raises(ValueError, match=field):
        Limits(**{field: value})
