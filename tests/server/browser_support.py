"""What the browser tests share: Debian's Chromium driven by Playwright.

Importing this skips the importing test module when Chromium (/usr/bin/chromium: `apt-get install
chromium`) or the playwright package is missing; `.ci/run` installs both. The `browser` and `live`
fixtures are in conftest.py.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip("Chromium is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")

# Headless, and no background connections: this machine's closed network refuses them.
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium() -> Iterator[Any]:
    """Chromium launched for a test module (the conftests' `browser` fixtures), closed after it."""
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


def watch_errors(page: Any) -> list[str]:
    """The page's script errors and Content-Security-Policy violations (the server's CSP allows no
    inline script or style: a board that used one would show up here), collected as they happen."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on(
        "console",
        lambda msg: errors.append(msg.text) if "Content Security Policy" in msg.text else None,
    )
    return errors
