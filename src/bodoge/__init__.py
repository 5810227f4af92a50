"""bodoge: Tokkuri, Tottarot, Hangover and Troika, played exactly by their rules.

import bodoge
bodoge.games()                                   # ['hangover', 'tokkuri', 'tottarot', 'troika']
game = bodoge.make("troika", players=4)
state = game.new_state(seed=7)
"""

import importlib

from bodoge import compiled, errors

# Before any game is imported: the modules compiled with mypyc only where they match their sources.
compiled.guard()

# The package of games is imported before `games` below is bound, so that importing a game later
# (`import bodoge.games.troika`) does not set `bodoge.games` to the package over the function.
importlib.import_module("bodoge.games")

from bodoge.core.records import replay  # noqa: E402
from bodoge.core.registry import games, make  # noqa: E402

__all__ = ["errors", "games", "make", "replay"]
__version__ = "0.1.0"
