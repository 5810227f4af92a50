"""What `bodoge tune` writes: `tune.json` (everything), `report.md` (the findings on the recommended
variant, the variant and how to reproduce it, the Pareto set, every goal defined) and a self-contained
`report.html` (the same rendered, with its plots embedded beside the tables they show: the Pareto
front after the Pareto set, each goal against each option after the trials)."""

from __future__ import annotations

import base64
import io
import json
from pathlib import Path
from typing import Any

from bodoge.arena import html


def write(result: dict[str, Any], out: Path, plots: bool = True) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / "tune.json").write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")
    markdown = report_md(result)
    (out / "report.md").write_text(markdown)
    images = figures(result) if plots else []
    (out / "report.html").write_text(report_html(result, images))


def _value(entry: dict[str, Any] | None) -> str:
    if not entry or entry.get("mean") is None:
        return "—"
    mean, low, high = entry["mean"], entry.get("low"), entry.get("high")
    if low is None or high is None:
        return f"{mean:.3f}"
    return f"{mean:.3f} ({low:.3f} … {high:.3f})"


def _options(options: dict[str, Any]) -> str:
    return ", ".join(f"{k}={json.dumps(v, separators=(',', ':'))}" for k, v in options.items())


def _table(result: dict[str, Any], trials: list[dict[str, Any]]) -> list[str]:
    goals = [g["name"] for g in result["goals"]]
    required = [f"require {c}" for c in result["config"]["require"]]
    head = ["trial", "options", *goals, *required]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in trials:
        cells = [str(row["trial"]), _options(row["options"])]
        cells += [_value(row["values"].get(name)) for name in goals + required]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def _findings(result: dict[str, Any]) -> list[str]:
    found = result.get("findings")
    best = result.get("recommended")
    if not best:
        return []
    lines = [f"## Findings on the recommended variant (trial {best['trial']})", ""]
    if not found:
        return [
            *lines,
            "No findings: no number of its games lies clearly past a finding's threshold (docs/findings.md).",
            "",
        ]
    lines += [
        "What its numbers mean for the design, most important first, each only where its 95% interval "
        "lies past its threshold (docs/findings.md). A tune plays no experiments: run a finding's "
        "command to test it.",
        "",
    ]
    for i, f in enumerate(found, 1):
        lines += [
            f"{i}. **{f['kind']}**: {f['text']['en']}",
            "",
            "   ```sh",
            f"   {f['experiment']}",
            "   ```",
            "",
        ]
    return lines


def report_md(result: dict[str, Any], figures: dict[str, list[str]] | None = None) -> str:
    """The report; `figures` puts images (Markdown lines) after a section: 'pareto', 'trials'."""
    figures = figures or {}
    config = result["config"]
    trials = result["trials"]
    done = [t for t in trials if t["state"] == "complete"]
    front = [t for t in done if t["trial"] in result["pareto"]]
    lines = [
        f"# Tuning {config['game']}, {config['players']} players",
        "",
        f"Space: {', '.join(config['space'])}. Goals: {', '.join(g['name'] for g in result['goals'])}."
        + (f" Constraints: {', '.join(config['require'])}." if config["require"] else ""),
        f"Agents by starting seat: {', '.join(config['agents'])}; {config['games']} games a trial, "
        f"seed {config['seed']}: every trial plays the same deals, seats rotated.",
        f"Trials: {len(done)} variants played, {len(trials) - len(done)} stopped early (a constraint "
        "broken past its interval after half their games); a variant the search proposed again is "
        "listed once.",
        "",
    ]
    lines += _findings(result)
    recommended = result.get("recommended")
    if recommended:
        lines += [
            "## Recommended",
            "",
            f"Trial {recommended['trial']}: {_options(recommended['options'])}: {recommended['reason']}.",
            "",
            "Its numbers again, with the full report of `bodoge sim`:",
            "",
            "```sh",
            recommended["command"],
            "```",
            "",
        ]
    else:
        lines += ["No trial met every constraint yet.", ""]
    lines += [
        "## The Pareto set",
        "",
        "No other trial is at least as good on every goal and better on one.",
        "",
    ]
    lines += _table(result, front)
    lines += ["", *figures.get("pareto", [])]
    lines += ["", "## Every trial", ""]
    lines += _table(result, sorted(trials, key=lambda t: t["trial"]))
    lines += ["", *figures.get("trials", [])]
    lines += ["", "## Definitions", ""]
    for goal in result["goals"]:
        lines.append(f"- **{goal['name']}** ({goal['direction']}): {goal['definition']}.")
    for c in config["require"]:
        lines.append(
            f"- **require {c}**: a trial counts only if it holds (its mean; a trial stops early when its whole interval breaks it)."
        )
    lines += [
        "- **(a … b)**: the 95% interval over deals (Student t; games of one deal averaged first). Two "
        "trials are told apart on a goal only where their intervals do not overlap; more games per "
        "trial (--games) narrow every interval by the square root of the deals.",
        "- **trial**: one variant, numbered in the order the search proposed it (Optuna's TPE sampler).",
        "",
    ]
    return "\n".join(lines)


