"""Findings: what a run's numbers mean for the game's design, in a sentence each (issue #35).

A report shows fifteen numbers; a designer wants the two that matter. `detect(variant, context)`
reads one variant's summary (`summary.summarize_variant`) and returns the findings it supports, most
important first, each

    {kind, importance, text: {en, ja}, evidence: {name: number or {mean, low, high, n}}, experiment}

where `experiment` is a `bodoge` command that tests it. A finding is reported only when its evidence
is clear: the 95% interval of the number it rests on lies wholly past its threshold, on the far side
from the harmless value. Every kind, its threshold and why, is in docs/findings.md; the thresholds
are the constants below.

`measure_costs` plays a `dominant_choice` finding's experiment (a counterfactual agent that avoids
the dominant option, `bodoge.agents.counterfactual`) and adds what that costs in win share, paired
on the same deals and seats.
"""

from __future__ import annotations

import functools
import json
import math
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bodoge.arena import balance
from bodoge.arena.stats import DIFFERENCE, Estimate, paired_difference_ci

Record = dict[str, Any]
Finding = dict[str, Any]

# -- thresholds (docs/findings.md says why each) ---------------------------------------------------------

#: dominant_choice: the option's share at its kind of decision lies above this (arena.choices.DOMINANT).
DOMINANT = 0.9
#: degenerate_end: the share of games that end by an exceptional path lies above this ("most games").
DEGENERATE = 0.5
#: dead_decisions: the share of decisions that are forced or settled lies above this.
DEAD = 0.5
#: runaway_leader: the final leaders are settled before this share of the game's actions …
DECIDED_BY = 0.5
#: … and the leaders change fewer times than this in a game.
FEW_LEAD_CHANGES = 1.5
#: no_winner: the share of games without a winner lies above this.
NO_WINNER = 0.05
#: ties: the share of games whose win is shared lies above this.
TIES = 0.15
#: no_skill: the strongest kind of agent's win share lies less than this above the fair share.
SKILL_EDGE = 0.05
#: Findings of a run at most (the most important first).
MOST = 8


@dataclass
class Context:
    """What the experiments' commands need: the run's game, players, agents, games, seed, options."""

    game: str
    players: int
    agents: list[str]
    games: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    out: str = "results"

    @functools.cached_property
    def made(self) -> Any:
        """The game of these settings, made once (its parts say what findings about it rest on)."""
        from bodoge.arena.runner import make_game

        return make_game(self.game, self.players, self.options)

    @classmethod
    def of(cls, config: Any, variant: int = 0) -> Context:
        """From a SimConfig (or anything with its names: a summary's own settings fill the gaps)."""
        return cls(
            config.game,
            config.players,
            list(config.agents),
            getattr(config, "games", 1000),
            getattr(config, "seed", 1),
            dict(config.variants[variant]),
        )

    def sim(self, agents: list[str], games: int | None = None) -> str:
        """The `bodoge sim` command of these settings with other agents (the last fills the seats)."""
        specs = list(agents)
        while len(specs) > 1 and specs[-1] == specs[-2]:
            specs.pop()
        sets = "".join(f" --set {shlex.quote(f'{k}={_json(v)}')}" for k, v in self.options.items())
        return (
            f"bodoge sim {self.game} --players {self.players} --agents {shlex.quote(','.join(specs))} "
            f"--games {games or self.games} --seed {self.seed}{sets}"
        )

    def tune(self, space: list[str], goal: str, agents: list[str] | None = None) -> str:
        """A `bodoge tune` command that searches `space` toward `goal`."""
        specs = list(agents or self.agents)
        while len(specs) > 1 and specs[-1] == specs[-2]:
            specs.pop()
        spaces = "".join(f" --space {shlex.quote(s)}" for s in space)
        return (
            f"bodoge tune {self.game} --players {self.players}{spaces} --goal {shlex.quote(goal)} "
            f"--agents {shlex.quote(','.join(specs))} --trials 24 --games {max(self.games, 200)} "
            f"--seed {self.seed} --out {self.out}/tune-{self.game}"
        )


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def with_param(spec: str, key: str, value: str) -> str:
    """An agent spec with one more parameter, or that parameter's value replaced:
    'heuristic' -> 'heuristic:avoid=declare', 'heuristic:avoid=declare' -> 'heuristic:avoid=pass'."""
    name, colon, rest = spec.partition(":")
    parts = [p for p in rest.split(",") if p.strip()] if colon else []
    kept = [p for p in parts if p.partition("=")[0].strip() not in (key, "at")]
    return f"{name}:{','.join([*kept, f'{key}={value}'])}"


