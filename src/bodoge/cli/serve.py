"""`bodoge serve`: the lobby, the tables, their bots and the web client (the library: `bodoge.server`;
docs/deploy.md). The address, the database and every limit are checked before the server starts."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.markup import escape

from bodoge.cli.common import console, fail, integers, printable, seconds
from bodoge.errors import BodogeError

MAX_BOT_WORKERS = 64  # processes that run the server's bots
MAX_BOT_TIME = 600.0  # seconds a server bot may think about one move
MAX_BOT_DELAY = 60.0  # seconds of pause before a server bot's move


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[
        int, typer.Option(callback=integers(1, 65535), help="Port to listen on (1 to 65535).")
    ] = 8000,
    db: Annotated[
        str, typer.Option(help="SQLAlchemy database URL, e.g. postgresql://user:pw@localhost/bodoge.")
    ] = "sqlite:///bodoge.db",
    bot_workers: Annotated[
        int | None,
        typer.Option(
            callback=integers(1, MAX_BOT_WORKERS),
            help=f"Processes that run bots (default: cores, at most 4; up to {MAX_BOT_WORKERS}).",
        ),
    ] = None,
    bot_time: Annotated[
        float,
        typer.Option(
            callback=seconds(MAX_BOT_TIME, zero_ok=False),
            help=f"Seconds a bot may think about one move (above 0, up to {MAX_BOT_TIME:g}).",
        ),
    ] = 5.0,
    bot_delay: Annotated[
        float,
        typer.Option(
            callback=seconds(MAX_BOT_DELAY, zero_ok=True),
            help=f"Pause in seconds before each bot move, so people can follow (0 to {MAX_BOT_DELAY:g}).",
        ),
    ] = 0.5,
    max_body: Annotated[
        int | None, typer.Option(help="Bytes of one request body, 413 beyond (default 65536).")
    ] = None,
    create_rate: Annotated[
        str | None,
        typer.Option(help="New tables per client address, e.g. 10/minute; 429 beyond (default 30/minute)."),
    ] = None,
    open_tables: Annotated[
        int | None, typer.Option(help="Tables in play made by one client address (default 20).")
    ] = None,
    ws_per_address: Annotated[
        int | None, typer.Option(help="Websockets open at once per client address (default 64).")
    ] = None,
    message_rate: Annotated[
        str | None,
        typer.Option(help="Messages one websocket may send, e.g. 20/second; closed (1008) beyond."),
    ] = None,
    idle_timeout: Annotated[
        float | None,
        typer.Option(help="Seconds without a move before a table is abandoned (default 86400)."),
    ] = None,
    work_timeout: Annotated[
        float | None,
        typer.Option(help="Seconds for setting up, rebuilding or replaying one table (default 20)."),
    ] = None,
    unstarted_timeout: Annotated[
        float | None,
        typer.Option(
            help="Seconds a table may wait for its first move before it is abandoned (default 3600)."
        ),
    ] = None,
    away_grace: Annotated[
        float | None,
        typer.Option(
            help="Seconds a person may be disconnected before a stand-in bot plays for them (default 60)."
        ),
    ] = None,
    chat_rate: Annotated[
        str | None,
        typer.Option(help="Chat lines one websocket may send, e.g. 10/minute (the default)."),
    ] = None,
    allow_origin: Annotated[
        list[str] | None,
        typer.Option(help="Another page origin whose websockets are accepted (repeatable; * for any)."),
    ] = None,
    forwarded_allow_ips: Annotated[
        str,
        typer.Option(help="Proxies whose X-Forwarded-For gives the client address (comma-separated)."),
    ] = "127.0.0.1",
    metrics_port: Annotated[
        int | None,
        typer.Option(
            callback=integers(1, 65535),
            help="Serve GET /metrics (Prometheus) on this port, apart from the lobby's (default: off).",
        ),
    ] = None,
    metrics_host: Annotated[
        str, typer.Option(help="Address the metrics port listens on (keep it private).")
    ] = "127.0.0.1",
    review_rate: Annotated[
        str | None,
        typer.Option(
            help="Game reviews one client address may start, e.g. 10/hour (the default); 429 beyond."
        ),
    ] = None,
    signup_rate: Annotated[
        str | None,
        typer.Option(help="New players one client address may make, e.g. 10/hour (the default); 429 beyond."),
    ] = None,
    player_rate: Annotated[
        str | None,
        typer.Option(help="Requests one player's key may make, e.g. 120/minute (the default); 429 beyond."),
    ] = None,
    review_queue: Annotated[
        int | None,
        typer.Option(help="Game reviews queued or running at this process at once (default 8); 503 beyond."),
    ] = None,
    review_timeout: Annotated[
        float | None,
        typer.Option(help="Seconds one game review may run before it is stopped as failed (default 180)."),
    ] = None,
    review_deals: Annotated[
        int | None,
        typer.Option(
            callback=integers(2, 10_000),
            help="The most deals an option plays in a decision of a game review, 2 to 10000 (default: 128; 32 for a game without a quick playout policy).",
        ),
    ] = None,
) -> None:
    """Serve the lobby and tables: play in the browser with friends and bots (see docs/protocol.md)."""
    if not host.strip():
        fail("--host is empty; allowed: an address to listen on, such as 127.0.0.1 or 0.0.0.0")
    try:
        from bodoge.server import ServerConfig
        from bodoge.server import serve as run_server
        from bodoge.server.guard import Limits
        from bodoge.server.storage import check_database, database_url
    except ImportError as exc:
        fail(f"the server needs its extra: pip install 'bodoge[server]' ({exc})")
    try:
        url, shown = database_url(db)
    except BodogeError as exc:
        fail(f"--db {exc}")
    check_listen(host, port)
    if metrics_port is not None:
        if metrics_port == port:
            fail(f"--metrics-port {metrics_port} is --port too; allowed: another port")
        check_listen(metrics_host, metrics_port, "--metrics-host", "--metrics-port")
    try:
        check_database(url, shown)
    except BodogeError as exc:
        fail(f"--db {exc}")
    given: dict[str, Any] = {
        "max_body": max_body,
        "create_rate": create_rate,
        "open_tables": open_tables,
        "ws_per_address": ws_per_address,
        "message_rate": message_rate,
        "idle_timeout": idle_timeout,
        "work_timeout": work_timeout,
        "unstarted_timeout": unstarted_timeout,
        "away_grace": away_grace,
        "chat_rate": chat_rate,
        "allow_origins": allow_origin,
        "review_rate": review_rate,
        "review_queue": review_queue,
        "review_timeout": review_timeout,
        "signup_rate": signup_rate,
        "player_rate": player_rate,
    }
    try:
        limits = Limits(**{name: value for name, value in given.items() if value is not None})
    except ValueError as exc:  # its message starts with the field's name: say the flag's
        name = next(n for n in given if str(exc).startswith(n))
        flag = "--allow-origin" if name == "allow_origins" else "--" + name.replace("_", "-")
        fail(flag + str(exc)[len(name) :])
    config = ServerConfig(
        db=db,
        bot_budget=bot_time,
        bot_delay=bot_delay,
        limits=limits,
        forwarded_allow_ips=forwarded_allow_ips,
        metrics_port=metrics_port,
        metrics_host=metrics_host,
        review_deals=review_deals,
    )
    if bot_workers is not None:
        config.bot_workers = bot_workers
    where = f"[{host}]" if ":" in host else host
    console.print(f"bodoge: serving the lobby at http://{escape(printable(where))}:{port}/")
    try:
        run_server(host, port, config)
    except KeyboardInterrupt:  # uvicorn stops gracefully on Ctrl-C, then raises it again
        console.print("bodoge: stopped.")
        raise typer.Exit(130) from None


def check_listen(host: str, port: int, host_flag: str = "--host", port_flag: str = "--port") -> None:
    """Refuse now an address the server could not listen on (unknown host, port taken, no permission)."""
    from bodoge.server import listen_problem

    reason = listen_problem(host, port)
    if reason is not None:
        fail(f"cannot listen on {host_flag} {host!r} {port_flag} {port}: {reason}")


def reports(
    db: Annotated[
        str, typer.Option(help="The server's database URL (as given to bodoge serve --db).")
    ] = "sqlite:///bodoge.db",
    days: Annotated[
        float, typer.Option(min=0.0, max=3650.0, help="Reports made in the last DAYS days (0 to 3650).")
    ] = 7.0,
    limit: Annotated[int, typer.Option(min=1, max=10000, help="At most this many, newest first.")] = 100,
) -> None:
    """The chat lines players reported (server/safety.py), newest first: for the server's operator."""
    import time

    try:
        from bodoge.server.safety import Safety
        from bodoge.server.storage import Storage, check_database, database_url
    except ImportError as exc:
        fail(f"reading reports needs the server extra: pip install 'bodoge[server]' ({exc})")
    try:
        url, shown = database_url(db)
        check_database(url, shown)
    except BodogeError as exc:
        fail(f"--db {exc}")
    storage = Storage(db)
    try:
        found = Safety(storage.engine).reports(since=time.time() - days * 86400, limit=limit)
    finally:
        storage.close()
    if not found:
        console.print(f"no reports in the last {days:g} days")
        return
    for row in found:
        when = time.strftime("%Y-%m-%d %H:%M", time.gmtime(row["at"]))
        said_by = row["name"] + (f" ({row['player']})" if row["player"] else "")
        # What players wrote is shown as text: no markup of theirs, no control characters.
        lines = (
            f"#{row['id']}  {when} UTC  table {row['table_id']}, line {row['line']}",
            f"  {said_by}: {row['text']}",
            f"  reason: {row['reason'] or '(none given)'}; reported by {row['reporter']}",
        )
        for line in lines:
            console.print(printable(line), markup=False, highlight=False, soft_wrap=True)
