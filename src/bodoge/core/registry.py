"""The games bodoge knows. Games register themselves; core names none.

A game package declares an entry point in the group `bodoge.games` (bodoge's own four do so in
`pyproject.toml`; an outside package adds a game the same way in its own), or code registers a class
at run time with `register(cls)`, as the test suite's toy games do. See docs/adding-a-game.md.
"""

from __future__ import annotations

import threading
import warnings
from importlib.metadata import entry_points
from typing import Any

from bodoge.core.game import Game
from bodoge.errors import BadOption

#: The entry-point group a game package declares its Game class in.
ENTRY_POINT_GROUP = "bodoge.games"

_classes: dict[str, type[Game]] = {}
_loaded = False
_lock = threading.Lock()


def register(cls: type[Game], *, replace: bool = False) -> type[Game]:
    """Add a Game class under its `name` (usable as a class decorator). A name already taken by
    another class is refused unless `replace`: two games must not answer to one name."""
    if not (isinstance(cls, type) and issubclass(cls, Game)):
        raise TypeError(f"register takes a bodoge.core.Game subclass, not {cls!r}")
    name = getattr(cls, "name", None)
    if not isinstance(name, str) or not name.isidentifier() or name != name.lower():
        raise ValueError(f"{cls.__qualname__}.name must be a lower-case identifier, not {name!r}")
    _load()
    with _lock:
        known = _classes.get(name)
        if known is not None and known is not cls and not replace:
            raise ValueError(f"the game name {name!r} is taken by {known.__module__}.{known.__qualname__}")
        _classes[name] = cls
    return cls


def unregister(name: str) -> None:
    """Forget the game `name` (tests that register a toy game for a while)."""
    _load()
    with _lock:
        _classes.pop(name, None)


def _load() -> None:
    """Register every game declared by an installed package, once."""
    global _loaded
    if _loaded:
        return
    with _lock:
        if _loaded:
            return
        for point in entry_points(group=ENTRY_POINT_GROUP):
            try:
                cls = point.load()
            except Exception as exc:  # one broken outside package must not take the others down
                warnings.warn(
                    f"the game {point.name!r} ({point.value}) cannot be loaded: {exc!r}", stacklevel=2
                )
                continue
            if getattr(cls, "name", None) != point.name:
                warnings.warn(
                    f"the entry point {point.name!r} names {point.value}, whose name is "
                    f"{getattr(cls, 'name', None)!r}: skipped",
                    stacklevel=2,
                )
                continue
            _classes.setdefault(point.name, cls)
        _loaded = True


def games() -> list[str]:
    """The names of every registered game, sorted."""
    _load()
    return sorted(_classes)


def declared() -> list[str]:
    """The names of the games installed packages declare (their entry points), sorted: `games()`
    without those registered at run time (a test's toy game, a notebook's experiment)."""
    _load()
    return sorted(point.name for point in entry_points(group=ENTRY_POINT_GROUP) if point.name in _classes)


def game_class(name: str) -> type[Game]:
    _load()
    cls = _classes.get(name) if isinstance(name, str) else None
    if cls is None:
        known = ", ".join(sorted(_classes)) or "none: is bodoge installed (pip install -e .)?"
        raise BadOption("game", name, "one of " + known)
    return cls


def make(name: str, /, players: int | None = None, **options: Any) -> Game:
    """`bodoge.make("troika", players=4, rounds=3)`: the game with its options checked.

    `name` is positional-only, so that an option called "name" is checked like any other (and
    refused as unknown) instead of clashing with it."""
    return game_class(name)(players, **options)
