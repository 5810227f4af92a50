"""Game review: every decision of the chosen seats in a finished game, judged from that seat's view.

    review = review_record(record, seats=[0, 2], budget=Budget(deals=24), seed=1, jobs=2)
    review["decisions"][k]  # {move, seat, chosen, options: [{action, text, value, low, high}], best,
                            #  loss, loss_low, loss_high, class, win_chance, bot, ...}
    review["seats"][i]      # {seat, decisions, reviewed, mean_loss, accuracy, classes, bot_agreement, ...}

The record is replayed to each decision; the decision's seat gets its **view** at that moment, and
`values.option_values` estimates every legal option from that view alone (never from the true deal: a
review that knew the hidden cards would judge luck, not play). The move's `loss` is the best option's
value minus the chosen one's, and its `class` follows from the loss and from whether the two options'
paired interval separates (docs/review.md defines every number here).

Each decision is one unit of work with its own seed (from the review's seed and the move's index), so a
review with a budget of deals is the same whatever the number of workers or their order. The units run
in this process (`jobs=1`), in a process pool, or on Ray (`backend="ray"`).
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import json
import multiprocessing
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import bodoge
from bodoge.agents.heuristic import heuristic_policy
from bodoge.analysis.review_html import review_html
from bodoge.analysis.values import (
    Budget,
    Deal,
    Leaf,
    Rollout,
    leaf_name,
    leaf_network,
    option_values,
    rollout_name,
    rollout_policy,
)
from bodoge.core.game import Game, State
from bodoge.errors import BadOption, BadRecord, BodogeError, is_int_in

REVIEW_FORMAT = "bodoge-review/1"
# The most deals an option plays in a decision's race (values.option_values: the worse half of the
# options stop early, round by round; the move played and the leader play them all): the CLI's and the
# server's default.
DEFAULT_DEALS = 128  # where the playouts use a quick policy (a few ms each), or the network values them
SLOW_DEALS = 32  # where they use the view heuristic (several times slower; all four games have a quick one)
MAX_JOBS = 256
MAX_RECORDS = 10_000  # records in one review run
MAX_ACTIONS = 20_000  # actions of one record (the longest game is a few hundred)

# The classes of a move by its loss (win share, 0 to 1), in the spirit of Lichess's win% drops; a move
# is classed only where the paired interval of its loss supports the class (`classify`, docs/review.md).
INACCURACY = 0.05
MISTAKE = 0.10
BLUNDER = 0.20
CLASSES = ("best", "good", "inaccuracy", "mistake", "blunder", "unclear", "even", "forced")
#: The classes of a judged move: the others (unclear, even, forced) count in no seat's accuracy or loss.
JUDGED = ("best", "good", "inaccuracy", "mistake", "blunder")
NOT_SO_GOOD = ("inaccuracy", "mistake", "blunder")

Progress = Callable[[int, int], None]


# -- the record --------------------------------------------------------------------------------------


def finished_game(record: Any) -> tuple[Game, State]:
    """The record's game and final state; BadRecord if it is no record, does not replay, or is unfinished."""
    if (
        isinstance(record, dict)
        and isinstance(record.get("actions"), list)
        and len(record["actions"]) > MAX_ACTIONS
    ):
        raise BadRecord(
            f"the record has {len(record['actions'])} actions; a review takes at most {MAX_ACTIONS}"
        )
    state = bodoge.replay(record)
    if not state.is_terminal:
        raise BadRecord(
            f"the record's game is not finished ({len(state.history)} actions, then {state.decision()!r}); "
            "a review needs a finished game"
        )
    return state.game, state


def decision_states(game: Game, record: dict[str, Any]) -> Iterator[tuple[int, State, int]]:
    """(move, state before it, the action taken) for every action of the record, in order.

    The state is the true one; the review reads only `state.view(seat)` of it (a test hands out
    states with the hidden cards re-dealt instead, and must get the same review)."""
    state = game.new_state(seed=record["seed"], deck=record.get("deck"))
    for move, action in enumerate(record["actions"]):
        before = state.clone()
        state.apply(action)
        yield move, before, state.history[-1]


