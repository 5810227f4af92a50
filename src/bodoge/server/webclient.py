"""The web client's pages and files: one page shell, and static files at URLs that carry their hash.

- **One shell.** `pages/shell.html` holds what every page has (doctype, head, styles, icon, scripts);
  `pages/NAME.html` holds only a page's body, and `PAGES` names its title, styles and scripts. Every
  page is rendered once, when the app is made (`render_pages`); a request only sends those bytes,
  with `Cache-Control: no-cache`, so that a browser always asks for the page again.
- **Hashed URLs.** The shell links every style and script as `/static/FILE?v=HASH` (the first hex
  digits of the SHA-256 of the file's bytes, read once at startup: `Assets`). `StaticAssets` serves
  `/static`; a request whose `v` is the file's hash, the file unchanged since, is answered
  `public, max-age=31536000, immutable`: a changed file gets a new URL, so the browser never asks for a
  hashed one again. Any other request for a static file (no `v`, or another one) gets `no-cache`.
- **One board per page.** A page that draws a game's board loads `boards/common.js` only, and lists
  every board's script (hashed URL) in its body's `data-boards`: `loadBoard(game)` there adds the one
  script of the game it shows, once it knows the game (the table from its first view, the replay from
  the table's summary, the lessons and the rules from their URL).
"""

from __future__ import annotations

import hashlib
import html
import json
import os
import string
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from fastapi import FastAPI
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from starlette.responses import Response

STATIC = Path(__file__).parent / "static"
PAGES_DIR = Path(__file__).parent / "pages"
HASH_CHARS = 16  # hex digits of the SHA-256 in a URL: 64 bits, far from any collision
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"


@dataclass(frozen=True)
class Page:
    """One page's own parts: its title, styles and scripts (in order); its body is pages/NAME.html.
    `boards`: it draws a game's board, so its body lists the boards' scripts (`data-boards`)."""

    title: str
    styles: tuple[str, ...]
    scripts: tuple[str, ...]
    boards: bool = False


# A page that draws a board: the shared helpers, then its own, then what goes with a board (the bar of a
# move of several parts, the components' rules, the focus through a redraw).
BOARD = ("common.js", "boards/common.js", "board-aids.js")
PAGES: dict[str, Page] = {
    "lobby": Page("bodoge", ("app.css", "learn.css"), ("common.js", "identity.js", "seating.js", "lobby.js")),
    "table": Page(
        "bodoge table",
        ("app.css", "art.css", "learn.css"),
        (
            *BOARD,
            "identity.js",
            "table-words.js",
            "table-people.js",
            "table-log.js",
            "table-end.js",
            "table.js",
            "attention.js",
            "table-safety.js",
            "practice.js",
        ),
        boards=True,
    ),
    "replay": Page("bodoge replay", ("app.css", "art.css"), (*BOARD, "review.js", "replay.js"), boards=True),
    "learn": Page(
        "bodoge: learn to play", ("app.css", "art.css", "learn.css"), (*BOARD, "learn.js"), boards=True
    ),
    "rules": Page("bodoge: rules", ("app.css", "art.css", "learn.css"), (*BOARD, "rules.js"), boards=True),
    "profile": Page("bodoge: player", ("app.css", "ratings.css"), ("common.js", "ratings.js", "profile.js")),
    "leaderboard": Page(
        "bodoge: leaderboards", ("app.css", "ratings.css"), ("common.js", "ratings.js", "leaderboard.js")
    ),
    "me": Page(
        "bodoge: your tables", ("app.css", "me.css"), ("common.js", "identity.js", "attention.js", "me.js")
    ),
}


@dataclass(frozen=True)
class Asset:
    digest: str  # the first HASH_CHARS hex digits of the SHA-256 of the file's bytes
    size: int  # the file's size and time of change when hashed: a file changed since is not "current"
    mtime_ns: int