def figures(result: dict[str, Any]) -> list[tuple[str, str]]:
    """(title, base64 PNG): the Pareto front (first two goals, or the goal by trial), each goal
    against each option."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    done = [t for t in result["trials"] if t["state"] == "complete"]
    goals = [g["name"] for g in result["goals"]]
    if not done:
        return []
    out = []

    def png(fig: Any) -> str:
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=90, bbox_inches="tight")
        plt.close(fig)
        return base64.b64encode(buffer.getvalue()).decode()

    fig, ax = plt.subplots(figsize=(5.5, 4))
    front = set(result["pareto"])
    xs = [t["values"][goals[0]]["mean"] for t in done]
    ys = [t["values"][goals[1]]["mean"] for t in done] if len(goals) > 1 else [t["trial"] for t in done]
    colors = ["#b3412f" if t["trial"] in front else "#999999" for t in done]
    ax.scatter(xs, ys, c=colors)
    for t, x, y in zip(done, xs, ys, strict=True):
        ax.annotate(str(t["trial"]), (x, y), fontsize=7, xytext=(3, 3), textcoords="offset points")
    ax.set_xlabel(goals[0])
    ax.set_ylabel(goals[1] if len(goals) > 1 else "trial")
    ax.set_title("Pareto front (red)")
    out.append(("Pareto front", png(fig)))
    names = sorted({k for t in done for k in _flat(t["options"])})
    for goal in goals:
        for name in names:
            points = [(_flat(t["options"]).get(name), t["values"][goal]) for t in done]
            numeric = [
                (float(x), v) for x, v in points if isinstance(x, int | float) and not isinstance(x, bool)
            ]
            if not numeric:
                continue
            fig, ax = plt.subplots(figsize=(4.5, 3.2))
            ax.errorbar(
                [x for x, _ in numeric],
                [v["mean"] for _, v in numeric],
                yerr=[  # never below 0 (a study written before range goals' intervals held their mean)
                    [
                        max(0.0, v["mean"] - (v["low"] if v["low"] is not None else v["mean"]))
                        for _, v in numeric
                    ],
                    [
                        max(0.0, (v["high"] if v["high"] is not None else v["mean"]) - v["mean"])
                        for _, v in numeric
                    ],
                ],
                fmt="o",
                capsize=3,
            )
            ax.set_xlabel(name)
            ax.set_ylabel(goal)
            out.append((f"{goal} against {name}", png(fig)))
    return out


def _flat(options: dict[str, Any]) -> dict[str, Any]:
    """Options with map entries spread out (`drunk_limit.4`), as the space names them."""
    flat: dict[str, Any] = {}
    for k, v in options.items():
        if isinstance(v, dict):
            for key, value in v.items():
                flat[f"{k}.{key}"] = value
        else:
            flat[k] = v
    return flat


def report_html(result: dict[str, Any], images: list[tuple[str, str]]) -> str:
    """One file, nothing fetched: the report rendered (markdown-it-py), the Pareto front beside the
    Pareto set and each goal against each option after the trials."""
    placed: dict[str, list[str]] = {"pareto": [], "trials": []}
    for title, data in images:
        where = "pareto" if title == "Pareto front" else "trials"
        placed[where].append(f"![{title}](data:image/png;base64,{data})")
    placed = {k: [" ".join(v)] if v else [] for k, v in placed.items()}  # side by side
    return html.page("bodoge tune: " + result["config"]["game"], report_md(result, placed))
