"""What the table page costs a browser: its weight (the bytes of HTML, JavaScript and CSS a table loads,
as sent and unpacked) and its click→redraw time (from a click on an action to the board redrawn with
the move the server answered, median and 90th percentile over N clicks).

Run by hand (needs Chromium at /usr/bin/chromium and the playwright package):

    python bench/table_page.py                    # 60 clicks at Hangover tables (one person, two bots)
    python bench/table_page.py --clicks 100 --game troika --players 2

It starts `bodoge serve` on a loopback port with a fresh SQLite file (the bots at zero delay), opens
the person's seat at 1280x800, and clicks a random listed action whenever it is that seat's decision,
starting a new table when a game ends. To compare two trees, run it with PYTHONPATH pointing at each.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
from pathlib import Path
from typing import Any

import httpx

from screenshots import ARGS, CHROMIUM, Server  # bench/screenshots.py: the server and Chromium's flags

# One click: the time from the click to the board drawn ready again (data-ready="1") at a later move.
CLICK = """async (index) => {
  const buttons = document.querySelectorAll("#actions button.action:not([disabled])");
  const button = buttons[index % buttons.length];
  const board = document.getElementById("board");
  const done = new Promise((resolve) => {
    const seen = new MutationObserver(() => {
      if (board.dataset.ready === "1" && !button.isConnected) {
        seen.disconnect();
        requestAnimationFrame(() => resolve(performance.now()));
      }
    });
    seen.observe(board, { attributes: true, childList: true });
  });
  const start = performance.now();
  button.click();
  return (await done) - start;
}"""

WEIGHT_KINDS = ("document", "script", "stylesheet")


def new_table(server: Server, game: str, players: int) -> str:
    seats = [{"kind": "human", "name": "Aki"}] + [{"kind": "bot", "spec": "random"}] * (players - 1)
    options = {"troika": {"rounds": 1}, "tokkuri": {"rounds": 1}, "tottarot": {"target": 1}}.get(game, {})
    body = {"game": game, "players": players, "options": options, "seats": seats}
    created = httpx.post(f"{server.url}/api/tables", json=body, timeout=30).json()
    return str(created["seats"][0]["join_url"])


def weigh(page: Any, url: str) -> tuple[int, int]:
    """The bytes of HTML, JavaScript and CSS the page loads: as sent (compressed) and unpacked."""
    responses: list[Any] = []
    page.on("response", lambda r: responses.append(r) if r.request.resource_type in WEIGHT_KINDS else None)
    page.goto(url)
    page.wait_for_selector("#status[data-state='live']")
    sent = unpacked = 0
    for response in responses:
        body = response.body()
        unpacked += len(body)
        sizes = response.request.sizes()
        sent += sizes["responseBodySize"] or len(body)
    return sent, unpacked


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clicks", type=int, default=60)
    parser.add_argument("--game", default="hangover")
    parser.add_argument("--players", type=int, default=3)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    rng = random.Random(31)
    times: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp), bot_delay=0.0)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                page = browser.new_page(viewport={"width": 1280, "height": 800})
                sent, unpacked = weigh(page, server.url + new_table(server, args.game, args.players))
                print(
                    f"page weight: {sent / 1024:.1f} KiB sent, {unpacked / 1024:.1f} KiB unpacked (HTML+JS+CSS)"
                )
                while len(times) < args.clicks:
                    page.wait_for_selector("#board[data-ready='1'], #result:not([hidden])")
                    if page.is_visible("#result"):
                        page.goto(server.url + new_table(server, args.game, args.players))
                        page.wait_for_selector("#status[data-state='live']")
                        continue
                    if not page.query_selector("#actions button.action:not([disabled])"):
                        page.wait_for_timeout(20)
                        continue
                    times.append(page.evaluate(CLICK, rng.randrange(1000)))
                browser.close()
        finally:
            server.stop()
    times.sort()
    p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
    print(
        f"click→redraw over {len(times)} clicks ({args.game}, {args.players} players): "
        f"median {statistics.median(times):.0f} ms, p90 {p90:.0f} ms"
    )


if __name__ == "__main__":
    main()
