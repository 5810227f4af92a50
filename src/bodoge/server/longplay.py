"""Games over days: a table with a clock over days, its story kept, and a player's tables in one place.

A table may be played over days (docs/playing.md, "Games over days"): its clock gives hours or days a
move (`{"turn_seconds", "reserve_seconds", "long": true}`, table/clock.py). Nobody has to stay: closing
the page is no absence there, and only the clock hands a move to the stand-in (table/presence.py).
Nothing of such a table lives in memory alone, so a restart changes nothing:

- the clock is read back from the action log (each action's time `at`; `restore`, at a rebuild);
- the table's story ("Ben left", "a bot plays for Ben") is stored as it is told (`bodoge_story`,
  written in order through the writer) and read back with the table;
- whose move it is is written with every action (the table row's `to_move`), so that a player's list
  of their tables (`GET /api/me/tables`, the page /me) never rebuilds a game to say it.

The rest that a restart could lose is derived again or not worth keeping: the chat and the rematch
(`next_table`) are stored already; a hint is worked out when asked; the away seats of a sitting (a
table without a clock over days) are given back, since the restart paused that game for everyone.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import time
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from sqlalchemy import Column, ForeignKey, Integer, String, Table, Text, delete, insert, select

from bodoge.core.registry import game_class
from bodoge.errors import BodogeError
from bodoge.server.players import need_player, players_of
from bodoge.server.storage import Storage, actions_table, metadata, tables_table
from bodoge.server.table.clock import over_days, reserves_after

if TYPE_CHECKING:
    from bodoge.server.table.runtime import TableRuntime
    from bodoge.server.tables import TableManager

log = logging.getLogger("bodoge.server")

# A table's story, entry by entry (table/presence.py: the newest it keeps are kept here too).
story_table = Table(
    "bodoge_story",
    metadata,
    Column("table_id", String(32), ForeignKey("bodoge_tables.id"), primary_key=True),
    Column("n", Integer, primary_key=True),  # the entry's number at its table (1, 2, ...)
    Column("entry", Text, nullable=False),  # JSON: the entry as the table's summary sends it
)

MY_TABLES = 50  # the most recent tables in play a player's list shows by default
MY_TABLES_MAX = 100  # ... and at most
CHUNK = 500  # ids per statement (a database's bound on parameters is far above)


# -- the story ------------------------------------------------------------------------------------


def save_story(storage: Storage, table_id: str, entry: dict[str, Any], kept: int) -> None:
    """Store a story entry, and forget the table's entries older than the newest `kept` (in the
    writer thread). An entry stored under its number already (another process owned the table
    before) is replaced."""
    n = int(entry["n"])
    with storage.engine.begin() as conn:
        mine = story_table.c.table_id == table_id
        conn.execute(delete(story_table).where(mine, (story_table.c.n == n) | (story_table.c.n <= n - kept)))
        conn.execute(insert(story_table).values(table_id=table_id, n=n, entry=json.dumps(entry)))


def load_story(storage: Storage, table_id: str) -> list[dict[str, Any]]:
    """The table's stored story, oldest first; an entry that does not read as one is left out."""
    with storage.engine.connect() as conn:
        rows = conn.execute(
            select(story_table.c.entry).where(story_table.c.table_id == table_id).order_by(story_table.c.n)
        ).all()
    story = []
    for row in rows:
        with contextlib.suppress(ValueError, TypeError):
            entry = json.loads(row.entry)
            if (
                isinstance(entry, dict)
                and isinstance(entry.get("n"), int)
                and isinstance(entry.get("what"), str)
                and isinstance(entry.get("seat"), int)
            ):
                story.append(entry)
    return story


# -- a table rebuilt -------------------------------------------------------------------------------


def action_times(storage: Storage, table_id: str) -> list[tuple[int, float]]:
    """Each logged action's (seat, at), in order."""
    with storage.engine.connect() as conn:
        rows = conn.execute(
            select(actions_table.c.seat, actions_table.c.at)
            .where(actions_table.c.table_id == table_id)
            .order_by(actions_table.c.seq)
        ).all()
    return [(int(r.seat), float(r.at)) for r in rows]


def restore(runtime: TableRuntime, storage: Storage) -> None:
    """What a rebuilt table keeps beside its game (in a worker thread, before it is in play): its
    story and, over days, its clock as the log says it stands."""
    runtime.presence.restore(load_story(storage, runtime.id))
    setting = runtime.row.settings.get("clock")
    if setting is not None and over_days(setting):
        people = [info.get("kind") == "human" for info in runtime.row.seats]
        runtime.clock.restore(
            reserves_after(setting, people, runtime.row.created_at, action_times(storage, runtime.id))
        )


def not_over_days(storage: Storage, ids: list[str]) -> list[str]:
    """The tables among `ids` not played over days (the idle ones of those are abandoned: a table
    over days never is, its clock hands every move on)."""
    days: set[str] = set()
    for start in range(0, len(ids), CHUNK):
        with storage.engine.connect() as conn:
            rows = conn.execute(
                select(tables_table.c.id, tables_table.c.settings).where(
                    tables_table.c.id.in_(ids[start : start + CHUNK])
                )
            ).all()
        for row in rows:
            with contextlib.suppress(ValueError, TypeError, AttributeError):
                if over_days((json.loads(row.settings) or {}).get("clock")):
                    days.add(row.id)
    return [table_id for table_id in ids if table_id not in days]


# -- a player's tables -----------------------------------------------------------------------------


