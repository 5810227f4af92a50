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

The result is judged as a designer would read it: goals and options that did not vary are warned
about (`judge_warnings`), Pareto members whose intervals overlap the recommended trial's on every goal
are named (`indistinguishable`), ties and the use of the game's parts stand beside the goals
(`beside`), and `recheck` plays the recommendation again with free agents at every player count.
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


# -- beside the goals: ties and how the game's parts are used ---------------------------------------------

#: The prefix, among a trial's values, of the numbers shown beside the goals (see `measure_trial`).
BESIDE = "beside "
#: Beside the goals, at most: the game's own numbers (its `metrics` part, e.g. Hangover's hung_over)
#: and kinds of decision (the share of their first option, e.g. Hangover's flip at flip/stop).
BESIDE_NUMBERS = 3
BESIDE_CHOICES = 2

#: Short English words for the numbers shown beside the goals (others by their name; the Japanese
#: name and meaning of every number are the report's, `report_texts.METRICS_JA`).
WORDS_EN: dict[str, str] = {
    "tie": "ties",
    "no_winner": "no winner",
    "hung_over": "hung over",
    "non_drinkers": "non-drinkers",
}

#: The meanings of the 0-or-1 numbers as shares of games (`arena.metrics.definitions` words one game's).
SHARE_OF_GAMES: dict[str, dict[str, str]] = {
    "tie": {
        "en": "the share of games won by several players together (a shared win)",
        "ja": "勝者が複数になった（勝ちを分け合った）ゲームの割合",
    },
    "no_winner": {
        "en": "the share of games that ended with no winner",
        "ja": "勝者がいないまま終わったゲームの割合",
    },
}

CHOICE = "choice "


def _own_numbers(game: str) -> list[str]:
    """The numbers the game's `metrics` part adds to every game's (in the order it defines them)."""
    try:
        part = game_class(game).part("metrics")
    except BadOption:
        return []
    return list(getattr(part, "DEFINITIONS", {})) if part is not None else []


def beside(game: str, summary: dict[str, Any]) -> dict[str, Estimate]:
    """The numbers a trial shows beside its goals: the share of tied games (`tie`), the game's own
    numbers (at most BESIDE_NUMBERS) and, for its kinds of decision (at most BESIDE_CHOICES, by name),
    how often the first option was chosen (`choice flip/stop: flip`): how the game's parts are used."""
    metrics = summary.get("metrics", {})
    out: dict[str, Estimate] = {}
    if "tie" in metrics:
        out["tie"] = metrics["tie"]
    for name in [n for n in _own_numbers(game) if n in metrics][:BESIDE_NUMBERS]:
        out[name] = metrics[name]
    kinds = summary.get("choices", {})
    for kind in sorted(kinds)[:BESIDE_CHOICES]:
        option = kind.split("/")[0]
        if option in kinds[kind].get("options", {}):
            out[f"{CHOICE}{kind}: {option}"] = kinds[kind]["options"][option]["share"]
    return out


def describe(game: str, name: str) -> dict[str, Any]:
    """A number shown beside the goals, in words: {name, words: {en, ja}, definition: {en, ja}, share}."""
    from bodoge.arena.metrics import definitions
    from bodoge.arena.report_texts import METRICS_JA

    if name.startswith(CHOICE):
        kind, _, option = name[len(CHOICE) :].partition(": ")
        return {
            "name": name,
            "words": {"en": f"{option} (at {kind})", "ja": f"{kind} で {option}"},
            "definition": {
                "en": f"the share of {kind} decisions at which the player chose {option}",
                "ja": f"{kind} の判断で {option} を選んだ割合",
            },
            "share": True,
        }
    en = definitions(game).get(name, name)
    ja_words, ja = METRICS_JA.get(name, (name, en))
    if name in SHARE_OF_GAMES:
        en, ja = SHARE_OF_GAMES[name]["en"], SHARE_OF_GAMES[name]["ja"]
    return {
        "name": name,
        "words": {"en": WORDS_EN.get(name, name.replace("_", " ")), "ja": ja_words},
        "definition": {"en": en, "ja": ja},
        "share": en.startswith(("the share", "1 if")),
    }


# -- judging the trials: goals that did not vary, trials that cannot be told apart -----------------------