def tune_space(game: str, players: int, options: dict[str, Any]) -> list[str]:
    """A first `--space` for a game: its first three integer options, up to two either side of their
    value (each end a value the game accepts with the other options as they are), and its first
    boolean option. A start for the designer, who knows better. A combination the game refuses is a
    pruned trial of the tune, not an error."""
    from bodoge.arena.runner import make_game
    from bodoge.errors import BadOption

    made = make_game(game, players, options)

    def accepted(name: str, value: int) -> bool:  # with the other options as they are
        try:
            make_game(game, players, {**options, name: value})
        except BadOption:
            return False
        return True

    space: list[str] = []
    booleans: list[str] = []
    for spec in type(made).option_specs:
        value = made.options.get(spec.name)
        if isinstance(value, bool):
            booleans.append(f"{spec.name}=true,false")
        elif isinstance(value, int) and spec.lo is not None and spec.hi is not None and len(space) < 3:
            low, high = max(spec.lo, value - 2), min(spec.hi, value + 2)
            while low < value and not accepted(spec.name, low):
                low += 1
            while high > value and not accepted(spec.name, high):
                high -= 1
            if low < high:
                space.append(f"{spec.name}={low}..{high}")
    return space + booleans[:1]


# -- the kinds ----------------------------------------------------------------------------------------


def _est(value: Any) -> Estimate | None:
    return value if isinstance(value, Estimate) and not math.isnan(value.mean) else None


def _pct(x: float) -> str:
    return f"{x:.0%}" if abs(x) >= 0.01 or x == 0 else f"{x:.1%}"


def _interval(est: Estimate) -> str:
    """A share and its interval in percent (a t interval can pass 0 or 1; a share cannot)."""
    if math.isnan(est.low):
        return _pct(est.mean)
    return f"{_pct(est.mean)} [{_pct(max(0.0, est.low))}, {_pct(min(1.0, est.high))}]"


def end_words(game: str, reason: str, lang: str) -> str:
    """An end reason in the game's own words (its texts' `end_reason.<reason>`, as every game's log
    words its game_end), else as it is."""
    from bodoge.core.registry import game_class
    from bodoge.errors import BadOption

    try:
        module = game_class(game).part("text")
    except BadOption:
        return reason
    texts = getattr(module, "TEXTS", None) if module is not None else None
    if texts is None:
        return reason
    words = str(texts.tables[lang].get(f"end_reason.{reason}", reason))
    return reason if "{" in words else words  # words that need the game's numbers: the key says it


def rests_on(ctx: Context, subjects: list[str]) -> dict[str, Any]:
    """What a finding about `subjects` rests on (issue #54): the agents that played and what each
    assumes of the others (`bodoge.agents.assumptions`), and the spec decisions behind the subjects
    (the game's `assumptions` module: `choice:<option>`, `end:<reason>`, `seats`, `ties`, `winner`),
    each with its words. A result of these bots is a result about the game only as far as both hold."""
    from bodoge.agents.assumptions import assumes

    game = ctx.made
    agents = [{"agent": spec, "assumes": assumes(spec, game)} for spec in dict.fromkeys(ctx.agents)]
    module = game.part("assumptions")
    table: dict[str, tuple[str, ...]] = getattr(module, "SUBJECTS", {}) if module is not None else {}
    words: dict[str, str] = getattr(module, "RULINGS", {}) if module is not None else {}
    ids = dict.fromkeys(i for subject in subjects for i in table.get(subject, ()))
    return {"agents": agents, "rulings": [{"id": i, "text": words[i]} for i in ids if i in words]}


def said_rests_on(finding: Finding, rests: dict[str, Any], game: str) -> None:
    """Adds `rests_on` to a finding and says it at the end of its text (in place; `add_cost` keeps
    it last)."""
    finding["rests_on"] = rests
    who_en = "; ".join(f"`{a['agent']}` {a['assumes']['en']}" for a in rests["agents"])
    who_ja = "。".join(f"`{a['agent']}`：{a['assumes']['ja']}" for a in rests["agents"])
    text_en = f" It rests on these agents: {who_en}."
    text_ja = f"この結果はこのボットたちに基づきます：{who_ja}。"
    if rests["rulings"]:
        rules = "; ".join(f"{r['id']} \u201c{r['text'].rstrip('.')}\u201d" for r in rests["rulings"])
        text_en += f" And on the spec's decisions (docs/rules/{game}.md): {rules}."
        text_ja += f"また仕様の裁定（docs/rules/{game}.md）に基づきます：{rules}。"
    finding["rests_text"] = {"en": text_en, "ja": text_ja}
    finding["text"]["en"] += text_en
    finding["text"]["ja"] += text_ja


