"""`bodoge tune`: search a game's option values toward a designer's goals (issue #18).

A *space* names the options to vary (`vp_just=2..5`, `non_drinker=true,false`, `drunk_limit.4=10..14`:
one entry of a map option, for one player count); every other option keeps its value. Each *trial*
is one variant, played by `bodoge sim`'s runner on the same deals as every other trial (same seed,
seats rotated, duplicate deals), and measured by the *goals* (several at once, each with a direction)
under the *constraints* (`tie<0.1`). Optuna's multi-objective TPE sampler proposes the trials (it
handles constraints and mixed integer/categorical spaces, and starts with random trials); the study
lives in an RDB (SQLite in the output folder by default, PostgreSQL to share one study between
machines), so a run resumes after Ctrl-C and several processes can work on it.

A trial plays its games in two halves: after the first, a constraint already broken beyond its
interval ends the trial (pruned), so hopeless variants cost half.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bodoge.arena.balance import largest_gap
from bodoge.arena.runner import SimConfig, make_game, run
from bodoge.arena.stats import Estimate
from bodoge.arena.summary import summarize_variant
from bodoge.core.registry import game_class
from bodoge.errors import BadOption

MAX_DIMENSIONS = 12
MAX_CHOICES = 64
MAX_TRIALS = 10_000

# -- the space ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Dimension:
    """One thing to vary: an option, or one entry (`key`) of a map option; an integer range or choices."""

    option: str
    key: str | None
    low: int | None = None
    high: int | None = None
    choices: tuple[Any, ...] = ()

    @property
    def name(self) -> str:
        return self.option if self.key is None else f"{self.option}.{self.key}"

    def describe(self) -> str:
        if self.choices:
            return f"{self.name}={','.join(json.dumps(c) for c in self.choices)}"
        return f"{self.name}={self.low}..{self.high}"


_RANGE = re.compile(r"^(-?\d+)\s*\.\.\s*(-?\d+)$")


def parse_space(game: str, players: int | None, entries: list[str]) -> list[Dimension]:
    """The dimensions of `--space` entries; BadOption naming what is allowed for anything wrong."""
    cls = game_class(game)
    specs = {spec.name: spec for spec in cls.option_specs}
    if not entries:
        raise BadOption("space", "", "at least one --space entry such as vp_just=2..5")
    if len(entries) > MAX_DIMENSIONS:
        raise BadOption("space", len(entries), f"at most {MAX_DIMENSIONS} entries")
    base = make_game(game, players, {})
    dims: list[Dimension] = []
    for entry in entries:
        if not isinstance(entry, str) or "=" not in entry:
            raise BadOption(
                "space", entry, "name=lo..hi or name=a,b,c (e.g. vp_just=2..5, non_drinker=true,false)"
            )
        name, _, values = (part.strip() for part in entry.partition("="))
        option, _, key = name.partition(".")
        if option not in specs:
            raise BadOption("space", option, f"an option of {game}: {', '.join(sorted(specs))}")
        spec = specs[option]
        default = spec.to_json(base.options[option]) if option in base.options else None
        if key:
            if not isinstance(default, dict):
                raise BadOption("space", name, f"'{option}' is not a map option: write {option}=…")
            if key not in default:
                raise BadOption("space", name, f"an entry of {option}: {', '.join(default)}")
        if any(d.name == (name if key else option) for d in dims):
            raise BadOption("space", name, "each option (or map entry) once")
        dims.append(_dimension(option, key or None, values, spec))
    for dim in dims:  # every end of every range must be a value the game accepts
        for value in dim.choices or (dim.low, dim.high):
            options_for(game, players, [dim], {dim.name: value})
    return dims


def _dimension(option: str, key: str | None, values: str, spec: Any) -> Dimension:
    m = _RANGE.match(values)
    if m:
        low, high = int(m[1]), int(m[2])
        if low >= high:
            raise BadOption("space", values, "a range lo..hi with lo below hi")
        lo, hi = getattr(spec, "lo", None), getattr(spec, "hi", None)
        if key is None and ((lo is not None and low < lo) or (hi is not None and high > hi)):
            raise BadOption("space", f"{option}={values}", f"a range within the option's bounds {lo}..{hi}")
        return Dimension(option, key, low=low, high=high)
    parts = [p.strip() for p in values.split(",")]
    if len(parts) < 2 or not all(parts):
        raise BadOption("space", values, "lo..hi, or at least two values a,b,…")
    if len(parts) > MAX_CHOICES:
        raise BadOption("space", values, f"at most {MAX_CHOICES} choices")
    choices = []
    for part in parts:
        try:
            choices.append(json.loads(part))
        except ValueError:
            choices.append(part)
    if len({json.dumps(c) for c in choices}) != len(choices):
        raise BadOption("space", values, "different values")
    return Dimension(option, key, choices=tuple(choices))


def options_for(
    game: str, players: int | None, dims: list[Dimension], params: dict[str, Any]
) -> dict[str, Any]:
    """The options of one trial (JSON values, as `bodoge sim --set` takes them); BadOption if the
    game refuses them."""
    base = make_game(game, players, {})
    options: dict[str, Any] = {}
    specs = {spec.name: spec for spec in type(base).option_specs}
    for dim in dims:
        value = params[dim.name]
        if dim.key is None:
            options[dim.option] = value
        else:
            current = options.get(dim.option, specs[dim.option].to_json(base.options[dim.option]))
            options[dim.option] = dict(current, **{dim.key: value})
    make_game(game, players, options)  # BadOption for a value the game refuses
    return options


# -- goals and constraints ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Goal:
    """A number to minimize or maximize, measured on one trial's summary (`measure`)."""

    name: str
    direction: str  # "minimize" | "maximize"
    definition: str
    measure: Callable[[dict[str, Any]], Estimate]


