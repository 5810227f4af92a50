"""Tokkuri (トックリ), Takashi Saito, 2024: drink the sake, collect the empty bottles.

Spec: shared/rules/tokkuri.md. `GAME` is the Game class; `settle` is the round settlement (TK-6.2).
"""

from bodoge.games.tokkuri.cards import DEFAULT_DECK, CardType
from bodoge.games.tokkuri.rules import Tokkuri, TokkuriState, settle

GAME = Tokkuri

__all__ = ["DEFAULT_DECK", "GAME", "CardType", "Tokkuri", "TokkuriState", "settle"]
