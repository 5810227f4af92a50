"""A run's summary as terminal tables, a Markdown report, matplotlib plots and summary.json."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from bodoge.arena import balance
from bodoge.arena.metrics import definitions
from bodoge.arena.stats import Estimate
from bodoge.arena.summary import to_json

Record = dict[str, Any]


def _rating_text(rating: dict[str, float] | None) -> str:
    if not rating:
        return "—"
    return f"{rating['mu']:.1f} ± {rating['sigma']:.1f}"


def _p_text(p: float) -> str:
    if math.isnan(p):
        return "—"
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def _mark(verdict: str) -> str:
    return {"above": " ▲", "below": " ▼"}.get(verdict, "")


def agent_rows(variant: dict[str, Any]) -> list[list[str]]:
    rows = []
    for a in variant["agents"]:
        rows.append(
            [
                a["agent"],
                str(a["seats_played"]),
                a["win_share"].text() + _mark(a["verdict"]),
                f"{a['fair']:.3f}",
                a["score"].text(2),
                _rating_text(a["rating"]),
                f"{a['seconds_per_decision'] * 1000:.1f}",
            ]
        )
    return rows


AGENT_HEADER = [
    "agent",
    "seats played",
    "win share (95% CI)",
    "fair",
    "mean score",
    "rating μ ± σ",
    "ms/decision",
]
SEAT_HEADER = ["seat", "share of wins (simultaneous 95% CI)", "mean score"]
GAME_HEADER = ["", "mean (95% CI)"]
COMPARISON_HEADER = ["quantity", "difference [CI]", "p (Holm)"]
SKILL_HEADER = ["rank", "agent", "win share (95% CI)", "ahead of the next by [CI]", "p (Holm)"]
LUCK_HEADER = ["weaker agent", "stronger agent", "upset rate (95% CI)", "decided meetings"]
CHOICE_HEADER = ["decision (options offered)", "decisions", "games", "chosen (share, 95% CI)"]
LENGTH = "game length (actions)"
DEAD = "dead decisions"
END = "ended by"
FIRST_PLAYER = "first-player advantage (seat 0 − fair share)"
BALANCE = "balance (largest seat gap from the fair share)"


def seat_rows(variant: dict[str, Any]) -> list[list[str]]:
    """Each seat's share of the wins with its mark, from the seat-balance test (older summaries
    without one: the seat's win share)."""
    tested = variant.get("seat_balance", {}).get("seats")
    rows = []
    for s in variant["seats"]:
        if tested:
            t = tested[s["seat"]]
            share = t["share"].text() + _mark(t["verdict"])
        else:
            share = s["win_share"].text()
        rows.append([f"P{s['seat']}", share, s["score"].text(2)])
    return rows


def seat_test_text(variant: dict[str, Any]) -> str:
    """One sentence: the seat-balance test's statistic, p-value and what it means."""
    sb = variant.get("seat_balance")
    if not sb:
        return ""
    n = len(sb["seats"])
    head = f"Seat-balance test (1/{n} of the wins each; shares of wins marked ▲/▼ at {sb['confidence']:.1%} each): "
    if math.isnan(sb["p"]):
        return head + f"not possible: {sb['why']}."
    if sb["p"] < 0.05:
        meaning = "the seats' shares differ from the fair share"
    else:  # non-significance is what the run could not see, never "fair"
        missed = sb.get("detectable", math.nan)
        meaning = "these games cannot tell the seats apart" + (
            f"; a seat {missed:.1%} above or below the fair share could have been missed (80% power)"
            if not math.isnan(missed)
            else ""
        )
    return head + (
        f"χ² = {sb['statistic']:.2f} on {sb['df']} df (Pearson's {sb['chi2']:.2f} over the design "
        f"effect {sb['design_effect']:.2f}), p = {_p_text(sb['p'])} (F test on {sb['df']} and "
        f"{sb['df2']} df, for the design effect is estimated from {sb['deals']} deals), over "
        f"{sb['games']} games with a winner: {meaning}."
    )


def choice_rows(variant: dict[str, Any]) -> list[list[str]]:
    """Each kind of decision with the options' shares (▲: dominant, arena.choices)."""
    rows = []
    for kind, k in variant.get("choices", {}).items():
        shares = ", ".join(
            f"{option} {o['share'].mean:.3f} [{o['share'].low:.3f}, {o['share'].high:.3f}]"
            + (" ▲" if o["dominant"] else "")
            for option, o in k["options"].items()
        )
        rows.append([kind, str(k["decisions"]), str(k["games"]), shares])
    return rows