def _balance(summary: dict[str, Any]) -> Estimate:
    """The largest gap between a seat's win share and the fair share, as every sim report gives it."""
    return largest_gap(summary["seats"])


def _skill(summary: dict[str, Any]) -> Estimate:
    """The first agent's win share above the fair share (how much better play pays)."""
    first: dict[str, Any] = summary["agents"][0]
    est: Estimate = first["win_share"]
    fair = first["fair"]
    return Estimate(est.mean - fair, est.low - fair, est.high - fair, est.n)


def _metric(name: str) -> Callable[[dict[str, Any]], Estimate]:
    def measure(summary: dict[str, Any]) -> Estimate:
        if name == "length":
            length: Estimate = summary["length"]
            return length
        metrics = summary["metrics"]
        if name not in metrics:
            raise BadOption("goal", name, f"a number the games report: length, {', '.join(sorted(metrics))}")
        found: Estimate = metrics[name]
        return found

    return measure


def _distance(name: str, low: float, high: float) -> Callable[[dict[str, Any]], Estimate]:
    """How far a number's mean (or a goal's: balance, skill, drama) lies outside [low, high] (0 inside)."""
    inner = GOALS[name][2] if name in GOALS else _metric(name)

    def measure(summary: dict[str, Any]) -> Estimate:
        est = inner(summary)

        def off(x: float) -> float:
            return max(0.0, low - x, x - high)

        # The distances of the points of the interval: from 0 where it meets the range (an interval
        # wider than the range on both sides has its ends outside, yet its mean may lie inside).
        nearest = 0.0 if est.low <= high and est.high >= low else min(off(est.low), off(est.high))
        return Estimate(off(est.mean), nearest, max(off(est.low), off(est.high)), est.n)

    return measure


