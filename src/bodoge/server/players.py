"""Players without sign-up: a name chosen once and a private key the browser keeps.

A person who wants to be known here (to sit at open tables, to be rated, to see their tables in one
place) picks a name; the server answers with a **key**, 192 random bits, shown once as a recovery link
(`/me#key=…`) for the person to copy. The server keeps only the key's SHA-256, the player's id, their
display name and language: no e-mail, no password, nothing personal. Whoever holds the key is the
player (`Authorization: Bearer <key>`); a lost key is a lost player, so the page says to keep the link.

Names are unique on a server by the rule seats' names follow at a table (`plain.name_key`: names
that read the same are the same name). A player may delete themselves: the key stops working, the
name is freed, and their seats in games already played read "a former player" (the games stay, so
that the other people's records and ratings keep their meaning).

A seat of a player at a table is opened by a **seat key**, derived from the server's secret, the
player and the table (`seat_key`): the server can give it to the player again from any device that
holds their key, and it opens that seat only; the player's key itself never goes into a table link.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import hashlib
import hmac
import json
import secrets
import time
from dataclasses import dataclass
from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Request, Response, WebSocket
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Column, Engine, Float, String, Table, insert, select, update
from sqlalchemy.exc import IntegrityError

from bodoge.server.guard import TooMany, client_address, json_body
from bodoge.server.storage import chat_table, metadata, tables_table
from bodoge.server.table.connection import hash_token
from bodoge.server.table.plain import MAX_NAME, clean_name, name_key

FORMER = {"en": "a former player", "ja": "元プレイヤー"}
LANGS = ("en", "ja")
MAX_KEY = 200  # characters of a key as sent; a real one has 32

players_table = Table(
    "bodoge_players",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("name", String(MAX_NAME), nullable=False),
    Column("name_key", String(4 * MAX_NAME), nullable=True, unique=True),  # NULL once deleted
    Column("lang", String(8), nullable=False),
    Column("key_hash", String(64), nullable=True, unique=True),  # NULL once deleted
    Column("created_at", Float, nullable=False),
    Column("deleted_at", Float, nullable=True),
)

# The server's own secret (seat keys are derived from it): made once, kept in the database, so that
# every process of a server and every restart derive the same seat keys.
secrets_table = Table(
    "bodoge_secrets",
    metadata,
    Column("name", String(32), primary_key=True),
    Column("value", String(128), nullable=False),
)


class NameTaken(ValueError):
    """The name reads the same as another player's."""


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    lang: str
    created_at: float
    deleted: bool = False

    def shown(self) -> str:
        return FORMER["en"] if self.deleted else self.name

    def public(self) -> dict[str, Any]:
        """What anyone may know of the player: never the key."""
        return {"id": self.id, "name": self.shown(), "lang": self.lang, "deleted": self.deleted}


def _player(row: Any) -> Player:
    return Player(row.id, row.name, row.lang, row.created_at, row.deleted_at is not None)


def check_name(raw: Any) -> str:
    """A player's name, trimmed; ValueError saying what is allowed."""
    if not isinstance(raw, str):
        raise ValueError(f"a name is a text of 1 to {MAX_NAME} characters")
    name = clean_name(raw, "the name")
    if not name:
        raise ValueError(f"a name is a text of 1 to {MAX_NAME} characters, not only spaces")
    if name_key(name) in {name_key(v) for v in FORMER.values()}:
        raise ValueError(f"{name!r} is what the pages call a deleted player: choose another name")
    return name


def check_lang(raw: Any) -> str:
    if raw not in LANGS:
        raise ValueError(f"lang is one of {', '.join(LANGS)}")
    return str(raw)