def game_rows(variant: dict[str, Any]) -> list[list[str]]:
    rows = [
        [LENGTH, variant["length"].text(1)],
        [FIRST_PLAYER, _signed(variant["first_player_advantage"])],
    ]
    if "balance" in variant:  # summaries written before it had none
        rows.append([BALANCE, variant["balance"].text(3)])
    if isinstance(variant.get("dead_decisions"), Estimate) and variant["dead_decisions"].n:
        rows.append([DEAD, variant["dead_decisions"].text(3)])
    for reason, est in variant.get("ends", {}).items():
        rows.append([f"{END} {reason}", est.text(3)])
    for name, est in variant["metrics"].items():
        rows.append([name, est.text(3)])
    return rows


def _signed(est: Estimate, digits: int = 3) -> str:
    if math.isnan(est.mean):
        return "—"
    if math.isnan(est.low):
        return f"{est.mean:+.{digits}f}"
    return f"{est.mean:+.{digits}f} [{est.low:+.{digits}f}, {est.high:+.{digits}f}]"


def comparison_rows(comparison: dict[str, Any]) -> list[list[str]]:
    """quantity, difference with its (Bonferroni) interval, Holm-adjusted p with * below 0.05."""
    rows = []
    wide = comparison.get("simultaneous", comparison["differences"])
    adjusted = comparison.get("p_holm", {})
    for name, est in wide.items():
        p = adjusted.get(name, math.nan)
        rows.append([name, _signed(est), _p_text(p) + (" *" if p < 0.05 else "")])
    return rows


def comparison_note(summary: dict[str, Any]) -> str:
    """What the comparison tables' intervals and p-values are, next to them (several variants:
    corrected for several comparisons, and how)."""
    m = len(summary["comparisons"])
    paired = "Paired on the same deals and seats (variant − baseline), deal as the unit; p from a t test over deals."
    if m <= 1:
        return paired + " Intervals are 95%; * = p < 0.05 (the interval excludes 0)."
    level = summary["comparisons"][0].get("confidence", 0.95)
    return paired + (
        f" {m} variants are compared with the baseline, so each quantity's {m} comparisons are "
        f"corrected together: intervals are Bonferroni's, {level:.2%} each, so that all {m} hold at "
        f"once with 95%; p-values are Holm-adjusted over the {m}; * = adjusted p < 0.05. Holm is "
        "the sharper of the two, so a * may stand beside an interval that just touches 0."
    )


def skill_rows(variant: dict[str, Any]) -> list[list[str]]:
    ladder = variant.get("skill")
    if not ladder:
        return []
    rows = []
    for i, rung in enumerate(ladder["rungs"]):
        step = ladder["steps"][i] if i < len(ladder["steps"]) else None
        ahead = _signed(step["difference"]) if step else ""
        p = _p_text(step["p_holm"]) + (" *" if step["p_holm"] < 0.05 else "") if step else ""
        rows.append([str(i + 1), rung["agent"], rung["share"].text(), ahead, p])
    return rows


def skill_text(variant: dict[str, Any]) -> str:
    ladder = variant.get("skill")
    if not ladder:
        return ""
    steps = len(ladder["steps"])
    lines = [
        "Agents by win share, strongest first; each step is the paired difference from the agent "
        "below in the same games (deal as the unit)"
        + (
            f", Bonferroni intervals at {ladder['confidence']:.2%} and Holm p-values over the {steps} steps"
            if steps > 1
            else ", 95% interval"
        )
        + "; * = p < 0.05."
    ]
    order = " < ".join(balance.EXPECTED_ORDER)
    if ladder["expected"] is True:
        sure = all(s["p_holm"] < 0.05 for s in ladder["steps"])
        lines.append(
            f"The built-in agents rank in the expected order ({order})"
            + (", every step significantly." if sure else ", though not every step is significant yet.")
        )
    elif ladder["expected"] is False:
        lines.append(f"**Not the expected order** {order}: a built-in agent ranks above a stronger kind.")
    if not ladder["equal_seats"]:
        lines.append(
            "**The agents did not hold every seat equally often** (no rotation, or a partial last "
            "deal): seat advantages are mixed into the ladder."
        )
    return " ".join(lines)


