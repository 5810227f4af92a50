"""Hints at a practice table: the moves the bots would prefer at the learner's decision, ranked.

A hint reads only the seat's view, as a bot does (DESIGN.md §2): what the learner could know. Two
opinions go into it. The game's heuristic (the rule-of-thumb bot) names its move; and every legal
move is played out on a few deals consistent with the view (`analysis.values.option_values`, the
review's estimate), which ranks them by the share of the win they kept. The heuristics give no
reasons of their own, so the reason said is where the move's rank comes from: the heuristic's
choice, and the win share of the playouts.

It runs in a bot worker (server/bots.py), never on the server's event loop.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import bodoge
from bodoge.agents.base import legal_ids
from bodoge.agents.heuristic import heuristic_policy
from bodoge.analysis.values import Budget, option_values
from bodoge.core.game import Game
from bodoge.errors import BodogeError

SHOWN = 5  # moves listed at most
DEALS = 12  # playouts per move at most
SECONDS = 2.0  # and at most this long for all of them


def rank_moves(
    game: Game, view: Mapping[str, Any], seed: int, deals: int = DEALS, seconds: float = SECONDS
) -> list[dict[str, Any]]:
    """The legal moves of `view`'s decision, best first (at most SHOWN), each with its text, its
    estimated win share (`value`, 0 to 1, None where it was not estimated), whether the heuristic
    plays it, and a reason in each language."""
    legal = legal_ids(view)
    texts = {a["id"]: a for a in view.get("legal_actions", ())}
    favourite: int | None = None
    try:
        favourite = int(heuristic_policy(game)(game, view, random.Random(seed)))
    except BodogeError:  # a game without a heuristic: the playouts alone rank
        favourite = None
    values: dict[int, float] = {}
    shown_deals = 0
    if len(legal) > 1:
        estimate = option_values(game, view, Budget(deals=deals, seconds=seconds), seed)
        values = {a: estimate.mean(a) for a in legal}
        shown_deals = estimate.deals
    ranked = sorted(legal, key=lambda a: (-values.get(a, 0.0), a != favourite, a))
    out = []
    for a in ranked[:SHOWN]:
        value = values.get(a)
        reason_en, reason_ja = [], []
        if a == favourite:
            reason_en.append("the rule-of-thumb bot plays this")
            reason_ja.append("定石ボットならこう指します")
        if value is not None:
            reason_en.append(f"kept {value:.0%} of the win in {shown_deals} playouts")
            reason_ja.append(f"{shown_deals}回の試し打ちで勝ち分{value:.0%}")
        if len(legal) == 1:
            reason_en.append("the only legal move")
            reason_ja.append("合法手はこれだけです")
        entry = texts.get(a, {})
        out.append(
            {
                "action": a,
                "text": entry.get("text", str(a)),
                "text_ja": entry.get("text_ja") or entry.get("text", str(a)),
                "value": None if value is None else round(value, 3),
                "heuristic": a == favourite,
                "reason": {"en": "; ".join(reason_en), "ja": "、".join(reason_ja)},
            }
        )
    return out


def hint_task(unit: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A bot worker's hint task: {game, players, options, view, seed}."""
    game = bodoge.make(unit["game"], unit["players"], **unit["options"])
    return rank_moves(game, unit["view"], int(unit["seed"]))
