"""A run's summary as terminal tables, a Markdown report, matplotlib plots and summary.json.

The report and its plots are written in English or Japanese (`lang="ja"`, for designers who read
Japanese); their words are in `report_texts`, the numbers the same in both."""

from __future__ import annotations

import contextlib
import json
import logging
import math
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from bodoge.arena import balance
from bodoge.arena import report_texts as texts
from bodoge.arena.metrics import definitions
from bodoge.arena.report_texts import (
    AGENT_HEADER,
    BALANCE,
    CHOICE_HEADER,
    COMPARISON_HEADER,
    DEAD,
    END,
    FIRST_PLAYER,
    GAME_HEADER,
    GLOSSARY,
    LENGTH,
    LUCK_HEADER,
    SEAT_HEADER,
    SKILL_HEADER,
    check_lang,
    shown,
    t,
)
from bodoge.arena.stats import Estimate
from bodoge.arena.summary import to_json

Record = dict[str, Any]
log = logging.getLogger(__name__)


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


def seat_test_text(variant: dict[str, Any], lang: str = "en") -> str:
    """One sentence: the seat-balance test's statistic, p-value and what it means."""
    sb = variant.get("seat_balance")
    if not sb:
        return ""
    head = t("seat_test", lang, n=len(sb["seats"]), confidence=sb["confidence"])
    if math.isnan(sb["p"]):
        why = sb["why"] if lang == "en" else texts.WHY_JA.get(sb["why"], sb["why"])
        return head + t("seat_test_impossible", lang, why=why)
    if sb["p"] < 0.05:
        meaning = t("seats_differ", lang)
    else:  # non-significance is what the run could not see, never "fair"
        missed = sb.get("detectable", math.nan)
        meaning = t("seats_unseen", lang) + (
            t("seats_missed", lang, missed=missed) if not math.isnan(missed) else ""
        )
    fields = {k: sb[k] for k in ("statistic", "df", "chi2", "design_effect", "df2", "deals", "games")}
    return head + t("seat_test_result", lang, **fields, p=_p_text(sb["p"]), meaning=meaning)


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


def comparison_note(summary: dict[str, Any], lang: str = "en") -> str:
    """What the comparison tables' intervals and p-values are, next to them (several variants:
    corrected for several comparisons, and how)."""
    m = len(summary["comparisons"])
    if m <= 1:
        return t("paired", lang) + t("paired_one", lang)
    level = summary["comparisons"][0].get("confidence", 0.95)
    return t("paired", lang) + t("paired_several", lang, m=m, level=level)


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


def skill_text(variant: dict[str, Any], lang: str = "en") -> str:
    ladder = variant.get("skill")
    if not ladder:
        return ""
    steps = len(ladder["steps"])
    lines = [
        t("skill", lang)
        + (
            t("skill_several", lang, confidence=ladder["confidence"], steps=steps)
            if steps > 1
            else t("skill_one", lang)
        )
        + t("skill_end", lang)
    ]
    order = " < ".join(balance.EXPECTED_ORDER)
    if ladder["expected"] is True:
        sure = all(s["p_holm"] < 0.05 for s in ladder["steps"])
        lines.append(
            t("skill_expected", lang, order=order) + t("skill_sure" if sure else "skill_unsure", lang)
        )
    elif ladder["expected"] is False:
        lines.append(t("skill_unexpected", lang, order=order))
    if not ladder["equal_seats"]:
        lines.append(t("skill_seats", lang))
    return t("sentences_joined", lang).join(lines)


def luck_rows(variant: dict[str, Any], lang: str = "en") -> list[list[str]]:
    found = variant.get("luck")
    if not found:
        return []
    rows = [[p["weaker"], p["stronger"], p["upset_rate"].text(), str(p["decided"])] for p in found["pairs"]]
    if len(found["pairs"]) > 1:
        rows.append([t("all_pairs", lang), "", found["overall"].text(), str(found["decided"])])
    return rows


LUCK_TEXT = t("luck", "en")


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


def meanings(summary: dict[str, Any], lang: str = "en") -> list[tuple[str, str]]:
    """(name, meaning) for every name the report shows; a name without a meaning is a bug, and says so."""
    known = {**GLOSSARY, **definitions(summary["game"])}
    missing = t("no_definition", lang)
    if lang == "en":
        return [(name, known.get(name, missing)) for name in names_shown(summary)]
    out = []
    for name in names_shown(summary):
        if name in texts.METRICS_JA:  # a game's number: its name in summary.json and bodoge tune's goals
            out.append((f"{texts.METRICS_JA[name][0]}（`{name}`）", texts.METRICS_JA[name][1]))
        elif name == "ended by REASON":
            out.append((shown(name, lang), texts.ENDED_BY_JA + _end_words(summary)))
        else:
            out.append((shown(name, lang), texts.GLOSSARY_JA.get(name, known.get(name, missing))))
    return out