def luck_rows(variant: dict[str, Any]) -> list[list[str]]:
    found = variant.get("luck")
    if not found:
        return []
    rows = [[p["weaker"], p["stronger"], p["upset_rate"].text(), str(p["decided"])] for p in found["pairs"]]
    if len(found["pairs"]) > 1:
        rows.append(["all pairs", "", found["overall"].text(), str(found["decided"])])
    return rows


LUCK_TEXT = (
    "Luck: how often the weaker agent finishes ahead of a stronger one it meets in a game "
    "(0 = never, skill decides; 0.5 = a coin toss)."
)


#: What every name a report shows means, in a designer's words (a game's numbers come from
#: `bodoge.arena.metrics.definitions`). Names with a seat or an agent in them stand for all such.
GLOSSARY: dict[str, str] = {
    "agent": "an agent by its spec as given to --agents; the same spec at several seats is one agent",
    "seats played": "the seats the agent held, summed over all games",
    "win share (95% CI)": "the mean of the agent's returns over every seat it held: 1 for a win, 1/k "
    "for a win shared by k seats, 0 for a loss; with seat rotation every agent holds every seat "
    "equally often, so shares compare agents at equal seats. ▲/▼: the 95% interval lies above/below "
    "the fair share",
    "fair": "the fair share 1/n for n players: every agent's win share if none were stronger",
    "mean score": "the mean final score (the running score the rulebook counts) at the seats held",
    "rating μ ± σ": "openskill's Plackett–Luce rating over the games in order, each game ranked by "
    "returns, then score: μ the estimated skill, σ its uncertainty (a new agent starts at 25 ± 8.3)",
    "ms/decision": "the agent's thinking time per decision, in milliseconds",
    "seat": "the seat in turn order; P0 starts the game",
    "share of wins (simultaneous 95% CI)": "the seat's share of the wins, over the games with a winner "
    "(a win shared by k seats counts 1/k to each); its interval is at the Bonferroni level 1 − 0.05/n "
    "for n seats, so all seats' intervals hold together with 95%; ▲/▼: the seat-balance test found "
    "the seats unequal (p < 0.05) and this seat's interval lies above/below the fair 1/n",
    "seat-balance test": "Pearson's chi-square of the seats' wins against 1/n each (n − 1 degrees of "
    "freedom), divided by the design effect (Rao–Scott): the mean over seats of the variance of the "
    "seat's share with the deal as the unit over its variance were all games independent. Games of "
    "one deal share their cards (deterministic bots even replay them), so they count less than new "
    "deals. Since the design effect is estimated from the deals played, the p-value is that of χ²/(n − 1) "
    "under F with n − 1 and (n − 1)(deals − 1) degrees of freedom (Rao–Scott's F, as R's survey "
    "package): close to the chi-square's with many deals, more cautious with few. p < 0.05: the seats "
    "are not equally placed to win",
    "mean (95% CI)": "the mean over deals (each deal's games averaged first), with its 95% interval",
    LENGTH: "actions (decisions) from the deal to the end of the game",
    FIRST_PLAYER: "seat 0's win share minus the fair share 1/n; seat 0 starts the game",
    BALANCE: "the largest gap between any seat's win share and the fair share 1/n, with that seat's "
    "interval around it: 0 when every seat wins as often (bodoge tune's `balance` goal)",
    DEAD: "the share of a game's decisions that are forced (one legal action) or settled (the single "
    "action of an option the agents choose at least 90% of the time at that kind of decision, "
    "arena/choices.py); the dead_decisions finding's number",
    "ended by REASON": "the share of games that ended for that reason, in the game's words "
    "(Hangover: hands_empty, no_active_player, one_active_player; HO-4.8)",
    "decision (options offered)": "a kind of decision: the options (kinds of action, in the game's "
    "action words) its legal actions offered, when they were of two or more options",
    "decisions": "how many decisions of that kind the agents took, over all games",
    "games": "in how many games that kind of decision came up",
    "chosen (share, 95% CI)": "each option's share of those decisions, with its interval (deal as the "
    "unit, Wilson's on the effective number of decisions); ▲ dominant: the whole interval above 0.9",
    "quantity": "what is compared between a variant and the baseline",
    "difference [CI]": "the quantity under the variant minus under the baseline on the same deals "
    "and seats, with the interval stated above the table",
    "p (Holm)": "the p-value of a t test that the difference (or the step) is 0, over deals, "
    "Holm-adjusted when several are tested together; * = below 0.05",
    "length": "game length in actions (as above)",
    "first_player_advantage": "seat 0's win share minus the fair share 1/n (as above)",
    "win share of seat N": "the win share of the agent at that seat (returns, as above)",
    "score of seat N": "the final score at that seat",
    "win share of AGENT": "that agent's win share (as above), its seats averaged in each game",
    "rank": "the agent's place on the skill ladder, 1 = highest win share",
    "ahead of the next by [CI]": "the agent's win share minus the next agent's, paired in the same "
    "games, deal as the unit, with the interval stated above the table",
    "weaker agent": "of two agents, the one with the lower win share",
    "stronger agent": "of two agents, the one with the higher win share",
    "upset rate (95% CI)": "luck: among the meetings of a seat of the weaker agent and a seat of the "
    "stronger one in a game where their returns differ, the share where the weaker got more "
    "(0 = the stronger always finishes ahead; 0.5 = a coin toss); deal as the unit",
    "decided meetings": "the meetings (weaker seat, stronger seat, same game) whose returns differ",
}


