"""The bots of a table: the bot that plays a seat now (its own, or the stand-in of an away person),
and the task that plays them, one move at a time, each on that seat's view, until a person is to
move. The bots themselves run in worker processes (server/bots.py: BotPool)."""

from __future__ import annotations

import asyncio
import logging
import random
from typing import TYPE_CHECKING

from bodoge.agents import reads_log
from bodoge.server.table.connection import ActionError
from bodoge.server.table.views import off_loop_if_long

if TYPE_CHECKING:
    from bodoge.server.table.ports import Played

log = logging.getLogger("bodoge.server")

DEFAULT_STANDIN = "heuristic"  # the bot that plays for an away person, unless the table chose one
MAX_BOT_PAUSE = 30.0  # seconds: the longest pause between a failed bot move and the next try


class TableBots:
    """The bots at one table, played by one task at a time (the owner's: a replica's never play)."""

    def __init__(self, table: Played) -> None:
        self.table = table
        self.task: asyncio.Task[None] | None = None

    def spec(self, seat: int | None) -> str | None:
        """The bot that plays `seat` now: its own, or the stand-in of an away person while someone
        is at the table to play with (a table whose people have all gone waits for them; one played
        over days never waits)."""
        if seat is None:
            return None
        table = self.table
        info = table.row.seats[seat]
        if info.get("kind") == "bot":
            spec = info.get("spec")
            return None if spec is None else str(spec)
        if seat in table.presence.away and table.presence.attended():
            return str(table.row.settings.get("standin") or DEFAULT_STANDIN)
        return None

    def schedule(self) -> None:
        """Start playing if a bot is to move (and it is not playing already)."""
        table = self.table
        if table.row.status != "playing" or table.manager.closing or not table.owned:
            return
        if table.state.is_terminal or self.spec(table.state.current_player) is None:
            return
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._play(), name=f"bots-{table.id}")
            self.task.add_done_callback(self._ended)

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()

    def _ended(self, task: asyncio.Task[None]) -> None:
        """A bot task that died of something unforeseen is logged and started again: a bot table
        never stops while a bot has a legal action."""
        if task.cancelled() or task.exception() is None:
            return
        log.error("table %s: the bot task failed", self.table.id, exc_info=task.exception())
        asyncio.get_running_loop().call_later(1.0, self.schedule)

    async def _play(self) -> None:
        """Play while a bot is to move (one move at a time, each on that seat's view).

        Nothing stops it but the end of the game: a move the table refuses, or any failure, is
        logged and tried again after a pause that grows to at most MAX_BOT_PAUSE; after a refusal
        the bot plays a random legal action of its seat (the pool has already fallen back to one
        for a failed or slow worker)."""
        table = self.table
        manager = table.manager
        failures = 0
        while not manager.closing and table.row.status == "playing":
            seat = table.state.current_player
            spec = self.spec(seat)
            if seat is None or spec is None:
                return
            if manager.bot_delay > 0:
                await asyncio.sleep(manager.bot_delay)
            seq = table.seq
            if table.state.current_player != seat or table.row.status != "playing":
                continue
            try:
                if failures:
                    action = random.SystemRandom().choice(table.state.legal_actions())
                else:
                    # Without the log for a bot that never reads it: building the log and pickling
                    # it to the worker was a third of a busy server's time (bench/load.py).
                    log_needed = reads_log(spec)
                    view = await off_loop_if_long(table.state, table.state.view, seat, log_needed)
                    move = await manager.bots.act(
                        table.row.game, table.row.players, table.row.options, spec, view
                    )
                    action = move.action
                # submit() ends by scheduling bots; this task is still running, so it starts none,
                # and this loop carries on with the next bot decision itself.
                await table.submit(seat, action, seq, bot=True)
                failures = 0
            except ActionError as exc:
                if exc.code in ("stale", "game_over", "abandoned"):
                    continue  # the table moved on meanwhile: look again
                failures += 1
                log.warning("table %s: bot move refused (%s): %s", table.id, exc.code, exc.message)
                await asyncio.sleep(min(MAX_BOT_PAUSE, 0.25 * 2**failures))
            except Exception:
                failures += 1
                log.exception("table %s: bot move failed; trying again", table.id)
                await asyncio.sleep(min(MAX_BOT_PAUSE, 0.25 * 2**failures))