def seated_rows(storage: Storage, pid: str, limit: int) -> list[Any]:
    """The most recently moved tables in play with a seat of player `pid` (their rows' columns)."""
    # A seats text names a player as json.dumps writes it; the id is matched in Python again below.
    named = f'"player": {json.dumps(pid)}'
    with storage.engine.connect() as conn:
        return list(
            conn.execute(
                select(
                    tables_table.c.id,
                    tables_table.c.game,
                    tables_table.c.players,
                    tables_table.c.seats,
                    tables_table.c.settings,
                    tables_table.c.moves,
                    tables_table.c.created_at,
                    tables_table.c.updated_at,
                    tables_table.c.to_move,
                )
                .where(
                    tables_table.c.status == "playing", tables_table.c.seats.contains(named, autoescape=True)
                )
                .order_by(tables_table.c.updated_at.desc())
                .limit(limit)
            ).all()
        )


def _json(text: str | None, default: Any) -> Any:
    try:
        return default if text is None else json.loads(text)
    except (ValueError, TypeError):
        return default


def _title(game: str) -> dict[str, str]:
    try:
        return dict(game_class(game).title)
    except BodogeError:
        return {"en": game, "ja": game}


def stored_deadline(
    storage: Storage, row: Any, seats: list[dict[str, Any]], to_move: list[int]
) -> float | None:
    """When the decision now is up, from the stored data alone (a table over days that another
    process runs): the turn started when the last action was logged."""
    setting = _json(row.settings, {}).get("clock")
    if not over_days(setting) or len(to_move) != 1:
        return None
    seat = to_move[0]
    people = [isinstance(info, dict) and info.get("kind") == "human" for info in seats]
    if not 0 <= seat < len(people) or not people[seat]:
        return None
    reserves = reserves_after(setting, people, float(row.created_at), action_times(storage, row.id))
    return float(row.updated_at) + setting["turn_seconds"] + reserves[seat]


def table_entry(
    manager: TableManager, row: Any, pid: str, link: str, deadline: float | None = None
) -> dict[str, Any] | None:
    """One table of the player's list: what anyone at it may know, their own seats, whose decision it
    is, when it is up, and their seat's link (theirs only). None if they have no seat there."""
    seats = _json(row.seats, [])
    if not isinstance(seats, list):
        return None
    mine = [i for i, info in enumerate(seats) if isinstance(info, dict) and info.get("player") == pid]
    mine = [i for i in mine if seats[i].get("kind") == "human"]
    if not mine:
        return None
    runtime = manager.tables.get(row.id)
    clock = None
    if runtime is not None and runtime.owned:
        # In play here: the game itself says whose decision it is, and the clock when it is up.
        current = runtime.state.current_player
        to_move = [] if current is None else [current]
        shown = runtime.clock.shown()
        if shown is not None:
            clock = {k: shown[k] for k in ("turn_seconds", "reserve_seconds", "long", "seat", "running")}
            deadline = shown["deadline"]
    else:
        stored = _json(row.to_move, None)
        to_move = [s for s in stored if isinstance(s, int)] if isinstance(stored, list) else []
        setting = _json(row.settings, {}).get("clock")
        if isinstance(setting, dict):
            clock = {
                "turn_seconds": setting.get("turn_seconds"),
                "reserve_seconds": setting.get("reserve_seconds"),
                "long": over_days(setting),
            }
    return {
        "id": row.id,
        "game": row.game,
        "title": _title(row.game),
        "players": row.players,
        "seats": [
            {"seat": i, "name": info.get("name"), "kind": info.get("kind"), "spec": info.get("spec")}
            for i, info in enumerate(seats)
            if isinstance(info, dict)
        ],
        "your_seats": mine,
        "to_move": to_move,
        "your_move": any(seat in mine for seat in to_move),
        "clock": clock,
        "deadline": deadline,
        "moves": row.moves,
        "last_move_at": row.updated_at,
        "created_at": row.created_at,
        "link": link,
    }


def _order(entry: dict[str, Any]) -> tuple[bool, float, float]:
    """Your move first, the soonest deadline first among them, then the latest moved."""
    deadline = entry["deadline"] if entry["deadline"] is not None else math.inf
    return (not entry["your_move"], deadline, -float(entry["last_move_at"]))


router = APIRouter()


@router.get("/api/me/tables")
async def my_tables(request: Request, limit: int = MY_TABLES) -> dict[str, Any]:
    """The tables in play where the player has a seat (the most recently moved `limit`, at most
    MY_TABLES_MAX), theirs to move first: each with whose decision it is, when it is up, and the
    link to the player's own seat."""
    player = await need_player(request)
    limit = max(1, min(limit, MY_TABLES_MAX))
    manager: TableManager = request.app.state.manager
    players = players_of(request)
    rows = await manager.off_loop(seated_rows, manager.storage, player.id, limit)
    out = []
    for row in rows:
        link = f"/t/{row.id}#token={players.seat_key(player.id, row.id)}"
        entry = table_entry(manager, row, player.id, link)
        if entry is None:
            continue
        loaded = manager.tables.get(row.id)
        if (loaded is None or not loaded.owned) and entry["deadline"] is None and entry["to_move"]:
            seats = _json(row.seats, [])
            entry["deadline"] = await manager.off_loop(
                stored_deadline, manager.storage, row, seats, entry["to_move"]
            )
        out.append(entry)
    out.sort(key=_order)
    return {
        "player": player.public(),
        "tables": out,
        "your_move": sum(1 for entry in out if entry["your_move"]),
        "limit": limit,
        "now": time.time(),
    }