def glossary_key(name: str) -> str:
    """The glossary entry of a name as shown: 'win share of seat 2' -> 'win share of seat N'."""
    if re.fullmatch(r"win share of seat \d+", name):
        return "win share of seat N"
    if re.fullmatch(r"score of seat \d+", name):
        return "score of seat N"
    if name.startswith("win share of ") and name not in GLOSSARY:
        return "win share of AGENT"
    if name.startswith(END + " "):
        return "ended by REASON"
    return name


def names_shown(summary: dict[str, Any]) -> list[str]:
    """Every name the report's tables and sentences show (headers, quantities, tests), once each."""
    names = list(AGENT_HEADER) + list(SEAT_HEADER) + ["seat-balance test"] + GAME_HEADER[1:]
    names += [glossary_key(row[0]) for v in summary["variants"] for row in game_rows(v)]
    if any(v.get("choices") for v in summary["variants"]):
        names += CHOICE_HEADER
    if any(v.get("skill") for v in summary["variants"]):
        names += SKILL_HEADER + LUCK_HEADER
    if summary["comparisons"]:
        names += COMPARISON_HEADER
        names += [glossary_key(row[0]) for c in summary["comparisons"] for row in comparison_rows(c)]
    return list(dict.fromkeys(names))


def meanings(summary: dict[str, Any]) -> list[tuple[str, str]]:
    """(name, meaning) for every name the report shows; a name without a meaning is a bug, and says so."""
    known = {**GLOSSARY, **definitions(summary["game"])}
    return [(name, known.get(name, "(no definition: please report this)")) for name in names_shown(summary)]


FINDINGS_NOTE = (
    "Findings: what the numbers mean for the design, most important first, each reported only where "
    "its 95% interval lies past its threshold (docs/findings.md), with a command that tests it."
)
NO_FINDINGS = "No findings: no number of this run lies clearly past a finding's threshold (docs/findings.md)."


def finding_heading(finding: dict[str, Any], several: bool) -> str:
    """'dominant_choice' or, in a run of several variants, 'dominant_choice (vp_just=4)'."""
    return finding["kind"] + (f" ({finding['label']})" if several else "")


def print_findings(summary: dict[str, Any], console: Console) -> None:
    found = summary.get("findings") or []
    several = len(summary["variants"]) > 1
    if not found:
        console.print(escape(NO_FINDINGS), highlight=False)
        return
    console.print("[bold]" + escape(FINDINGS_NOTE) + "[/bold]", highlight=False)
    for i, f in enumerate(found, 1):
        console.print(
            f"{i}. [bold]{escape(finding_heading(f, several))}[/bold]: {escape(f['text']['en'])}",
            highlight=False,
        )
        console.print(f"   experiment: {escape(f['experiment'])}", highlight=False, soft_wrap=True)


def findings_markdown(summary: dict[str, Any], lang: str = "en") -> list[str]:
    """The findings as a Markdown section: each a numbered paragraph, its evidence, its command."""
    found = summary.get("findings") or []
    several = len(summary["variants"]) > 1
    lines = ["## Findings", ""]
    if not found:
        return [*lines, NO_FINDINGS, ""]
    lines += [FINDINGS_NOTE, ""]
    for i, f in enumerate(found, 1):
        lines += [f"{i}. **{finding_heading(f, several)}**: {f['text'][lang]}", ""]
        evidence = "; ".join(f"{name} {_evidence_text(value)}" for name, value in f["evidence"].items())
        lines += [f"   Evidence: {evidence}.", "", "   ```sh", f"   {f['experiment']}", "   ```", ""]
    return lines