def _end_words(summary: dict[str, Any]) -> str:
    """The reasons the games of a run ended for, each in the game's Japanese words."""
    from bodoge.arena.findings import end_words

    reasons = dict.fromkeys(r for v in summary["variants"] for r in v.get("ends", {}))
    said = {r: end_words(summary["game"], r, "ja") for r in reasons}  # the reason itself where no words
    return "、".join(r if said[r] == r else f"{r} は「{said[r]}」" for r in reasons)


def game_name(game: str, lang: str = "en") -> str:
    """The game's name in `lang`: its texts' `name.game` in Japanese (else bodoge's name for it)."""
    if lang == "en":
        return game
    from bodoge.core.registry import game_class
    from bodoge.errors import BadOption

    try:
        module = game_class(game).part("text")
    except BadOption:
        module = None
    found = getattr(module, "TEXTS", None) if module is not None else None
    said = found.tables[lang].get("name.game") if found is not None else None
    return str(said or texts.GAMES_JA.get(game, game))


def label_text(label: str, lang: str = "en") -> str:
    """A variant's label as shown: 'default' in words, a setting such as 'rounds=2' as it is."""
    return t("default", lang) if label == "default" else label


FINDINGS_NOTE = t("findings_note", "en")
NO_FINDINGS = t("no_findings", "en")


def finding_heading(finding: dict[str, Any], several: bool, lang: str = "en") -> str:
    """'dominant_choice' or, in a run of several variants, 'dominant_choice (vp_just=4)'; in Japanese
    '支配的な選択（dominant_choice）'."""
    if lang == "en":
        return finding["kind"] + (f" ({finding['label']})" if several else "")
    named = [finding["kind"], *([label_text(finding["label"], lang)] if several else [])]
    return f"{texts.KINDS_JA.get(finding['kind'], finding['kind'])}（{'、'.join(named)}）"


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
    check_lang(lang)
    found = summary.get("findings") or []
    several = len(summary["variants"]) > 1
    lines = [f"## {t('findings', lang)}", ""]
    if not found:
        return [*lines, t("no_findings", lang), ""]
    lines += [t("findings_note", lang), ""]
    colon = ": " if lang == "en" else "："
    for i, f in enumerate(found, 1):
        lines += [f"{i}. **{finding_heading(f, several, lang)}**{colon}{f['text'][lang]}", ""]
        evidence = t("evidence_joined", lang).join(
            f"{texts.evidence_name(name, lang)} {_evidence_text(value)}"
            for name, value in f["evidence"].items()
        )
        lines += [
            t("evidence", lang, evidence=evidence),
            "",
            "   ```sh",
            f"   {f['experiment']}",
            "   ```",
            "",
        ]
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
        from bodoge.arena import decided

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


def _md_table(header: list[str], rows: list[list[str]], lang: str = "en", named: bool = False) -> str:
    """A Markdown table; in another language than English its header's names (and with `named`, the
    names of its rows: quantities) as `shown` says them."""
    if lang != "en":
        header = [shown(h, lang) for h in header]
        rows = [[shown(r[0], lang), *r[1:]] for r in rows] if named else rows
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


#: Fonts with Japanese glyphs, the first one installed drawn where the default font has no glyph.
CJK_FONTS = (
    "Noto Sans CJK JP",
    "Noto Sans JP",
    "Source Han Sans JP",
    "IPAexGothic",
    "IPAGothic",
    "Hiragino Sans",
    "Hiragino Kaku Gothic ProN",
    "Yu Gothic",
    "Meiryo",
    "TakaoGothic",
    "VL Gothic",
    "Noto Sans CJK SC",
)


def cjk_font() -> str | None:
    """The first of CJK_FONTS that matplotlib finds on this machine, or None."""
    from matplotlib import font_manager

    installed = {f.name for f in font_manager.fontManager.ttflist}
    return next((name for name in CJK_FONTS if name in installed), None)


