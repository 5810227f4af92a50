"""The value of every legal option of one decision, estimated by search from the deciding seat's view.

    values = option_values(game, view, Budget(deals=24), seed=7)
    values.mean(a), values.interval(a), values.loss_interval(best, a)

An estimate reads only `view` (DESIGN.md §2: what that seat knows at that moment), never the state it
came from: a value that knew the hidden cards would judge luck, not play. Each **deal** determinizes
the view once (`game.sampler`: the unseen cards dealt consistently with it) and plays every option
still in the race out from clones of that one deal, with the same random stream after it (the
engine's chance and the players' rollout policy alike): common random numbers, so that two options
differ only by what they do, and their paired differences have far less variance than their values.
The options **race** (successive halving: the deals go to the options close to the best; an option
to `keep`, a review's move played, stays in to the end). Each playout is played on by the rollout
policy for every seat and valued at its **leaf**: to the end of the game, the deciding seat's return
(`state.returns()`: its share of the win, 0 to 1), or until the seat decides again, the shipped
network's estimate of it (`Leaf`).

A value is thus the option's win share *if everyone plays on as the rollout policy does* (or as the
network expects): biased toward what that policy is good at, and noisy by 1/√deals. docs/review.md
says what that means for a review, what it costs, and which leaf judges better in which game.
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


class Leaf(StrEnum):
    """How an option's playout is valued (docs/review.md measures both)."""

    AUTO = "auto"  # nn where it was measured to judge better (NN_LEAF) and a network is shipped, else rollout
    ROLLOUT = "rollout"  # played to the end of the game by the rollout policy; the seat's return
    NN = "nn"  # played by the rollout policy until the seat's next decision, then the shipped network's value


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
    """The deciding seat's return for every option on the deals it played: `returns[a][j]` on deal j.
    Every option played the first deals; the race (`option_values`) stops playing an option once it
    falls in the worse half of those still in it, so `returns[a]` is a prefix of the deals, and
    `returns[a][j]` and `returns[b][j]` are paired wherever both exist."""

    seat: int
    options: list[int]
    returns: dict[int, list[float]]

    @property
    def deals(self) -> int:
        """The most deals any option played (the leader's)."""
        return max(len(r) for r in self.returns.values())

    def played(self, a: int) -> int:
        return len(self.returns[a])

    @property
    def playouts(self) -> int:
        return sum(len(r) for r in self.returns.values())

    def mean(self, a: int) -> float:
        values = self.returns[a]
        return sum(values) / len(values)

    def interval(self, a: int) -> tuple[float, float]:
        """The 95% interval of option a's value (its own deals' spread), within [0, 1]."""
        low, high = mean_interval(self.returns[a])
        return max(0.0, low), min(1.0, high)

    def best(self) -> int:
        """The leader: of the options that played the most deals, the highest mean (ties: the lowest
        id, for a result that does not depend on order). An option dropped from the race was in the
        worse half when it left, on fewer deals."""
        most = self.deals
        return max((a for a in self.options if self.played(a) == most), key=lambda a: (self.mean(a), -a))

    def differences(self, best: int, a: int) -> list[float]:
        """`best` minus `a`, deal by deal, on the deals both played."""
        return [x - y for x, y in zip(self.returns[best], self.returns[a], strict=False)]

    def loss_interval(self, best: int, a: int) -> tuple[float, float, float]:
        """Value of `best` minus value of `a`: the mean and the interval of their paired differences,
        deal by deal (the same cards and luck for both). The best was picked as the highest of all
        the options' noisy means, so the interval is widened for that choice (Bonferroni: 95% for
        all the options' comparisons with the best together, z = `paired_z(len(options))`), within
        [−1, 1]: a difference of two win shares (the normal interval of a few deals may overshoot). Its
        spread has PSEUDO_DEALS deals of the largest spread added (`paired_interval`)."""
        return paired_interval(self.differences(best, a), paired_z(len(self.options)))

    def held_out_loss(self, a: int, folds: int = 2) -> float:
        """Option a's loss with the best chosen on other deals than those that measure it
        (cross-fitting): the deals are split into `folds` (deal j in fold j mod folds); for each fold,
        the best option of the other deals' means, minus a, over the fold's deals (paired); the mean
        over the folds. The best of noisy means is biased upward (its own noise helped pick it), so
        `mean(best()) − mean(a)` is positive on average even when every option is worth the same;
        this estimate is not (0 on average then, and below 0 at times). The best is chosen among the
        options that played every deal (the race's finalists); needs `folds` deals or more of each."""
        if min(self.played(b) for b in self.options) < folds:
            raise ValueError(f"fewer than {folds} deals cannot be split into {folds} folds")
        finalists = [b for b in self.options if self.played(b) == self.deals]  # the best is one of them
        total = 0.0
        for fold in range(folds):
            best = max(finalists, key=lambda b: (self._fold_mean(b, fold, folds, False), -b))
            diffs = [d for j, d in enumerate(self.differences(best, a)) if j % folds == fold]
            total += sum(diffs) / len(diffs)
        return total / folds

    def _fold_mean(self, b: int, fold: int, folds: int, inside: bool) -> float:
        values = [x for j, x in enumerate(self.returns[b]) if (j % folds == fold) == inside]
        return sum(values) / len(values)

    def even(self) -> bool:
        """Every option had the very same return on every deal they played: the choice changed nothing
        the playouts could see (a seat with no chance left, or options that come to the same)."""
        first = self.returns[self.options[0]]
        return all(r == first[: len(r)] or first == r[: len(first)] for r in self.returns.values())


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