def _evidence_text(value: Any) -> str:
    if isinstance(value, Estimate):
        if math.isnan(value.low):
            return f"{value.mean:.3f}"
        return f"{value.mean:.3f} [{value.low:.3f}, {value.high:.3f}]"
    if isinstance(value, float):
        return f"{value:.3g}"
    return str(value)


def print_summary(summary: dict[str, Any], console: Console) -> None:
    title = f"{summary['game']}, {summary['players']} players"
    for warning in summary.get("warnings", []):
        console.print("[yellow]warning:[/yellow] " + escape(warning), highlight=False)
    for variant in summary["variants"]:
        head = f"{title}, {variant['label']}: {variant['games']} games ({variant['deals']} deals)"
        _print_table(console, AGENT_HEADER, agent_rows(variant), head)
        _print_table(console, SEAT_HEADER, seat_rows(variant), "by seat")
        console.print(escape(seat_test_text(variant)), highlight=False)
        _print_table(console, GAME_HEADER, game_rows(variant), "the game")
        if variant.get("skill"):
            _print_table(console, SKILL_HEADER, skill_rows(variant), "skill ladder")
            console.print(escape(skill_text(variant)), highlight=False)
            _print_table(console, LUCK_HEADER, luck_rows(variant), "luck")
            console.print(escape(LUCK_TEXT), highlight=False)
    if summary["comparisons"]:
        console.print(escape(comparison_note(summary)), highlight=False)
    for comparison in summary["comparisons"]:
        head = f"{comparison['label']} minus {comparison['baseline']} (same deals)"
        _print_table(console, COMPARISON_HEADER, comparison_rows(comparison), head)
    if summary.get("review", {}).get("games"):
        from bodoge.analysis import decided

        found = summary["review"]
        _print_table(console, decided.KIND_HEADER, decided.kind_rows(found), decided.title(found))
        _print_table(console, decided.SWING_HEADER, decided.swing_rows(found), "the largest swings")
        console.print(escape(decided.EXPLAINED), highlight=False)
    table = Table("name", "meaning", title="what the numbers mean", show_lines=False)
    for name, meaning in meanings(summary):
        table.add_row(escape(name), escape(meaning))
    console.print(table)
    print_findings(summary, console)  # last: what a designer reads first is what the terminal shows last


def _print_table(console: Console, header: list[str], rows: list[list[str]], title: str) -> None:
    table = Table(*[escape(h) for h in header], title=escape(title))
    for row in rows:
        table.add_row(*[escape(c) for c in row])
    console.print(table)


def _md_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows]
    return "\n".join(lines)


def integer_valued(values: list[float]) -> bool:
    """Whether every value is a whole number (scores counted in chips or points): such scores are
    drawn as bars per value, since a smoothed violin invents values between them."""
    return bool(values) and all(float(v).is_integer() for v in values)


def score_histogram(values: list[float]) -> dict[int, float]:
    """Whole-number scores -> the share of the values equal to each, in increasing order."""
    counts: dict[int, int] = {}
    for v in values:
        counts[int(v)] = counts.get(int(v), 0) + 1
    return {k: counts[k] / len(values) for k in sorted(counts)}