@contextlib.contextmanager
def _fonts(lang: str) -> Iterator[None]:
    """Figures in `lang`: for Japanese, matplotlib's font fallback from its default font to a CJK font
    where one is installed; where none is, the labels are drawn as well as the default font can (empty
    boxes) and the missing-glyph warnings are not repeated for every character: one log line says so."""
    import matplotlib

    if lang == "en":
        yield
        return
    found = cjk_font()
    family = [*matplotlib.rcParams["font.family"], found] if found else matplotlib.rcParams["font.family"]
    if not found:
        log.warning("no font with Japanese glyphs (e.g. fonts-noto-cjk): the figures' labels may show boxes")
    with matplotlib.rc_context({"font.family": family}), warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Glyph .* missing from", category=UserWarning)
        yield


def plot(summary: dict[str, Any], records: list[Record], out: Path, lang: str = "en") -> list[Path]:
    """PNG plots: win share by seat for each agent (error bars), score distributions per agent
    (bars per value for whole-number scores, else violins), and for variants, each quantity's paired
    difference from the baseline with its interval; their words in `lang`."""
    import matplotlib

    check_lang(lang)
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    made: list[Path] = []
    with _fonts(lang):
        for variant in summary["variants"]:
            suffix = "" if len(summary["variants"]) == 1 else f"_v{variant['variant']}"
            made.append(_plot_seats(plt, summary, variant, out / f"win_share_by_seat{suffix}.png", lang))
            recs = [r for r in records if r["arena"]["variant"] == variant["variant"]]
            made.append(_plot_scores(plt, summary, variant, recs, out / f"scores{suffix}.png", lang))
        if summary["comparisons"]:
            made.append(_plot_differences(plt, summary, out / "variants.png", lang))
    return made