#: The race's first round: every option plays this many deals (fewer if the budget is smaller).
FIRST_ROUND = 4
#: Deals of the largest spread a difference of two win shares can have (sd 1) added to a paired
#: difference's own spread (`paired_interval`): a few deals that all agree never make an interval of
#: zero width.
PSEUDO_DEALS = 1
#: Every option with the very same return on this many deals: the race ends (`settled`).
EVEN_DEALS = 16
#: The race ends early once every option still in it beside the leader (those kept included) has a
#: paired interval with the leader no wider than ± this: the loss known well enough to class it.
PRECISION = 0.04


def option_values(
    game: Game,
    view: Mapping[str, Any],
    budget: Budget,
    seed: int | str,
    rollout: str = Rollout.AUTO,
    deal: str = Deal.LIKELY,
    keep: tuple[int, ...] = (),
    precision: float | None = PRECISION,
    leaf: str = Leaf.AUTO,
) -> OptionValues:
    """Every legal option of `view`'s decision valued on the same deals, raced (the module docstring).

    The race (successive halving) plays every option on FIRST_ROUND deals; then, round by round, the
    better half of the options still in it (`halved`) play on until they have played twice the deals,
    up to `budget.deals` (or its seconds): the budget goes to the options that are close to the best,
    and the last two play most. The options in `keep` (a review's move played) stay in to the end,
    measured against the leader on every deal. The race ends early where every option has come to the
    same on EVEN_DEALS deals, or (unless `precision` is None) once every option still in it is known
    against the leader within ± `precision` (`settled`). Reads `view` and nothing else; the same view,
    budget of deals and seed give the same values."""
    if not isinstance(deal, str) or deal not in tuple(Deal):
        raise BadOption("deal", deal, ", ".join(Deal))
    policy = rollout_policy(game, rollout)
    network = leaf_network(game, leaf)
    options = legal_ids(view)
    me = view["seat"]
    sample = game.sampler(view, likely=deal == Deal.LIKELY)
    rng = random.Random(seed)
    values = OptionValues(me, options, {a: [] for a in options})
    cap = budget.deals if budget.deals is not None else MAX_DEALS
    deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
    racing = list(options)
    done = 0
    goal = min(cap, FIRST_ROUND)
    while True:
        while done < goal and (done < MIN_DEALS or deadline is None or time.perf_counter() < deadline):
            dealt = sample(rng)
            luck = rng.getrandbits(64)
            for a, played in zip(racing, play_each(dealt, racing, policy, luck, network), strict=True):
                values.returns[a].append(played[me])
            done += 1
        if done < goal or done >= cap or len(racing) == 1:
            break
        racing = halved(values, racing, keep)
        if precision is not None and settled(values, racing, precision):
            break
        goal = min(cap, 2 * done)
    return values


def paired_interval(diffs: list[float], z: float = Z) -> tuple[float, float, float]:
    """The mean of paired differences (each in [−1, 1]) and its interval mean ± z·sd/√n, within [−1, 1],
    where the sd has PSEUDO_DEALS deals of sd 1 (the largest a difference of win shares can have)
    added to the n deals' own: a few deals that all agree never give an interval of zero width."""
    n = len(diffs)
    mean = sum(diffs) / n
    squares = sum((d - mean) ** 2 for d in diffs)
    half = z * math.sqrt((squares + PSEUDO_DEALS) / (n - 1 + PSEUDO_DEALS) / n)
    return mean, max(-1.0, mean - half), min(1.0, mean + half)


