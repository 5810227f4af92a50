"""A run's summary as terminal tables, a Markdown report, matplotlib plots and summary.json."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from bodoge.arena.metrics import definitions
from bodoge.arena.stats import Estimate
from bodoge.arena.summary import to_json

Record = dict[str, Any]


def _rating_text(rating: dict[str, float] | None) -> str:
    if not rating:
        return "—"
    return f"{rating['mu']:.1f} ± {rating['sigma']:.1f}"


def agent_rows(variant: dict[str, Any]) -> list[list[str]]:
    rows = []
    for a in variant["agents"]:
        mark = {"above": " ▲", "below": " ▼"}.get(a["verdict"], "")
        rows.append(
            [
                a["agent"],
                str(a["seats_played"]),
                a["win_share"].text() + mark,
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
SEAT_HEADER = ["seat", "win share (95% CI)", "mean score"]


def seat_rows(variant: dict[str, Any]) -> list[list[str]]:
    return [[f"P{s['seat']}", s["win_share"].text(), s["score"].text(2)] for s in variant["seats"]]


def game_rows(variant: dict[str, Any]) -> list[list[str]]:
    rows = [
        ["game length (actions)", variant["length"].text(1)],
        ["first-player advantage (seat 0 − fair share)", _signed(variant["first_player_advantage"])],
    ]
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
    rows = []
    for name, est in comparison["differences"].items():
        sig = "" if math.isnan(est.low) or (est.low <= 0 <= est.high) else " *"
        rows.append([name, _signed(est) + sig])
    return rows


def print_summary(summary: dict[str, Any], console: Console) -> None:
    title = f"{summary['game']}, {summary['players']} players"
    for warning in summary.get("warnings", []):
        console.print("[yellow]warning:[/yellow] " + escape(warning), highlight=False)
    for variant in summary["variants"]:
        head = f"{title}, {variant['label']}: {variant['games']} games ({variant['deals']} deals)"
        table = Table(*AGENT_HEADER, title=head)
        for row in agent_rows(variant):
            table.add_row(*row)
        console.print(table)
        seats = Table(*SEAT_HEADER, title="by seat")
        for row in seat_rows(variant):
            seats.add_row(*row)
        console.print(seats)
        facts = Table("", "mean (95% CI)", title="the game")
        for row in game_rows(variant):
            facts.add_row(*row)
        console.print(facts)
    for comparison in summary["comparisons"]:
        table = Table(
            "quantity",
            "difference [95% CI]",
            title=f"{comparison['label']} minus {comparison['baseline']} (same deals; * = CI excludes 0)",
        )
        for row in comparison_rows(comparison):
            table.add_row(*row)
        console.print(table)


def _md_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows]
    return "\n".join(lines)


def plot(summary: dict[str, Any], records: list[Record], out: Path) -> list[Path]:
    """PNG plots: win share by seat for each agent (error bars), score distributions per agent, and
    for variants, the main quantities against the variant."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    made: list[Path] = []
    n = summary["players"]
    for variant in summary["variants"]:
        v = variant["variant"]
        suffix = "" if len(summary["variants"]) == 1 else f"_v{v}"
        fig, ax = plt.subplots(figsize=(7, 4))
        agents = variant["agents"]
        width = 0.8 / max(1, len(agents))
        for k, a in enumerate(agents):
            xs, ys, errs = [], [], []
            for s, est in enumerate(a["by_seat"]):
                if est.n == 0:
                    continue
                xs.append(s + (k - (len(agents) - 1) / 2) * width)
                ys.append(est.mean)
                errs.append(0.0 if math.isnan(est.half) else est.half)
            ax.bar(xs, ys, width=width, yerr=errs, capsize=3, label=a["agent"])
        ax.axhline(1.0 / n, color="grey", linestyle="--", linewidth=1, label="fair share")
        ax.set_xticks(range(n), [f"P{s}" for s in range(n)])
        ax.set_xlabel("seat")
        ax.set_ylabel("win share (95% CI)")
        ax.set_title(f"{summary['game']} ({n}p), {variant['label']}: win share by seat")
        ax.legend(fontsize=8)
        fig.tight_layout()
        path = out / f"win_share_by_seat{suffix}.png"
        fig.savefig(path, dpi=100)
        plt.close(fig)
        made.append(path)

        fig, ax = plt.subplots(figsize=(7, 4))
        recs = [r for r in records if r["arena"]["variant"] == v]
        data, names = [], []
        for a in agents:
            label = a["agent"]
            data.append(
                [
                    r["result"]["scores"][s]
                    for r in recs
                    for s, spec in enumerate(r["arena"]["agents"])
                    if spec == label
                ]
            )
            names.append(label)
        if any(data):
            ax.violinplot([d or [0] for d in data], showmeans=True)
            ax.set_xticks(range(1, len(names) + 1), names, fontsize=8)
        ax.set_ylabel("final score")
        ax.set_title(f"{summary['game']} ({n}p), {variant['label']}: score distribution per agent")
        fig.tight_layout()
        path = out / f"scores{suffix}.png"
        fig.savefig(path, dpi=100)
        plt.close(fig)
        made.append(path)
    if len(summary["variants"]) > 1:
        quantities = ["first_player_advantage", "length", *summary["variants"][0]["metrics"]]
        cols = min(4, len(quantities))
        rows = -(-len(quantities) // cols)
        fig, axes = plt.subplots(rows, cols, figsize=(3.6 * cols, 3.4 * rows), squeeze=False)
        labels = [v["label"] for v in summary["variants"]]
        flat = [ax for row in axes for ax in row]
        for ax in flat[len(quantities) :]:
            ax.set_visible(False)
        for ax, q in zip(flat, quantities, strict=False):
            ests = [v[q] if q in v else v["metrics"].get(q) for v in summary["variants"]]
            ys = [e.mean if e else math.nan for e in ests]
            errs = [0.0 if not e or math.isnan(e.half) else e.half for e in ests]
            ax.errorbar(range(len(labels)), ys, yerr=errs, marker="o", capsize=3)
            ax.set_xticks(range(len(labels)), labels, rotation=30, ha="right", fontsize=7)
            ax.set_title(q, fontsize=9)
        fig.tight_layout()
        path = out / "variants.png"
        fig.savefig(path, dpi=100)
        plt.close(fig)
        made.append(path)
    return made


def markdown(summary: dict[str, Any], images: list[Path]) -> str:
    n = summary["players"]
    lines = [
        f"# {summary['game']}, {n} players: {summary['games']} games",
        "",
        f"Agents (seat order before rotation): {', '.join(f'`{a}`' for a in summary['agents'])}. "
        f"Seed {summary['seed']}; seat rotation {'on' if summary['rotate'] else 'off'}, "
        f"duplicate deals {'on' if summary['duplicate'] else 'off'}. "
        "Intervals are 95% confidence intervals with the deal as the unit; ▲/▼: the interval lies "
        f"above/below the fair share 1/{n}.",
        "",
    ]
    for warning in summary.get("warnings", []):
        lines += [f"> **Warning:** {warning}.", ""]
    names = {p.name for p in images}
    for variant in summary["variants"]:
        suffix = "" if len(summary["variants"]) == 1 else f"_v{variant['variant']}"
        lines += [
            f"## {variant['label']} ({variant['games']} games, {variant['deals']} deals)",
            "",
            _md_table(AGENT_HEADER, agent_rows(variant)),
            "",
            _md_table(SEAT_HEADER, seat_rows(variant)),
            "",
            _md_table(["", "mean (95% CI)"], game_rows(variant)),
            "",
        ]
        for img in (f"win_share_by_seat{suffix}.png", f"scores{suffix}.png"):
            if img in names:
                lines += [f"![{img}]({img})", ""]
    for comparison in summary["comparisons"]:
        lines += [
            f"## {comparison['label']} minus {comparison['baseline']}",
            "",
            "Paired on the same deals and seats; * = the interval excludes 0.",
            "",
            _md_table(["quantity", "difference [95% CI]"], comparison_rows(comparison)),
            "",
        ]
    if "variants.png" in names:
        lines += ["![variants.png](variants.png)", ""]
    meaning = definitions(summary["game"])
    defined = [m for m in summary["variants"][0]["metrics"] if m in meaning]
    if defined:
        lines += ["## What the numbers mean", ""]
        lines += [f"- **{m}**: {meaning[m]}" for m in defined]
        lines.append("")
    return "\n".join(lines)


def write_report(summary: dict[str, Any], records: list[Record], out: Path, plots: bool = True) -> Path:
    """summary.json, report.md and the plots in `out`; returns the report's path."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "summary.json").write_text(json.dumps(to_json(summary), indent=1, ensure_ascii=False) + "\n")
    images = plot(summary, records, out) if plots and records else []
    path = out / "report.md"
    path.write_text(markdown(summary, images))
    return path
