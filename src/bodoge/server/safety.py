"""Safe in public: a player mutes another's chat, or reports a chat line for the server's operator.

**Mute** is the muting player's own choice: their list of muted players is kept with them (any
device that holds their key has it), and their table pages hide those players' chat lines. It
changes nothing for anyone else; the muted player is not told.

**Report** keeps a copy of what was said (the line as stored, its table, seat and the reporter's
reason) for the operator, who reads them with `bodoge reports` (docs/deploy.md). A report names a
line of a table the reporter sat at or watched; the line's text is copied from the table's stored
chat, never taken from the report, so a report cannot put words in anyone's mouth.
"""

from __future__ import annotations

import contextlib
import json
import time
from typing import Any

from fastapi import APIRouter, HTTPException, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Column, Engine, Float, Integer, String, Table, Text, delete, func, insert, select
from sqlalchemy.exc import IntegrityError

from bodoge.server.guard import json_body
from bodoge.server.players import need_player, players_of
from bodoge.server.storage import chat_table, metadata, tables_table
from bodoge.server.table.plain import plain_line

MAX_MUTES = 500  # players one player may mute
MAX_REASON = 500  # characters of a report's reason
MAX_REPORTS = 50  # reports one player may have made in a day

mutes_table = Table(
    "bodoge_mutes",
    metadata,
    Column("player", String(16), primary_key=True),
    Column("muted", String(16), primary_key=True),
    Column("at", Float, nullable=False),
)

reports_table = Table(
    "bodoge_reports",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("reporter", String(16), nullable=False, index=True),
    Column("table_id", String(32), nullable=False),
    Column("line", Integer, nullable=False),  # the chat line's index at its table
    Column("seat", Integer, nullable=False),  # who said it: the seat ...
    Column("player", String(16), nullable=True),  # ... and its player, when identified
    Column("name", String(64), nullable=False),  # the name it was said under
    Column("text", Text, nullable=False),  # what was said, copied from the stored chat
    Column("reason", Text, nullable=False),
    Column("at", Float, nullable=False, index=True),
)


class Safety:
    """Mutes and reports (synchronous: call it off the event loop)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def mutes(self, player: str) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(mutes_table.c.muted).where(mutes_table.c.player == player).order_by(mutes_table.c.at)
            ).all()
        return [row.muted for row in rows]

    def mute(self, player: str, muted: str) -> None:
        if muted == player:
            raise ValueError("a player cannot mute themselves")
        with self.engine.begin() as conn:
            count = conn.execute(
                select(func.count()).select_from(mutes_table).where(mutes_table.c.player == player)
            ).scalar_one()
            if count >= MAX_MUTES:
                raise ValueError(f"at most {MAX_MUTES} players muted: unmute one first")
        # Muted already: muting again changes nothing.
        with contextlib.suppress(IntegrityError), self.engine.begin() as conn:
            conn.execute(insert(mutes_table).values(player=player, muted=muted, at=time.time()))

    def unmute(self, player: str, muted: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                delete(mutes_table).where(mutes_table.c.player == player, mutes_table.c.muted == muted)
            )

    def report(self, reporter: str, table_id: str, line: int, reason: str) -> int:
        """Keep a report of line `line` of `table_id`'s chat; its id. LookupError for no such line,
        ValueError for reporting oneself or past the daily count."""
        now = time.time()
        with self.engine.begin() as conn:
            said = conn.execute(
                select(chat_table).where(chat_table.c.table_id == table_id, chat_table.c.n == line)
            ).first()
            seats_text = conn.execute(
                select(tables_table.c.seats).where(tables_table.c.id == table_id)
            ).scalar()
            if said is None or seats_text is None:
                raise LookupError(f"table {table_id[:40]!r} has no chat line {line}")
            seats = json.loads(seats_text)
            seat = seats[said.seat] if 0 <= said.seat < len(seats) else {}
            player = seat.get("player") if isinstance(seat, dict) else None
            if player == reporter:
                raise ValueError("that line is your own")
            made = conn.execute(
                select(func.count())
                .select_from(reports_table)
                .where(reports_table.c.reporter == reporter, reports_table.c.at > now - 86400)
            ).scalar_one()
            if made >= MAX_REPORTS:
                raise ValueError(f"at most {MAX_REPORTS} reports a day from one player")
            result = conn.execute(
                insert(reports_table).values(
                    reporter=reporter,
                    table_id=table_id,
                    line=line,
                    seat=said.seat,
                    player=player,
                    name=said.name,
                    text=said.text,
                    reason=reason,
                    at=now,
                )
            )
            key = result.inserted_primary_key
            assert key is not None  # an insert of one row has one
            return int(key[0])

    def reports(self, since: float = 0.0, limit: int = 100) -> list[dict[str, Any]]:
        """The newest reports first, for the operator (`bodoge reports`)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(reports_table)
                .where(reports_table.c.at >= since)
                .order_by(reports_table.c.id.desc())
                .limit(limit)
            ).all()
        return [dict(row._mapping) for row in rows]


def safety_of(request: Request) -> Safety:
    safety: Safety = request.app.state.safety
    return safety


class ReportIn(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    table: str = Field(min_length=1, max_length=32)
    line: int = Field(ge=0, le=10**6)
    reason: str = Field(default="", max_length=MAX_REASON)


router = APIRouter()


@router.get("/api/me/mutes")
async def my_mutes(request: Request) -> dict[str, Any]:
    """The players this player has muted, with their names."""
    player = await need_player(request)
    manager = request.app.state.manager
    ids = await manager.off_loop(safety_of(request).mutes, player.id)
    known = await manager.off_loop(players_of(request).many, ids)
    return {"muted": [known[i].public() for i in ids if i in known]}


@router.put("/api/me/mutes/{muted}", status_code=204)
async def mute(request: Request, muted: str) -> Response:
    player = await need_player(request)
    manager = request.app.state.manager
    if await manager.off_loop(players_of(request).get, muted) is None:
        raise HTTPException(404, f"no player {muted[:40]!r}")
    try:
        await manager.off_loop(safety_of(request).mute, player.id, muted)
    except ValueError as exc:
        raise HTTPException(400, str(exc)) from None
    return Response(status_code=204)


@router.delete("/api/me/mutes/{muted}", status_code=204)
async def unmute(request: Request, muted: str) -> Response:
    player = await need_player(request)
    await request.app.state.manager.off_loop(safety_of(request).unmute, player.id, muted[:16])
    return Response(status_code=204)


@router.post("/api/reports", status_code=201)
async def report(request: Request) -> dict[str, Any]:
    """A player reports a chat line: {"table", "line", "reason"}; the line's words are copied from the
    table's own chat."""
    player = await need_player(request)
    body = await json_body(
        request, ReportIn, 'a report is a JSON body {"table": ..., "line": N, "reason": ...}'
    )
    reason = body.reason.strip()
    if not plain_line(reason):
        raise HTTPException(400, "reason: one line of plain text, without control characters")
    try:
        made = await request.app.state.manager.off_loop(
            safety_of(request).report, player.id, body.table, body.line, reason
        )
    except LookupError as exc:
        raise HTTPException(404, str(exc)) from None
    except ValueError as exc:
        raise HTTPException(400, str(exc)) from None
    return {"id": made}
