"""Troika (トロイカ), Oink Games 2017: collect ore tiles into fuels and jewels (spec troika.md).

Exports `GAME` (the Game class) and the pure functions `score_tiles` (TR-5.4) and `troika_legal`
(TR-5.4.5).
"""

from bodoge.games.troika.rules import Troika, TroikaState, game_winners, round_chips, round_placements
from bodoge.games.troika.scoring import score_tiles, troika_legal

GAME = Troika

__all__ = [
    "GAME",
    "Troika",
    "TroikaState",
    "game_winners",
    "round_chips",
    "round_placements",
    "score_tiles",
    "troika_legal",
]