def halved(values: OptionValues, racing: list[int], keep: tuple[int, ...]) -> list[int]:
    """The options that stay in the race (successive halving): the better half by mean on the deals
    played so far (at least two, so that the leader is always measured against its nearest rival;
    ties: the lower id), and those in `keep`."""
    ranked = sorted(racing, key=lambda a: (-values.mean(a), a))
    top = ranked[: max(2, math.ceil(len(ranked) / 2))]
    return [a for a in racing if a in top or a in keep]


def settled(values: OptionValues, racing: list[int], precision: float) -> bool:
    """Whether the race can end: every option in it is known against the leader within ± `precision`
    (`paired_interval`, Bonferroni over the options), or every option has had the very same return
    on every one of at least EVEN_DEALS deals (`OptionValues.even`: nothing to race for)."""
    if values.deals >= EVEN_DEALS and values.even():
        return True
    leader = values.best()
    z = paired_z(len(values.options))
    for a in racing:
        if a != leader:
            _, low, high = paired_interval(values.differences(leader, a), z)
            if (high - low) / 2 > precision:
                return False
    return True


#: The games whose shipped networks judge a review's options better than playouts to the end do,
#: measured by bench/review_ladder.py (docs/review.md, "The leaf: playouts or the network"): with
#: playouts, Troika's random seat was judged above the heuristic, and Tokkuri's and Tottarot's
#: reviews left about 40% of the decisions unjudged; with the network, Hangover's heuristic had its
#: point above the search's. `Leaf.AUTO` uses the network in these games only.
NN_LEAF = frozenset({"tokkuri", "tottarot", "troika"})


def leaf_name(game: Game, leaf: str) -> str:
    """What `leaf` means for `game` (`auto` resolved); BadOption if it is unknown."""
    if not isinstance(leaf, str) or leaf not in tuple(Leaf):
        raise BadOption("leaf", leaf, ", ".join(Leaf))
    if leaf != Leaf.AUTO:
        return str(leaf)
    from bodoge.agents.nn import shipped_path

    shipped = shipped_path(game.name, game.num_players).is_file()
    return Leaf.NN if game.name in NN_LEAF and shipped else Leaf.ROLLOUT


def leaf_network(game: Game, leaf: str) -> Any:
    """The network that values the leaves (`Leaf.NN`: the shipped model of `game`), or None for
    rollouts; BadOption if `leaf` is unknown or no model is shipped for the game's player count."""
    if leaf_name(game, leaf) == Leaf.ROLLOUT:
        return None
    from bodoge.agents.nn import model_for  # numpy: only where a network is used

    try:
        return model_for(game)
    except BadOption as exc:  # said of the leaf asked for, not of an agent nobody named
        raise BadOption(
            "leaf", leaf, "auto or rollout, or nn where a network is shipped", exc.reason
        ) from None


def play_each(
    dealt: State, options: list[int], policy: RolloutPolicy | None, luck: int, network: Any = None
) -> list[list[float]]:
    """Every option played out from its own clone of `dealt`: every option on the same cards, the same
    engine chance and the same rollout luck (common random numbers). Every seat's returns, per option:
    at the end of the game, or, with a `network`, at the deciding seat's next decision (its value)."""
    me = dealt.current_player
    assert me is not None, "a decision's deal has a seat to move"
    if network is not None:
        # The network reads the seat's log (some games' observations do): built once on the deal, its
        # clones share it and add only their own few events, instead of each building it all anew.
        dealt.log(me)
    outcomes = []
    for a in options:
        state = dealt.clone()
        state.apply(a)
        if network is None:
            outcomes.append(play_out(state, policy, random.Random(luck)))
        else:
            outcomes.append(play_until(state, me, policy, random.Random(luck), network))
    return outcomes


def play_until(
    state: State, seat: int, policy: RolloutPolicy | None, rng: random.Random, network: Any
) -> list[float]:
    """Play `state` with `policy` until `seat` decides again or the game ends; every seat's return
    then, or the network's value of the position from `seat`'s own view (what it is trained on)."""
    from bodoge.agents.nn import state_value

    rand = rng.random
    while state.current_player is not None and state.current_player != seat:
        if policy is None:
            state.apply_random(rand)
        else:
            state.apply(policy(state, rng))
    if state.current_player is None:
        return state.returns()
    return state_value(network, state)


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
