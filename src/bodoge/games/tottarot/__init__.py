"""Tottarot (トッタロット): fate cards, hidden will bids, and stealing a better fate.

Binding spec: docs/rules/tottarot.md. The package has the shape of docs/adding-a-game.md.
"""

from bodoge.games.tottarot.cards import DEFAULT_DECK, CardType, convert_deck, deck_to_json
from bodoge.games.tottarot.rules import Tottarot
from bodoge.games.tottarot.state import TottarotState

__all__ = ["DEFAULT_DECK", "CardType", "Tottarot", "TottarotState", "convert_deck", "deck_to_json"]
