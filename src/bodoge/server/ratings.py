"""Ratings: every finished game between people who have a name here moves their rating in that game.

The rules (docs/playing.md, "Ratings", says them for players):

- **What is rated.** A game that ended (its table is `over`) with at least two *identified* people
  (seats whose row carries a `player` id, server/players.py) playing it themselves. Each game has its
  own rating: Troika skill says nothing of Hangover skill.
- **The model** is openskill's Plackett–Luce, as `bodoge sim` rates bots (arena/summary.py): a
  rating is a skill estimate μ and its uncertainty σ; a newcomer starts at μ 25, σ 25/3. The number
  shown is the **ordinal** μ − 3σ, which rises as the player wins and as the estimate firms up (a
  newcomer's is 0), and the range μ ± 2σ is where the skill most likely lies.
- **The order** is the table's own order at the end (`views.places`, the end banner's ranking): the
  winners first, then the others by the game's standing. Seats that share a place tie.
- **Bots are anchors.** A bot seat plays at the fixed rating of its kind (ANCHORS, whatever its
  parameters), which no game changes: beating a heuristic bot counts for something, and nobody can
  move a bot's rating. A person without a player id (a seat opened by a plain join link) plays as an
  unknown newcomer would, also fixed.
- **Stand-ins.** The log records which moves a stand-in made for an away person (the `standin`
  column of bodoge_actions). A seat whose stand-in made more than half of its decisions played as
  that stand-in: it is rated as the stand-in's anchor, and the person's rating does not change (the
  game is in their list, marked so). Fewer than half: the person played it, and it counts for them.
- **Not rated:** abandoned games (nobody finished them: no order to learn from), games where one
  player held two seats, and games with fewer than two people left to rate. Such a game still
  appears in its people's lists.
- **Once.** A table is rated at most once: the row in bodoge_rated, inserted in the same transaction
  as the ratings it changes, says so at every process and after any restart. A game that ends is
  rated at once (the table manager's `over_hooks`); one that ended while no process could rate it is
  rated when a server starts (`catch_up`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import threading
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, FastAPI, HTTPException, Query, Request
from openskill.models import PlackettLuce
from sqlalchemy import (
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    insert,
    select,
    tuple_,
    update,
)
from sqlalchemy.exc import IntegrityError

from bodoge.core.registry import game_class, make
from bodoge.core.registry import games as game_names
from bodoge.errors import BodogeError
from bodoge.server.players import players_table
from bodoge.server.storage import (
    Storage,
    TableRow,
    actions_table,
    metadata,
    reviews_table,
    tables_table,
)
from bodoge.server.table.views import places

if TYPE_CHECKING:
    from bodoge.server.tables import TableManager

log = logging.getLogger("bodoge.server")

MODEL = PlackettLuce()


@dataclass(frozen=True)
class Skill:
    """A rating: the skill estimate μ and its uncertainty σ."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The number shown: a skill the player very likely has at least (μ − 3σ)."""
        return self.mu - 3 * self.sigma


NEWCOMER = Skill(MODEL.mu, MODEL.sigma)  # 25 ± 8.33: nothing known yet
# Each kind of bot's fixed rating. Measured with `bodoge sim` on the arena example (docs/
# bots-and-arena.md: Hangover, 4 players, 1000 games): random 22.1, heuristic 30.4. The search bot
# beats the heuristic in every game and player count (docs/measured.md) but its rating is level
# with it where ducking decides (Hangover): a little above. The trained bot plays at about the
# heuristic's level. σ 1: known well, so that a game against a bot says as much as it can.
ANCHORS: dict[str, Skill] = {
    "random": Skill(22.0, 1.0),
    "heuristic": Skill(30.0, 1.0),
    "ismcts": Skill(32.0, 1.0),
    "nn": Skill(30.0, 1.0),
}


def anchor(spec: Any) -> Skill:
    """A bot's fixed rating, by its kind ('ismcts:iterations=50' plays as 'ismcts'); a kind this
    table does not know plays as a newcomer."""
    return ANCHORS.get(str(spec or "").split(":")[0], NEWCOMER)


# -- the database -------------------------------------------------------------------------------

