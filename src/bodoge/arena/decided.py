"""Where games are decided, from reviews of many games (`bodoge sim --review N`, issue #33).

A review (`analysis.review`) gives, at every decision of a seat, that seat's `win_chance` before the
move (the best option's value, from its view) and the move's `loss`. Over the reviewed games:

- a decision's **swing** is how much its seat's win chance moved from this decision to the seat's next
  reviewed one (or, after its last, to the game's result for it): where the win chances move most is
  where the game is decided, by the move, the cards that came after it, or the others' moves;
- per **kind of decision** (the options it offers, in the game's action words, as the findings name
  them: `declare/pass`; or the one option of a choice among cards: `play`), the bots' mean loss with
  its 95% interval (games as the unit), the share of decisions worse than an inaccuracy, and the mean
  size of the swing after it.

Forced decisions (one legal action), even ones (every option came to the same) and unclear ones (the
deals could not tell) count in the swings, never in the losses.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from bodoge.agents.counterfactual import action_label, vocabulary
from bodoge.analysis.review import JUDGED, NOT_SO_GOOD, Progress, review_records
from bodoge.arena.stats import clustered_mean_ci
from bodoge.core.registry import make

#: How many of the largest swings a summary lists.
TOP_SWINGS = 10


def decision_kind(options: list[dict[str, Any]], words: Any) -> str:
    """The decision's kind: its options' action words, sorted and joined (`declare/pass`)."""
    return "/".join(sorted({action_label(o["text"], words) for o in options}))


def swings(review: dict[str, Any]) -> list[dict[str, Any]]:
    """Each decision of a review with the move of its seat's win chance until its next decision."""
    by_seat: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for d in sorted(review["decisions"], key=lambda d: d["move"]):
        by_seat[d["seat"]].append(d)
    out = []
    for seat, decisions in by_seat.items():
        result = review["returns"][seat]
        for d, nxt in zip(decisions, [*decisions[1:], None], strict=True):
            after = result if nxt is None else nxt["win_chance"]
            out.append(
                {"decision": d, "before": d["win_chance"], "after": after, "swing": after - d["win_chance"]}
            )
    return out


def decided(reviews: list[dict[str, Any]], top: int = TOP_SWINGS) -> dict[str, Any]:
    """The reviewed games' largest swings and, per kind of decision, the mean loss and swing."""
    if not reviews:
        return {"games": 0, "decisions": 0, "kinds": [], "swings": []}
    head = reviews[0]
    game = make(head["game"], head["players"], **head["options"])
    words = vocabulary(game)
    losses: dict[str, list[tuple[int, float]]] = defaultdict(list)
    moved: dict[str, list[float]] = defaultdict(list)
    worse: dict[str, int] = defaultdict(int)
    listed = []
    for g, review in enumerate(reviews):
        for s in swings(review):
            d = s["decision"]
            kind = decision_kind(d["options"], words)
            moved[kind].append(abs(s["swing"]))
            if d["class"] in JUDGED:  # not forced, even or unclear: a loss the review stands by
                losses[kind].append((g, d["loss"]))
                worse[kind] += d["class"] in NOT_SO_GOOD
            listed.append(
                {
                    "game": g,
                    "move": d["move"],
                    "seat": d["seat"],
                    "kind": kind,
                    "chosen": d["chosen_text"],
                    "class": d["class"],
                    "before": round(s["before"], 4),
                    "after": round(s["after"], 4),
                    "swing": round(s["swing"], 4),
                }
            )
    kinds = []
    for kind in sorted(moved, key=lambda k: -sum(moved[k])):
        row: dict[str, Any] = {
            "kind": kind,
            "decisions": len(moved[kind]),
            "mean_swing": round(sum(moved[kind]) / len(moved[kind]), 4),
            "mean_loss": None,
            "not_so_good": None,
        }
        if losses[kind]:
            est = clustered_mean_ci(losses[kind])  # the game as the unit
            low = max(0.0, est.low)  # a loss is never below 0: the interval says so too
            row["mean_loss"] = {"mean": round(est.mean, 4), "low": round(low, 4), "high": round(est.high, 4)}
            row["not_so_good"] = round(worse[kind] / len(losses[kind]), 4)
        kinds.append(row)
    listed.sort(key=lambda s: (-abs(s["swing"]), s["game"], s["move"]))
    return {
        "games": len(reviews),
        "decisions": sum(len(r["decisions"]) for r in reviews),
        "kinds": kinds,
        "swings": listed[:top],
    }


EXPLAINED = (
    "Each decision of every seat valued from that seat's view (docs/review.md). Swing: how far the "
    "seat's win chance moved from this decision to its next one (or to the result); loss: the best "
    "option's value minus the chosen one's, 95% interval with the game as the unit; not so good: the "
    "share of inaccuracies, mistakes and blunders."
)
KIND_HEADER = ["kind of decision", "decisions", "mean swing", "mean loss", "not so good"]
SWING_HEADER = ["game", "move", "seat", "kind", "chosen", "class", "win chance before → after"]


def review_decided(
    records: Sequence[Any],
    seed: int = 1,
    jobs: int = 1,
    progress: Progress | None = None,
    backend: str = "pool",
    address: str | None = None,
) -> dict[str, Any]:
    """Review finished games' records, every seat with the default budget (`review_records`), and
    say where they were decided (`decided`): what `bodoge sim --review N` adds to a run's summary
    (its `review`). `progress(done, total)` is called after each reviewed decision."""
    reviews = review_records(
        records, seed=seed, jobs=jobs, progress=progress, backend=backend, address=address
    )
    return decided(reviews)


def title(decided_: dict[str, Any]) -> str:
    return f"Where games are decided (review of {decided_['games']} games, {decided_['decisions']} decisions)"


def kind_rows(decided_: dict[str, Any]) -> list[list[str]]:
    rows = []
    for k in decided_["kinds"]:
        loss = k["mean_loss"]
        shown = "–" if loss is None else f"{loss['mean']:.3f} [{loss['low']:.3f}, {loss['high']:.3f}]"
        bad = "–" if k["not_so_good"] is None else f"{100 * k['not_so_good']:.0f}%"
        rows.append([k["kind"], str(k["decisions"]), f"{k['mean_swing']:.3f}", shown, bad])
    return rows


def swing_rows(decided_: dict[str, Any]) -> list[list[str]]:
    return [
        [
            str(s["game"] + 1),
            str(s["move"]),
            f"P{s['seat']}",
            s["kind"],
            s["chosen"],
            s["class"],
            f"{s['before']:.2f} → {s['after']:.2f} ({s['swing']:+.2f})",
        ]
        for s in decided_["swings"]
    ]