def free_agent(spec: str) -> str:
    """The agent of `spec` choosing freely: without the counterfactual `prefer=`/`avoid=`/`at=`."""
    from bodoge.agents.counterfactual import PARAMETERS

    name, _colon, rest = spec.partition(":")
    kept = [p for p in rest.split(",") if p.strip() and p.partition("=")[0].strip() not in PARAMETERS]
    return f"{name}:{','.join(kept)}" if kept else name


def profiles_command(ctx: Context, option: str) -> str:
    """The `bodoge profiles` command that plays every profile of always/never `option` (seats fixed):
    whether players who choose freely would settle where these bots do."""
    agent = free_agent(ctx.agents[0])
    sets = "".join(f" --set {shlex.quote(f'{k}={_json(v)}')}" for k, v in ctx.options.items())
    return (
        f"bodoge profiles {ctx.game} --players {ctx.players} --choice {shlex.quote(option)} "
        f"--agent {shlex.quote(agent)} --games {min(max(ctx.games // 2, 100), 400)} --seed {ctx.seed}"
        f"{sets} --out {ctx.out}/profiles-{ctx.game}"
    )


def dominant_choice(variant: dict[str, Any], ctx: Context) -> list[Finding]:
    """At one kind of decision the agents almost always choose one option."""
    found = []
    games = max(1, variant.get("games", 1))
    for kind, k in variant.get("choices", {}).items():
        for option, o in k["options"].items():
            share = _est(o["share"])
            if share is None or not share.low > DOMINANT:
                continue
            others = [x for x in kind.split("/") if x != option]
            coverage = min(1.0, k["games"] / games)
            avoid = with_param(ctx.agents[0], "avoid", option)
            elsewhere = any(
                option in other.split("/") for other in variant.get("choices", {}) if other != kind
            )
            if elsewhere:  # only there: the option is also offered at other kinds of decision
                avoid = f"{avoid},at={kind}"
            agents = [avoid, *ctx.agents[1:]]
            profiles = profiles_command(ctx, option)
            where_en = (
                f"avoids {option} at these decisions only (it still chooses {option} where other decisions "
                "offer it)"
                if elsewhere
                else f"never chooses {option} where another move is legal"
            )
            where_ja = (
                f"この種類の判断でだけ {option} を避ける（ほかの判断では {option} を選ぶ）"
                if elsewhere
                else f"ほかに合法手があるときは {option} を選ばない"
            )
            finding = {
                "kind": "dominant_choice",
                "importance": 0.4 + 0.4 * coverage,
                "text": {
                    "en": f"At {kind} decisions these bots chose {option} {_interval(share)} of the time "
                    f"({k['decisions']} decisions in {_pct(coverage)} of the games): they hardly ever "
                    f"choose {' or '.join(others)}. That is what these bots do, not yet what the game asks "
                    f"of players: the profile analysis (`{profiles}`) plays every "
                    f"assignment of always/never {option} to the seats to see which are stable. The "
                    f"experiment seats an agent that {where_en} and measures what that costs in win share.",
                    "ja": f"{kind} の判断で、このボットたちは {_interval(share)} の割合で {option} を選びました"
                    f"（{_pct(coverage)} のゲームで計 {k['decisions']} 回）。{'・'.join(others)} はほとんど"
                    f"選びません。これはこのボットたちの打ち方で、ゲームがプレイヤーに求めることとはまだ"
                    f"言えません。プロファイル分析（`{profiles}`）は、各席に「必ず "
                    f"{option}」「決して {option} しない」を割り当てた全ての組み合わせを対戦させ、どれが"
                    f"安定かを調べます。実験では、{where_ja}エージェントを1席に置き、勝率がどれだけ変わるか"
                    "を測ります。",
                },
                "evidence": {"share": share, "decisions": k["decisions"], "games_with_it": k["games"]},
                "experiment": ctx.sim(agents),
                "profiles": profiles,
                "option": option,
                "decision": kind,
                "agent": avoid,
            }
            finding["subjects"] = [f"choice:{o}" for o in kind.split("/")]
            found.append(finding)
    return found


