"""Pictures of the table page: every game, a table of two people (Aki and Ben) and two bots, on a
desktop (1280x800) and a phone (390x844), in English and Japanese, mid-game and at the end.

Run by hand (needs Chromium at /usr/bin/chromium and the playwright package):

    python bench/screenshots.py                      # writes docs/screenshots/*.png
    python bench/screenshots.py --out /tmp/shots --games hangover

It starts `bodoge serve` on a loopback port with a fresh SQLite file, plays each table: Ben (and Aki,
until the middle of the game) by a websocket client that picks random legal actions, the bots by the
server. Mid-game, Aki's page is photographed on Aki's decision; at the end, after Ben pressed Play
again and took his seat at the new table. The pictures are PNG, the page's first screen only (what a
person sees without scrolling), so that they stay small.

    python bench/screenshots.py --review --out /tmp/shots   # the replay page with a game's review

With `--review`, a game of four bots is played, reviewed by the server, and its replay page is
photographed whole at the review's largest loss (`GAME-review-SIZE-LANG.png`).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]  # fmt: skip
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
# game -> (options): short games, four seats each.
GAMES: dict[str, dict[str, Any]] = {
    "troika": {"rounds": 1},
    "tokkuri": {"rounds": 1},
    "tottarot": {"target": 1},
    "hangover": {},
}
MIDDLE = 6  # moves before Aki's page is photographed mid-game


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """`bodoge serve` on a fresh database, for the run."""

    def __init__(self, tmp: Path, bot_delay: float = 0.05) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        log = (tmp / "serve.log").open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bodoge.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port),
             "--db", f"sqlite:///{tmp / 'shots.db'}", "--bot-delay", str(bot_delay), "--bot-workers", "1"],
            stdout=log, stderr=subprocess.STDOUT, env=dict(os.environ, PYTHONUNBUFFERED="1"),
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.url + "/api/health", timeout=2).status_code == 200:
                    return
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start: see {tmp / 'serve.log'}")
            time.sleep(0.1)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


class Seat(threading.Thread):
    """A person at a seat, by websocket: a random legal action on each of its decisions while
    `playing` is set; it remembers the last view and the rematch offer."""

    def __init__(self, server: Server, join_url: str, seed: int) -> None:
        super().__init__(daemon=True)
        self.server = server
        self.table = join_url.split("#")[0].rsplit("/", 1)[1]
        self.token = join_url.split("token=")[1]
        self.rng = random.Random(seed)
        self.playing = threading.Event()
        self.playing.set()
        self.done = threading.Event()
        self.view: dict[str, Any] = {}
        self.seq = -1
        self.rematch: dict[str, Any] | None = None
        self.ws: Any = None

    def run(self) -> None:
        ws_url = self.server.url.replace("http", "ws") + f"/ws/tables/{self.table}"
        with connect(ws_url, max_size=None) as ws:
            self.ws = ws
            ws.send(json.dumps({"type": "hello", "token": self.token}))
            while not self.done.is_set():
                try:
                    message = json.loads(ws.recv(timeout=0.2))
                except TimeoutError:
                    message = None
                except Exception:
                    return
                if message and message.get("type") == "view":
                    self.view, self.seq = message["view"], message["seq"]
                elif message and message.get("type") == "rematch":
                    self.rematch = message
                legal = self.view.get("legal_actions") or []
                if legal and self.playing.is_set():
                    time.sleep(0.05)
                    action = self.rng.choice(legal)["id"]
                    ws.send(json.dumps({"type": "action", "action": action, "seq": self.seq}))
                    self.view = dict(self.view, legal_actions=[])

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))


def summary(server: Server, table_id: str) -> dict[str, Any]:
    got: dict[str, Any] = httpx.get(f"{server.url}/api/tables/{table_id}", timeout=10).json()
    return got


def wait(until: Any, what: str, seconds: float = 120.0) -> None:
    deadline = time.monotonic() + seconds
    while not until():
        if time.monotonic() > deadline:
            raise RuntimeError(f"timed out waiting for {what}")
        time.sleep(0.1)


def photograph(browser: Any, url: str, out: Path, stem: str, ready: str) -> None:
    for size, (width, height) in SIZES.items():
        for lang in ("en", "ja"):
            context = browser.new_context(viewport={"width": width, "height": height}, locale="en-US")
            context.add_init_script(f"localStorage.setItem('bodoge.lang', '{lang}')")
            page = context.new_page()
            page.goto(url)
            page.wait_for_selector(ready, timeout=30_000)
            page.wait_for_timeout(600)  # the board's motion settles
            page.screenshot(path=str(out / f"{stem}-{size}-{lang}.png"))
            context.close()


def play_table(server: Server, browser: Any, game: str, out: Path) -> None:
    seats = [
        {"kind": "human", "name": "Aki"},
        {"kind": "human", "name": "Ben"},
        {"kind": "bot", "spec": "heuristic"},
        {"kind": "bot", "spec": "random"},
    ]
    body = {"game": game, "players": 4, "options": GAMES[game], "seats": seats, "seed": 31}
    created = httpx.post(f"{server.url}/api/tables", json=body, timeout=30).json()
    table_id = created["id"]
    aki_url, ben_url = (seat["join_url"] for seat in created["seats"][:2])
    aki, ben = Seat(server, aki_url, 1), Seat(server, ben_url, 2)
    aki.start()
    ben.start()
    # The middle of the game, on Aki's decision: Aki's own connection steps aside for the page.
    wait(lambda: summary(server, table_id)["moves"] >= MIDDLE, "the middle of the game")
    aki.playing.clear()
    wait(lambda: summary(server, table_id)["current_player"] == 0, "Aki's turn")
    aki.done.set()
    aki.join()
    photograph(browser, server.url + aki_url, out, f"{game}-middle", "#board[data-ready='1'] .legal")
    # Aki plays on by websocket to the end; Ben asks to play again and takes his new seat.
    aki = Seat(server, aki_url, 3)
    aki.start()
    wait(lambda: summary(server, table_id)["status"] != "playing", "the end of the game", 300)
    ben.send({"type": "rematch"})
    wait(lambda: ben.rematch is not None, "the rematch")
    assert ben.rematch is not None
    following = Seat(server, ben.rematch["join_url"], 4)
    following.playing.clear()
    following.start()
    time.sleep(1.0)
    aki.done.set()
    aki.join()
    photograph(browser, server.url + aki_url, out, f"{game}-end", "#result:not([hidden])")
    for seat in (ben, following):
        seat.done.set()


def review_table(server: Server, browser: Any, game: str, out: Path) -> None:
    """A game of four bots (two heuristic, two random), over; its review asked for at the server;
    the replay page photographed whole (board, win-chance graph, seats' table) at the decision of the
    review's largest loss, that decision's options shown."""
    seats = [{"kind": "bot", "spec": spec} for spec in ("heuristic", "random", "heuristic", "random")]
    body = {"game": game, "players": 4, "options": GAMES[game], "seats": seats, "seed": 31}
    table_id = httpx.post(f"{server.url}/api/tables", json=body, timeout=30).json()["id"]
    wait(lambda: summary(server, table_id)["status"] != "playing", "the end of the game", 300)
    url = f"{server.url}/api/tables/{table_id}/review"
    httpx.post(url, json={}, timeout=30).raise_for_status()
    wait(lambda: httpx.get(url, timeout=30).json()["status"] == "done", "the review", 600)
    review = httpx.get(url, timeout=30).json()["review"]
    worst = max(review["decisions"], key=lambda d: d["loss"])
    for size, (width, height) in SIZES.items():
        for lang in ("en", "ja"):
            context = browser.new_context(viewport={"width": width, "height": height}, locale="en-US")
            context.add_init_script(f"localStorage.setItem('bodoge.lang', '{lang}')")
            page = context.new_page()
            page.goto(f"{server.url}/r/{table_id}")
            page.wait_for_selector("#review-graph svg", timeout=60_000)
            for _ in range(worst["move"]):  # step to the decision (the graph's click does the same)
                page.click("#replay-next")
            page.wait_for_selector(f"#replay-pos[data-move='{worst['move']}']")
            page.wait_for_selector("#review-move .rv-options li")
            page.wait_for_timeout(600)  # the board's motion settles
            page.screenshot(path=str(out / f"{game}-review-{size}-{lang}.png"), full_page=True)
            context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("docs/screenshots"))
    parser.add_argument("--games", nargs="*", default=list(GAMES))
    parser.add_argument(
        "--review", action="store_true", help="the replay page with a game's review instead (whole pages)"
    )
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp))
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                for game in args.games:
                    (review_table if args.review else play_table)(server, browser, game, args.out)
                    print(f"{game}: {len(list(args.out.glob(f'{game}-*.png')))} pictures in {args.out}")
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