def plot(summary: dict[str, Any], records: list[Record], out: Path) -> list[Path]:
    """PNG plots: win share by seat for each agent (error bars), score distributions per agent
    (bars per value for whole-number scores, else violins), and for variants, each quantity's paired
    difference from the baseline with its interval."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    made: list[Path] = []
    for variant in summary["variants"]:
        suffix = "" if len(summary["variants"]) == 1 else f"_v{variant['variant']}"
        made.append(_plot_seats(plt, summary, variant, out / f"win_share_by_seat{suffix}.png"))
        recs = [r for r in records if r["arena"]["variant"] == variant["variant"]]
        made.append(_plot_scores(plt, summary, variant, recs, out / f"scores{suffix}.png"))
    if summary["comparisons"]:
        made.append(_plot_differences(plt, summary, out / "variants.png"))
    return made


def _plot_seats(plt: Any, summary: dict[str, Any], variant: dict[str, Any], path: Path) -> Path:
    n = summary["players"]
    fig, ax = plt.subplots(figsize=(7, 4))
    agents = variant["agents"]
    width = 0.8 / max(1, len(agents))
    for k, a in enumerate(agents):
        xs, ys, below, above = [], [], [], []
        for s, est in enumerate(a["by_seat"]):
            if est.n == 0:
                continue
            xs.append(s + (k - (len(agents) - 1) / 2) * width)
            ys.append(est.mean)
            down, up = est.errors()  # a share's interval is cut to [0, 1]: the bars may be uneven
            below.append(down)
            above.append(up)
        ax.bar(xs, ys, width=width, yerr=[below, above], capsize=3, label=a["agent"])
    ax.axhline(1.0 / n, color="grey", linestyle="--", linewidth=1, label="fair share")
    ax.set_xticks(range(n), [f"P{s}" for s in range(n)])
    ax.set_xlabel("seat")
    ax.set_ylabel("win share (95% CI)")
    ax.set_title(f"{summary['game']} ({n}p), {variant['label']}: win share by seat")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def _plot_scores(
    plt: Any, summary: dict[str, Any], variant: dict[str, Any], recs: list[Record], path: Path
) -> Path:
    fig, ax = plt.subplots(figsize=(7, 4))
    data: list[list[float]] = []
    names = [a["agent"] for a in variant["agents"]]
    for label in names:
        data.append(
            [
                r["result"]["scores"][s]
                for r in recs
                for s, spec in enumerate(r["arena"]["agents"])
                if spec == label
            ]
        )
    everything = [v for d in data for v in d]
    if integer_valued(everything):
        width = 0.8 / max(1, len(names))
        for k, (label, values) in enumerate(zip(names, data, strict=True)):
            if not values:
                continue
            shares = score_histogram(values)
            xs = [x + (k - (len(names) - 1) / 2) * width for x in shares]
            ax.bar(xs, list(shares.values()), width=width, label=label)
        from matplotlib.ticker import MaxNLocator

        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("final score")
        ax.set_ylabel("share of the agent's seats")
        ax.legend(fontsize=8)
    elif everything:
        ax.violinplot([d or [0] for d in data], showmeans=True)
        ax.set_xticks(range(1, len(names) + 1), names, fontsize=8)
        ax.set_ylabel("final score")
    ax.set_title(
        f"{summary['game']} ({summary['players']}p), {variant['label']}: score distribution per agent",
        fontsize=9,
    )
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def _plot_differences(plt: Any, summary: dict[str, Any], path: Path) -> Path:
    """One panel per quantity: each variant's paired difference from the baseline (variant −
    baseline on the same deals) with its interval (Bonferroni over the variants), and a zero line."""
    comparisons = summary["comparisons"]
    quantities = ["first_player_advantage", "length", *summary["variants"][0]["metrics"]]
    quantities = [q for q in quantities if any(q in c["differences"] for c in comparisons)]
    cols = min(4, max(1, len(quantities)))
    rows = -(-len(quantities) // cols) or 1
    fig, axes = plt.subplots(rows, cols, figsize=(3.6 * cols, 3.4 * rows + 0.4), squeeze=False)
    flat = [ax for row in axes for ax in row]
    for ax in flat[len(quantities) :]:
        ax.set_visible(False)
    labels = [c["label"] for c in comparisons]
    for ax, q in zip(flat, quantities, strict=False):
        ys, errs = difference_points(comparisons, q)
        ax.axhline(0.0, color="grey", linewidth=1)
        ax.errorbar(range(len(labels)), ys, yerr=errs, marker="o", linestyle="none", capsize=3)
        ax.set_xticks(range(len(labels)), labels, rotation=30, ha="right", fontsize=7)
        ax.set_xlim(-0.5, len(labels) - 0.5)
        ax.set_title(q, fontsize=9)
    level = comparisons[0].get("confidence", 0.95)
    fig.suptitle(
        f"variant − {comparisons[0]['baseline']} on the same deals ({level:.1%} intervals"
        + (", Bonferroni over the variants)" if len(comparisons) > 1 else ")"),
        fontsize=10,
    )
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def difference_points(comparisons: list[dict[str, Any]], quantity: str) -> tuple[list[float], list[float]]:
    """What variants.png draws for a quantity: per variant, its paired difference from the baseline
    and the half-width of its (Bonferroni) interval; NaN and 0 where it was not compared."""
    ests = [c.get("simultaneous", c["differences"]).get(quantity) for c in comparisons]
    ys = [e.mean if e else math.nan for e in ests]
    errs = [0.0 if not e or math.isnan(e.half) else e.half for e in ests]
    return ys, errs


def markdown(summary: dict[str, Any], images: list[Path]) -> str:
    n = summary["players"]
    lines = [
        f"# {summary['game']}, {n} players: {summary['games']} games",
        "",
        f"Agents (seat order before rotation): {', '.join(f'`{a}`' for a in summary['agents'])}. "
        f"Seed {summary['seed']}; seat rotation {'on' if summary['rotate'] else 'off'}, "
        f"duplicate deals {'on' if summary['duplicate'] else 'off'}. "
        "Intervals are 95% confidence intervals with the deal as the unit unless a table says "
        f"otherwise; ▲/▼: significantly above/below the fair share 1/{n}. Every name is defined at "
        "the end.",
        "",
    ]
    for warning in summary.get("warnings", []):
        lines += [f"> **Warning:** {warning}.", ""]
    lines += findings_markdown(summary)
    if summary.get("review", {}).get("games"):
        from bodoge.analysis import decided

        found = summary["review"]
        lines += [f"## {decided.title(found)}", "", decided.EXPLAINED, ""]
        lines += [_md_table(decided.KIND_HEADER, decided.kind_rows(found)), "", "The largest swings:", ""]
        lines += [_md_table(decided.SWING_HEADER, decided.swing_rows(found)), ""]
    names = {p.name for p in images}
    for variant in summary["variants"]:
        suffix = "" if len(summary["variants"]) == 1 else f"_v{variant['variant']}"
        lines += [
            f"## {variant['label']} ({variant['games']} games, {variant['deals']} deals)",
            "",
            _md_table(AGENT_HEADER, agent_rows(variant)),
            "",
            "### Seats",
            "",
            _md_table(SEAT_HEADER, seat_rows(variant)),
            "",
            seat_test_text(variant),
            "",
            "### The game",
            "",
            _md_table(GAME_HEADER, game_rows(variant)),
            "",
        ]
        if variant.get("choices"):
            lines += [
                "### Choices by kind of decision",
                "",
                _md_table(CHOICE_HEADER, choice_rows(variant)),
                "",
            ]
        if variant.get("skill"):
            lines += [
                "### Skill and luck",
                "",
                skill_text(variant),
                "",
                _md_table(SKILL_HEADER, skill_rows(variant)),
                "",
                LUCK_TEXT,
                "",
                _md_table(LUCK_HEADER, luck_rows(variant)),
                "",
            ]
        for img in (f"win_share_by_seat{suffix}.png", f"scores{suffix}.png"):
            if img in names:
                lines += [f"![{img}]({img})", ""]
    if summary["comparisons"]:
        lines += ["## Variants against the baseline", "", comparison_note(summary), ""]
    for comparison in summary["comparisons"]:
        lines += [
            f"### {comparison['label']} minus {comparison['baseline']}",
            "",
            _md_table(COMPARISON_HEADER, comparison_rows(comparison)),
            "",
        ]
    if "variants.png" in names:
        lines += ["![variants.png](variants.png)", ""]
    lines += ["## What the numbers mean", ""]
    lines += [f"- **{name}**: {meaning}" for name, meaning in meanings(summary)]
    lines.append("")
    return "\n".join(lines)


def write_report(summary: dict[str, Any], records: list[Record], out: Path, plots: bool = True) -> Path:
    """summary.json, report.md, report.html (the same, rendered, its plots embedded: one file to open
    in a browser) and the plots in `out`; returns the report's path."""
    from bodoge.arena import html

    out.mkdir(parents=True, exist_ok=True)
    (out / "summary.json").write_text(json.dumps(to_json(summary), indent=1, ensure_ascii=False) + "\n")
    images = plot(summary, records, out) if plots and records else []
    path = out / "report.md"
    text = markdown(summary, images)
    path.write_text(text)
    title = f"bodoge sim: {summary['game']}, {summary['players']} players"
    (out / "report.html").write_text(html.page(title, text, {p.name: p.read_bytes() for p in images}))
    return path