ratings_table = Table(
    "bodoge_ratings",
    metadata,
    Column("player", String(16), primary_key=True),
    Column("game", String(64), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("ordinal", Float, nullable=False),  # μ − 3σ, kept for the leaderboard's order
    Column("games", Integer, nullable=False),  # rated games of this game
    Column("updated_at", Float, nullable=False),
    Index("bodoge_ratings_board", "game", "ordinal"),
)

# Each player's games, one row per (player, table): the games list of the profile and, where the game
# was rated for the player, the rating after it (the points of the profile's plot).
history_table = Table(
    "bodoge_rating_history",
    metadata,
    Column("player", String(16), primary_key=True),
    Column("table_id", String(32), ForeignKey("bodoge_tables.id"), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("at", Float, nullable=False),  # when the game ended (its last move)
    Column("seat", Integer, nullable=False),
    Column("place", Integer, nullable=False),
    Column("players", Integer, nullable=False),
    Column("counted", String(16), nullable=False),  # COUNTED: how the game counted for the player
    Column("mu", Float, nullable=True),  # the rating after the game; NULL when it did not change
    Column("sigma", Float, nullable=True),
    Column("ordinal", Float, nullable=True),
    Index("bodoge_rating_history_player", "player", "at"),
)

# One row per finished table with identified people, once it has been through the rules (rated or
# not): what makes rating idempotent.
rated_table = Table(
    "bodoge_rated",
    metadata,
    Column("table_id", String(32), ForeignKey("bodoge_tables.id"), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("rated", Integer, nullable=False),  # 1: ratings changed; 0: not rated (`reason`)
    Column("reason", String(80), nullable=True),
    Column("at", Float, nullable=False),  # when it was rated
)

# How a game counted for a player (history_table.counted).
RATED, STANDIN, UNRATED = "rated", "standin", "unrated"
COUNTED = (RATED, STANDIN, UNRATED)

# Why a finished game was not rated (rated_table.reason).
TOO_FEW = "fewer than two people played it themselves"
TWO_SEATS = "one player held more than one seat"
NOT_REPLAYED = "the game could not be replayed"


# -- the rules, on plain data -------------------------------------------------------------------


@dataclass(frozen=True)
class Role:
    """How one seat of a finished game counts. `player`: the identified person at the seat (even
    when not rated); `rated`: their rating moves; else the seat plays at `fixed`."""

    player: str | None
    rated: bool
    fixed: Skill | None
    counted: str  # for the person at the seat: RATED, STANDIN or UNRATED (a game not rated)


def stand_in_of(seat: int, moves: Sequence[tuple[int, str | None]]) -> str | None:
    """The stand-in that played `seat`, or None: the one that made more than half of the seat's
    decisions (`moves`: every logged move's seat and the stand-in that made it, or None)."""
    own = [standin for s, standin in moves if s == seat]
    by_standin = Counter(standin for standin in own if standin is not None)
    if not by_standin or 2 * sum(by_standin.values()) <= len(own):
        return None
    return by_standin.most_common(1)[0][0]


def judge(
    seats: Sequence[dict[str, Any]], moves: Sequence[tuple[int, str | None]]
) -> tuple[list[Role], str | None]:
    """Each seat's role in rating a finished game, and why the game is not rated (None: it is).
    `seats`: the table row's seats; `moves`: every logged move's seat and stand-in (or None)."""
    roles: list[Role] = []
    for seat, info in enumerate(seats):
        player = info.get("player") if info.get("kind") == "human" else None
        if not isinstance(player, str):
            player = None
        if info.get("kind") == "bot":
            roles.append(Role(None, False, anchor(info.get("spec")), UNRATED))
            continue
        standin = stand_in_of(seat, moves)
        if standin is not None:
            roles.append(Role(player, False, anchor(standin), STANDIN))
        elif player is None:  # a person without a name here: an unknown newcomer, fixed
            roles.append(Role(None, False, NEWCOMER, UNRATED))
        else:
            roles.append(Role(player, True, None, RATED))
    people = [r.player for r in roles if r.player is not None]
    reason = None
    if len(people) != len(set(people)):
        reason = TWO_SEATS
    elif sum(1 for r in roles if r.rated) < 2:
        reason = TOO_FEW
    if reason is not None:  # nobody's rating moves
        roles = [Role(r.player, False, r.fixed, STANDIN if r.counted == STANDIN else UNRATED) for r in roles]
    return roles, reason


def rate(roles: Sequence[Role], place: Sequence[int], current: dict[str, Skill]) -> dict[str, Skill]:
    """The rated people's new ratings after a game where seat p finished `place[p]` (1: the best;
    equal places tie), from their `current` ones (a newcomer's where missing). Anchors stay."""
    before = [
        (current.get(r.player, NEWCOMER) if r.rated and r.player else r.fixed or NEWCOMER) for r in roles
    ]
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in before]
    after = MODEL.rate(teams, ranks=[float(p) for p in place])
    return {
        r.player: Skill(team[0].mu, team[0].sigma)
        for r, team in zip(roles, after, strict=True)
        if r.rated and r.player is not None
    }


# -- the ratings of a server --------------------------------------------------------------------


class Ratings:
    """Rating finished tables, and reading ratings back (synchronous: call it off the event loop)."""

    TRIES = 3  # a transaction that met another's new rating row is tried again this often

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.engine = storage.engine
        # One rating transaction at a time in this process (they read, then write, the same rows);
        # beside other processes, PostgreSQL's row locks (FOR UPDATE) and the primary keys order them.
        self._lock = threading.Lock()

    def rate_table(self, table_id: str) -> str:
        """Apply the rules to a finished table, once: "rated", "unrated" (its reason recorded),
        "done" (it had been already), or "not over" (abandoned, in play, unknown: nothing happens)."""
        row = self.storage.load_table(table_id)
        if row is None or row.status != "over":
            return "not over"
        if not any(info.get("player") for info in row.seats):
            return "unrated"  # nobody identified: nobody's list or rating to change (no row kept)
        with self.engine.connect() as conn:
            logged = conn.execute(
                select(actions_table.c.seat, actions_table.c.action, actions_table.c.standin)
                .where(actions_table.c.table_id == table_id)
                .order_by(actions_table.c.seq)
            ).all()
        roles, reason = judge(row.seats, [(r.seat, r.standin) for r in logged])
        place = _final_places(row, [(r.seat, r.action) for r in logged])
        if place is None:  # listed by its winners alone, and rated for nobody
            won = set((row.result or {}).get("winners") or [])
            place = [1 if p in won else 1 + len(won) for p in range(row.players)]
            roles, reason = [Role(r.player, False, r.fixed, UNRATED) for r in roles], NOT_REPLAYED
        for attempt in range(self.TRIES):
            try:
                with self._lock, self.engine.begin() as conn:
                    self._write(conn, row, roles, place, reason)
                return "rated" if reason is None else "unrated"
            except IntegrityError:
                if self.is_rated(table_id):
                    return "done"
                if attempt == self.TRIES - 1:
                    raise
        return "done"  # (not reached: the last try raises)

    def _write(
        self, conn: Any, row: TableRow, roles: list[Role], place: list[int], reason: str | None
    ) -> None:
        """In one transaction: the table is rated (its row first: a second try, anywhere, fails on
        the key and changes nothing), each rated person's rating moves, and each person's list gains
        the game."""
        now = time.time()
        conn.execute(
            insert(rated_table).values(
                table_id=row.id, game=row.game, rated=int(reason is None), reason=reason, at=now
            )
        )
        rated = sorted({r.player for r in roles if r.rated and r.player is not None})
        found = select(ratings_table).where(
            ratings_table.c.game == row.game, ratings_table.c.player.in_(rated)
        )
        if not self.storage.is_sqlite:
            found = found.order_by(ratings_table.c.player).with_for_update()
        had = {r.player: r for r in conn.execute(found).all()} if rated else {}
        current = {p: Skill(r.mu, r.sigma) for p, r in had.items()}
        new = rate(roles, place, current) if reason is None else {}
        for player, skill in new.items():
            values = {"mu": skill.mu, "sigma": skill.sigma, "ordinal": skill.ordinal, "updated_at": now}
            if player in had:
                conn.execute(
                    update(ratings_table)
                    .where(ratings_table.c.player == player, ratings_table.c.game == row.game)
                    .values(games=had[player].games + 1, **values)
                )
            else:
                conn.execute(insert(ratings_table).values(player=player, game=row.game, games=1, **values))
        for seat, role in enumerate(roles):
            if role.player is None:
                continue
            after = new.get(role.player) if role.rated else None
            conn.execute(
                insert(history_table).values(
                    player=role.player,
                    table_id=row.id,
                    game=row.game,
                    at=row.updated_at,
                    seat=seat,
                    place=place[seat],
                    players=row.players,
                    counted=role.counted,
                    mu=None if after is None else after.mu,
                    sigma=None if after is None else after.sigma,
                    ordinal=None if after is None else after.ordinal,
                )
            )

    def is_rated(self, table_id: str) -> bool:
        with self.engine.connect() as conn:
            found = conn.execute(select(rated_table.c.table_id).where(rated_table.c.table_id == table_id))
            return found.first() is not None

    def pending(self, limit: int = 100, after: tuple[float, str] | None = None) -> list[tuple[float, str]]:
        """Finished tables with an identified person that have not been through the rules yet, as
        (ended at, id), the oldest first; `after`: only those past that entry. A caller that pages
        with `after` moves on past a table `rate_table` leaves unrated without a row (one whose
        seats only look identified: a seat named "player"), where asking again from the start would
        list it again."""
        query = (
            select(tables_table.c.updated_at, tables_table.c.id)
            .outerjoin(rated_table, rated_table.c.table_id == tables_table.c.id)
            .where(
                tables_table.c.status == "over",
                rated_table.c.table_id.is_(None),
                tables_table.c.seats.contains('"player"'),
            )
        )
        if after is not None:
            query = query.where(tuple_(tables_table.c.updated_at, tables_table.c.id) > tuple_(*after))
        with self.engine.connect() as conn:
            rows = conn.execute(
                query.order_by(tables_table.c.updated_at, tables_table.c.id).limit(limit)
            ).all()
        return [(r.updated_at, r.id) for r in rows]

    # -- reading ------------------------------------------------------------------------------

    def profile(self, player_id: str, limit: int) -> dict[str, Any] | None:
        """A player's public profile: their ratings and their newest `limit` games; None for no
        player (or one who deleted themselves)."""
        with self.engine.connect() as conn:
            person = conn.execute(select(players_table).where(players_table.c.id == player_id)).first()
            if person is None or person.deleted_at is not None:
                return None
            ratings = conn.execute(
                select(ratings_table)
                .where(ratings_table.c.player == player_id)
                .order_by(ratings_table.c.games.desc(), ratings_table.c.game)
            ).all()
            games = conn.execute(
                select(history_table, tables_table.c.seats, reviews_table.c.status.label("review"))
                .join(tables_table, tables_table.c.id == history_table.c.table_id)
                .outerjoin(reviews_table, reviews_table.c.table_id == history_table.c.table_id)
                .where(history_table.c.player == player_id)
                .order_by(history_table.c.at.desc(), history_table.c.table_id)
                .limit(limit + 1)
            ).all()
            # Each rated game's change: the rating before it is the point before, in that game.
            before: dict[str, float | None] = {}
            if games:
                oldest = games[min(limit, len(games)) - 1].at
                earlier = conn.execute(
                    select(history_table.c.game, history_table.c.ordinal, history_table.c.at)
                    .where(
                        history_table.c.player == player_id,
                        history_table.c.ordinal.is_not(None),
                        history_table.c.at < oldest,
                    )
                    .order_by(history_table.c.at)
                ).all()
                for r in earlier:
                    before[r.game] = r.ordinal
        listed = []
        for r in reversed(games[:limit]):  # oldest first, to know each rated game's change
            change = None
            if r.ordinal is not None:
                change = r.ordinal - before.get(r.game, NEWCOMER.ordinal)
                before[r.game] = r.ordinal
            listed.append(_game_entry(r, change))
        listed.reverse()
        return {
            "player": {"id": person.id, "name": person.name, "lang": person.lang, "since": person.created_at},
            "ratings": [_rating_entry(r) for r in ratings],
            "games": listed,
            "more": len(games) > limit,
        }

    def history(self, player_id: str, game: str | None, limit: int) -> list[dict[str, Any]] | None:
        """The player's rating after each rated game (of `game`, or of every game), oldest first:
        the newest `limit` points. None for no player."""
        with self.engine.connect() as conn:
            person = conn.execute(
                select(players_table.c.deleted_at).where(players_table.c.id == player_id)
            ).first()
            if person is None or person.deleted_at is not None:
                return None
            query = select(history_table).where(
                history_table.c.player == player_id, history_table.c.ordinal.is_not(None)
            )
            if game is not None:
                query = query.where(history_table.c.game == game)
            rows = conn.execute(query.order_by(history_table.c.at.desc()).limit(limit)).all()
        return [
            {
                "game": r.game,
                "table": r.table_id,
                "at": r.at,
                "mu": r.mu,
                "sigma": r.sigma,
                "ordinal": r.ordinal,
                "place": r.place,
                "players": r.players,
            }
            for r in reversed(rows)
        ]

    def leaderboard(self, game: str, limit: int) -> list[dict[str, Any]]:
        """The best `limit` players of `game` by their shown rating (ordinal), each with at least one
        rated game. A player who deleted themselves is not listed (their games stay in the others'
        ratings and lists)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(ratings_table, players_table.c.name)
                .join(players_table, players_table.c.id == ratings_table.c.player)
                .where(
                    ratings_table.c.game == game,
                    ratings_table.c.games >= 1,
                    players_table.c.deleted_at.is_(None),
                )
                .order_by(ratings_table.c.ordinal.desc(), ratings_table.c.player)
                .limit(limit)
            ).all()
        return [
            dict(_rating_entry(r), rank=i + 1, player={"id": r.player, "name": r.name})
            for i, r in enumerate(rows)
        ]


def _final_places(row: TableRow, moves: list[tuple[int, int]]) -> list[int] | None:
    """The table's order at the end (the end banner's, `views.places`), from its replayed log; None
    if the log does not replay to the end here."""
    try:
        state = make(row.game, row.players, **row.options).new_state(
            seed=row.seed, rules_version=row.rules_version
        )
        for seat, action in moves:
            state.apply(action, seat=seat)
    except (BodogeError, ValueError, TypeError) as exc:
        log.error("table %s: cannot be replayed to rate it: %s", row.id, exc)
        return None
    if not state.is_terminal:
        log.error("table %s: its log does not reach the end of the game; not rated", row.id)
        return None
    return places(state)


def _rating_entry(r: Any) -> dict[str, Any]:
    return {
        "game": r.game,
        "ordinal": r.ordinal,
        "mu": r.mu,
        "sigma": r.sigma,
        "low": r.mu - 2 * r.sigma,
        "high": r.mu + 2 * r.sigma,
        "games": r.games,
        "updated_at": r.updated_at,
    }


def _game_entry(r: Any, change: float | None) -> dict[str, Any]:
    """One game of a profile's list: its table, when, the place, how it counted, and the people and
    bots at it (names and ids only: never a token)."""
    seats = []
    for info in _json_seats(r.seats):
        seat = {"name": info.get("name"), "kind": info.get("kind")}
        if info.get("kind") == "bot":
            seat["spec"] = info.get("spec")
        if isinstance(info.get("player"), str):
            seat["player"] = info["player"]
        seats.append(seat)
    return {
        "table": r.table_id,
        "game": r.game,
        "at": r.at,
        "seat": r.seat,
        "place": r.place,
        "players": r.players,
        "counted": r.counted,
        "ordinal": r.ordinal,
        "change": change,
        "seats": seats,
        "replay": f"/r/{r.table_id}",
        "review": f"/r/{r.table_id}#review-panel" if r.review == "done" else None,
    }


def _json_seats(text: str) -> list[dict[str, Any]]:
    try:
        value = json.loads(text)
    except ValueError:
        return []
    return [s for s in value if isinstance(s, dict)] if isinstance(value, list) else []


# -- at the server --------------------------------------------------------------------------------

CATCH_UP_BATCH = 100  # finished tables rated per worker call at startup


async def start(app: FastAPI) -> None:
    """Rate each table whose game ends here from now on (the manager's `over_hooks`), and, in the
    background, every finished table that no process rated (the server was stopped first)."""
    manager: TableManager = app.state.manager
    ratings = app.state.ratings = Ratings(manager.storage)

    async def rate_one(table_id: str) -> None:
        try:
            await manager.off_loop(ratings.rate_table, table_id)
        except Exception:
            log.exception("table %s: rating it failed; the next start tries again", table_id)

    manager.over_hooks.append(rate_one)
    app.state.ratings_catch_up = asyncio.create_task(_catch_up(manager, ratings))


async def _catch_up(manager: TableManager, ratings: Ratings) -> None:
    done = 0
    after: tuple[float, str] | None = None
    try:
        while not manager.closing:
            found = await manager.off_loop(ratings.pending, CATCH_UP_BATCH, after)
            for _, table_id in found:
                if manager.closing:
                    return
                await manager.off_loop(ratings.rate_table, table_id)
                done += 1
            if len(found) < CATCH_UP_BATCH:
                break
            after = found[-1]
    except Exception:
        log.exception("rating the finished tables failed; the next start tries again")
    if done:
        log.info("rated %d finished tables that had not been", done)


# -- the API --------------------------------------------------------------------------------------

PLAYER_ID = re.compile(r"[A-Za-z0-9_-]{1,16}")
MAX_GAMES = 200  # games of a profile's list per request
MAX_POINTS = 1000  # rating points per history request
MAX_BOARD = 100  # players per leaderboard request

router = APIRouter()


def ratings_of(request: Request) -> Ratings:
    ratings: Ratings = request.app.state.ratings
    return ratings


def _player_id(player_id: str) -> str:
    if not PLAYER_ID.fullmatch(player_id):
        raise HTTPException(404, "no such player: a player's id is 1 to 16 letters, digits, '-' or '_'")
    return player_id


def _game(game: str) -> str:
    if game not in game_names():
        raise HTTPException(404, f"no game {game[:40]!r} here; the games are {', '.join(game_names())}")
    return game


def _titled(entry: dict[str, Any]) -> dict[str, Any]:
    try:
        entry["title"] = dict(game_class(entry["game"]).title)
    except BodogeError:  # a game this server no longer has
        entry["title"] = {"en": entry["game"], "ja": entry["game"]}
    return entry


GONE = "no such player (or one who deleted themselves: their games stay in the others' lists)"


@router.get("/api/players/{player_id}")
async def player_profile(
    request: Request, player_id: str, limit: int = Query(50, ge=1, le=MAX_GAMES)
) -> dict[str, Any]:
    """A player's public profile: name, each game's rating (ordinal, μ, σ, μ ± 2σ, games), and their
    newest games (place, how it counted, the rating's change, replay and review links)."""
    pid = _player_id(player_id)
    found = await request.app.state.manager.off_loop(ratings_of(request).profile, pid, limit)
    if found is None:
        raise HTTPException(404, GONE)
    for entry in found["ratings"] + found["games"]:
        _titled(entry)
    return found


@router.get("/api/players/{player_id}/history")
async def player_history(
    request: Request,
    player_id: str,
    game: str | None = Query(None, max_length=64),
    limit: int = Query(500, ge=1, le=MAX_POINTS),
) -> dict[str, Any]:
    """The player's rating after each rated game, oldest first (of `game`, or every game)."""
    pid = _player_id(player_id)
    if game is not None:
        _game(game)
    points = await request.app.state.manager.off_loop(ratings_of(request).history, pid, game, limit)
    if points is None:
        raise HTTPException(404, GONE)
    return {"player": pid, "game": game, "points": points}


@router.get("/api/leaderboard/{game}")
async def leaderboard(
    request: Request, game: str, limit: int = Query(50, ge=1, le=MAX_BOARD)
) -> dict[str, Any]:
    """The game's best players by rating (those with a rated game), and the bots' fixed ratings
    beside them for scale."""
    _game(game)
    board = await request.app.state.manager.off_loop(ratings_of(request).leaderboard, game, limit)
    return _titled(
        {
            "game": game,
            "players": board,
            "anchors": [
                {"bot": name, "mu": s.mu, "sigma": s.sigma, "ordinal": s.ordinal}
                for name, s in ANCHORS.items()
            ],
            "newcomer": {"mu": NEWCOMER.mu, "sigma": NEWCOMER.sigma, "ordinal": NEWCOMER.ordinal},
        }
    )
