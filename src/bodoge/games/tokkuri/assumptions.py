"""What results about Tokkuri rest on (issue #54): the spec decisions behind each subject a finding
can be about, and what the game's `heuristic` bot assumes of the other players (see
`bodoge.games.hangover.assumptions` for why findings name them). `RULINGS` quotes
docs/rules/tokkuri.md §8; a test checks each quote."""

from __future__ import annotations

HEURISTIC_ASSUMES = {
    "en": "plays by rules of thumb from its own view and takes another player's unknown tokkuri to be "
    "a real card 4 times in 5; it does not model what the others will do next",
    "ja": "自分に見える情報だけで経験則に従って打ち、他人の伏せたトックリは5回に4回は本物と見なします。"
    "他の人の次の手は読みません",
}

RULINGS = {
    "TK-D7": "`P0` starts round 1 (the lobby decides the seating); the start player moves left each round.",
    "TK-D9": "each number goes to a different tokkuri, all numbers are used, and no level goes below 0.",
    "TK-D10": "any tokkuri on the table, the drinker's own and dummies included.",
    "TK-D15": "the bonus needs at least 2 tokkuri emptied by this drink and no dummy among them.",
    "TK-D23": "the game ends after a settlement that leaves any balance ≤ 0, or after `rounds` rounds "
    "when set, or after `max_rounds` (50) rounds in any case.",
    "TK-D24": "the highest balance wins; tied players share the win.",
}

SUBJECTS: dict[str, tuple[str, ...]] = {
    "choice:drink": ("TK-D9", "TK-D10", "TK-D15"),
    "choice:place": ("TK-D10",),
    "seats": ("TK-D7",),
    "ties": ("TK-D24",),
    "winner": ("TK-D23", "TK-D24"),
}
