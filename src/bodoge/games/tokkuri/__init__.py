"""Tokkuri (トックリ), Takashi Saito, 2024: drink the sake, collect the empty bottles.

Spec: docs/rules/tokkuri.md; the package has the shape of docs/adding-a-game.md. `settle` is the
round settlement (TK-6.2).
"""

from bodoge.games.tokkuri.cards import DEFAULT_DECK, CardType
from bodoge.games.tokkuri.rules import Tokkuri
from bodoge.games.tokkuri.scoring import settle
from bodoge.games.tokkuri.state import TokkuriState

__all__ = ["DEFAULT_DECK", "CardType", "Tokkuri", "TokkuriState", "settle"]