GOALS: dict[str, tuple[str, str, Callable[[dict[str, Any]], Estimate]]] = {
    "balance": (
        "minimize",
        "the largest gap between any seat's win share and the fair share 1/n (0: every seat wins as often)",
        _balance,
    ),
    "skill": (
        "maximize",
        "the first agent's win share minus the fair share, with the agents rotated through the seats "
        "(--agents heuristic,random by default: how much better play pays)",
        _skill,
    ),
    "drama": (
        "maximize",
        "lead changes per game: how often the set of score leaders changed (arena/quality.py)",
        _metric("lead_changes"),
    ),
}


def parse_goal(text: str) -> Goal:
    """`balance`, `skill`, `drama`, or `NUMBER=lo..hi` (e.g. `length=40..60`, `minutes=15..25`, and
    the three goals too: `skill=-0.03..0.03`, the first agent neither ahead nor behind)."""
    if text in GOALS:
        direction, definition, measure = GOALS[text]
        return Goal(text, direction, definition, measure)
    name, _, bounds = text.partition("=")
    m = re.match(r"^(-?\d+(?:\.\d+)?)\s*\.\.\s*(-?\d+(?:\.\d+)?)$", bounds.strip())
    if not m or not name.strip():
        raise BadOption("goal", text, "balance, skill, drama, or NUMBER=lo..hi such as length=40..60")
    low, high = float(m[1]), float(m[2])
    if low > high:
        raise BadOption("goal", text, "a range lo..hi with lo at most hi")
    name = name.strip()
    return Goal(
        text,
        "minimize",
        f"how far the mean {name} per game lies outside {low:g}..{high:g} (0 inside)",
        _distance(name, low, high),
    )


@dataclass(frozen=True)
class Constraint:
    """`NUMBER<VALUE` (or <=, >, >=) on a trial's reported numbers or goals."""

    text: str
    name: str
    op: str
    bound: float

    def violation(self, value: float) -> float:
        """≤ 0 when met (Optuna's convention), else by how much it is missed."""
        return value - self.bound if self.op in ("<", "<=") else self.bound - value

    def hopeless(self, est: Estimate) -> bool:
        """Broken beyond the interval: no more games would mend it."""
        if math.isnan(est.low):
            return False
        return est.low > self.bound if self.op in ("<", "<=") else est.high < self.bound


def parse_constraint(text: str) -> Constraint:
    m = re.match(r"^\s*([a-z_]+)\s*(<=|>=|<|>)\s*(-?\d+(?:\.\d+)?)\s*$", text)
    if not m:
        raise BadOption("require", text, "NUMBER<VALUE, NUMBER>VALUE (or <=, >=), e.g. tie<0.1")
    return Constraint(text, m[1], m[2], float(m[3]))


def constrained(constraint: Constraint, summary: dict[str, Any]) -> Estimate:
    if constraint.name in GOALS:
        return GOALS[constraint.name][2](summary)
    return _metric(constraint.name)(summary)


# -- the study ----------------------------------------------------------------------------------------


@dataclass
class TuneConfig:
    game: str
    players: int
    space: list[str]
    goals: list[str]
    require: list[str] = field(default_factory=list)
    agents: list[str] = field(default_factory=list)
    games: int = 40
    seed: int = 1

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def sim_command(config: TuneConfig, options: dict[str, Any]) -> str:
    """The `bodoge sim` command that plays a trial's games again, for its numbers."""
    sets = " ".join(f"--set '{k}={json.dumps(v, separators=(',', ':'))}'" for k, v in options.items())
    agents = ",".join(config.agents)
    return (
        f"bodoge sim {config.game} --players {config.players} --agents {agents} "
        f"--games {config.games} --seed {config.seed} {sets}"
    ).strip()