def _plot_seats(
    plt: Any, summary: dict[str, Any], variant: dict[str, Any], path: Path, lang: str = "en"
) -> Path:
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
    ax.axhline(1.0 / n, color="grey", linestyle="--", linewidth=1, label=t("fair_share", lang))
    ax.set_xticks(range(n), [f"P{s}" for s in range(n)])
    ax.set_xlabel(t("seat_axis", lang))
    ax.set_ylabel(t("win_share_axis", lang))
    game, label = game_name(summary["game"], lang), label_text(variant["label"], lang)
    ax.set_title(t("seats_title", lang, game=game, n=n, label=label))
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def _plot_scores(
    plt: Any,
    summary: dict[str, Any],
    variant: dict[str, Any],
    recs: list[Record],
    path: Path,
    lang: str = "en",
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
        ax.set_xlabel(t("final_score", lang))
        ax.set_ylabel(t("score_share", lang))
        ax.legend(fontsize=8)
    elif everything:
        ax.violinplot([d or [0] for d in data], showmeans=True)
        ax.set_xticks(range(1, len(names) + 1), names, fontsize=8)
        ax.set_ylabel(t("final_score", lang))
    game, label = game_name(summary["game"], lang), label_text(variant["label"], lang)
    ax.set_title(t("scores_title", lang, game=game, n=summary["players"], label=label), fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def _plot_differences(plt: Any, summary: dict[str, Any], path: Path, lang: str = "en") -> Path:
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
    labels = [label_text(c["label"], lang) for c in comparisons]
    for ax, q in zip(flat, quantities, strict=False):
        ys, errs = difference_points(comparisons, q)
        ax.axhline(0.0, color="grey", linewidth=1)
        ax.errorbar(range(len(labels)), ys, yerr=errs, marker="o", linestyle="none", capsize=3)
        ax.set_xticks(range(len(labels)), labels, rotation=30, ha="right", fontsize=7)
        ax.set_xlim(-0.5, len(labels) - 0.5)
        ax.set_title(shown(q, lang), fontsize=9)
    level = comparisons[0].get("confidence", 0.95)
    baseline = label_text(comparisons[0]["baseline"], lang)
    fig.suptitle(
        t("differences_title", lang, baseline=baseline, level=level)
        + t("differences_several" if len(comparisons) > 1 else "differences_one", lang),
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


def markdown(summary: dict[str, Any], images: list[Path], lang: str = "en") -> str:
    """report.md: the run, its findings, each variant's tables and plots, the comparisons, and every
    name defined; in `lang` ("en" or "ja"), the numbers the same in each."""
    check_lang(lang)
    n = summary["players"]
    on = {True: t("on", lang), False: t("off", lang)}
    agents = t("agents_joined", lang).join(f"`{a}`" for a in summary["agents"])
    lines = [
        "# " + t("title", lang, game=game_name(summary["game"], lang), n=n, games=summary["games"]),
        "",
        t(
            "intro",
            lang,
            agents=agents,
            seed=summary["seed"],
            rotate=on[bool(summary["rotate"])],
            duplicate=on[bool(summary["duplicate"])],
            n=n,
        ),
        "",
    ]
    for warning in summary.get("warnings", []):
        lines += [t("warning", lang, text=texts.warning_text(warning, lang)), ""]
    lines += findings_markdown(summary, lang)
    if summary.get("review", {}).get("games"):
        lines += _review_markdown(summary["review"], lang)
    names = {p.name for p in images}
    for variant in summary["variants"]:
        suffix = "" if len(summary["variants"]) == 1 else f"_v{variant['variant']}"
        label = label_text(variant["label"], lang)
        lines += [
            "## " + t("variant", lang, label=label, games=variant["games"], deals=variant["deals"]),
            "",
            _md_table(AGENT_HEADER, agent_rows(variant), lang),
            "",
            f"### {t('seats', lang)}",
            "",
            _md_table(SEAT_HEADER, seat_rows(variant), lang),
            "",
            seat_test_text(variant, lang),
            "",
            f"### {t('the_game', lang)}",
            "",
            _md_table(GAME_HEADER, game_rows(variant), lang, named=True),
            "",
        ]
        if variant.get("choices"):
            lines += [
                f"### {t('choices', lang)}",
                "",
                _md_table(CHOICE_HEADER, choice_rows(variant), lang),
                "",
            ]
        if variant.get("skill"):
            lines += [
                f"### {t('skill_and_luck', lang)}",
                "",
                skill_text(variant, lang),
                "",
                _md_table(SKILL_HEADER, skill_rows(variant), lang),
                "",
                t("luck", lang),
                "",
                _md_table(LUCK_HEADER, luck_rows(variant, lang), lang),
                "",
            ]
        for img in (f"win_share_by_seat{suffix}.png", f"scores{suffix}.png"):
            if img in names:
                lines += [f"![{img}]({img})", ""]
    if summary["comparisons"]:
        lines += [f"## {t('variants', lang)}", "", comparison_note(summary, lang), ""]
    for comparison in summary["comparisons"]:
        label, baseline = label_text(comparison["label"], lang), label_text(comparison["baseline"], lang)
        lines += [
            "### " + t("minus", lang, label=label, baseline=baseline),
            "",
            _md_table(COMPARISON_HEADER, comparison_rows(comparison), lang, named=True),
            "",
        ]
    if "variants.png" in names:
        lines += ["![variants.png](variants.png)", ""]
    lines += [f"## {t('meanings', lang)}", ""]
    colon = ": " if lang == "en" else "："
    lines += [f"- **{name}**{colon}{meaning}" for name, meaning in meanings(summary, lang)]
    lines.append("")
    return "\n".join(lines)


def _review_markdown(found: dict[str, Any], lang: str) -> list[str]:
    """The review's section: where the games are decided (`bodoge sim --review`)."""
    from bodoge.arena import decided

    if lang == "en":
        title, explained = decided.title(found), decided.EXPLAINED
        kinds, swings = decided.KIND_HEADER, decided.SWING_HEADER
        swing_rows = decided.swing_rows(found)
    else:
        title = texts.REVIEW_TITLE_JA.format(games=found["games"], decisions=found["decisions"])
        explained, kinds, swings = (
            texts.REVIEW_EXPLAINED_JA,
            texts.REVIEW_KIND_HEADER_JA,
            texts.REVIEW_SWING_HEADER_JA,
        )
        swing_rows = [[*r[:5], texts.CLASSES_JA.get(r[5], r[5]), *r[6:]] for r in decided.swing_rows(found)]
    return [
        f"## {title}",
        "",
        explained,
        "",
        _md_table(kinds, decided.kind_rows(found)),
        "",
        t("largest_swings", lang),
        "",
        _md_table(swings, swing_rows),
        "",
    ]


def write_report(
    summary: dict[str, Any], records: list[Record], out: Path, plots: bool = True, lang: str = "en"
) -> Path:
    """summary.json, report.md, report.html (the same, rendered, its plots embedded: one file to open
    in a browser) and the plots in `out`, their words in `lang` ("en" or "ja"; summary.json is the
    same in each); returns the report's path."""
    from bodoge.arena import html

    check_lang(lang)
    out.mkdir(parents=True, exist_ok=True)
    (out / "summary.json").write_text(json.dumps(to_json(summary), indent=1, ensure_ascii=False) + "\n")
    images = plot(summary, records, out, lang) if plots and records else []
    path = out / "report.md"
    text = markdown(summary, images, lang)
    path.write_text(text)
    title = t("html_title", lang, game=game_name(summary["game"], lang), n=summary["players"])
    (out / "report.html").write_text(
        html.page(title, text, {p.name: p.read_bytes() for p in images}, lang=lang)
    )
    return path
