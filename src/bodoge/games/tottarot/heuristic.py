"""A rule-of-thumb Tottarot bot, playing from the view alone.

- Value of a card for me: its points; an INVERT card is also worth flipping my previous card.
- An unknown declared card is worth the mean of the cards I cannot account for this round.
- Bid: with a card clearly worse than what seizing would bring, act: bid the smallest token that
  beats every other player's best unused token (all bids are public history), else my highest;
  otherwise bid my lowest (stay out of the way, keep big tokens for the tie-break).
- Steal: the best known or expected card if it beats taking nothing; ties go to hurting the leader.
- SHARE/PEEK: look at the leader's card, preferring cards I do not know yet.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from bodoge.core.game import Game


def _card_value(game: Any, code: str, row: list[dict[str, Any]]) -> float:
    i = game.code_index[code]
    value = float(game.points[i])
    if game.icon_codes[i] == "INVERT" and row:
        value -= 2 * row[-1]["points"]  # flipping my previous card
    return value


def act(game: Game, view: Mapping[str, Any], rng: random.Random) -> int:
    g: Any = game
    legal = view["legal_actions"]
    if len(legal) == 1:
        return int(legal[0]["id"])
    me = view["seat"]
    phase = view["phase"]
    declared = view["declared"]
    rows = view["rows"]
    totals = view["totals"]
    n = len(declared)

    # Cards I cannot account for this round, and their mean value for me.
    left = list(g.copies)
    index = g.code_index
    for code in view["discard"]:
        left[index[code]] -= 1
    for row in rows:
        for x in row:
            left[index[x["card"]]] -= 1
    for d in declared:
        if d["card"] is not None:
            left[index[d["card"]]] -= 1
    unseen = sum(left)
    my_row = rows[me]
    if unseen > 0:
        mean = sum(k * _card_value(g, g.codes[i], my_row) for i, k in enumerate(left)) / unseen
    else:
        mean = 0.0

    def worth(s: int) -> float:
        card = declared[s]["card"]
        return _card_value(g, card, my_row) if card is not None else mean

    if phase == "bid":
        values = sorted(int(x["id"]) for x in legal)
        mine = declared[me]["card"]
        keep = _card_value(g, mine, my_row) if mine is not None else 0.0
        others = [worth(s) for s in range(n) if s != me and declared[s]["holds"]]
        seize = max([0.0, *others])
        if keep >= seize - 1.0:
            return values[0]  # stay out of the way; keep big tokens for the tie-break
        # Act: the smallest token that beats every other player's best unused token, if any.
        top = max((max(u) for q, u in enumerate(view["unused_tokens"]) if q != me and u), default=-1)
        sure = [v for v in values if v > top]
        return sure[0] if sure else values[-1]

    if phase == "steal":
        best_id: int | None = None
        none_id = int(legal[-1]["id"])  # `steal none` (the highest id) is worth 0
        best = (0.0, -1e9)
        for x in legal:
            text = x["text"]
            if text == "steal none":
                continue
            s = int(text.split("P")[1])
            score = (worth(s), totals[s])
            if score > best:
                best_id, best = int(x["id"]), score
        return none_id if best_id is None else best_id

    # SHARE or PEEK: the leader's card, preferring one I do not know.
    def key(x: dict[str, Any]) -> tuple[int, int, float]:
        s = int(x["text"].split("P")[1])
        return (declared[s]["card"] is None, totals[s], rng.random())

    return int(max(legal, key=key)["id"])