def measure_trial(
    config: TuneConfig,
    options: dict[str, Any],
    out: Path,
    jobs: int,
    backend: str,
    address: str | None,
) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """Play a trial's games in two halves: (None, summary) if a constraint is broken past its
    interval after the first half, else (values, summary) after all of them."""
    constraints = [parse_constraint(c) for c in config.require]
    summary: dict[str, Any] = {}
    halves = sorted({max(config.players, config.games // 2), config.games})
    for i, games in enumerate(halves):
        sim = SimConfig(
            game=config.game,
            players=config.players,
            agents=list(config.agents),
            games=games,
            seed=config.seed,
            variants=[options],
        )
        records = run(sim, out=out, jobs=jobs, backend=backend, resume=i > 0, address=address)
        summary = summarize_variant(records, config.players)
        if i < len(halves) - 1 and any(c.hopeless(constrained(c, summary)) for c in constraints):
            return None, summary
    goals = [parse_goal(g) for g in config.goals]
    values = {g.name: g.measure(summary) for g in goals}
    for c in constraints:
        values[f"require {c.text}"] = constrained(c, summary)
    return values, summary


def pareto(points: list[tuple[int, list[float]]], directions: list[str]) -> list[int]:
    """The trials no other trial beats on every goal (`points`: (trial, values))."""
    signs = [1.0 if d == "minimize" else -1.0 for d in directions]

    def better_or_equal(a: list[float], b: list[float]) -> bool:
        return all(s * x <= s * y for s, x, y in zip(signs, a, b, strict=True))

    front = []
    for t, v in points:
        if not any(better_or_equal(w, v) and w != v for _u, w in points):
            front.append(t)
    return front


def recommend(
    front: list[tuple[int, list[float]]], all_points: list[list[float]], directions: list[str]
) -> tuple[int, str]:
    """The Pareto member whose worst goal is best, each goal scaled 0 (worst seen) to 1 (best seen)."""
    lows = [min(p[i] for p in all_points) for i in range(len(directions))]
    highs = [max(p[i] for p in all_points) for i in range(len(directions))]

    def goodness(values: list[float]) -> list[float]:
        out = []
        for i, (x, d) in enumerate(zip(values, directions, strict=True)):
            span = highs[i] - lows[i]
            scaled = 0.5 if span == 0 else (x - lows[i]) / span
            out.append(1 - scaled if d == "minimize" else scaled)
        return out

    best = max(front, key=lambda tv: (min(goodness(tv[1])), sum(goodness(tv[1]))))
    worst = min(goodness(best[1]))
    reason = (
        f"of the Pareto set, its worst goal is the best: at least {worst:.0%} of the way from the worst "
        "value seen to the best, on every goal"
    )
    return best[0], reason


STUDY_NAME = "bodoge-tune"


def open_study(config: TuneConfig, storage: str, resume: bool) -> Any:
    """The Optuna study in `storage`: a new one, or with `resume` the one there, which must have been
    made for the same settings (BadOption otherwise: a different study is never mixed in)."""
    import optuna

    directions: list[Any] = [parse_goal(g).direction for g in config.goals]
    # Constraints reach the sampler through each trial's `set_constraint` (see `constrain`).
    sampler = optuna.samplers.TPESampler(seed=config.seed, multivariate=True)
    names = optuna.study.get_all_study_names(storage)
    if STUDY_NAME in names:
        if not resume:
            raise BadOption(
                "out", storage, "a new --out (or --study), or --resume to go on with the study there"
            )
        study = optuna.load_study(study_name=STUDY_NAME, storage=storage, sampler=sampler)
        if study.user_attrs.get("config") != config.to_json():
            raise BadOption(
                "resume", storage, "the same game, players, space, goals, constraints, agents, games and seed"
            )
        return study
    if resume:
        raise BadOption("resume", storage, "a study to go on with (none is there yet)")
    study = optuna.create_study(
        study_name=STUDY_NAME, storage=storage, directions=directions, sampler=sampler
    )
    study.set_user_attr("config", config.to_json())
    return study


def suggest(trial: Any, dims: list[Dimension]) -> dict[str, Any]:
    params = {}
    for dim in dims:
        if dim.choices:
            # Optuna stores categorical choices as JSON-able scalars: pass JSON texts, read them back.
            texts = [json.dumps(c) for c in dim.choices]
            params[dim.name] = json.loads(trial.suggest_categorical(dim.name, texts))
        else:
            params[dim.name] = trial.suggest_int(dim.name, dim.low, dim.high)
    return params


def constrain(trial: Any, constraints: list[Constraint], violations: list[float]) -> None:
    """Tell Optuna (which steers away from infeasible trials) and keep them for the report."""
    for c, v in zip(constraints, violations, strict=True):
        trial.set_constraint(c.text, v)
    trial.set_user_attr("constraints", violations)


def played_before(study: Any, options: dict[str, Any]) -> Any:
    """A complete trial of the same options, if any (its numbers are this one's: same deals)."""
    import optuna

    for t in study.trials:
        if t.state == optuna.trial.TrialState.COMPLETE and t.user_attrs.get("options") == options:
            return t
    return None


def trial_rows(study: Any, config: TuneConfig) -> list[dict[str, Any]]:
    """Every finished or pruned trial as JSON: its options, goal values and intervals, constraints."""
    import optuna

    rows = []
    for t in study.trials:
        if t.state not in (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED):
            continue
        if "same_as" in t.user_attrs:  # a variant proposed again: listed once, as first played
            continue
        rows.append(
            {
                "trial": t.number,
                "state": t.state.name.lower(),
                "options": t.user_attrs.get("options", {}),
                "values": t.user_attrs.get("estimates", {}),
                "feasible": all(c <= 0 for c in t.user_attrs.get("constraints", [])),
                # a combination the game refused has no command (its options are the search's names)
                "command": ""
                if "refused" in t.user_attrs
                else sim_command(config, t.user_attrs.get("options", {})),
                **({"refused": t.user_attrs["refused"]} if "refused" in t.user_attrs else {}),
            }
        )
    return rows


def recommended_findings(outcome: dict[str, Any], out: Path) -> list[dict[str, Any]]:
    """The findings (`arena.findings`) of the recommended trial, read back from its games; [] if none.
    They carry no measured cost: a tune plays no experiments (its report gives their commands)."""
    from bodoge.arena.findings import for_summary
    from bodoge.arena.runner import load_records
    from bodoge.arena.summary import summarize, to_json

    best = outcome.get("recommended")
    if not best:
        return []
    config = outcome["config"]
    records = load_records(out / "trials" / f"{best['trial']:04d}" / "games.jsonl")
    if not records:
        return []
    sim = SimConfig(
        game=config["game"],
        players=config["players"],
        agents=list(config["agents"]),
        games=config["games"],
        seed=config["seed"],
        variants=[best["options"]],
    )
    summary = summarize(records, sim)
    found: list[dict[str, Any]] = to_json(for_summary(summary, sim))
    return found


def result(study: Any, config: TuneConfig) -> dict[str, Any]:
    """tune.json: the settings, every trial, the Pareto set of the feasible ones, the recommendation."""
    goals = [parse_goal(g) for g in config.goals]
    directions = [g.direction for g in goals]
    rows = trial_rows(study, config)
    done = [r for r in rows if r["state"] == "complete"]
    points = [(r["trial"], [r["values"][g.name]["mean"] for g in goals]) for r in done if r["feasible"]]
    front = pareto(points, directions)
    recommended = None
    if points:
        best, reason = recommend([p for p in points if p[0] in front], [v for _t, v in points], directions)
        row = next(r for r in rows if r["trial"] == best)
        recommended = {"trial": best, "reason": reason, "options": row["options"], "command": row["command"]}
    return {
        "format": "bodoge-tune/1",
        "config": config.to_json(),
        "goals": [{"name": g.name, "direction": g.direction, "definition": g.definition} for g in goals],
        "trials": rows,
        "pareto": front,
        "recommended": recommended,
    }
