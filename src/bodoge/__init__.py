"""bodoge: Tokkuri, Tottarot, Hangover and Troika, played exactly by their rules.

import bodoge
bodoge.games()                                   # ['hangover', 'tokkuri', 'tottarot', 'troika']
game = bodoge.make("troika", players=4)
state = game.new_state(seed=7)
"""

from bodoge import errors, games  # `games` is the package of games, and calling it lists them
from bodoge.core.records import replay
from bodoge.core.registry import make

__all__ = ["errors", "games", "make", "replay"]
__version__ = "0.1.0"
