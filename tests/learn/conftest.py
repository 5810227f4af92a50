"""Fixtures for the lessons' tests: the lesson files of tests/learn/fixtures (one small lesson per
game, written for these tests; the lessons that ship are lessondata's, tested by test_lesson_data.py),
and, for the server's tests, the server test suite's helpers."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
SERVER_TESTS = Path(__file__).parent.parent / "server"
if str(SERVER_TESTS) not in sys.path:
    sys.path.insert(0, str(SERVER_TESTS))


@pytest.fixture
def fixture_lessons(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Lessons are read from tests/learn/fixtures (BODOGE_LESSONS_DIR), here and in a server."""
    monkeypatch.setenv("BODOGE_LESSONS_DIR", str(FIXTURES))
    yield FIXTURES


def lessons_server(tmp_path_factory: pytest.TempPathFactory, lessons: Path | None) -> Iterator[Any]:
    """A live server (tests/server's ThreadServer) reading the lessons of `lessons`, or the packaged
    ones for None, on a fresh SQLite file."""
    from server_helpers import ThreadServer, make_config  # the server extra: imported when asked

    with pytest.MonkeyPatch.context() as mp:
        if lessons is None:
            mp.delenv("BODOGE_LESSONS_DIR", raising=False)
        else:
            mp.setenv("BODOGE_LESSONS_DIR", str(lessons))
        db = tmp_path_factory.mktemp("lessons") / "bodoge.db"
        with ThreadServer(make_config(f"sqlite:///{db}")) as server:
            yield server


@pytest.fixture(scope="module")
def live(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A live server for the module, reading the lessons of tests/learn/fixtures, or the packaged
    ones where the module says `LESSONS = None`."""
    yield from lessons_server(tmp_path_factory, getattr(request.module, "LESSONS", FIXTURES))


@pytest.fixture(scope="module")
def http(live: Any) -> Iterator[Any]:
    import httpx

    with httpx.Client(base_url=live.url, timeout=60) as client:
        yield client


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium for a browser test module (which imports browser_support, so it is there)."""
    from browser_support import chromium

    yield from chromium()