def degenerate_end(variant: dict[str, Any], ctx: Context) -> list[Finding]:
    """Most games end by an exceptional path instead of the rules' normal end."""
    normal = _est(variant.get("metrics", {}).get("normal_end"))
    if normal is None:
        return []
    exceptional = Estimate(1 - normal.mean, 1 - normal.high, 1 - normal.low, normal.n)
    if not exceptional.low > DEGENERATE:
        return []
    ends = {r: e for r, e in variant.get("ends", {}).items() if _est(e) is not None}
    common = max(ends, key=lambda r: ends[r].mean) if ends else ""
    said = {lang: end_words(ctx.game, common, lang) if common else "?" for lang in ("en", "ja")}
    dominant = [f for f in dominant_choice(variant, ctx)]
    if dominant:
        top = max(dominant, key=lambda f: f["importance"])
        top_subjects = top["subjects"]
        experiment = ctx.sim([with_param(a, "avoid", top["option"]) for a in ctx.agents])
        how = (
            f"The experiment has every seat avoid {top['option']} (the dominant choice): do games then "
            "end normally?",
            f"実験では全員が {top['option']}（支配的な選択）を避けます。それで通常の終わり方になるかを見ます。",
        )
    else:
        experiment = ctx.sim(["random"])
        how = (
            "The experiment plays random agents: if they end normally, the agents' play, not the rules "
            "alone, leads to this end.",
            "実験ではランダムなエージェントで遊びます。通常どおり終わるなら、ルールだけでなくボットの"
            "打ち方がこの終わり方を招いています。",
        )
    return [
        {
            "kind": "degenerate_end",
            "importance": 0.5 + 0.5 * exceptional.mean,
            "text": {
                "en": f"{_interval(exceptional)} of the games end by an exceptional path instead of the "
                f"rules' normal end, mostly `{common}`: {said['en']}. {how[0]}",
                "ja": f"{_interval(exceptional)} のゲームが、ルールの通常の終わり方ではなく例外的な経路で"
                f"終わります。主に `{common}`：{said['ja']}。{how[1]}",
            },
            "evidence": {"exceptional_end": exceptional, **{f"end {r}": e for r, e in ends.items()}},
            "experiment": experiment,
            "subjects": [f"end:{common}", *(top_subjects if dominant else [])],
        }
    ]


def dead_decisions(variant: dict[str, Any], ctx: Context) -> list[Finding]:
    """A large share of decisions are forced or have one sensible option."""
    dead = _est(variant.get("dead_decisions"))
    if dead is None or not dead.low > DEAD:
        return []
    forced = _est(variant.get("metrics", {}).get("forced"))
    evidence: dict[str, Any] = {"dead_decisions": dead}
    if forced is not None:
        evidence["forced"] = forced
    space = tune_space(ctx.game, ctx.players, ctx.options)
    return [
        {
            "kind": "dead_decisions",
            "importance": 0.2 + 0.5 * dead.mean,
            "text": {
                "en": f"{_interval(dead)} of the decisions are dead: forced (one legal action"
                + (f", {_pct(forced.mean)}" if forced else "")
                + ") or settled (the single action of an option the agents almost always choose). "
                "The experiment searches option values that leave more real choices.",
                "ja": f"判断の {_interval(dead)} が実質的に死んでいます：強制（合法手が1つ"
                + (f"、{_pct(forced.mean)}" if forced else "")
                + "）か、ボットがほぼ必ず選ぶ選択肢の唯一の手です。実験では、本当の選択が増える"
                "オプションの値を探します。",
            },
            "evidence": evidence,
            "experiment": ctx.tune(space, f"forced=0..{DEAD / 2:g}") if space else ctx.sim(["random"]),
        }
    ]


