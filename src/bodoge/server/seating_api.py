"""The HTTP API of open tables and quick match (server/seating.py): who asks, what they send, and
the answer, each route a thin layer over `Seatings`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, HTTPException, Request, Response

from bodoge import agents
from bodoge.core.registry import games as game_names
from bodoge.server.bodies import QuickIn, RemoveIn, SeatingIn
from bodoge.server.guard import TooMany, client_address, json_body
from bodoge.server.players import Player, need_player, player_of
from bodoge.server.seating import MAX_WAIT, Refused, Seatings
from bodoge.server.seating_store import LISTED


def seatings_of(request: Request) -> Seatings:
    """The app's Seatings (made at startup; made here on first use where the app did not)."""
    state = request.app.state
    seatings: Seatings | None = getattr(state, "seatings", None)
    if seatings is None:
        seatings = state.seatings = Seatings(state.manager, state.players)
        seatings.start()
    return seatings


async def _answer(request: Request, act: Callable[[Seatings], Any], viewer: Player | None) -> dict[str, Any]:
    seatings = seatings_of(request)
    try:
        seating = await act(seatings)
    except Refused as exc:
        raise HTTPException(exc.status, exc.message) from None
    return (await seatings.describe([seating], viewer))[0]


def _creating(request: Request) -> None:
    """A new open table counts as a table made from the address (the table limits of POST /api/tables)."""
    try:
        request.app.state.guard.hit_create(client_address(request))
    except TooMany as exc:
        raise HTTPException(429, exc.message, headers={"Retry-After": str(exc.retry_after)}) from None


router = APIRouter()


@router.post("/api/seatings", status_code=201)
async def create_seating(request: Request) -> dict[str, Any]:
    """Make an open table and sit down at it: {game, players?, options?, clock?, public?,
    bots_after?, bot?}."""
    player = await need_player(request)
    body = await json_body(
        request, SeatingIn, 'an open table is made with a JSON body {"game": ..., "players": ...}'
    )
    if body.bot is not None and agents.parse_spec(body.bot)[0] not in agents.names():
        raise HTTPException(400, f"bot is one of this server's agents: {', '.join(agents.names())}")
    _creating(request)
    return await _answer(request, lambda s: s.create(player, body), player)


@router.get("/api/seatings")
async def list_seatings(request: Request, game: str | None = None, limit: int = 50) -> dict[str, Any]:
    """The public open tables waiting for people, oldest first (the lobby's list)."""
    if game is not None and game not in game_names():
        raise HTTPException(400, f"no game {game[:40]!r}; the games are {', '.join(game_names())}")
    seatings = seatings_of(request)
    found = await seatings.listed(game, max(1, min(limit, LISTED)))
    viewer = await player_of(request)
    return {"seatings": await seatings.describe(found, viewer)}


@router.get("/api/seatings/mine")
async def my_seatings(request: Request) -> dict[str, Any]:
    """The player's own open tables: waiting, or started in the last ten minutes."""
    player = await need_player(request)
    seatings = seatings_of(request)
    found = [await seatings.settle(s) for s in await seatings.mine(player)]
    return {"seatings": await seatings.describe(found, player)}


@router.get("/api/seatings/{sid}")
async def get_seating(
    request: Request, sid: str, version: int | None = None, wait: float = 0.0
) -> dict[str, Any]:
    """One open table (a private one too: its id is its link). A seated player who asks with their
    key gets `you.join_url`, their own seat's link, once it has started. With `version` (the one the
    asker has) and `wait` (seconds, at most MAX_WAIT), the answer comes when the seating has changed
    since, or when the wait is over: the waiting page learns at once that its game started."""
    if not 0 <= wait <= MAX_WAIT:
        raise HTTPException(422, f"wait is 0 to {MAX_WAIT:g} seconds")
    viewer = await player_of(request)
    if wait and version is not None:
        return await _answer(request, lambda s: s.wait_change(sid, version, wait), viewer)
    return await _answer(request, lambda s: s.get(sid), viewer)


@router.post("/api/seatings/{sid}/join")
async def join_seating(request: Request, sid: str) -> dict[str, Any]:
    player = await need_player(request)
    return await _answer(request, lambda s: s.join(player, sid), player)


@router.post("/api/seatings/{sid}/leave")
async def leave_seating(request: Request, sid: str) -> dict[str, Any]:
    player = await need_player(request)
    return await _answer(request, lambda s: s.leave(player, sid), player)


@router.post("/api/seatings/{sid}/remove")
async def remove_seat(request: Request, sid: str) -> dict[str, Any]:
    """The creator removes a seat whose person never came (see the module)."""
    player = await need_player(request)
    body = await json_body(request, RemoveIn, 'a seat is removed with a JSON body {"seat": ...}')
    return await _answer(request, lambda s: s.remove(player, sid, body), player)


@router.delete("/api/seatings/{sid}", status_code=204)
async def cancel_seating(request: Request, sid: str) -> Response:
    player = await need_player(request)
    await _answer(request, lambda s: s.cancel(player, sid), player)
    return Response(status_code=204)


@router.post("/api/quickmatch")
async def quick_match(request: Request) -> dict[str, Any]:
    """Sit down at a quick-match table of the game (and number of players), or make one."""
    player = await need_player(request)
    body = await json_body(request, QuickIn, 'quick match takes a JSON body {"game": ..., "players": ...}')
    return await _answer(request, lambda s: s.quick(player, body), player)
