"""Tottarot (トッタロット): fate cards, hidden will bids, and stealing a better fate.

Binding spec: shared/rules/tottarot.md. `GAME` is the Game class the registry finds.
"""

from bodoge.games.tottarot.cards import DEFAULT_DECK, CardType, convert_deck, deck_to_json
from bodoge.games.tottarot.heuristic import act
from bodoge.games.tottarot.rules import Tottarot, TottarotState
from bodoge.games.tottarot.text import NAMES, RULES, parse_text, render

GAME = Tottarot

__all__ = [
    "DEFAULT_DECK",
    "GAME",
    "NAMES",
    "RULES",
    "CardType",
    "Tottarot",
    "TottarotState",
    "act",
    "convert_deck",
    "deck_to_json",
    "parse_text",
    "render",
]