def seat_imbalance(variant: dict[str, Any], ctx: Context) -> list[Finding]:
    """The seat-balance test finds the seats unequal, and a seat's share lies off the fair share."""
    sb = variant.get("seat_balance")
    if not sb or not sb["p"] < balance.ALPHA:
        return []
    fair = 1.0 / ctx.players
    off = [s for s in sb["seats"] if s["verdict"] != "within"]
    if not off:
        return []
    worst = max(off, key=lambda s: abs(s["share"].mean - fair))
    share: Estimate = worst["share"]
    word = ("wins more", "多く勝ちます") if share.mean > fair else ("wins less", "あまり勝ちません")
    space = tune_space(ctx.game, ctx.players, ctx.options)
    return [
        {
            "kind": "seat_imbalance",
            "importance": 0.3 + 0.7 * min(1.0, abs(share.mean - fair) * ctx.players),
            "text": {
                "en": f"Seat P{worst['seat']} {word[0]} than its fair share: {_interval(share)} of the "
                f"wins against {_pct(fair)} (seat-balance test p = {sb['p']:.3g}). The experiment "
                "searches option values that balance the seats.",
                "ja": f"席 P{worst['seat']} は公平な割合 {_pct(fair)} より{word[1]}：勝利の "
                f"{_interval(share)}（席バランス検定 p = {sb['p']:.3g}）。実験では席の有利不利をなくす"
                "オプションの値を探します。",
            },
            "evidence": {f"share of wins of P{worst['seat']}": share, "fair": fair, "p": sb["p"]},
            "subjects": ["seats"],
            "experiment": ctx.tune(space, "balance") if space else ctx.sim(ctx.agents, ctx.games * 4),
        }
    ]


def runaway_leader(variant: dict[str, Any], ctx: Context) -> list[Finding]:
    """The final leaders are settled early and the lead rarely changes."""
    metrics = variant.get("metrics", {})
    decided, changes = _est(metrics.get("decided_at")), _est(metrics.get("lead_changes"))
    if decided is None or changes is None or math.isnan(decided.high) or math.isnan(changes.high):
        return []
    if not (decided.high < DECIDED_BY and changes.high < FEW_LEAD_CHANGES):
        return []
    space = tune_space(ctx.game, ctx.players, ctx.options)
    return [
        {
            "kind": "runaway_leader",
            "importance": 0.3 + 0.4 * (1 - decided.mean),
            "text": {
                "en": f"Games are decided early: the final score leaders are in front after "
                f"{_interval(decided)} of the actions, with {changes.mean:.1f} lead changes a game "
                f"[{changes.low:.1f}, {changes.high:.1f}]. The experiment searches option values with "
                "more lead changes (drama).",
                "ja": f"ゲームが早く決まります：最終的な首位は手数の {_interval(decided)} の時点で"
                f"すでに首位で、首位の入れ替わりは1ゲームあたり {changes.mean:.1f} 回 "
                f"[{changes.low:.1f}, {changes.high:.1f}]。実験では首位がもっと入れ替わる"
                "オプションの値を探します。",
            },
            "evidence": {"decided_at": decided, "lead_changes": changes},
            "experiment": ctx.tune(space, "drama") if space else ctx.sim(ctx.agents),
        }
    ]


def no_winner(variant: dict[str, Any], ctx: Context) -> list[Finding]:
    """Many games end with nobody winning."""
    share = _est(variant.get("metrics", {}).get("no_winner"))
    if share is None or math.isnan(share.low) or not share.low > NO_WINNER:
        return []
    space = tune_space(ctx.game, ctx.players, ctx.options)
    return [
        {
            "kind": "no_winner",
            "importance": 0.4 + 0.6 * min(1.0, 2 * share.mean),
            "text": {
                "en": f"{_interval(share)} of the games end with no winner. The experiment searches "
                "option values where nearly every game has one.",
                "ja": f"ゲームの {_interval(share)} が勝者なしで終わります。実験ではほぼ毎回勝者が"
                "出るオプションの値を探します。",
            },
            "evidence": {"no_winner": share},
            "subjects": ["winner"],
            "experiment": ctx.tune(space, "no_winner=0..0.02") if space else ctx.sim(["random"]),
        }
    ]


def ties(variant: dict[str, Any], ctx: Context) -> list[Finding]:
    """Many games end in a shared win."""
    share = _est(variant.get("metrics", {}).get("tie"))
    if share is None or math.isnan(share.low) or not share.low > TIES:
        return []
    space = tune_space(ctx.game, ctx.players, ctx.options)
    return [
        {
            "kind": "ties",
            "importance": 0.2 + 0.4 * share.mean,
            "text": {
                "en": f"{_interval(share)} of the games end in a shared win. The experiment searches "
                "option values with fewer ties.",
                "ja": f"ゲームの {_interval(share)} が同点の勝利（勝ちの分け合い）で終わります。実験では"
                "同点の少ないオプションの値を探します。",
            },
            "evidence": {"tie": share},
            "subjects": ["ties"],
            "experiment": ctx.tune(space, "tie=0..0.05") if space else ctx.sim(ctx.agents),
        }
    ]


