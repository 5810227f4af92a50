"""A rule-of-thumb Hangover player, reading only its view.

- Arrange: the most flexible snacks (a minus and a plus, wide range) in the first columns.
- Declare non-drinker unless the hand is top-heavy: it then ducks every trick for +1 each (against
  random players this is by far the better side of draft 2).
- Play: an active non-drinker, or a drinker whose next trick would be Hangover, ducks (the highest
  card that cannot win, else the lowest). A drinker wants a trick only when its snacks can bring the
  sum to a good band: when last to play it counts the exact sum; earlier it guesses.
- Flip: tries every way to flip the column's cards and follows the plan with the most VP.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping
from typing import Any

from bodoge.games.hangover.cards import DRINK_INDEX, KEY, NUMBER, SUIT, snack_values

WIN_AT = 2  # a drinker tries for a trick worth at least this many VP


def _band(total: int, limit: int, opts: Mapping[str, Any]) -> int:
    if total < limit:
        return int(opts["vp_under"])
    if total == limit:
        return int(opts["vp_just"])
    return int(opts["vp_over"])


def best_flips(
    total: int, column: list[str], limit: int, opts: Mapping[str, Any]
) -> tuple[int, list[tuple[str, str]]]:
    """The most VP reachable from sum `total` with these face-down snacks, and one plan reaching it
    (fewest flips among the best)."""
    best_vp = _band(total, limit, opts)
    best_plan: list[tuple[str, str]] = []
    choices = [[None, *snack_values(code)] for code in column]
    for combo in itertools.product(*choices):
        plan = [(code, v) for code, v in zip(column, combo, strict=True) if v is not None]
        if not plan:
            continue
        s = total + sum(int(v) for _, v in plan)
        vp = _band(s, limit, opts) * (1 + len(plan))
        if vp > best_vp or (vp == best_vp and best_plan and len(plan) < len(best_plan)):
            best_vp, best_plan = vp, plan
    return best_vp, best_plan


def _pick(legal: list[dict[str, Any]], text: str) -> int | None:
    for entry in legal:
        if entry["text"] == text:
            return int(entry["id"])
    return None


def act(game: Any, view: Mapping[str, Any], rng: random.Random) -> int:
    legal = view["legal_actions"]
    if len(legal) == 1:
        return int(legal[0]["id"])
    phase = view["phase"]
    opts = view["options"]
    seat = view["seat"]
    me = view["seats"][seat]
    you = view["you"]
    limit = int(view["drunk_limit"])

    if phase == "arrange":

        def flex(code: str) -> int:
            a, b = (int(x) for x in snack_values(code))
            return abs(a - b) + (3 if min(a, b) < 0 < max(a, b) else 0) + (1 if min(a, b) < 0 else 0)

        def score(entry: dict[str, Any]) -> float:
            codes = entry["text"].split()[1:]
            return sum(flex(c) / (i + 1) for i, c in enumerate(codes))

        return int(max(legal, key=score)["id"])

    if phase == "declare":
        cards = [DRINK_INDEX[c] for c in you["hand"]]
        top = max(NUMBER[c] for c in cards) if cards else 0
        high = sum(1 for c in cards if NUMBER[c] >= top - 1)
        # a hand that is not top-heavy can duck most tricks: +1 VP for each trick another player wins
        return int(legal[0 if 2 * high <= len(cards) + 1 else 1]["id"])  # [declare, pass]

    if phase == "flip":
        judging = view["judging"]
        column = you["columns"][judging["column"] - 1]
        _, plan = best_flips(judging["adjusted_sum"], column, limit, opts)
        if plan:
            code, v = plan[0]
            a = _pick(legal, f"flip {code} {v}")
            if a is not None:
                return a
        a = _pick(legal, "stop")
        return int(legal[0]["id"]) if a is None else a

    # a trick: play or discard
    ids = [int(e["id"]) for e in legal]
    if legal[0]["text"].startswith("discard"):
        return ids[0]
    cards = [DRINK_INDEX[e["text"].split()[1]] for e in legal]
    trick = view["trick"]
    status = me["status"]
    tricks = int(me["tricks"])
    duck = status == "non_drinker" or tricks + 1 >= int(opts["hangover_trick"])

    column = you["columns"][tricks] if tricks < len(you["columns"]) else []
    players = len(view["seats"])
    if not trick:  # leading
        if duck:
            return ids[min(range(len(cards)), key=lambda i: KEY[cards[i]])]

        def lead_value(c: int) -> float:
            guess = NUMBER[c] + 1.5 * (players - 1)
            vp, _ = best_flips(round(guess), column, limit, opts)
            return vp - KEY[c] / 100

        return ids[max(range(len(cards)), key=lambda i: lead_value(cards[i]))]

    lead = DRINK_INDEX[trick[0]["card"]]
    suit = SUIT[lead]
    following = [DRINK_INDEX[e["card"]] for e in trick if e["card"] is not None]
    following = [c for c in following if SUIT[c] == suit]
    best_key = max(KEY[c] for c in following)
    total = sum(NUMBER[c] for c in following)
    in_suit = SUIT[cards[0]] == suit  # must-follow: all legal cards share the lead suit, or none must
    winners = [i for i in range(len(cards)) if in_suit and KEY[cards[i]] > best_key]
    losers = [i for i in range(len(cards)) if i not in winners]
    if duck:
        if losers:
            return ids[max(losers, key=lambda i: KEY[cards[i]])]
        return ids[min(winners, key=lambda i: KEY[cards[i]])]
    last = len(trick) == players - 1
    options = []
    for i in winners:
        s = total + NUMBER[cards[i]]
        if not last:
            s += 2  # later players may still add to the sum
        vp, _ = best_flips(s, column, limit, opts)
        chance = 1.0 if last else (KEY[cards[i]] - 1) / 15
        options.append((vp * chance, i))
    if options:
        value, i = max(options)
        if value >= WIN_AT or not losers:
            return ids[i]
    if losers:
        return ids[max(losers, key=lambda i: KEY[cards[i]])]
    return ids[rng.randrange(len(ids))]
