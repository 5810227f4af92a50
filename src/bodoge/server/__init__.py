"""Play online: `bodoge serve` — the lobby, tables, bots at tables, and the web client (DESIGN.md §6).

    from bodoge.server import ServerConfig, create_app, serve
    serve("127.0.0.1", 8000, ServerConfig(db="sqlite:///bodoge.db"))

The websocket message protocol is documented in docs/protocol.md.
"""

from __future__ import annotations

import logging

from bodoge.server.app import PROTOCOL, WS_MAX_SIZE, ServerConfig, create_app

__all__ = ["PROTOCOL", "ServerConfig", "create_app", "serve"]


def serve(host: str, port: int, config: ServerConfig, log_level: str = "info") -> None:
    """Run the server until interrupted (uvicorn; one process, one event loop)."""
    import uvicorn
    from sqlalchemy.engine import make_url

    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("bodoge.server").info(
        "database %s", make_url(config.db).render_as_string(hide_password=True)
    )
    uvicorn.run(
        create_app(config),
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
