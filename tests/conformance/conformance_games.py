"""The games the conformance suite checks: every registered game, and the toy game package of
`toygame/` (docs/adding-a-game.md), which the `conftest.py` registers while each test runs."""

from __future__ import annotations

from toygame import ThreeTricks

import bodoge
from bodoge.core import Game
from bodoge.core.registry import game_class

TOY = ThreeTricks
CLASSES: dict[str, type[Game]] = {name: game_class(name) for name in bodoge.games()} | {TOY.name: TOY}
GAMES = sorted(CLASSES)
CASES = [
    (name, n) for name, cls in sorted(CLASSES.items()) for n in range(cls.min_players, cls.max_players + 1)
]
