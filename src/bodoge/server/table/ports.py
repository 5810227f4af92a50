"""What the pieces of a table need of each other, as narrow protocols: so that none imports another
that imports it back (DESIGN.md §6: each part can be read and changed alone).

The arrows run one way: tables.py (TableManager) makes runtimes (runtime.py: TableRuntime); a runtime
owns its parts (presence.py, chat.py, rematch.py, bots.py) and hands each itself, seen through the
protocol of that part below; the runtime sees its manager through `Manager`. Neither the parts nor
the runtime import what they are handed: TableManager satisfies `Manager`, TableRuntime satisfies
every part's protocol, and mypy checks both where they are handed over.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Set
from typing import Any, Protocol, TypeVar

from bodoge.core.game import State
from bodoge.server.bots import BotPool
from bodoge.server.cluster import Cluster
from bodoge.server.storage import Storage, TableRow, Writer
from bodoge.server.table.connection import Connection

TableT = TypeVar("TableT")


class Identified(Protocol):
    """A table as a maker of one sees it: its id."""

    @property
    def id(self) -> str: ...


class Host(Protocol):
    """What a table and its parts need of the process's tables (tables.py: TableManager): its
    storage and bots, its settings, the other processes, and the tables it makes."""

    @property
    def storage(self) -> Storage: ...
    @property
    def writer(self) -> Writer: ...
    @property
    def cluster(self) -> Cluster: ...
    @property
    def bots(self) -> BotPool: ...
    @property
    def bot_delay(self) -> float: ...
    @property
    def away_grace(self) -> float: ...
    @property
    def closing(self) -> bool: ...
    @property
    def seat_key(self) -> Callable[[str, str], str] | None:
        """A player's seat key at a table (server/players.py), or None where there are no players."""

    def tell(self, message: dict[str, Any]) -> None:
        """Tell the other processes, without waiting."""

    async def create_rematch(self, row: TableRow, creator: str) -> Identified:
        """The table that plays `row`'s game again."""
        ...

    def joined_rematch(self, row: TableRow, seat: int) -> None:
        """A seat's person came to the rematch `row` for the first time."""

    def game_over(self, table_id: str) -> None:
        """The table's game ended here (its last action is committed)."""


class Manager(Host, Protocol[TableT]):
    """What a table's runtime needs of the process's tables beside: the tables in memory here, and
    what happens to a whole table (caught up from the log, taken over, let go); and what the app
    asks through a table (`open_tables_of`, before a rematch). `TableT` is the runtime itself."""

    @property
    def tables(self) -> dict[str, TableT]: ...

    def catch_up_later(self, runtime: TableT) -> None:
        """Read the table's log again, in the background."""

    async def promote(self, runtime: TableT) -> bool:
        """Own the table if nobody does; False if another process owns it."""
        ...

    def unload(self, runtime: TableT) -> None:
        """The table leaves memory."""

    def open_tables_of(self, address: str) -> int:
        """Tables in play made from `address`."""
        ...


class Table(Protocol):
    """What every part reads of its table."""

    @property
    def id(self) -> str: ...
    @property
    def row(self) -> TableRow: ...
    @property
    def state(self) -> State: ...
    @property
    def seq(self) -> int: ...
    @property
    def owned(self) -> bool: ...
    @property
    def connections(self) -> Collection[Connection]: ...
    @property
    def manager(self) -> Host: ...


class Announcing(Table, Protocol):
    """A table that tells everyone its summary (the rematch's)."""

    def broadcast_table(self) -> None: ...


class Seen(Protocol):
    """Who is at a table, as its bots see it (presence.py: Presence)."""

    @property
    def away(self) -> Set[int]: ...
    def people_present(self) -> bool: ...
    def attended(self) -> bool: ...


class Played(Table, Protocol):
    """What the table's bots need of it (bots.py): who is away, and a move to submit."""

    @property
    def presence(self) -> Seen: ...

    async def submit(self, seat: int, action: Any, seq: int | None = None, bot: bool = False) -> None:
        """Take `action` for `seat` (ActionError if it may not be taken)."""


class Scheduling(Protocol):
    """The table's bots as presence.py sees them: they look whether a bot is to move."""

    def schedule(self) -> None: ...


class Attended(Announcing, Protocol):
    """What presence.py needs of its table: to make the clock, the summary, the bots and memory
    follow who is here."""

    @property
    def bots(self) -> Scheduling: ...

    def people_changed(self) -> None: ...
    def maybe_unload(self) -> None: ...
    def tick_clock(self) -> None: ...
