"""Fixtures for the lessons' tests: the lesson files of tests/learn/fixtures (one small lesson per
game, written for these tests; the lessons that ship are lessondata's, tested by test_lesson_data.py),
and, for the server's tests, the server test suite's helpers."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

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