def check_seats(seats: Sequence[int] | None, players: int) -> list[int]:
    """The seats to review (None: all); BadOption naming what is allowed otherwise."""
    if seats is None:
        return list(range(players))
    allowed = f"seats from 0 to {players - 1}, each once, or all"
    if isinstance(seats, str | bytes) or not isinstance(seats, Sequence) or not seats:
        raise BadOption("seats", seats, allowed)
    for seat in seats:
        if not is_int_in(seat, 0, players - 1):
            raise BadOption("seats", list(seats), allowed, f"the game has {players} players")
    if len(set(seats)) != len(seats):
        raise BadOption("seats", list(seats), allowed, "a seat is given twice")
    return sorted(seats)


# -- one decision -----------------------------------------------------------------------------------

_games: dict[str, Game] = {}


def _game(spec: dict[str, Any]) -> Game:
    """The game of a unit (made once per process)."""
    key = repr(sorted(spec.items()))
    if key not in _games:
        _games[key] = bodoge.make(spec["game"], spec["players"], **spec["options"])
    return _games[key]


def decision_seed(seed: int, move: int) -> str:
    """The seed of one decision's search: the review's seed and the move's index, nothing else."""
    return f"review:{seed}:{move}"


def review_decision(unit: dict[str, Any]) -> dict[str, Any]:
    """One decision reviewed (a unit of work: plain data, so that it travels to workers).

    `unit`: `game` ({game, players, options}), `view` (the seat's view before the move), `move`,
    `chosen`, `deals`, `seconds`, `seed`, `rollout`, `deal`, `leaf`."""
    game = _game(unit["game"])
    view = unit["view"]
    move, seat, chosen = unit["move"], view["seat"], unit["chosen"]
    budget = Budget(unit["deals"], unit["seconds"])
    seed = decision_seed(unit["seed"], move)
    values = option_values(
        game,
        view,
        budget,
        seed,
        unit["rollout"],
        unit["deal"],
        keep=(chosen,),
        leaf=unit["leaf"],
    )
    if chosen not in values.options:  # the record replayed: the move was legal, so this is a bug
        raise AssertionError(f"move {move}: the chosen action {chosen} is not among the options")
    texts = {a["id"]: a for a in view["legal_actions"]}
    best = values.best()
    loss, loss_low, loss_high = values.loss_interval(best, chosen)
    win_low, win_high = values.interval(best)
    if len(values.options) == 1:
        cls = "forced"
    elif values.even():
        cls = "even"
    else:
        cls = classify(loss, loss_low, loss_high, chosen == best)
    options = []
    for a in values.options:
        low, high = values.interval(a)
        options.append(
            {
                "action": a,
                "text": texts[a]["text"],
                "text_ja": texts[a].get("text_ja", texts[a]["text"]),
                "words": texts[a].get("words", texts[a]["text"]),
                "value": _r(values.mean(a)),
                "low": _r(low),
                "high": _r(high),
                "deals": values.played(a),
            }
        )
    bot = None
    with contextlib.suppress(BadOption):  # a game without a heuristic: no bot to agree with
        bot = int(heuristic_policy(game)(game, view, random.Random(f"{seed}:bot")))
    return {
        "move": move,
        "seat": seat,
        "round": view.get("round") if isinstance(view.get("round"), int) else None,
        "decision": view.get("decision"),
        "chosen": chosen,
        "chosen_text": texts[chosen]["text"],
        "chosen_text_ja": texts[chosen].get("text_ja", texts[chosen]["text"]),
        "chosen_words": texts[chosen].get("words", texts[chosen]["text"]),
        "options": options,
        "best": best,
        "best_text": texts[best]["text"],
        "best_text_ja": texts[best].get("text_ja", texts[best]["text"]),
        "best_words": texts[best].get("words", texts[best]["text"]),
        "loss": _r(loss),
        "loss_low": _r(loss_low),
        "loss_high": _r(loss_high),
        "held_out_loss": _r(values.held_out_loss(chosen)),
        "class": cls,
        "win_chance": _r(values.mean(best)),
        "win_low": _r(win_low),
        "win_high": _r(win_high),
        "bot": bot,
        "deals": values.deals,
        "playouts": values.playouts,
    }


def _r(x: float) -> float:
    return round(x, 4)


