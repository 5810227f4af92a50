"""The operators' metrics (docs/deploy.md, "Metrics"): `GET /metrics` in Prometheus's text format,
on a port of its own and only when asked for, counting what happens at the server.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from server_helpers import TOY, Player, ProcessServer, ThreadServer, create_table, free_port, make_config

from bodoge.server import ServerConfig
from bodoge.server.guard import AddressLimits, Limits
from bodoge.server.metrics import Metrics, ServerErrors

HUMAN = {"kind": "human"}
EXPECTED = (
    "bodoge_tables",
    "bodoge_tables_unreadable",
    "bodoge_websockets_open",
    "bodoge_actions_applied",
    "bodoge_action_seconds",
    "bodoge_bot_think_seconds",
    "bodoge_bot_fallbacks",
    "bodoge_limits_hit",
    "bodoge_errors",
    "bodoge_websocket_bad_utf8",
)


def config_with_metrics(tmp_path: Path, **limits: Any) -> ServerConfig:
    config = make_config(f"sqlite:///{tmp_path / 'metrics.db'}", limits=Limits(**limits))
    config.metrics_port = free_port()
    return config


def scrape(config: ServerConfig) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of the metrics port's answer, by (name, labels); the answer is checked to be the
    text exposition format (the parser refuses anything else)."""
    answer = httpx.get(f"http://127.0.0.1:{config.metrics_port}/metrics", timeout=10)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain; version="), answer.headers
    samples = {}
    families = list(text_string_to_metric_families(answer.text))
    assert {f.name for f in families} >= set(EXPECTED), sorted(f.name for f in families)
    for family in families:
        assert family.documentation, family.name  # every metric says what it counts
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(samples: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str, **labels: str) -> float:
    return samples[(name, tuple(sorted(labels.items())))]


def test_metrics_are_off_unless_a_metrics_port_is_given(tmp_path: Path) -> None:
    with ThreadServer(make_config(f"sqlite:///{tmp_path / 'off.db'}")) as server, server.http() as http:
        assert http.get("/api/health").status_code == 200
        assert http.get("/metrics").status_code == 404


def test_metrics_count_tables_connections_actions_and_limits(tmp_path: Path) -> None:
    config = config_with_metrics(tmp_path, create_rate="2/minute")
    with ThreadServer(config) as server, server.http() as http:
        # Only on its own port, and only /metrics there.
        assert http.get("/metrics").status_code == 404
        assert httpx.get(f"http://127.0.0.1:{config.metrics_port}/api/health").status_code == 404
        assert httpx.post(f"http://127.0.0.1:{config.metrics_port}/metrics").status_code == 405
        before = scrape(config)
        assert value(before, "bodoge_actions_applied_total") == 0
        assert value(before, "bodoge_tables", status="playing", role="owner") == 0

        created = create_table(http, TOY, [HUMAN, HUMAN])
        seat = created["table"]["current_player"]
        with Player(server.ws_url, created["id"], created["seats"][seat]["token"]) as me:
            view = me.view_at_least(0)
            me.send({"type": "action", "action": view["view"]["legal_actions"][0]["id"], "seq": 0})
            me.view_at_least(1)
            during = scrape(config)
            assert value(during, "bodoge_websockets_open") == 1
        assert value(during, "bodoge_actions_applied_total") == 1
        assert value(during, "bodoge_action_seconds_count") == 1
        assert 0 < value(during, "bodoge_action_seconds_sum") < 5
        assert value(during, "bodoge_action_seconds_bucket", le="+Inf") == 1
        assert value(during, "bodoge_tables", status="playing", role="owner") == 1

        # A 429 (two creations a minute: this is the third) and a 413.
        assert (
            http.post("/api/tables", json={"game": TOY, "players": 2, "seats": [HUMAN] * 2}).status_code
            == 201
        )
        assert (
            http.post("/api/tables", json={"game": TOY, "players": 2, "seats": [HUMAN] * 2}).status_code
            == 429
        )
        big = json.dumps({"pad": "x" * Limits().max_body})
        assert (
            http.post("/api/tables", content=big, headers={"content-type": "application/json"}).status_code
            == 413
        )
        after = scrape(config)
        assert value(after, "bodoge_limits_hit_total", limit="create_rate") == 1
        assert value(after, "bodoge_limits_hit_total", limit="max_body") == 1
        assert value(after, "bodoge_limits_hit_total", limit="open_tables") == 0
        assert value(after, "bodoge_tables", status="playing", role="owner") == 2
        deadline = time.monotonic() + 10
        while value(after, "bodoge_websockets_open") != 0:  # counted off as its handler ends
            assert time.monotonic() < deadline
            time.sleep(0.05)
            after = scrape(config)

        # Bounded labels: no table id, token or address is ever one.
        labels = {v for (_name, pairs) in after for _k, v in pairs}
        assert not any(created["id"] in v or "127.0.0.1" in v for v in labels), labels


