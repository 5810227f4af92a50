"""Tokkuri's players and options (spec §2), each with its bounds (issue #15) beside its rule."""

from __future__ import annotations

from bodoge.core import options as opts
from bodoge.games.tokkuri import cards as C

#: The most rounds a game may be set to last (options `rounds` and `max_rounds`).
MAX_ROUNDS = 100

# Bounds (issue #15), beside each rule's own: rounds and points small enough that the longest
# game stays sane (max_game_length ≤ 100 rounds × 200 cards × (2 + 6 numbers + 4 players)) and
# every balance exact in JSON: a round's score lies within −penalty_points × 200 … 200 (TK-6.1),
# so one settlement moves a balance by at most 3 × 200 × (10**6 + 1) (TK-6.2), and 100 of them
# stay below 10**11.
OPTION_SPECS = (
    opts.Option(
        "deck",
        C.DEFAULT_DECK,
        C.ALLOWED,
        "the card-type list (TK-1.5); default: the 32 cards of TK-1.1 and TK-1.2",
        C.convert_deck,
        C.deck_to_json,
    ),
    opts.integer("start_points", 10, "each player's starting balance (TK-3.1)", 1, 10**6),
    # a hand holds at most half the largest deck (2 players)
    opts.integer("hand_size", 7, "cards dealt to each player per round (TK-3.3)", 2, C.MAX_CARDS // 2),
    opts.integer(
        "rounds",
        None,
        "rounds to play; null: until a bankruptcy or max_rounds (TK-6.5)",
        1,
        MAX_ROUNDS,
        none_ok=True,
    ),
    opts.integer("max_rounds", 50, "the most rounds a game lasts (TK-6.5)", 1, MAX_ROUNDS),
    # at least one tokkuri per player (TK-D20); a cap of every card in the deck is no cap
    opts.integer(
        "max_tokkuri",
        None,
        "the most tokkuri on the table at once; null: no cap (TK-D20)",
        2,
        C.MAX_CARDS,
        none_ok=True,
    ),
    opts.integer("tokkuri_level", 10, "the level of a new tokkuri (TK-3.4)", 1, C.MAX_NUMBER),
    # levels only fall from tokkuri_level: a higher penalty_level penalises nothing
    opts.integer(
        "penalty_level",
        3,
        "a tokkuri left at this level or more is penalised (TK-6.1)",
        1,
        C.MAX_NUMBER,
    ),
    opts.integer("penalty_points", 2, "points lost per penalised tokkuri (TK-6.1)", 0, 10**6),
)

#: The options in people's words, for the lobby's form (English and Japanese): each one's label, and
#: `none`, what no value means where one may be left empty. The deck is data: the form keeps its default.
WORDS = {
    "start_points": {"en": "Starting points", "ja": "最初の持ち点"},
    "hand_size": {"en": "Cards dealt each round", "ja": "1ラウンドに配るカードの枚数"},
    "rounds": {
        "en": "Rounds",
        "ja": "ラウンド数",
        "none": {"en": "until someone goes bankrupt", "ja": "誰かが破産するまで"},
    },
    "max_rounds": {"en": "Most rounds (if nobody goes bankrupt)", "ja": "最大ラウンド数（破産がないとき）"},
    "max_tokkuri": {
        "en": "Most tokkuri on the table at once",
        "ja": "場に同時に置けるトックリの数",
        "none": {"en": "no limit", "ja": "上限なし"},
    },
    "tokkuri_level": {"en": "Level of a new tokkuri", "ja": "新しいトックリのレベル"},
    "penalty_level": {
        "en": "A tokkuri left at this level or more is penalised",
        "ja": "このレベル以上で残ったトックリは罰点",
    },
    "penalty_points": {"en": "Points lost per penalised tokkuri", "ja": "罰点（トックリ1本ごとに失う点）"},
}