def classify(loss: float, loss_low: float, loss_high: float, is_best: bool) -> str:
    """A move's class from its loss and the paired interval of it (not for forced or even moves): only
    a class its interval supports (docs/review.md).

    - `best`: the move played is the leader of the options (loss 0);
    - `good`: its loss is below INACCURACY and surely below MISTAKE (the interval's high end);
    - `inaccuracy`, `mistake`, `blunder`: told apart from the best (the low end above 0), its loss at
      least the class's threshold, and the low end above the threshold of the class below it: a
      blunder is surely worse than a mistake's floor, or it is called a mistake (or an inaccuracy);
    - `unclear`: the deals could not tell: neither surely a small loss nor told apart from the best.
    No positive class (best, good) is ever given to a loss of MISTAKE or more."""
    if is_best:
        return "best"
    if loss < INACCURACY and loss_high < MISTAKE:
        return "good"
    if loss_low > 0:
        for cls, threshold, floor in (
            ("blunder", BLUNDER, MISTAKE),
            ("mistake", MISTAKE, INACCURACY),
            ("inaccuracy", INACCURACY, 0.0),
        ):
            if loss >= threshold and loss_low > floor:
                return cls
    return "unclear"


def stakes(d: dict[str, Any]) -> float:
    """What was at stake in a decision: its best option's value minus its worst's (win share), and
    never less than the move's own loss (the loss is paired on the deals both played, the values each
    on its own, and all are rounded: the two may differ in the last digit)."""
    values = [o["value"] for o in d["options"]]
    return max(max(values) - min(values), d["loss"])


def accuracy(judged: list[dict[str, Any]]) -> float | None:
    """A seat's accuracy (0 to 100): the share of the win share at stake in its judged decisions that it
    kept, 100 × (1 − Σ loss / Σ stakes). Weighted by the stakes, so a seat with no chance left, whose
    every option is worth about 0, is judged by the decisions that mattered, not flattered by those
    that did not (a mean of per-move scores is: docs/review.md). None where nothing was at stake."""
    at_stake = sum(stakes(d) for d in judged)
    if at_stake <= 0:
        return None
    return round(100 * (1 - sum(d["loss"] for d in judged) / at_stake), 1)


# -- the whole review --------------------------------------------------------------------------------


def seat_summary(seat: int, decisions: list[dict[str, Any]], returns: list[float]) -> dict[str, Any]:
    """One seat's figures (docs/review.md): accuracy and losses over its judged decisions only (JUDGED:
    not forced, not even, not unclear), with how many were not judged."""
    mine = [d for d in decisions if d["seat"] == seat]
    chosen = [d for d in mine if d["class"] != "forced"]
    judged = [d for d in mine if d["class"] in JUDGED]
    counts = dict.fromkeys(CLASSES, 0)
    for d in mine:
        counts[d["class"]] += 1
    with_bot = [d for d in chosen if d["bot"] is not None]
    n = len(judged)
    worst = max(
        (d for d in judged if d["class"] in NOT_SO_GOOD), key=lambda d: (d["loss"], -d["move"]), default=None
    )
    return {
        "seat": seat,
        "decisions": len(mine),
        "reviewed": len(chosen),
        "judged": n,
        "not_judged": len(chosen) - n,
        "mean_loss": _r(sum(d["loss"] for d in judged) / n) if n else None,
        "mean_held_out_loss": _r(sum(d["held_out_loss"] for d in judged) / n) if n else None,
        "accuracy": accuracy(judged),
        "classes": counts,
        "bot_agreement": _r(sum(d["chosen"] == d["bot"] for d in with_bot) / len(with_bot))
        if with_bot
        else None,
        "best_rate": _r(counts["best"] / n) if n else None,
        "biggest_mistake": None if worst is None else biggest(worst),
        "return": returns[seat],
    }


def biggest(d: dict[str, Any]) -> dict[str, Any]:
    """What a player reads of their biggest mistake: the move, what was better, and by how much."""
    return {
        "move": d["move"],
        "class": d["class"],
        "chosen_text": d["chosen_text"],
        "chosen_text_ja": d["chosen_text_ja"],
        "chosen_words": d["chosen_words"],
        "best_text": d["best_text"],
        "best_text_ja": d["best_text_ja"],
        "best_words": d["best_words"],
        "loss": d["loss"],
        "loss_low": d["loss_low"],
        "loss_high": d["loss_high"],
    }