def no_skill(variant: dict[str, Any], ctx: Context) -> list[Finding]:
    """Better play barely pays: the strongest kind of built-in agent wins hardly more than its share."""
    ladder = variant.get("skill")
    if not ladder:
        return []
    kinds = {balance.kind(r["agent"]) for r in ladder["rungs"]} & set(balance.EXPECTED_ORDER)
    if len(kinds) < 2:
        return []
    strongest = max(kinds, key=balance.EXPECTED_ORDER.index)
    rungs = [r for r in ladder["rungs"] if balance.kind(r["agent"]) == strongest]
    best = rungs[0]
    fair = 1.0 / ctx.players
    share: Estimate = best["share"]
    if math.isnan(share.high) or not share.high < fair + SKILL_EDGE:
        return []
    edge = Estimate(share.mean - fair, share.low - fair, share.high - fair, share.n)
    space = tune_space(ctx.game, ctx.players, ctx.options)
    return [
        {
            "kind": "no_skill",
            "importance": 0.5,
            "text": {
                "en": f"Better play barely pays: {best['agent']} wins {_interval(share)} of the time "
                f"against the fair {_pct(fair)} (an edge of {edge.mean:+.3f} [{edge.low:+.3f}, "
                f"{edge.high:+.3f}]). The experiment searches option values where skill pays more.",
                "ja": f"上手く打っても報われにくいです：{best['agent']} の勝率は {_interval(share)} で、"
                f"公平な {_pct(fair)} とほとんど変わりません（差 {edge.mean:+.3f} [{edge.low:+.3f}, "
                f"{edge.high:+.3f}]）。実験では腕前がもっと効くオプションの値を探します。",
            },
            "evidence": {f"win share of {best['agent']}": share, "fair": fair, "edge": edge},
            "experiment": ctx.tune(space, "skill", [best["agent"], "random"])
            if space
            else ctx.sim(ctx.agents),
        }
    ]


#: Every kind, in the order docs/findings.md describes them.
KINDS: dict[str, Callable[[dict[str, Any], Context], list[Finding]]] = {
    "degenerate_end": degenerate_end,
    "dominant_choice": dominant_choice,
    "dead_decisions": dead_decisions,
    "seat_imbalance": seat_imbalance,
    "runaway_leader": runaway_leader,
    "no_winner": no_winner,
    "ties": ties,
    "no_skill": no_skill,
}


def detect(variant: dict[str, Any], ctx: Context) -> list[Finding]:
    """Every finding the variant's summary supports, most important first (at most MOST)."""
    found = [f for check in KINDS.values() for f in check(variant, ctx)]
    for f in found:
        said_rests_on(f, rests_on(ctx, f.pop("subjects", [])), ctx.game)
    found.sort(key=lambda f: -f["importance"])
    for f in found:
        f["importance"] = round(f["importance"], 3)
    return found[:MOST]


def for_summary(summary: dict[str, Any], config: Any) -> list[Finding]:
    """The findings of every variant of a run's summary, each with its variant's number and label."""
    out = []
    for v in summary["variants"]:
        ctx = Context.of(config, v["variant"])
        for f in detect(v, ctx):
            out.append({"variant": v["variant"], "label": v["label"], **f})
    return out


# -- the cost of a dominant choice -----------------------------------------------------------------------


def seat_returns(records: list[Record], position: int) -> dict[Any, tuple[Any, float]]:
    """Game index -> (deal, returns of the seat that holds `agents[position]` in that game)."""
    out = {}
    for r in records:
        a = r["arena"]
        n = len(a["agents"])
        seat = (position + a["rotation"]) % n  # in rotation r, seat s holds agents[(s - r) mod n]
        out[a["index"]] = (a["deal"], float(a["returns"][seat]))
    return out


def cost_of(baseline: list[Record], experiment: list[Record]) -> Estimate:
    """The win share of the first agent's seat in the experiment minus in the baseline, paired on the
    same games (same deal, same rotation), deal as the unit."""
    return paired_difference_ci(seat_returns(baseline, 0), seat_returns(experiment, 0), within=DIFFERENCE)


