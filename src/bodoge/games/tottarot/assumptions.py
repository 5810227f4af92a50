"""What results about Tottarot rest on (issue #54): the spec decisions behind each subject a finding
can be about, and what the game's `heuristic` bot assumes of the other players (see
`bodoge.games.hangover.assumptions` for why findings name them). `RULINGS` quotes
docs/rules/tottarot.md §8; a test checks each quote."""

from __future__ import annotations

HEURISTIC_ASSUMES = {
    "en": "values an unknown card at the mean of the cards it cannot account for and bids to beat the "
    "others' best unused token; it does not model how the others will bid",
    "ja": "見えないカードは行方の分からないカードの平均の価値と見なし、他の人の残った最大の意志トークンを"
    "上回るように入札します。他の人の入札の仕方は読みません",
}

RULINGS = {
    "TT-D3": "`P0` starts round 1 (the lobby decides the seating); the marker moves left each round.",
    "TT-D5": "chosen one at a time in seat order from the start player, each hidden until all are "
    "chosen, then revealed together.",
    "TT-D6": "the tied players act one at a time, the start player first, then clockwise.",
    "TT-D8": "an actor holding a card must discard it. Stealing is optional (`steal none`)",
    "TT-D22": "they share the win; no extra rounds are played.",
}

SUBJECTS: dict[str, tuple[str, ...]] = {
    "choice:steal": ("TT-D8",),
    "choice:steal none": ("TT-D8",),
    "choice:bid": ("TT-D5", "TT-D6"),
    "seats": ("TT-D3", "TT-D6"),
    "ties": ("TT-D22",),
    "winner": ("TT-D22",),
}