def default_budget(game: Game, rollout: str = Rollout.AUTO) -> Budget:
    """The budget when none is given: DEFAULT_DEALS deals a decision, SLOW_DEALS where the playouts
    build a view for every move (docs/review.md has the time either takes)."""
    slow = rollout_name(game, rollout) == Rollout.HEURISTIC
    return Budget(deals=SLOW_DEALS if slow else DEFAULT_DEALS)


def plan_review(
    record: Any,
    seats: Sequence[int] | None,
    budget: Budget | None,
    seed: int,
    rollout: str,
    deal: str,
    leaf: str = Leaf.AUTO,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The review's head (everything but decisions and seats) and its units of work, one per decision
    of the chosen seats; BadRecord or BadOption before any search."""
    game, final = finished_game(record)
    wanted = check_seats(seats, game.num_players)
    rollout_policy(game, rollout)  # BadOption now, not in a worker
    leaf_network(game, leaf)  # BadOption now (an unknown leaf, or no network for this count)
    leaf = leaf_name(game, leaf)  # auto resolved once: every unit and the head say what was used
    if budget is None:
        budget = default_budget(game, rollout)
    if not isinstance(deal, str) or deal not in tuple(Deal):
        raise BadOption("deal", deal, ", ".join(Deal))
    spec = {"game": game.name, "players": game.num_players, "options": record["options"]}
    units = []
    for move, state, action in decision_states(game, record):
        if state.current_player in wanted:
            units.append(
                {
                    "game": spec,
                    "view": state.view(state.current_player),
                    "move": move,
                    "chosen": action,
                    "deals": budget.deals,
                    "seconds": budget.seconds,
                    "seed": seed,
                    "rollout": rollout,
                    "deal": deal,
                    "leaf": leaf,
                }
            )
    head = {
        "format": REVIEW_FORMAT,
        "game": game.name,
        "players": game.num_players,
        "options": record["options"],
        "record_seed": record["seed"],
        "actions": len(final.history),
        "winners": final.winners(),
        "returns": final.returns(),
        "review": {
            "seats": wanted,
            "seed": seed,
            **budget.to_json(),
            "rollout": rollout_name(game, rollout),
            "deal": str(deal),
            "leaf": leaf,
            "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER},
        },
    }
    return head, units


def review_records(
    records: Sequence[Any],
    seats: Sequence[int] | None = None,
    budget: Budget | None = None,
    seed: int = 1,
    jobs: int = 1,
    progress: Progress | None = None,
    backend: str = "pool",
    address: str | None = None,
    rollout: str = Rollout.AUTO,
    deal: str = Deal.LIKELY,
    leaf: str = Leaf.AUTO,
) -> list[dict[str, Any]]:
    """Review every record (see `review_record`); all their decisions share the workers."""
    if not is_int_in(jobs, 1, MAX_JOBS):
        raise BadOption("jobs", jobs, f"an integer from 1 to {MAX_JOBS}")
    if backend not in ("pool", "ray"):
        raise BadOption("backend", backend, "pool or ray")
    if not is_int_in(seed, 0, bodoge.core.game.MAX_SEED):
        raise BadOption("seed", seed, f"an integer from 0 to {bodoge.core.game.MAX_SEED}")
    if len(records) > MAX_RECORDS:
        raise BadOption("records", len(records), f"at most {MAX_RECORDS} records in one review")
    plans = [plan_review(r, seats, budget, seed, rollout, deal, leaf) for r in records]
    units = [(i, u) for i, (_, us) in enumerate(plans) for u in us]
    results = run_units([u for _, u in units], jobs, backend, address, progress)
    reviews = []
    for i, (head, _) in enumerate(plans):
        decisions = [d for (k, _), d in zip(units, results, strict=True) if k == i]
        review = dict(head)
        review["decisions"] = decisions
        review["seats"] = [seat_summary(s, decisions, head["returns"]) for s in head["review"]["seats"]]
        reviews.append(review)
    return reviews


def review_record(
    record: Any,
    seats: Sequence[int] | None = None,
    budget: Budget | None = None,
    seed: int = 1,
    jobs: int = 1,
    progress: Progress | None = None,
    **more: Any,
) -> dict[str, Any]:
    """The review of one finished game's record (`review.json`'s contract: docs/review.md).

    `seats`: which seats' decisions (None: all); `budget`: deals and/or seconds per decision (default
    `default_budget`); `seed`: with a budget of deals alone, the same review every time; `jobs`:
    worker processes; `progress(done, total)`: called after each decision; `more`: `backend`,
    `address`, `rollout`, `deal` (as `review_records`). BadRecord or BadOption before any search."""
    return review_records([record], seats, budget, seed, jobs, progress, **more)[0]


def write_review(review: dict[str, Any], folder: Path) -> None:
    """Write a review into `folder` (which exists): review.json (the review itself, docs/review.md)
    and review.html (the same as one page, `review_html`). OSError if they cannot be written."""
    text = json.dumps(review, ensure_ascii=False, indent=1) + "\n"
    (folder / "review.json").write_text(text, encoding="utf-8")
    (folder / "review.html").write_text(review_html(review), encoding="utf-8")


# -- running the units -------------------------------------------------------------------------------


def run_units(
    units: list[dict[str, Any]], jobs: int, backend: str, address: str | None, progress: Progress | None
) -> list[dict[str, Any]]:
    """`review_decision` of every unit, in the units' order, here (jobs=1), in a pool or on Ray."""
    total = len(units)
    results: list[dict[str, Any] | None] = [None] * total
    if progress is not None:
        progress(0, total)
    if backend == "ray":
        batches = _run_ray(units, jobs, address)
    elif jobs == 1 or total <= 1:
        batches = ((i, review_decision(u)) for i, u in enumerate(units))
    else:
        batches = _run_pool(units, jobs)
    for done, (i, result) in enumerate(batches, 1):
        results[i] = result
        if progress is not None:
            progress(done, total)
    return [r for r in results if r is not None]