class Players:
    """The players of a server (synchronous: call it off the event loop)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._secret = self._load_secret()

    def _load_secret(self) -> bytes:
        find = select(secrets_table.c.value).where(secrets_table.c.name == "seat")
        with self.engine.connect() as conn:
            found = conn.execute(find).scalar()
        if found is None:
            # Another process may make it at the same moment: one insert wins, all read the winner's.
            with contextlib.suppress(IntegrityError), self.engine.begin() as conn:
                conn.execute(insert(secrets_table).values(name="seat", value=secrets.token_hex(32)))
            with self.engine.connect() as conn:
                found = conn.execute(find).scalar_one()
        return bytes.fromhex(found)

    def create(self, name: Any, lang: Any = "en") -> tuple[Player, str]:
        """A new player and their key (shown once); NameTaken or ValueError for a bad name/lang."""
        name, lang = check_name(name), check_lang(lang)
        key = secrets.token_urlsafe(24)
        player = Player(secrets.token_urlsafe(12), name, lang, time.time())
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(players_table).values(
                        id=player.id,
                        name=name,
                        name_key=name_key(name),
                        lang=lang,
                        key_hash=hash_token(key),
                        created_at=player.created_at,
                    )
                )
        except IntegrityError:
            raise NameTaken(
                f"{name!r} is taken (or reads the same as a name that is): choose another"
            ) from None
        return player, key

    def by_key(self, key: Any) -> Player | None:
        """The player whose key this is, or None (no key, a wrong one, or a deleted player's)."""
        if not isinstance(key, str) or not key or len(key) > MAX_KEY:
            return None
        digest = hash_token(key)
        with self.engine.connect() as conn:
            row = conn.execute(select(players_table).where(players_table.c.key_hash == digest)).first()
        # The lookup is by the digest, an index: compare again in constant time, so that the answer's
        # timing says nothing of how much of a guessed digest matched.
        if row is None or row.key_hash is None or not hmac.compare_digest(row.key_hash, digest):
            return None
        return _player(row)

    def get(self, pid: Any) -> Player | None:
        if not isinstance(pid, str) or not pid or len(pid) > 16:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(select(players_table).where(players_table.c.id == pid)).first()
        return None if row is None else _player(row)

    def many(self, pids: list[str]) -> dict[str, Player]:
        wanted = sorted({p for p in pids if isinstance(p, str) and 0 < len(p) <= 16})
        if not wanted:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(select(players_table).where(players_table.c.id.in_(wanted))).all()
        return {row.id: _player(row) for row in rows}

    def update(self, pid: str, *, name: Any = None, lang: Any = None) -> Player:
        values: dict[str, Any] = {}
        if name is not None:
            values["name"] = check_name(name)
            values["name_key"] = name_key(values["name"])
        if lang is not None:
            values["lang"] = check_lang(lang)
        if values:
            try:
                with self.engine.begin() as conn:
                    conn.execute(
                        update(players_table)
                        .where(players_table.c.id == pid, players_table.c.deleted_at.is_(None))
                        .values(**values)
                    )
            except IntegrityError:
                raise NameTaken(
                    f"{values['name']!r} is taken (or reads the same as a name that is)"
                ) from None
        player = self.get(pid)
        if player is None:
            raise ValueError(f"no player {pid!r}")
        return player

    def delete(self, pid: str) -> list[str]:
        """The player is gone: their key stops working and their name is freed; at every table they
        sat at, their seat (and their chat lines) read "a former player". Returns those tables' ids
        (tables loaded in memory are renamed there by the caller)."""
        former = FORMER["en"]
        touched: list[str] = []
        with self.engine.begin() as conn:
            conn.execute(
                update(players_table)
                .where(players_table.c.id == pid)
                .values(name=former, name_key=None, key_hash=None, deleted_at=time.time())
            )
            # A player id is 16 random characters: a seats text that contains it names the player.
            rows = conn.execute(
                select(tables_table.c.id, tables_table.c.seats).where(
                    tables_table.c.seats.contains(pid, autoescape=True)
                )
            ).all()
            for row in rows:
                seats = _json_list(row.seats)
                mine = [i for i, s in enumerate(seats) if isinstance(s, dict) and s.get("player") == pid]
                if not mine:
                    continue
                for i in mine:
                    seats[i]["name"] = former
                conn.execute(
                    update(tables_table).where(tables_table.c.id == row.id).values(seats=_json_text(seats))
                )
                conn.execute(
                    update(chat_table)
                    .where(chat_table.c.table_id == row.id, chat_table.c.seat.in_(mine))
                    .values(name=former)
                )
                touched.append(row.id)
        return touched

    def seat_key(self, pid: str, table_id: str) -> str:
        """The token of `pid`'s seat at `table_id` (what its link carries): the same on every call,
        every process and after a restart, and no use at another table or to another player."""
        digest = hmac.new(self._secret, f"seat:{pid}:{table_id}".encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest[:18]).decode()


def _json_list(text: str) -> list[Any]:
    value = json.loads(text)
    return value if isinstance(value, list) else []


def _json_text(value: Any) -> str:
    return json.dumps(value)


# -- who is asking ------------------------------------------------------------------------------


def key_of(request: Request | WebSocket) -> str | None:
    """The key an HTTP request carries (`Authorization: Bearer <key>`), or None."""
    header = request.headers.get("authorization") or ""
    scheme, _, key = header.partition(" ")
    if scheme.lower() != "bearer" or not key.strip():
        return None
    return key.strip()


def players_of(request: Request | WebSocket) -> Players:
    players: Players = request.app.state.players
    return players


async def player_of(request: Request | WebSocket) -> Player | None:
    """The player making the request, or None when it carries no valid key."""
    key = key_of(request)
    if key is None:
        return None
    return await request.app.state.manager.off_loop(players_of(request).by_key, key)


async def need_player(request: Request) -> Player:
    """The player making the request; 401 saying how to become one when there is none. Each identified
    request counts against the player's own rate (`Limits.player_rate`), beside its address's."""
    if key_of(request) is None:
        raise HTTPException(
            401,
            "this needs a player: choose a name (POST /api/players) and send the key it gives as "
            "'Authorization: Bearer <key>'",
            headers={"WWW-Authenticate": "Bearer"},
        )
    player = await player_of(request)
    if player is None:
        raise HTTPException(
            401,
            "that key belongs to no player here (a mistyped key, or a player who deleted themselves)",
            headers={"WWW-Authenticate": "Bearer"},
        )
    try:
        request.app.state.guard.hit_player(player.id)
    except TooMany as exc:
        raise HTTPException(429, exc.message, headers={"Retry-After": str(exc.retry_after)}) from None
    return player


# -- the API ------------------------------------------------------------------------------------


class NewPlayerIn(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    name: str = Field(max_length=MAX_NAME)
    lang: Literal["en", "ja"] = "en"


class PlayerPatchIn(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    name: str | None = Field(default=None, max_length=MAX_NAME)
    lang: Literal["en", "ja"] | None = None


router = APIRouter()


@router.post("/api/players", status_code=201)
async def new_player(request: Request) -> dict[str, Any]:
    """Become a player: a name (and language) in, the player and their key out. The key is shown
    this once: the recovery link carries it."""
    body = await json_body(
        request, NewPlayerIn, 'a player is made with a JSON body {"name": ..., "lang": ...}'
    )
    try:  # counted once the body reads as a player: a mistyped body does not use up the address's rate
        request.app.state.guard.hit_signup(client_address(request))
    except TooMany as exc:
        raise HTTPException(429, exc.message, headers={"Retry-After": str(exc.retry_after)}) from None
    try:
        player, key = await request.app.state.manager.off_loop(
            players_of(request).create, body.name, body.lang
        )
    except NameTaken as exc:
        raise HTTPException(409, str(exc)) from None
    except ValueError as exc:
        raise HTTPException(400, str(exc)) from None
    return {"player": player.public(), "key": key, "recovery_url": f"/me#key={key}"}


@router.get("/api/me")
async def me(request: Request) -> dict[str, Any]:
    player = await need_player(request)
    return {"player": player.public()}


@router.patch("/api/me")
async def change_me(request: Request) -> dict[str, Any]:
    player = await need_player(request)
    body = await json_body(request, PlayerPatchIn, 'a change is a JSON body {"name"?: ..., "lang"?: ...}')
    try:
        changed = await request.app.state.manager.off_loop(
            functools.partial(players_of(request).update, player.id, name=body.name, lang=body.lang)
        )
    except NameTaken as exc:
        raise HTTPException(409, str(exc)) from None
    except ValueError as exc:
        raise HTTPException(400, str(exc)) from None
    return {"player": changed.public()}


@router.delete("/api/me", status_code=204)
async def delete_me(request: Request) -> Response:
    """The player deletes themselves: their key stops working at once; their games stay, their seats
    there read "a former player"."""
    player = await need_player(request)
    manager = request.app.state.manager
    touched = await manager.off_loop(players_of(request).delete, player.id)
    for table_id in touched:
        runtime = manager.tables.get(table_id)
        if runtime is not None:
            for seat in runtime.row.seats:
                if seat.get("player") == player.id:
                    seat["name"] = FORMER["en"]
    return Response(status_code=204)
