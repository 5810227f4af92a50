"""Troika (トロイカ): Oink Games' tile set-collection game, by its rules in docs/rules/troika.md.

The package has the shape of docs/adding-a-game.md.
"""

from bodoge.games.troika.rules import Troika
from bodoge.games.troika.scoring import game_winners, round_chips, round_placements, score_tiles, troika_legal
from bodoge.games.troika.state import TroikaState

__all__ = [
    "Troika",
    "TroikaState",
    "game_winners",
    "round_chips",
    "round_placements",
    "score_tiles",
    "troika_legal",
]