def test_metrics_count_bot_moves_fallbacks_and_errors(tmp_path: Path) -> None:
    config = config_with_metrics(tmp_path)
    with ThreadServer(config) as server, server.http() as http:
        created = create_table(
            http, TOY, [{"kind": "bot", "spec": "random"}, {"kind": "bot", "spec": "broken"}]
        )
        deadline = time.monotonic() + 60
        while http.get(f"/api/tables/{created['id']}").json()["status"] == "playing":
            assert time.monotonic() < deadline, "the bots did not finish"
            time.sleep(0.1)
        logging.getLogger("bodoge.server.test").error("an error for the metrics to count")
        samples = scrape(config)
    moves = value(samples, "bodoge_actions_applied_total")
    assert moves > 0
    assert value(samples, "bodoge_bot_think_seconds_count") == moves
    # The broken bot raises at each of its moves: each one is a random legal action instead.
    assert 0 < value(samples, "bodoge_bot_fallbacks_total", reason="bot_error") < moves
    assert value(samples, "bodoge_bot_fallbacks_total", reason="timeout") == 0
    assert value(samples, "bodoge_errors_total", source="log") >= 1
    assert value(samples, "bodoge_tables", status="over", role="owner") <= 1  # unloaded once unwatched


def test_an_http_answer_of_500_or_an_exception_counts_as_an_error() -> None:
    metrics = Metrics(AddressLimits(Limits()))

    async def fails(scope: Any, receive: Any, send: Any) -> None:
        raise RuntimeError("a bug")

    async def answers_503(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 503, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    async def send(message: Any) -> None:
        pass

    async def run() -> None:
        with pytest.raises(RuntimeError):
            await ServerErrors(fails, metrics)({"type": "http"}, send, send)
        await ServerErrors(answers_503, metrics)({"type": "http"}, send, send)

    asyncio.run(run())
    assert metrics.errors.labels(source="http")._value.get() == 2


def test_bodoge_serve_metrics_port(tmp_path: Path) -> None:
    """The flag end to end: `bodoge serve --metrics-port` answers there, and only there."""
    metrics_port = free_port()
    server = ProcessServer(
        f"sqlite:///{tmp_path / 'cli.db'}",
        free_port(),
        tmp_path / "serve.log",
        extra=("--metrics-port", str(metrics_port)),
    )
    server.start()
    try:
        answer = httpx.get(f"http://127.0.0.1:{metrics_port}/metrics", timeout=10)
        assert answer.status_code == 200 and "bodoge_websockets_open 0.0" in answer.text
        assert httpx.get(server.url + "/metrics", timeout=10).status_code == 404
    finally:
        server.stop()


def test_bodoge_serve_refuses_a_metrics_port_it_cannot_use(tmp_path: Path) -> None:
    """Refused before anything starts, with one line that names the flag: the lobby's own port, a
    port out of range, a port taken, an address it cannot listen on."""
    from typer.testing import CliRunner

    from bodoge.cli import app

    port = str(free_port())
    db = f"sqlite:///{tmp_path / 'refused.db'}"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        cases = [
            (["--metrics-port", port], "--metrics-port", "--port too"),
            (["--metrics-port", "70000"], "--metrics-port", "from 1 to 65535"),
            (["--metrics-port", str(taken.getsockname()[1])], "--metrics-port", "cannot listen"),
            (
                ["--metrics-port", str(free_port()), "--metrics-host", "no-such-host.invalid"],
                "--metrics-host",
            ),
        ]
        for extra, *must in cases:
            result = CliRunner().invoke(app, ["serve", "--port", port, "--db", db, *extra])
            assert result.exit_code == 2, (extra, result.output)
            lines = result.output.strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith("error: "), result.output
            assert all(text in lines[0] for text in must), (must, lines[0])
    assert not (tmp_path / "refused.db").exists()  # refused before the database was touched
