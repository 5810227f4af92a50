"""The value of every legal option of one decision, estimated by search from the deciding seat's view.

    values = option_values(game, view, Budget(deals=24), seed=7)
    values.mean(a), values.interval(a), values.loss_interval(best, a)

An estimate reads only `view` (DESIGN.md §2: what that seat knows at that moment), never the state it
came from: a value that knew the hidden cards would judge luck, not play. Each **deal** determinizes
the view once (`game.sampler`: the unseen cards dealt consistently with it) and plays **every** legal
option out from clones of that one deal, with the same random stream after it (the engine's chance
and the players' rollout policy alike): common random numbers, so that two options differ only by
what they do, and their paired differences have far less variance than their values. Each playout
goes to the end of the game with the rollout policy for every seat, and the deciding seat's return
(`state.returns()`: its share of the win, 0 to 1) is the sample.

A value is thus the option's win share *if everyone plays on as the rollout policy does*: biased
toward what that policy is good at, and noisy by 1/√deals. docs/review.md says what that means for a
review, and what it costs.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from statistics import NormalDist
from typing import Any

from bodoge.agents.base import legal_ids
from bodoge.agents.heuristic import heuristic_policy, quick_policy
from bodoge.core.game import Game, State
from bodoge.errors import BadOption, is_int_in

MIN_DEALS = 2  # the fewest deals that give a spread, hence an interval
MAX_DEALS = 10_000  # per decision: minutes for one decision of a long game
MAX_SECONDS = 600.0  # per decision
Z = 1.96  # the intervals are 95% (normal approximation)

RolloutPolicy = Callable[[State, random.Random], int]


class Rollout(StrEnum):
    """How every seat plays in the playouts (as ISMCTS's `rollout`)."""

    AUTO = "auto"  # the game's quick policy where it has one, else its heuristic
    QUICK = "quick"  # the game's quick policy (its `rollout` module): the heuristic's play, on the state
    HEURISTIC = "heuristic"  # the game's heuristic on each seat's view: as good, but builds a view a move
    RANDOM = "random"


class Deal(StrEnum):
    """How the unseen cards are dealt (`Game.sampler`)."""

    LIKELY = "likely"  # where the others' past moves say they lie, where the game can tell
    UNIFORM = "uniform"  # every deal consistent with the view alike


@dataclass(frozen=True)
class Budget:
    """How much search one decision gets: `deals` determinizations (each plays every option out once),
    or as many as `seconds` allow (at least MIN_DEALS), or whichever ends first when both are given.
    Deals alone are deterministic for a seed; seconds depend on the machine."""

    deals: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        deals, seconds = self.deals, self.seconds
        if deals is not None and not is_int_in(deals, MIN_DEALS, MAX_DEALS):
            raise BadOption(
                "iterations", deals, f"an integer from {MIN_DEALS} to {MAX_DEALS} (deals per decision)"
            )
        if seconds is not None and (
            isinstance(seconds, bool)
            or not isinstance(seconds, int | float)
            or not (math.isfinite(seconds) and 0 < seconds <= MAX_SECONDS)
        ):
            raise BadOption("seconds", seconds, f"a number of seconds above 0, at most {MAX_SECONDS:g}")
        if deals is None and seconds is None:
            raise BadOption("budget", None, "a number of deals, a number of seconds, or both")

    def to_json(self) -> dict[str, Any]:
        return {"deals": self.deals, "seconds": self.seconds}


def rollout_policy(game: Game, kind: str) -> RolloutPolicy | None:
    """The playouts' policy for every seat (None: uniformly at random); BadOption if `kind` is unknown
    or the game lacks the policy it names."""
    if not isinstance(kind, str) or kind not in tuple(Rollout):
        raise BadOption("rollout", kind, ", ".join(Rollout))
    quick = quick_policy(game)
    if kind == Rollout.AUTO:
        # Not random where there is no quick policy (as ISMCTS's `auto`): random playouts value a move
        # by what random players would make of it, and judge good play as poor.
        kind = Rollout.QUICK if quick is not None else Rollout.HEURISTIC
    if kind == Rollout.RANDOM:
        return None
    if kind == Rollout.QUICK:
        if quick is None:
            raise BadOption("rollout", kind, "auto, heuristic or random", f"{game.name} has no quick policy")
        return quick
    heuristic = heuristic_policy(game)

    def by_view(state: State, rng: random.Random) -> int:
        return int(heuristic(game, state.view(state.current_player, log=False), rng))

    return by_view


def rollout_name(game: Game, kind: str) -> str:
    """What `auto` means for `game`: the policy the playouts really use."""
    if kind == Rollout.AUTO:
        return Rollout.QUICK if quick_policy(game) is not None else Rollout.HEURISTIC
    return str(kind)


@dataclass
class OptionValues:
    """The deciding seat's return for every option on every deal: `returns[a][j]` on deal j. Every
    option has played the same deals, so `returns[a][j]` and `returns[b][j]` are paired."""

    seat: int
    options: list[int]
    returns: dict[int, list[float]]

    @property
    def deals(self) -> int:
        return len(self.returns[self.options[0]])

    def mean(self, a: int) -> float:
        values = self.returns[a]
        return sum(values) / len(values)

    def interval(self, a: int) -> tuple[float, float]:
        """The 95% interval of option a's value (its own deals' spread), within [0, 1]."""
        low, high = mean_interval(self.returns[a])
        return max(0.0, low), min(1.0, high)

    def best(self) -> int:
        """The option of highest mean (ties: the lowest id, for a result that does not depend on order)."""
        return max(self.options, key=lambda a: (self.mean(a), -a))

    def loss_interval(self, best: int, a: int) -> tuple[float, float, float]:
        """Value of `best` minus value of `a`: the mean and the interval of their paired differences,
        deal by deal (the same cards and luck for both). The best was picked as the highest of all
        the options' noisy means, so the interval is widened for that choice (Bonferroni: 95% for
        all the options' comparisons with the best together, z = `paired_z(len(options))`), within
        [−1, 1]: a difference of two win shares (the normal interval of a few deals may overshoot)."""
        diffs = [x - y for x, y in zip(self.returns[best], self.returns[a], strict=True)]
        low, high = mean_interval(diffs, paired_z(len(self.options)))
        return sum(diffs) / len(diffs), max(-1.0, low), min(1.0, high)

    def held_out_loss(self, a: int, folds: int = 2) -> float:
        """Option a's loss with the best chosen on other deals than those that measure it
        (cross-fitting): the deals are split into `folds` (deal j in fold j mod folds); for each fold,
        the best option of the other deals' means, minus a, over the fold's deals (paired); the mean
        over the folds. The best of noisy means is biased upward (its own noise helped pick it), so
        `mean(best()) − mean(a)` is positive on average even when every option is worth the same;
        this estimate is not (0 on average then, and below 0 at times). Needs `folds` deals or more."""
        k = self.deals
        if k < folds:
            raise ValueError(f"{k} deals cannot be split into {folds} folds")
        total = 0.0
        for fold in range(folds):
            train = [j for j in range(k) if j % folds != fold]
            test = [j for j in range(k) if j % folds == fold]
            best = max(self.options, key=lambda b: (sum(self.returns[b][j] for j in train), -b))
            total += sum(self.returns[best][j] - self.returns[a][j] for j in test) / len(test)
        return total / folds


def paired_z(options: int) -> float:
    """The z of a two-sided 95% interval for each of `options` − 1 comparisons with the best at once."""
    if options <= 2:
        return Z
    return NormalDist().inv_cdf(1 - 0.025 / (options - 1))


def mean_interval(values: list[float], z: float = Z) -> tuple[float, float]:
    """mean ± z·sd/√n (the sample sd; zero width for one value)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, mean
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return mean - half, mean + half


def option_values(
    game: Game,
    view: Mapping[str, Any],
    budget: Budget,
    seed: int | str,
    rollout: str = Rollout.AUTO,
    deal: str = Deal.LIKELY,
) -> OptionValues:
    """Every legal option of `view`'s decision played out on the same deals (see the module docstring).

    Reads `view` and nothing else; the same view, budget of deals and seed give the same values."""
    if not isinstance(deal, str) or deal not in tuple(Deal):
        raise BadOption("deal", deal, ", ".join(Deal))
    policy = rollout_policy(game, rollout)
    options = legal_ids(view)
    me = view["seat"]
    sample = game.sampler(view, likely=deal == Deal.LIKELY)
    rng = random.Random(seed)
    returns: dict[int, list[float]] = {a: [] for a in options}
    cap = budget.deals if budget.deals is not None else MAX_DEALS
    deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
    done = 0
    while done < cap and (done < MIN_DEALS or deadline is None or time.perf_counter() < deadline):
        dealt = sample(rng)
        for a, played in zip(options, play_each(dealt, options, policy, rng.getrandbits(64)), strict=True):
            returns[a].append(played[me])
        done += 1
    return OptionValues(me, options, returns)


def play_each(dealt: State, options: list[int], policy: RolloutPolicy | None, luck: int) -> list[list[float]]:
    """Every option played out to the end from its own clone of `dealt`: every option on the same
    cards, the same engine chance and the same rollout luck (common random numbers). Every seat's
    returns, per option."""
    outcomes = []
    for a in options:
        state = dealt.clone()
        state.apply(a)
        outcomes.append(play_out(state, policy, random.Random(luck)))
    return outcomes


def play_out(state: State, policy: RolloutPolicy | None, rng: random.Random) -> list[float]:
    """Play `state` to the end with `policy` for every seat (None: at random); every seat's return."""
    if policy is None:
        rand = rng.random
        while state.current_player is not None:
            state.apply_random(rand)
    else:
        while state.current_player is not None:
            state.apply(policy(state, rng))
    return state.returns()
