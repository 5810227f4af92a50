"""Tottarot's players and options (spec §2): the deck, the will tokens, the turns and the target."""

from __future__ import annotations

from bodoge.core.options import Option, integer
from bodoge.games.tottarot.cards import DECK_ALLOWED, DEFAULT_DECK_JSON, convert_deck, deck_to_json

OPTION_SPECS = (
    Option(
        "deck",
        DEFAULT_DECK_JSON,
        DECK_ALLOWED,
        "the fate-card types (TT-1.4); default: the 21 PROPOSED cards of TT-1.1",
        convert_deck,
        deck_to_json,
    ),
    integer("max_will", 3, "will tokens are 0 … max_will (the seed's variant: 4)", 1, 9),
    # TT-D26: turns_per_round ≤ max_will + 1 ≤ 10
    integer("turns_per_round", 3, "turns in a round (TT-4.1)", 1, 10),
    # every round gives a token (TT-6.3): at most players × (target − 1) + 1 ≤ 115 rounds
    integer("target", 2, "victory tokens needed to win (TT-6.3)", 1, 20),
)

#: The options in people's words, for the lobby's form (English and Japanese): each one's label. The
#: deck is data: the form keeps its default.
WORDS = {
    "max_will": {"en": "Highest will token", "ja": "意志トークンの最大の数"},
    "turns_per_round": {"en": "Turns per round", "ja": "1ラウンドのターン数"},
    "target": {"en": "Victory tokens to win", "ja": "勝つのに必要な勝利点トークン"},
}