def flat_options(options: dict[str, Any]) -> dict[str, Any]:
    """Options with map entries spread out (`drunk_limit.4`), as the space names them."""
    flat: dict[str, Any] = {}
    for k, v in options.items():
        if isinstance(v, dict):
            for key, value in v.items():
                flat[f"{k}.{key}"] = value
        else:
            flat[k] = v
    return flat


def _same(values: list[float]) -> bool:
    return all(math.isclose(v, values[0], rel_tol=1e-9, abs_tol=1e-12) for v in values)


def judge_warnings(config: TuneConfig, done: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What a reader must know before reading the trials (with at least two finished): a goal with the
    same value in every finished trial (`goal_constant`: it tells no variant from another, so the
    Pareto set and the recommendation rest on the other goals), and an option of the space with one
    value in every finished trial (`option_constant`: nothing here says what it does)."""
    if len(done) < 2:
        return []
    goals = [parse_goal(g) for g in config.goals]
    out: list[dict[str, Any]] = []
    for goal in goals:
        means = [t["values"].get(goal.name, {}).get("mean") for t in done]
        if any(m is None for m in means) or not _same([float(m) for m in means]):
            continue
        others = [g.name for g in goals if g.name != goal.name]
        value = float(means[0])
        if len(set(config.agents)) < 2 and goal.name.partition("=")[0] == "skill":
            why_en = (
                "skill compares the first agent with the others, and every seat holds the same agent, so "
                "it is the fair share's 0 in every game"
            )
            why_ja = "skill は最初のボットとほかのボットを比べますが、全員が同じボットなので、どのゲームでも 0 です"
        else:
            why_en = "the options of the space do not move it, with these agents"
            why_ja = "このボットたちでは、探した範囲のオプションがこの値を動かしません"
        rest_en = (
            f"the Pareto set and the recommendation rest on the other goals ({', '.join(others)})"
            if others
            else "nothing here ranks the variants: the recommendation is arbitrary"
        )
        rest_ja = (
            f"パレート集合とおすすめはほかの目標（{', '.join(others)}）だけで決まっています"
            if others
            else "どの案がよいかをここでは決められず、おすすめは任意の1つにすぎません"
        )
        out.append(
            {
                "kind": "goal_constant",
                "goal": goal.name,
                "text": {
                    "en": f"The goal {goal.name} is {value:.3f} in every one of the {len(done)} finished "
                    f"trials: it does not tell these variants apart ({why_en}), so {rest_en}. Its plots "
                    "are left out.",
                    "ja": f"目標 {goal.name} は、終わった {len(done)} 件の試行すべてで {value:.3f} でした。"
                    f"この目標では案の違いが分かりません（{why_ja}）。そのため{rest_ja}。この目標の"
                    "グラフは載せていません。",
                },
            }
        )
    for entry in config.space:
        name = entry.partition("=")[0].strip()
        seen = [flat_options(t["options"]).get(name) for t in done]
        if any(v is None for v in seen) or len({json.dumps(v) for v in seen}) != 1:
            continue
        shown = json.dumps(seen[0])
        out.append(
            {
                "kind": "option_constant",
                "option": name,
                "text": {
                    "en": f"The option {name} was {shown} in every one of the {len(done)} finished trials: "
                    "the search never varied it, so nothing here says what it does (more trials would).",
                    "ja": f"オプション {name} は、終わった {len(done)} 件の試行すべてで {shown} でした。"
                    "一度も変えていないので、この値が何をもたらすかはここからは分かりません"
                    "（試行を増やせば分かります）。",
                },
            }
        )
    return out


def _apart(a: dict[str, Any] | None, b: dict[str, Any] | None) -> bool:
    """Whether two goal values' 95% intervals do not overlap (an unknown interval tells nothing apart)."""
    if not a or not b or None in (a.get("low"), a.get("high"), b.get("low"), b.get("high")):
        return False
    return bool(a["high"] < b["low"] or b["high"] < a["low"])


def told_apart(a: dict[str, Any], b: dict[str, Any], goals: list[str]) -> list[str]:
    """The goals on which two trials' values (`values` of their rows) are told apart: their 95%
    intervals do not overlap."""
    return [g for g in goals if _apart(a.get(g), b.get(g))]


def indistinguishable(rows: list[dict[str, Any]], best: int, front: list[int], goals: list[str]) -> list[int]:
    """The Pareto members (but the recommended `best`) that these games cannot tell apart from it:
    their 95% intervals overlap the recommended trial's on every goal. The rule the report states for
    any two trials; it is the cautious one (intervals that overlap a little may still differ under a
    paired test on the same deals, which would need every game of both trials)."""
    by_trial = {r["trial"]: r for r in rows}
    chosen = by_trial[best]["values"]
    return [t for t in front if t != best and not told_apart(by_trial[t]["values"], chosen, goals)]


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
    # The numbers shown beside the goals travel with them (the study keeps every value as the trial's
    # `estimates`); `trial_rows` sets them apart again.
    for name, est in beside(config.game, summary).items():
        values[BESIDE + name] = est
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


def objective(
    study: Any,
    config: TuneConfig,
    dims: list[Dimension],
    out: Path,
    jobs: int = 1,
    backend: str = "pool",
    address: str | None = None,
) -> Callable[[Any], list[float]]:
    """Optuna's objective for a tune: suggest a trial's options, play them (`measure_trial`, in
    `out/trials/NNNN/`) and keep every number the report needs in the trial's user attributes: a
    combination the game refuses is pruned with its reason, a variant proposed again takes the numbers
    of its first play (the same deals give the same games)."""
    import optuna

    goals = [parse_goal(g) for g in config.goals]
    constraints = [parse_constraint(c) for c in config.require]

    def play(trial: Any) -> list[float]:
        params = suggest(trial, dims)
        try:
            options = options_for(config.game, config.players, dims, params)
        except BadOption as exc:  # each end of each range is accepted, not every combination of them
            trial.set_user_attr("options", params)
            trial.set_user_attr("refused", str(exc))
            constrain(trial, constraints, [1.0] * len(constraints))
            raise optuna.TrialPruned() from None
        trial.set_user_attr("options", options)
        played = played_before(study, options)
        if played is not None:
            trial.set_user_attr("same_as", played.number)
            trial.set_user_attr("estimates", played.user_attrs["estimates"])
            constrain(trial, constraints, played.user_attrs["constraints"])
            return list(played.values)
        values, _summary = measure_trial(
            config, options, out / "trials" / f"{trial.number:04d}", jobs, backend, address
        )
        if values is None:
            constrain(trial, constraints, [1.0] * len(constraints))
            raise optuna.TrialPruned()
        trial.set_user_attr("estimates", {name: est.to_json() for name, est in values.items()})
        constrain(trial, constraints, [c.violation(values[f"require {c.text}"].mean) for c in constraints])
        return [values[g.name].mean for g in goals]

    return play


def trial_rows(study: Any, config: TuneConfig) -> list[dict[str, Any]]:
    """Every finished or pruned trial as JSON: its options, goal values and intervals, constraints."""
    import optuna

    rows = []
    for t in study.trials:
        if t.state not in (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED):
            continue
        if "same_as" in t.user_attrs:  # a variant proposed again: listed once, as first played
            continue
        estimates = t.user_attrs.get("estimates", {})
        rows.append(
            {
                "trial": t.number,
                "state": t.state.name.lower(),
                "options": t.user_attrs.get("options", {}),
                "values": {k: v for k, v in estimates.items() if not k.startswith(BESIDE)},
                # ties and how the game's parts were used, beside the goals (`beside`)
                "metrics": {k[len(BESIDE) :]: v for k, v in estimates.items() if k.startswith(BESIDE)},
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
    alike: list[int] = []
    if points:
        best, reason = recommend([p for p in points if p[0] in front], [v for _t, v in points], directions)
        row = next(r for r in rows if r["trial"] == best)
        recommended = {"trial": best, "reason": reason, "options": row["options"], "command": row["command"]}
        alike = indistinguishable(rows, best, front, [g.name for g in goals])
    shown = list(dict.fromkeys(name for r in rows for name in r["metrics"]))
    return {
        "format": "bodoge-tune/1",
        "config": config.to_json(),
        "goals": [{"name": g.name, "direction": g.direction, "definition": g.definition} for g in goals],
        # what to know before reading the trials (`judge_warnings`)
        "warnings": judge_warnings(config, done),
        # the numbers beside the goals in every trial's `metrics`, in words (`describe`)
        "metrics": [describe(config.game, name) for name in shown],
        "trials": rows,
        "pareto": front,
        "recommended": recommended,
        # the Pareto members whose 95% intervals overlap the recommended trial's on every goal
        "indistinguishable_from_recommended": alike,
    }


# -- the recommendation again, with agents that choose freely, at every player count ---------------------