class Assets:
    """Every file under a static directory, hashed once (at startup)."""

    def __init__(self, directory: Path = STATIC) -> None:
        self.directory = directory
        self.files: dict[str, Asset] = {}
        for path in sorted(directory.rglob("*")):
            if path.is_file():
                data = path.read_bytes()
                info = path.stat()
                name = path.relative_to(directory).as_posix()
                digest = hashlib.sha256(data).hexdigest()[:HASH_CHARS]
                self.files[name] = Asset(digest, info.st_size, info.st_mtime_ns)

    def url(self, name: str) -> str:
        """The file's URL with its hash; a name that is not a file there is a KeyError (at startup)."""
        if name not in self.files:
            raise KeyError(f"no static file {name!r} in {self.directory}")
        return f"/static/{name}?v={self.files[name].digest}"

    def boards(self) -> dict[str, str]:
        """game -> its board script's URL: every boards/GAME.js but the shared boards/common.js."""
        names = sorted(n for n in self.files if n.startswith("boards/") and n.endswith(".js"))
        return {n[len("boards/") : -len(".js")]: self.url(n) for n in names if n != "boards/common.js"}

    def current(self, name: str, version: str, info: os.stat_result) -> bool:
        """Whether `version` is the hash of the file as it is now (unchanged since it was hashed)."""
        asset = self.files.get(name)
        return (
            asset is not None
            and version == asset.digest
            and (info.st_size, info.st_mtime_ns) == (asset.size, asset.mtime_ns)
        )


def render_pages(assets: Assets, pages_dir: Path = PAGES_DIR) -> dict[str, bytes]:
    """Every page of PAGES in the shell, as the bytes a request gets."""
    shell = string.Template((pages_dir / "shell.html").read_text(encoding="utf-8"))
    rendered: dict[str, bytes] = {}
    for name, page in PAGES.items():
        attributes = ""
        if page.boards:
            boards = json.dumps(assets.boards(), separators=(",", ":"), sort_keys=True)
            attributes = f' data-boards="{html.escape(boards, quote=True)}"'
        text = shell.substitute(
            title=html.escape(page.title),
            styles="\n".join(f'<link rel="stylesheet" href="{assets.url(s)}">' for s in page.styles),
            favicon=assets.url("favicon.svg"),
            body_attributes=attributes,
            body=(pages_dir / f"{name}.html").read_text(encoding="utf-8").rstrip("\n"),
            scripts="\n".join(f'<script src="{assets.url(s)}"></script>' for s in page.scripts),
        )
        rendered[name] = text.encode("utf-8")
    return rendered


class StaticAssets(StaticFiles):
    """`/static`: the files, cached for good at their hashed URL, asked for again at any other."""

    def __init__(self, assets: Assets) -> None:
        super().__init__(directory=assets.directory)
        self.assets = assets

    def file_response(
        self, full_path: Any, stat_result: os.stat_result, scope: Any, status_code: int = 200
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        name = self.get_path(scope).replace(os.sep, "/")
        version = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("v", [""])[0]
        fresh = self.assets.current(name, version, stat_result)
        response.headers["Cache-Control"] = IMMUTABLE if fresh else REVALIDATE
        return response


def add_web_client(app: FastAPI, static: Path = STATIC) -> None:
    """The pages' routes (each sends its page, rendered here once) and the `/static` mount."""
    assets = Assets(static)
    pages = render_pages(assets)

    def page(name: str) -> Response:
        return HTMLResponse(pages[name], headers={"Cache-Control": REVALIDATE})

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> Response:
        return page("lobby")

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> Response:
        return page("table")

    @app.get("/me", include_in_schema=False)
    async def me_page() -> Response:
        return page("me")  # a player's tables (server/longplay.py)

    @app.get("/r/{table_id}", include_in_schema=False)
    async def replay_page(table_id: str) -> Response:
        return page("replay")

    @app.get("/learn/{game}", include_in_schema=False)
    async def learn_page(game: str) -> Response:
        return page("learn")

    @app.get("/rules/{game}", include_in_schema=False)
    async def rules_page(game: str) -> Response:
        return page("rules")

    @app.get("/p/{player_id}", include_in_schema=False)
    async def profile_page(player_id: str) -> Response:
        return page("profile")

    @app.get("/leaderboard", include_in_schema=False)
    async def leaderboard_page() -> Response:
        return page("leaderboard")

    app.mount("/static", StaticAssets(assets), name="static")
