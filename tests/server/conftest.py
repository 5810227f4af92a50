"""Fixtures for the server tests: a database (SQLite file, and PostgreSQL when one is given) and a client.

PostgreSQL: set BODOGE_TEST_POSTGRES to a URL such as postgresql://bodoge:bodoge@127.0.0.1/bodoge
(`.ci/run` installs, starts and exports one); each test gets a schema of its own, dropped after.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the server extra is not installed (pip install -e '.[server]')")

from server_helpers import ProcessServer, ThreadServer, free_port, make_config

POSTGRES_ENV = "BODOGE_TEST_POSTGRES"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'bodoge.db'}"
        return
    yield from postgres_schema_url()


def postgres_schema_url() -> Iterator[str]:
    base = os.environ.get(POSTGRES_ENV)
    if not base:
        pytest.skip(
            f"no PostgreSQL: set {POSTGRES_ENV} to a database URL such as "
            "postgresql://user:password@127.0.0.1/database (whose role may create schemas), "
            "or run .ci/run, which installs and starts one"
        )
    import sqlalchemy as sa

    from bodoge.server.storage import normalize_url

    url = normalize_url(base)
    schema = "t_" + uuid.uuid4().hex[:12]
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(sa.text(f"CREATE SCHEMA {schema}"))
    sep = "&" if "?" in url else "?"
    try:
        yield f"{url}{sep}options=-csearch_path%3D{schema}"
    finally:
        with engine.begin() as conn:
            conn.execute(sa.text(f"DROP SCHEMA {schema} CASCADE"))
        engine.dispose()


@pytest.fixture
def server(db_url: str) -> Iterator[ThreadServer]:
    """A live server on a loopback port, with the test game and agents loaded."""
    with ThreadServer(make_config(db_url)) as live:
        yield live


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium for a browser test module (which imports browser_support, so it is there)."""
    from browser_support import chromium

    yield from chromium()


@pytest.fixture(scope="module")
def live(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ProcessServer]:
    """A `bodoge serve` process on a fresh SQLite file, for the whole test module."""
    tmp = tmp_path_factory.mktemp(request.module.__name__)
    server = ProcessServer(f"sqlite:///{tmp / 'web.db'}", free_port(), tmp / "serve.log")
    server.start()
    yield server
    server.stop()
