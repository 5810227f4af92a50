"""Play online: `bodoge serve` — the lobby, tables, bots at tables, and the web client (DESIGN.md §6).

    from bodoge.server import ServerConfig, create_app, serve
    serve("127.0.0.1", 8000, ServerConfig(db="sqlite:///bodoge.db"))

The websocket message protocol is documented in docs/protocol.md.
"""

from __future__ import annotations

import gc
import logging
import socket
import threading
import time
from typing import TYPE_CHECKING, Any

from bodoge.server.app import PROTOCOL, WS_MAX_SIZE, ServerConfig, create_app

if TYPE_CHECKING:
    import uvicorn

__all__ = ["PROTOCOL", "ServerConfig", "create_app", "listen_problem", "listening_sockets", "serve"]


class QuietWebsockets(logging.Filter):
    """Leaves out the lines uvicorn and websockets write for every websocket opened and closed: the
    websockets' access log, off like the HTTP one (`access_log=False`). Each line is a write to
    stderr, during which another thread may take the GIL: with 100 tables made and 200 clients
    connecting at once, a sixth of the event loop's first second went to them. A refused handshake
    (403, 4xx) is still logged."""

    QUIET = frozenset({'%s - "WebSocket %s" [accepted]', "connection open", "connection closed"})

    def filter(self, record: logging.LogRecord) -> bool:
        return record.msg not in self.QUIET


FULL_COLLECTION_INTERVAL = 60.0  # seconds between two full collections of cyclic garbage


def collect_garbage_in_full_rarely() -> None:
    """A full (generation 2) collection stops the event loop for as long as it scans every object:
    50 to 160 ms with 100 tables in play, every 5 to 15 s under `bench/load.py`, and each one put
    the moves of that moment in the p99. The tables make no cyclic garbage of their own (states,
    views and logs are freed as soon as they are dropped): young garbage is still collected as
    ever, and a full collection runs once every FULL_COLLECTION_INTERVAL seconds instead. What is
    imported lives as long as the process: frozen, out of every collection's sight."""
    gc.collect()
    gc.freeze()
    young, middle, _old = gc.get_threshold()
    gc.set_threshold(young, middle, 2**31 - 1)  # no full collection of the interpreter's choosing

    def collect() -> None:
        while True:
            time.sleep(FULL_COLLECTION_INTERVAL)
            gc.collect()

    threading.Thread(target=collect, name="bodoge-gc", daemon=True).start()


def listen_problem(host: str, port: int) -> str | None:
    """Why the server could not listen on `host` and `port` (an unknown host, a port taken, no
    permission), or None if it can: a socket is bound the way uvicorn binds it, then closed. For a
    refusal before anything starts (`bodoge serve` checks its --host, --port and metrics port)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((host, port))
    # TypeError: a host that is not text
    except (OSError, UnicodeError, ValueError, TypeError, OverflowError) as exc:
        return exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return None


def serve(host: str, port: int, config: ServerConfig, log_level: str = "info") -> None:
    """Run the server until interrupted (uvicorn; one process, one event loop)."""
    import uvicorn
    from sqlalchemy.engine import make_url

    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("uvicorn.error").addFilter(QuietWebsockets())
    logging.getLogger("bodoge.server").info(
        "database %s", make_url(config.db).render_as_string(hide_password=True)
    )
    app = create_app(config)  # every game, agent and library imported
    collect_garbage_in_full_rarely()
    settings: dict[str, Any] = dict(
        host=host,
        port=port,
        ws_max_size=WS_MAX_SIZE,
        # permessage-deflate with clients that offer it: a view's log delta is small, but its
        # state and the first whole view of a long game compress several times over.
        ws_per_message_deflate=True,
        log_level=log_level,
        # The client address that the per-address limits count: X-Forwarded-For is believed only
        # from these proxies (a TLS proxy on the same machine, by default).
        proxy_headers=True,
        forwarded_allow_ips=config.forwarded_allow_ips,
        access_log=False,  # one line per request is noise on a busy server
    )
    if config.metrics_port is None:
        uvicorn.run(app, **settings)
        return
    server = uvicorn.Server(uvicorn.Config(app, **settings))
    server.run(sockets=listening_sockets(server.config, config))
    if not server.started:
        raise SystemExit(3)  # as uvicorn.run does: the app did not start (its log says why)


def listening_sockets(main: uvicorn.Config, config: ServerConfig) -> list[socket.socket]:
    """The app's listening socket, and the metrics' own (`config.metrics_port`), bound as uvicorn
    binds one; the app tells them apart by the port a request came in on (MetricsListener)."""
    import uvicorn

    sockets = [main.bind_socket()]
    if config.metrics_port is not None:
        # (log_config None: the main Config has set uvicorn's logging up; this one leaves it be)
        metrics = uvicorn.Config(
            main.app, host=config.metrics_host, port=config.metrics_port, log_config=None
        )
        sockets.append(metrics.bind_socket())
    return sockets
