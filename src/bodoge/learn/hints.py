"""Hints at a practice table: the learner's options at their decision, ranked by the review's valuation.

A hint reads only the seat's view, as a bot does (DESIGN.md §2): what the learner could know. Every
legal move is valued as the game review values it (`analysis.values.option_values`: every option on
the same deals consistent with the view, raced so that the deals go to the options that are close),
and ranked by the win chance it keeps. A move whose paired difference with the first could be 0
is **about equal** to it: the hint says so rather than rank what it cannot tell apart. The game's
heuristic (the rule-of-thumb bot) names its move too.

It runs in a bot worker (server/bots.py), never on the server's event loop.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import bodoge
from bodoge.agents.base import legal_ids
from bodoge.agents.heuristic import heuristic_policy
from bodoge.analysis.values import Budget, option_values, paired_interval, paired_z
from bodoge.core.game import Game
from bodoge.errors import BodogeError

SHOWN = 5  # moves listed at most
DEALS = 64  # deals for the moves still in the race at most (as a review's decision)
SECONDS = 2.0  # and at most this long for all of them


def rank_moves(
    game: Game, view: Mapping[str, Any], seed: int, deals: int = DEALS, seconds: float = SECONDS
) -> list[dict[str, Any]]:
    """The legal moves of `view`'s decision, best first (at most SHOWN), each with its text, its
    estimated win chance (`value`, 0 to 1, with `low` and `high`, None where there was one move) over
    the `deals` it was played on, whether it is `about_equal` to the first, whether the heuristic
    plays it, and a reason in each language. The order is the race's: the leader, then the options
    that stayed in the race longest, each group by win chance (one left early was behind then, and
    its value, on fewer deals, is the rougher)."""
    legal = legal_ids(view)
    texts = {a["id"]: a for a in view.get("legal_actions", ())}
    favourite: int | None = None
    try:
        favourite = int(heuristic_policy(game)(game, view, random.Random(seed)))
    except BodogeError:  # a game without a heuristic: the playouts alone rank
        favourite = None
    if len(legal) == 1:
        (only,) = legal
        return [entry(texts, only, only == favourite, None, None, True, 0, first=True)]
    values = option_values(game, view, Budget(deals=deals, seconds=seconds), seed)
    best = values.best()
    z = paired_z(len(legal))
    # The race's leader first; then by win chance (an option dropped early, on fewer deals, after).
    ranked = sorted(legal, key=lambda a: (a != best, -values.played(a), -values.mean(a), a != favourite, a))
    out = []
    for a in ranked[:SHOWN]:
        equal = a == best or paired_interval(values.differences(best, a), z)[1] <= 0
        out.append(
            entry(
                texts,
                a,
                a == favourite,
                values.mean(a),
                values.interval(a),
                equal,
                values.played(a),
                a == best,
            )
        )
    return out


def entry(
    texts: Mapping[int, Any],
    a: int,
    heuristic: bool,
    value: float | None,
    interval: tuple[float, float] | None,
    about_equal: bool,
    deals: int,
    first: bool = False,
) -> dict[str, Any]:
    """One ranked move, with the reason said in each language."""
    reason_en, reason_ja = [], []
    if heuristic:
        reason_en.append("the rule-of-thumb bot plays this")
        reason_ja.append("定石ボットならこう指します")
    if value is None:
        reason_en.append("the only legal move")
        reason_ja.append("合法手はこれだけです")
    else:
        reason_en.append(f"win chance about {value:.0%} over {deals} possible deals")
        reason_ja.append(f"ありうる{deals}通りの配りで勝率およそ{value:.0%}")
        if about_equal and not first:
            reason_en.append("about equal to the first: the deals could not tell them apart")
            reason_ja.append("1番目とほぼ同じ（配りを変えても差が見えません）")
    found = texts.get(a, {})
    low, high = interval if interval is not None else (None, None)
    return {
        "action": a,
        "text": found.get("text", str(a)),
        "text_ja": found.get("text_ja") or found.get("text", str(a)),
        "value": None if value is None else round(value, 3),
        "low": None if low is None else round(low, 3),
        "high": None if high is None else round(high, 3),
        "about_equal": about_equal,
        "deals": deals,
        "heuristic": heuristic,
        "reason": {"en": "; ".join(reason_en), "ja": "、".join(reason_ja)},
    }


def hint_task(unit: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A bot worker's hint task: {game, players, options, view, seed}."""
    game = bodoge.make(unit["game"], unit["players"], **unit["options"])
    return rank_moves(game, unit["view"], int(unit["seed"]))