#: The smallest effect a run sees 4 times in 5 (80% power, two-sided 5% test) is (1.96 + 0.84) standard
#: errors, 1.43 times the half-width of its 95% interval: what "no clear cost" could have missed.
DETECTABLE = (1.96 + 0.84) / 1.96


def add_cost(finding: Finding, cost: Estimate, share: Estimate) -> None:
    """A dominant_choice finding with its measured cost (in place), worded as what it is: what avoiding
    the option cost the experiment's agent against the same opponents on the same deals and seats.
    A clear cost says the bots' choice is right against these bots, not against every player (an
    agent that assumes what the others do is right only under its assumption: `bodoge profiles` plays
    every profile of the choice); no clear cost says the run could not tell, and how large an effect
    it could have missed, never that the choice is a habit or that the seats are fair."""
    option = finding["option"]
    agent = finding.get("agent", "the experiment's agent")
    finding["evidence"]["cost_in_win_share"] = cost
    finding["evidence"]["win_share_when_avoiding"] = share
    clear = not math.isnan(cost.low) and (cost.high < 0 or cost.low > 0)
    interval = f"[{cost.low:+.3f}, {cost.high:+.3f}]"
    if clear:
        sign = "costs" if cost.mean < 0 else "gains"
        verdict_en = (
            f"Avoiding {option} {sign} {abs(cost.mean):.3f} in win share {interval} (`{agent}`, win share "
            f"{share.mean:.3f} instead of the bots' own choice, same deals, seats and opponents): "
            + (
                f"against these bots, {option} is the better option."
                if cost.mean < 0
                else f"against these bots, the bots' choice of {option} loses."
            )
        )
        verdict_ja = (
            f"{option} を避けると勝率が {abs(cost.mean):.3f} {'下がります' if cost.mean < 0 else '上がります'}"
            f" {interval}（`{agent}`、勝率 {share.mean:.3f}、同じ配札・同じ席・同じ相手で比較）。"
            + (
                f"このボットたちが相手なら {option} の方が良い選択です。"
                if cost.mean < 0
                else f"このボットたちが相手なら、ボットの {option} は損な選択です。"
            )
        )
    else:
        missed = DETECTABLE * cost.half if not math.isnan(cost.half) else math.nan
        verdict_en = (
            f"Avoiding {option} changes the win share by {cost.mean:+.3f} {interval} (`{agent}`, same deals, "
            f"seats and opponents): these games cannot tell; an effect smaller than about {missed:.3f} "
            "could have been missed (more games narrow it)."
        )
        verdict_ja = (
            f"{option} を避けたときの勝率の変化は {cost.mean:+.3f} {interval}（`{agent}`、同じ配札・同じ席・"
            f"同じ相手で比較）で、この対局数では差があるとも無いとも言えません。およそ {missed:.3f} "
            "より小さい差は見逃している可能性があります（対局を増やすと狭まります）。"
        )
    rests = finding.get("rests_text", {"en": "", "ja": ""})
    for lang, verdict in (("en", " " + verdict_en), ("ja", verdict_ja)):
        text = finding["text"][lang]
        if rests[lang] and text.endswith(rests[lang]):
            text = text[: len(text) - len(rests[lang])]
        finding["text"][lang] = text + verdict + rests[lang]
    if clear:
        finding["importance"] = round(min(1.0, finding["importance"] + 0.2), 3)


def measure_costs(
    findings: list[Finding],
    records: list[Record],
    config: Any,
    play: Callable[[Any], list[Record]],
    most: int = 2,
) -> int:
    """Play the experiments of the `most` most important dominant_choice findings (`play(config)`
    plays a SimConfig and returns its records) and add their costs; returns how many were played."""
    from dataclasses import replace

    played = 0
    for finding in findings:
        if played >= most or finding["kind"] != "dominant_choice":
            continue
        v = finding["variant"]
        base = [r for r in records if r["arena"]["variant"] == v]
        agents = [finding["agent"], *config.agents[1:]]
        experiment = replace(config, agents=agents, variants=[config.variants[v]])
        got = play(experiment)
        for r in got:
            r["arena"]["variant"] = v
        cost = cost_of(base, got)
        shares = seat_returns(got, 0)
        from bodoge.arena.stats import SHARE, clustered_mean_ci

        add_cost(finding, cost, clustered_mean_ci(shares.values(), within=SHARE))
        played += 1
    findings.sort(key=lambda f: (f.get("variant", 0), -f["importance"]))
    return played