def _review_indexed(i: int, unit: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    try:
        return i, review_decision(unit)
    except BodogeError as exc:  # travels back as a plain BodogeError, whatever its class
        raise BodogeError(str(exc)) from None


def _run_pool(units: list[dict[str, Any]], jobs: int) -> Iterator[tuple[int, dict[str, Any]]]:
    from bodoge.core.workers import ignore_sigint

    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
    others = set(multiprocessing.active_children())
    executor = cf.ProcessPoolExecutor(
        max_workers=min(jobs, len(units)),
        mp_context=multiprocessing.get_context(method),
        initializer=ignore_sigint,
        initargs=(list(sys.path),),
    )
    # in the record's order: the earliest decisions (the longest playouts) start first, none is left last
    futures = [executor.submit(_review_indexed, i, u) for i, u in enumerate(units)]
    finished = False
    try:
        for future in cf.as_completed(futures):
            yield future.result()
        finished = True
    finally:
        processes = [p for p in multiprocessing.active_children() if p not in others]
        executor.shutdown(wait=finished, cancel_futures=True)
        if not finished:  # interrupted or failed: stop the workers now
            for process in processes:
                if process.is_alive():
                    process.terminate()


def _run_ray(
    units: list[dict[str, Any]], jobs: int, address: str | None
) -> Iterator[tuple[int, dict[str, Any]]]:
    from bodoge.core.workers import start_ray

    started = start_ray(jobs, address)
    import ray

    try:
        remote = ray.remote(_review_indexed)
        pending = [remote.remote(i, u) for i, u in enumerate(units)]
        try:
            while pending:
                finished, pending = ray.wait(pending, num_returns=1)
                for ref in finished:
                    yield ray.get(ref)
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)
    finally:
        if started:
            ray.shutdown()


__all__ = [
    "BLUNDER",
    "CLASSES",
    "DEFAULT_DEALS",
    "INACCURACY",
    "JUDGED",
    "MISTAKE",
    "NOT_SO_GOOD",
    "REVIEW_FORMAT",
    "SLOW_DEALS",
    "Budget",
    "accuracy",
    "check_seats",
    "classify",
    "decision_states",
    "default_budget",
    "finished_game",
    "review_decision",
    "review_record",
    "review_records",
]
