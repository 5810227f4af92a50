"""The web client's pages and static files (server/webclient.py): one shell for every page, rendered
once; every style and script at a URL with its content hash, cached for good there and asked for again
anywhere else; a page that draws a board loads only the shared board script, and no file of the
client over 800 lines."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the server extra is not installed (pip install -e '.[server]')")

from fastapi import FastAPI
from fastapi.testclient import TestClient

from bodoge.server import webclient
from bodoge.server.webclient import IMMUTABLE, PAGES, Assets, add_web_client, render_pages

ROUTES = {
    "lobby": "/",
    "table": "/t/abc",
    "replay": "/r/abc",
    "learn": "/learn/troika",
    "rules": "/rules/troika",
    "profile": "/p/abc",
    "leaderboard": "/leaderboard",
    "me": "/me",
}
LINKED = re.compile(r'(?:href|src)="(/static/[^"?]+)\?v=([0-9a-f]+)"')


def client_for(static: Path) -> TestClient:
    app = FastAPI()
    add_web_client(app, static)
    return TestClient(app)


@pytest.fixture
def static_copy(tmp_path: Path) -> Path:
    return Path(shutil.copytree(webclient.STATIC, tmp_path / "static"))


def test_every_page_is_the_shell_with_its_own_parts() -> None:
    client = client_for(webclient.STATIC)
    assert set(ROUTES) == set(PAGES)
    for name, path in ROUTES.items():
        response = client.get(path)
        assert response.status_code == 200, path
        assert response.headers["content-type"].startswith("text/html")
        assert response.headers["cache-control"] == "no-cache", path
        page = response.text
        assert page.startswith("<!doctype html>") and page.count("<head>") == 1 and page.count("<body") == 1
        assert f"<title>{PAGES[name].title}</title>" in page
        assert "$" not in page.split("<body", 1)[0], "a placeholder of the shell left unfilled"
        linked = [m.group(1) for m in LINKED.finditer(page)]
        scripts = [f"/static/{s}" for s in PAGES[name].scripts]
        assert [u for u in linked if u.endswith(".js")] == scripts, path
        assert [u for u in linked if u.endswith(".css")] == [f"/static/{s}" for s in PAGES[name].styles]
        assert "/static/favicon.svg" in linked
        assert not re.search(r'(?:href|src)="/static/[^"?]+"', page), "an unhashed link"


def test_a_page_that_draws_a_board_loads_only_the_shared_one() -> None:
    page = client_for(webclient.STATIC).get("/t/abc").text
    assert "/static/boards/common.js?v=" in page
    assert not re.search(r'<script src="/static/boards/(?!common)', page), (
        "a game's board loaded by every table"
    )
    boards = Assets().boards()
    assert set(boards) == {"hangover", "tokkuri", "tottarot", "troika"}
    assert 'data-boards="{&quot;hangover&quot;:&quot;/static/boards/hangover.js?v=' in page
    assert "data-boards" not in client_for(webclient.STATIC).get("/").text


def test_hashed_static_urls_are_cached_for_good_and_others_revalidate() -> None:
    client = client_for(webclient.STATIC)
    page = client.get("/t/abc").text
    for url, digest in LINKED.findall(page):
        response = client.get(f"{url}?v={digest}")
        assert response.status_code == 200, url
        assert response.headers["cache-control"] == IMMUTABLE == "public, max-age=31536000, immutable"
    for url in ("/static/table.js", "/static/app.css?v=0000000000000000", "/static/boards/troika.js?x=1"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert response.headers["cache-control"] == "no-cache", url
    assert client.get("/static/nope.js").status_code == 404


def test_a_changed_file_gets_a_new_hash(static_copy: Path) -> None:
    before = Assets(static_copy)
    old = before.url("app.css")
    client = client_for(static_copy)
    assert old in client.get("/").text
    (static_copy / "app.css").write_text((static_copy / "app.css").read_text() + "\n/* changed */\n")
    # The running app hashed the file at startup: its old URL is no longer cached for good.
    stale = client.get(old)
    assert stale.headers["cache-control"] == "no-cache" and "/* changed */" in stale.text
    new = Assets(static_copy).url("app.css")
    assert new != old and new.startswith("/static/app.css?v=")
    assert Assets(static_copy).url("table.js") == before.url("table.js")  # the others keep theirs
    restarted = client_for(static_copy)
    assert new in restarted.get("/").text and old not in restarted.get("/").text
    assert restarted.get(new).headers["cache-control"] == IMMUTABLE


def test_a_page_naming_a_missing_file_fails_at_startup(static_copy: Path) -> None:
    (static_copy / "table-end.js").unlink()
    with pytest.raises(KeyError, match=r"table-end\.js"):
        render_pages(Assets(static_copy))


def test_the_client_files_stay_small() -> None:
    client = Path(webclient.__file__).parent
    for path in [*webclient.STATIC.rglob("*"), *webclient.PAGES_DIR.rglob("*")]:
        if path.suffix in (".js", ".css", ".html"):
            lines = path.read_text(encoding="utf-8").count("\n")
            assert lines <= 800, f"{path.relative_to(client)}: {lines} lines"
