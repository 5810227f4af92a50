"""A rule-of-thumb Tokkuri bot, playing from its view only.

The obvious good play of the rules:
- drink to bring tokkuri to exactly 0 (a capture is +1), your own first when they are still full
  enough to be penalised (−2 avoided as well);
- drain your own tokkuri below the penalty level; don't drain other players' tokkuri below it for
  them, and don't leave them at a level someone else can finish;
- when nothing good can be drunk, place the least useful card (a dummy, a card with many numbers);
- give away the troublesome tokkuri (then dummies) when passing left; take cards from the player
  doing best this round.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping
from typing import Any

#: How likely another player's unknown tokkuri is a real card (not a dummy).
REAL = 0.8


@functools.lru_cache(maxsize=32)
def _numbers(game: Any) -> dict[str, tuple[str, list[int]]]:
    """code -> (kind, slot values at their lowest reading), for the game's deck. Kept per game: a
    bot's simulations ask it at every move (the result is read, never changed)."""
    out = {}
    for e in game.options_json()["deck"]:
        values = []
        for s in e["slots"]:
            values.append(int(str(s).split("~")[0]))
        out[e["code"]] = (e["kind"], values)
    return out


def _gain(value: int, tk: Mapping[str, Any], seat: int, pl: int, pp: int) -> float:
    """What lowering tokkuri `tk` by `value` is worth to `seat`, roughly."""
    level = tk["level"]
    new = level - value
    own = tk["owner"] == seat
    if new == 0:
        if own:
            return (0.0 if tk.get("card") == "dummy" else 1.0) + (pp if level >= pl else 0.0) + 0.2
        return REAL - (0.3 if level >= pl else 0.0)
    if own:
        if level >= pl > new:
            return pp * 0.8
        return 0.05 * value
    score = 0.0
    if level >= pl > new:
        score -= 0.7
    if new <= 3:
        score -= 0.35
    return score


def _best_drink(
    values: list[int], tokkuri: list[Mapping[str, Any]], seat: int, pl: int, pp: int
) -> tuple[float, int]:
    """A greedy reading of a drink: (total gain, tokkuri emptied), biggest numbers first."""
    used: set[str] = set()
    total = 0.0
    emptied = 0
    for v in sorted(values, reverse=True):
        best = None
        best_gain = -1e9
        for tk in tokkuri:
            if tk["id"] in used or tk["level"] < v:
                continue
            gain = _gain(v, tk, seat, pl, pp)
            if gain > best_gain:
                best, best_gain = tk, gain
        if best is None:
            return -1e9, 0
        used.add(best["id"])
        total += best_gain
        emptied += best["level"] == v
    return total, emptied


def _usefulness(code: str, numbers: Mapping[str, tuple[str, list[int]]]) -> float:
    kind, values = numbers.get(code, ("number", [5]))
    if kind == "trouble":
        return -2.0
    if kind == "dummy":
        return -1.0
    if len(values) > 1:
        return 0.3 - 0.05 * sum(values) / len(values)
    return 1.0 - 0.03 * values[0]


def act(game: Any, view: Mapping[str, Any], rng: random.Random) -> int:
    legal = view["legal_actions"]
    if len(legal) == 1:
        return int(legal[0]["id"])
    seat = view["seat"]
    opts = view["options"]
    pl = opts["penalty_level"]
    pp = opts["penalty_points"]
    numbers = _numbers(game)
    tokkuri = view["tokkuri"]
    phase = view["phase"]
    best_id = legal[0]["id"]
    best = -1e18
    if phase == "target":
        drink = view["drink"]
        slot = len(drink["targets"])
        value = drink["values"][slot]
        by_id = {tk["id"]: tk for tk in tokkuri}
        for a in legal:
            tk = by_id[a["text"].split()[1]]
            score = _gain(value, tk, seat, pl, pp) + rng.random() * 1e-3
            if score > best:
                best, best_id = score, a["id"]
        return int(best_id)
    if phase == "victim":
        tally = view["round_scores"]
        for a in legal:
            s = int(a["text"].split()[1][1:])
            score = (tally[s] if s != seat else -99) + 0.1 * view["hand_counts"][s] + rng.random() * 1e-3
            if score > best:
                best, best_id = score, a["id"]
        return int(best_id)
    if phase in ("open", "give"):
        for a in legal:
            code = a["text"].split(maxsplit=1)[1]
            score = -_usefulness(code, numbers) + rng.random() * 1e-3
            if score > best:
                best, best_id = score, a["id"]
        return int(best_id)
    # ACTION: the best drink, or else the least useful card placed.
    hand = view["hand"] or []
    holds_trouble = "trouble" in hand
    hand_left = len(hand) - 1
    for a in legal:
        verb, code = a["text"].split(maxsplit=1)
        if verb == "drink":
            card, _, chosen = code.partition("=")
            _, values = numbers[card]
            if chosen:  # a range card with its value chosen
                values = [int(x) for x in chosen.split("+")]
            gain, emptied = _best_drink(values, tokkuri, seat, pl, pp)
            effect = next((e["effect"] for e in opts["deck"] if e["code"] == card), "none")
            if (effect == "bonus" and emptied >= 2) or (effect == "pass" and holds_trouble):
                gain += 1.0
            elif effect == "draw":
                gain += 0.2
            score = gain - 0.4 * _usefulness(card, numbers) * (hand_left > 0)
        else:
            # A new tokkuri risks the penalty unless others drink it down; late in the round
            # nobody will.
            score = -1.2 - 0.3 * _usefulness(code, numbers) - (0.6 if sum(view["hand_counts"]) < 6 else 0.0)
            if code == "dummy":
                score += 0.3
        score += rng.random() * 1e-3
        if score > best:
            best, best_id = score, a["id"]
    return int(best_id)
