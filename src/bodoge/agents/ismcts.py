"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS; Cowling, Powley & Whitehouse 2012).

    bodoge.agents.make("ismcts")                                   # the default budget
    bodoge.agents.make("ismcts:iterations=2000,rollout=heuristic")
    bodoge.agents.make("ismcts:seconds=0.5")

The agent sees only its seat's view. Every iteration it **determinizes** (`game.sampler(view)`: the
view read once, a full state dealt from it each time; DESIGN.md §2; with `deal=likely`, the default,
the unseen cards go where the other seats' past moves say they lie if those seats play as the game's
heuristic does, in games whose sampling can tell), **selects** down one tree of the
observer's information sets keyed by action ids (UCB with availability counts, since an action is not
legal in every determinization; the other seats move as `opponents` says), **expands** one untried
action, **rolls out** to the end or to the `horizon` as `rollout` says, and **backs up** every seat's
return (each node keeps every seat's total, so it serves any number of players).

At the root, the observer's own decision, `root=halving` runs sequential halving (Karnin, Koren &
Somekh 2013) on common random numbers: each batch plays every surviving move from clones of one
determinization with the same random stream after it, the worse half drops out after each phase (never
the heuristic's move), and the best survivor replaces the heuristic's move only if their paired
differences favour it by `z` standard errors. `root=puct` uses the heuristic's move as a prior instead.

A trained network (`bodoge train`, the `nn` agent; `model=PATH`, default the shipped model) can guide
the search: `prior=nn` searches the root by PUCT with the network's policy as the prior (and its best
move in the heuristic's place as the move to beat), and `value=nn` values each simulation's leaf by the
network's estimate of every seat's win share, from the view of the seat to move there, instead of a
rollout. `prior=nn,root=halving` keeps the default search and puts only the network's best move in
the heuristic's place as the move to beat: the one guide measured above the default at equal time
(in every game at 3 and 4 players; in Hangover with 4 by little). Their cost and strength are
measured in docs/models.md.

A cut simulation (`horizon=round` or N actions) is valued from `scores()` by `cut`. An iteration
budget alone is deterministic (same view, same rng, same move); a time budget depends on the machine.
Every parameter, its default and its allowed values are in the README's table ("Bots and the arena");
measured speed and strength are in the README too (`bench/search.py`, `bench/peer.py`).
"""

from __future__ import annotations

import contextlib
import math
import random
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar

from bodoge.agents.base import legal_ids
from bodoge.agents.heuristic import QuickPolicy, heuristic_policy, quick_in_search, quick_policy
from bodoge.core.game import Game, State
from bodoge.errors import BadOption, is_int_in, is_number_in


class Policy(StrEnum):
    """How a seat plays inside the simulations (`rollout`, `opponents`)."""

    AUTO = "auto"
    QUICK = "quick"
    HEURISTIC = "heuristic"
    RANDOM = "random"
    TREE = "tree"  # `opponents` only: the other seats choose by UCB in the tree


class Deal(StrEnum):
    """How the cards a seat cannot see are dealt for each iteration (`Game.sampler`)."""

    LIKELY = "likely"  # where the others' past moves say they lie, if the game can tell
    UNIFORM = "uniform"  # every deal consistent with the view alike


class Root(StrEnum):
    """How the observer's own decision is searched."""

    HALVING = "halving"
    PUCT = "puct"


class Value(StrEnum):
    """How a simulation's leaf is valued."""

    ROLLOUT = "rollout"  # play on by `rollout` to the end or the horizon
    NN = "nn"  # the network's win shares (`model`)


NN_PRIOR = "nn"


class Horizon(StrEnum):
    """Where a simulation stops (besides a number of actions)."""

    AUTO = "auto"
    END = "end"
    ROUND = "round"


class Cut(StrEnum):
    """How a position cut at the horizon is valued."""

    WIN = "win"
    RANK = "rank"


DEFAULT_ITERATIONS = 4000
DEFAULT_SECONDS = 0.9
DEFAULT_C = 0.7
DEFAULT_PRIOR = 0.5
DEFAULT_Z = 1.5
MAX_ITERATIONS = 1_000_000  # per move: about a quarter of an hour at these games' speed
MAX_SECONDS = 3600.0
ROLLOUTS = (Policy.AUTO, Policy.QUICK, Policy.HEURISTIC, Policy.RANDOM)

_Mode = TypeVar("_Mode", bound=StrEnum)


def _mode(kind: type[_Mode], name: str, value: Any, allowed: tuple[_Mode, ...] | None = None) -> _Mode:
    """`value` as one of the modes `allowed` (default: all of `kind`); BadOption naming them if not."""
    allowed = tuple(kind) if allowed is None else allowed
    if isinstance(value, str) and value in allowed:
        return kind(value)
    raise BadOption(name, value, " or ".join(", ".join(allowed).rsplit(", ", 1)))


def cut_value(scores: list[int] | list[float], how: Cut | str) -> list[float]:
    """Scores at a horizon as a share of one win (see the module docstring: `win` or `rank`)."""
    n = len(scores)
    if how == Cut.WIN:
        best = max(scores)
        won = [p for p in range(n) if scores[p] == best]
        share = 1.0 / len(won)
        return [share if scores[p] == best else 0.0 for p in range(n)]
    if n == 1:
        return [1.0]
    pairs = n * (n - 1) / 2
    out = []
    for p in range(n):
        points = 0.0
        for q in range(n):
            if q != p:
                points += 1.0 if scores[p] > scores[q] else 0.5 if scores[p] == scores[q] else 0.0
        out.append(points / pairs)
    return out


class _Node:
    """A node of the observer's tree: the edge into it (who chose it), its visits, availability, and
    every seat's total return over the simulations through it."""

    __slots__ = ("avail", "children", "totals", "visits")

    def __init__(self, n: int) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.totals = [0.0] * n


class ISMCTSAgent:
    """Single-observer ISMCTS. See the module docstring for the parameters."""

    def __init__(
        self,
        iterations: int | None = None,
        seconds: float | None = None,
        c: float = DEFAULT_C,
        rollout: str = Policy.AUTO,
        horizon: str | int = Horizon.AUTO,
        cut: str = Cut.RANK,
        prior: float | str = DEFAULT_PRIOR,
        z: float = DEFAULT_Z,
        opponents: str = Policy.AUTO,
        root: str | None = None,
        deal: str = Deal.LIKELY,
        value: str = Value.ROLLOUT,
        model: str | None = None,
    ) -> None:
        if iterations is not None and not is_int_in(iterations, 1, MAX_ITERATIONS):
            raise BadOption("iterations", iterations, f"an integer from 1 to {MAX_ITERATIONS}")
        if seconds is not None and (not is_number_in(seconds, 0, MAX_SECONDS) or seconds == 0):
            raise BadOption("seconds", seconds, f"a number of seconds above 0, at most {MAX_SECONDS:g}")
        if iterations is None and seconds is None:
            iterations, seconds = DEFAULT_ITERATIONS, DEFAULT_SECONDS
        if not is_number_in(c, 0, math.inf):
            raise BadOption("c", c, "a finite number ≥ 0")
        self.rollout = _mode(Policy, "rollout", rollout, ROLLOUTS)
        self.opponents = _mode(Policy, "opponents", opponents)
        self.value = _mode(Value, "value", value)
        nn_prior = prior == NN_PRIOR
        # PUCT is where a policy prior steers the search; halving only compares with one move
        default_root = Root.PUCT if nn_prior else Root.HALVING
        self.root = default_root if root is None else _mode(Root, "root", root)
        self.deal = _mode(Deal, "deal", deal)
        self.cut = _mode(Cut, "cut", cut)
        self.horizon: Horizon | int
        if isinstance(horizon, int) and not isinstance(horizon, bool) and horizon >= 1:
            self.horizon = horizon
        elif isinstance(horizon, str) and horizon in tuple(Horizon):
            self.horizon = Horizon(horizon)
        else:
            raise BadOption("horizon", horizon, "auto, end, round, or a number of actions ≥ 1")
        if not nn_prior and not is_number_in(prior, 0, 1):
            raise BadOption("prior", prior, "a weight from 0 to 1, or nn (the network's policy)")
        if model is not None and (not isinstance(model, str) or not model.strip()):
            raise BadOption("model", model, "the path of a model's .npz (default: the shipped model)")
        if model is not None and not nn_prior and self.value != Value.NN:
            raise BadOption("model", model, "a model only with prior=nn or value=nn, which use it")
        self.model = model
        if model is not None:
            from bodoge.agents import nn

            nn.load(model)  # a missing or corrupt file fails now
        if not is_number_in(z, 0, math.inf):
            raise BadOption("z", z, "a finite number of standard errors ≥ 0")
        self.iterations = iterations
        self.seconds = None if seconds is None else float(seconds)
        self.c = float(c)
        self.prior: float | str = NN_PRIOR if nn_prior else float(prior)
        self.z = float(z)
        params = []
        if iterations is not None:
            params.append(f"iterations={iterations}")
        if seconds is not None:
            params.append(f"seconds={seconds}")
        defaults = {
            "c": DEFAULT_C,
            "rollout": Policy.AUTO,
            "horizon": Horizon.AUTO,
            "cut": Cut.RANK,
            "prior": DEFAULT_PRIOR,
            "z": DEFAULT_Z,
            "opponents": Policy.AUTO,
            "root": default_root,
            "deal": Deal.LIKELY,
            "value": Value.ROLLOUT,
            "model": None,
        }
        for key, default in defaults.items():
            value = getattr(self, key)
            if value != default:
                params.append(f"{key}={value}")
        self.spec = "ismcts:" + ",".join(params)
        self.last_iterations = 0  # iterations of the last search (for benchmarks)
        self.last_search: Search | None = None  # the last search's tree and root statistics
        self._nn: Any = None  # the NNAgent holding the network, when prior or value is nn

    @property
    def uses_nn(self) -> bool:
        return self.prior == NN_PRIOR or self.value == Value.NN

    def network(self, game: Game) -> Any:
        """The network (`bodoge.agents.nn.Model`) for `game`, when prior or value is nn."""
        if self._nn is None:
            from bodoge.agents.nn import NNAgent

            self._nn = NNAgent(model=self.model)
        return self._nn.model(game)

    def check(self, game: Game) -> None:
        """BadOption now if the simulations need a policy that `game` lacks, or a network it has not."""
        self.policies(game)
        if self.uses_nn:
            self.network(game)

    def opponents_in(self, game: Game) -> Policy:
        """How the other seats move in the tree at `game`, `auto` resolved: the quick policy where the
        game's search uses it, else by UCT (`tree`)."""
        if self.opponents != Policy.AUTO:
            return self.opponents
        return Policy.QUICK if quick_in_search(game) else Policy.TREE

    def policies(self, game: Game) -> tuple[QuickPolicy | None, QuickPolicy | None]:
        """How seats play inside the simulations of `game`: the rollout policy (None: uniformly at
        random) and the model of the other seats in the tree (None: they choose by UCT)."""
        quick = quick_policy(game)
        rollout = self.rollout
        if rollout == Policy.AUTO:  # not in Troika: its quick policy is the review's, for now
            rollout = Policy.QUICK if quick_in_search(game) else Policy.RANDOM
        opponents = self.opponents_in(game)
        model: QuickPolicy | None
        if opponents == Policy.TREE:
            model = None
        elif opponents == Policy.RANDOM:
            model = _random_move
        else:
            model = _policy(game, opponents, quick)
        return _policy(game, rollout, quick), model

    def act(self, game: Game, view: Mapping[str, Any], rng: random.Random) -> int:
        legal = legal_ids(view)
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        found = self.search(game, view, rng)
        root, me, h = found.root, view["seat"], found.prior_move
        if self.root == Root.HALVING:
            return self._paired_choice(found)
        best = max(
            (a for a in legal if a in root.children),
            key=lambda a: (root.children[a].visits, root.children[a].totals[me]),
            default=legal[0],
        )
        if h is not None and best != h and h in root.children:
            # play another move than the heuristic's only if it looks better by z standard errors
            # (returns lie in [0, 1], so a variance of at most 1/4)
            b, hc = root.children[best], root.children[h]
            if hc.visits:
                gap = b.totals[me] / b.visits - hc.totals[me] / hc.visits
                if gap <= self.z * math.sqrt(0.25 / b.visits + 0.25 / hc.visits):
                    return h
        return best

    def search(self, game: Game, view: Mapping[str, Any], rng: random.Random) -> Search:
        """Run the search from `view` (the observer's decision): its tree and root statistics."""
        ctx = _Context(self, game, view)
        found = Search(_Node(game.num_players))
        if self.prior == NN_PRIOR:
            p, _ = self.network(game).decide(game, view, ctx.legal)
            found.policy = dict(zip(ctx.legal, p.tolist(), strict=True))
            found.prior_move = ctx.legal[int(p.argmax())]
        elif (isinstance(self.prior, float) and self.prior > 0) or self.root == Root.HALVING:
            with contextlib.suppress(BadOption):  # a game without a heuristic: no default move
                found.prior_move = int(heuristic_policy(game)(game, view, rng))
        if self.root == Root.HALVING:
            self._halving(ctx, found, rng)
        else:
            self._puct(ctx, found, rng)
        self.last_iterations = found.iterations
        self.last_search = found
        return found

    def _budget_left(self, done: int, deadline: float | None) -> bool:
        return (self.iterations is None or done < self.iterations) and (
            deadline is None or time.perf_counter() < deadline
        )

    def _puct(self, ctx: _Context, found: Search, rng: random.Random) -> None:
        """Iterations of PUCT at the root (the heuristic's move as a prior) and UCT below it."""
        me, legal, sqrt, root = ctx.me, ctx.legal, math.sqrt, found.root
        priors = found.policy or self._priors(legal, found.prior_move)
        c = self.c
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while self._budget_left(done, deadline):
            done += 1
            state = ctx.sample(rng)
            if priors is None:
                ctx.simulate(state, root, [root], 0, rng)
                continue
            total = root.visits
            fpu = root.totals[me] / total if total else 0.5
            scale = c * sqrt(total + 1)
            best_a, best_u = legal[0], -1.0
            for a in legal:
                child = root.children.get(a)
                if child is None:
                    u = fpu + scale * priors[a]
                else:
                    u = child.totals[me] / child.visits + scale * priors[a] / (1 + child.visits)
                if u > best_u:
                    best_a, best_u = a, u
            child = root.children.get(best_a)
            expanded = child is None
            if child is None:
                child = root.children[best_a] = _Node(ctx.n)
            state.apply(best_a)
            ctx.simulate(state, child, [root, child], 1, rng, expanded)
        found.iterations = done

    def _halving(self, ctx: _Context, found: Search, rng: random.Random) -> None:
        """Sequential halving at the root on common random numbers (see the module docstring)."""
        legal, me, h, root = ctx.legal, ctx.me, found.prior_move, found.root
        alive = list(legal)
        values: dict[int, list[float]] = {a: [] for a in legal}
        found.values = values
        phases = max(1, math.ceil(math.log2(len(legal))))
        start = time.perf_counter()
        cap: float = math.inf if self.iterations is None else self.iterations
        done = 0
        for phase in range(phases):
            share = (phase + 1) / phases
            phase_iterations = None if self.iterations is None else int(self.iterations * share)
            phase_end = None if self.seconds is None else start + self.seconds * share
            last = phase == phases - 1
            batches = 0
            # a phase plays whole batches, at least one; the last one spends what is left
            while not batches or (
                (
                    phase_iterations is None
                    or (done < phase_iterations if last else done + len(alive) <= phase_iterations)
                )
                and (phase_end is None or time.perf_counter() < phase_end)
            ):
                batches += 1
                dealt = ctx.sample(rng)
                seed = rng.getrandbits(64)
                for a in alive:
                    if done >= cap:
                        break
                    done += 1
                    state = dealt.clone()  # every move on the same cards ...
                    child = root.children.get(a)
                    if child is None:
                        child = root.children[a] = _Node(ctx.n)
                    state.apply(a)
                    # ... and the same luck after it
                    value = ctx.simulate(state, child, [root, child], 1, random.Random(seed))
                    values[a].append(value[me])
                if done >= cap:
                    break
            if done >= cap:
                break
            if not last:
                ranked = sorted(alive, key=lambda a: (_mean(values[a]), a == h), reverse=True)
                kept = ranked[: -(-len(alive) // 2)]
                if h in alive and h not in kept:
                    kept.append(h)  # the heuristic's move stays: the last word compares with it
                alive = kept
        found.alive = alive
        found.iterations = done

    def _paired_choice(self, found: Search) -> int:
        """After halving: the best surviving move, unless the heuristic's move is as good within z
        standard errors of their paired differences (the same deals and luck for both)."""
        values, h = found.values, found.prior_move
        best = max(found.alive, key=lambda a: (_mean(values[a]), a == h))
        if h is None or best == h:
            return best
        m = min(len(values[best]), len(values[h]))
        if m < 2:
            return h
        diffs = [values[best][j] - values[h][j] for j in range(m)]
        gap = sum(diffs) / m
        var = sum((d - gap) ** 2 for d in diffs) / (m - 1)
        return best if gap > self.z * math.sqrt(var / m) else h

    def _priors(self, legal: list[int], move: int | None) -> dict[int, float] | None:
        """The root prior: weight `prior` on the heuristic's `move`, the rest spread evenly (None: no
        prior, plain UCT at the root)."""
        if self.prior == 0 or self.prior == NN_PRIOR or move is None:
            return None
        assert isinstance(self.prior, float)
        rest = (1.0 - self.prior) / len(legal)
        priors = dict.fromkeys(legal, rest)
        priors[move] = priors.get(move, 0.0) + self.prior
        return priors


@dataclass
class Search:
    """What one search found: the observer's tree and, at its root, the heuristic's move (the prior,
    or the move halving compares with), and with halving the observer's return per move and deal
    (`values`) and the moves left after the last phase (`alive`)."""

    root: _Node
    prior_move: int | None = None
    values: dict[int, list[float]] = field(default_factory=dict)
    alive: list[int] = field(default_factory=list)
    iterations: int = 0
    policy: dict[int, float] = field(default_factory=dict)  # the network's prior, with prior=nn


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else -1.0


class _Context:
    """One search's fixed parts: the game, the observer and their view, the players' policies inside
    the simulations, and the horizon."""

    def __init__(self, agent: ISMCTSAgent, game: Game, view: Mapping[str, Any]) -> None:
        self.game, self.view = game, view
        # the view read once, dealt from every iteration
        self.sample = game.sampler(view, likely=agent.deal == Deal.LIKELY)
        self.n = game.num_players
        self.me = view["seat"]
        self.legal = legal_ids(view)
        horizon = agent.horizon
        if horizon == Horizon.AUTO:
            horizon = Horizon.ROUND if isinstance(view.get("round"), int) else Horizon.END
        self.horizon = horizon
        self.root_scores = list(view["scores"])
        self.cut, self.c = agent.cut, agent.c
        self.policy, self.model = agent.policies(game)
        self.network = agent.network(game) if agent.value == Value.NN else None

    def past_horizon(self, state: State, steps: int) -> bool:
        """Whether a simulation stops here, before the end of the game (`horizon`)."""
        horizon = self.horizon
        if horizon == Horizon.END or state.current_player is None:
            return False
        if horizon == Horizon.ROUND:
            return state.scores() != self.root_scores
        return steps >= int(horizon)  # a number of actions: the modes are handled above

    def simulate(
        self,
        state: State,
        node: _Node,
        path: list[_Node],
        steps: int,
        rng: random.Random,
        expanded: bool = False,
    ) -> list[float]:
        """From `state` at `node` (reached by `path`, `steps` actions from the root): select and expand
        below it (unless `expanded` just now), roll out to the end or the horizon, and back up every
        seat's return along the path. Returns that vector."""
        me, model, c, n = self.me, self.model, self.c, self.n
        past = None if self.horizon == Horizon.END else self.past_horizon
        log, sqrt = math.log, math.sqrt
        descend = not expanded and not (past is not None and past(state, steps))
        # selection and expansion (UCT with availability counts)
        while descend and state.current_player is not None:
            mover = state.current_player
            if model is not None and mover != me:
                # another seat moves as the model says, knowing only what that seat knows
                a = model(state, rng)
                child = node.children.get(a)
                if child is None:
                    child = node.children[a] = _Node(n)
                node = child
                state.apply(a)
                path.append(node)
                steps += 1
                if past is not None and past(state, steps):
                    break
                continue
            legal = state.legal_actions()
            children = node.children
            untried = []
            for a in legal:
                child = children.get(a)
                if child is None:
                    untried.append(a)
                else:
                    child.avail += 1
            if untried:
                a = untried[0] if len(untried) == 1 else rng.choice(untried)
                child = _Node(n)
                child.avail = 1
                children[a] = child
                state.apply(a)
                path.append(child)
                steps += 1
                break
            best_a, best_u = legal[0], -1.0
            for a in legal:
                child = children[a]
                u = child.totals[mover] / child.visits + c * sqrt(log(child.avail) / child.visits)
                if u > best_u:
                    best_a, best_u = a, u
            node = children[best_a]
            state.apply(best_a)
            path.append(node)
            steps += 1
            if past is not None and past(state, steps):
                break
        network = self.network
        if network is not None:
            from bodoge.agents.nn import state_value  # numpy: only where a network is used

            # the network's win shares from the view of the seat to move, instead of a rollout
            value = state.returns() if state.current_player is None else state_value(network, state)
            for visited in path:
                visited.visits += 1
                totals = visited.totals
                for p in range(n):
                    totals[p] += value[p]
            return value
        # rollout, to the end or to the horizon
        if not (past is not None and past(state, steps)):
            policy = self.policy
            rand = rng.random
            while state.current_player is not None:
                if policy is None:
                    state.apply_random(rand)
                else:
                    state.apply(policy(state, rng))
                steps += 1
                if past is not None and past(state, steps):
                    break
        value = state.returns() if state.current_player is None else cut_value(state.scores(), self.cut)
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for p in range(n):
                totals[p] += value[p]
        return value


def _random_move(state: State, rng: random.Random) -> int:
    legal = state.legal_actions()
    return legal[int(rng.random() * len(legal))]


def _policy(game: Game, kind: Policy, quick: QuickPolicy | None) -> QuickPolicy | None:
    """The policy of a seat inside the simulations: `random` (None), `quick` (the game's quick policy
    on the state), or `heuristic` (the game's view-based heuristic on the seat's view)."""
    if kind == Policy.RANDOM:
        return None
    if kind == Policy.QUICK:
        if quick is None:
            raise BadOption(
                "policy",
                kind,
                f"a game with a quick policy (a rollout module beside {type(game).__module__})",
            )
        return quick
    heuristic = heuristic_policy(game)

    def by_view(state: State, rng: random.Random) -> int:
        return int(heuristic(game, state.view(state.current_player, log=False), rng))

    return by_view
