"""The training report of `bodoge train`: learning curves and strength against the heuristic over the
iterations, as matplotlib plots, `report.md` and a self-contained `report.html`."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bodoge.arena.html import page
from bodoge.arena.runner import options_label
from bodoge.train.lookahead import is_lookahead
from bodoge.train.ppo import is_ppo

if TYPE_CHECKING:
    from bodoge.train import TrainConfig


def _title(config: TrainConfig) -> str:
    """The run's game as the report names it, a variant's options after the players (so a variant's
    report never passes for the default game's): hangover, 3 players, hand_size=7."""
    variant = options_label(config.options)
    return f"{config.game}, {config.players} players" + (f", {variant}" if variant else "")


def _num(x: Any, digits: int = 3) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    return f"{x:.{digits}f}"


def _strength_text(s: dict[str, Any] | None) -> str:
    if not s or s.get("mean") is None:
        return "—"
    if s.get("low") is None:
        return _num(s["mean"])
    return f"{s['mean']:.3f} ± {(s['high'] - s['low']) / 2:.3f}"


def _windows_text(config: TrainConfig, history: list[dict[str, Any]]) -> str:
    """How many iterations' samples each iteration learned from: "5 iterations", or, where a resumed
    run changed its window, which iterations had which: "5 iterations (iterations 1–6), then 10
    (7–11)"."""
    spans: list[list[int]] = []  # [window, first iteration, last iteration]
    for i, w in enumerate((h["window"] for h in history), start=1):  # every entry has one (`run`)
        if spans and spans[-1][0] == w:
            spans[-1][2] = i
        else:
            spans.append([w, i, i])
    if len(spans) <= 1:
        return f"{config.window} iteration{'s' if config.window != 1 else ''}"

    def its(first: int, last: int) -> str:
        return str(first) if first == last else f"{first}–{last}"

    (w0, a0, b0), *rest = spans
    later = ", then ".join(f"{w} ({its(a, b)})" for w, a, b in rest)
    return f"{w0} iteration{'s' if w0 != 1 else ''} (iterations {its(a0, b0)}), then {later}"


def _games_text(config: TrainConfig) -> str:
    """Who played the self-play games, and from what the network started."""
    if is_ppo(config.expert):
        later = f"by the network itself (`{config.expert}`), learning from their outcomes"
    elif is_lookahead(config.expert) or config.guide == "none" or not config.expert.startswith("ismcts"):
        later = f"by `{config.expert}`"
    else:
        later = f"by `{config.expert}` guided by the network ({config.guide})"
    if config.start is not None:
        return f"from the weights of `{config.start}`, {config.games} self-play games an iteration {later}"
    return f"{config.games_of(1)} self-play games played by `{config.bootstrap}` first, then {config.games} an iteration {later}"


def markdown(config: TrainConfig, history: list[dict[str, Any]], plots: bool) -> str:
    n = config.players
    lines = [
        f"# Training report: {_title(config)}",
        "",
        f"{len(history)} of {config.iterations} iterations done, {_games_text(config)}; network "
        f"{config.hidden} (ReLU) with policy and value heads, {config.epochs} epochs an iteration on the "
        f"samples of the last {_windows_text(config, history)}.",
        "",
        f"Strength: `nn` (its best move) in one seat against {n - 1} `heuristic`, {config.eval_deals} deals "
        f"each played with it in every seat; win share with its 95% interval over deals; fair = {1 / n:.3f}.",
        "",
        *(
            [
                "With ppo the accuracy is the share of decisions whose best move is the one the network "
                "drew, and the policy loss PPO's (negative where it gained).",
                "",
            ]
            if is_ppo(config.expert)
            else []
        ),
        "| iteration | samples (new) | policy loss (held out) | accuracy (held out) | value loss (held out) "
        "| win share vs heuristic | CPU s |",
        "|---|---|---|---|---|---|---|",
    ]
    for h in history:
        lines.append(
            f"| {h['iteration']} | {h['samples']:,} ({h['new_samples']:,}) | {_num(h['policy_loss'])} "
            f"({_num(h['heldout_policy_loss'])}) | {_num(h['accuracy'])} ({_num(h['heldout_accuracy'])}) "
            f"| {_num(h['value_loss'])} ({_num(h['heldout_value_loss'])}) | {_strength_text(h['strength'])} "
            f"| {h['cpu_seconds']:.0f} |"
        )
    total = sum(h["cpu_seconds"] for h in history)
    lines += ["", f"CPU time in all: {total / 60:.1f} minutes.", ""]
    if plots and history:
        lines += ["![learning curves](curves.png)", "", "![strength](strength.png)", ""]
    return "\n".join(lines)


def draw(out: Path, config: TrainConfig, history: list[dict[str, Any]]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    its = [h["iteration"] for h in history]
    ppo = is_ppo(config.expert)
    fig, ax = plt.subplots(1, 2, figsize=(9, 3.4))
    ax[0].plot(its, [h["policy_loss"] for h in history], "o-", label="policy (train)")
    ax[0].plot(its, [h["heldout_policy_loss"] for h in history], "o--", label="policy (held out)")
    ax[0].plot(its, [h["value_loss"] for h in history], "s-", label="value (train)")
    ax[0].plot(its, [h["heldout_value_loss"] for h in history], "s--", label="value (held out)")
    ax[0].set_xlabel("iteration")
    # PPO's policy loss is its clipped surrogate (negative where it gained), not a cross-entropy, and
    # it has no expert to agree with: the right panel is then how often its best move was the one drawn.
    ax[0].set_ylabel("loss (policy: PPO's; value: cross-entropy)" if ppo else "cross-entropy")
    ax[0].legend(fontsize=7)
    ax[1].plot(its, [h["accuracy"] for h in history], "o-", label="train")
    ax[1].plot(its, [h["heldout_accuracy"] for h in history], "o--", label="held out")
    ax[1].set_xlabel("iteration")
    ax[1].set_ylabel("best move = the move drawn" if ppo else "agrees with the expert")
    ax[1].legend(fontsize=7)
    fig.suptitle(f"{_title(config)}: learning curves")
    fig.tight_layout()
    fig.savefig(out / "curves.png", dpi=90)
    plt.close(fig)

    fig, a = plt.subplots(figsize=(5, 3.4))
    rows = [h for h in history if h["strength"] and h["strength"].get("mean") is not None]
    if rows:
        xs = [h["iteration"] for h in rows]
        means = [h["strength"]["mean"] for h in rows]
        errs = [
            0.0 if h["strength"].get("low") is None else (h["strength"]["high"] - h["strength"]["low"]) / 2
            for h in rows
        ]
        a.errorbar(xs, means, yerr=errs, fmt="o-", capsize=3, label="nn vs heuristics")
    a.axhline(1 / config.players, color="grey", linestyle=":", label="fair")
    a.set_xlabel("iteration")
    a.set_ylabel("win share (95% interval)")
    a.legend(fontsize=7)
    a.set_title(f"{_title(config)}: strength")
    fig.tight_layout()
    fig.savefig(out / "strength.png", dpi=90)
    plt.close(fig)


def write_report(out: Path, config: TrainConfig, history: list[dict[str, Any]], plots: bool = True) -> None:
    if plots:
        draw(out, config, history)
    text = markdown(config, history, plots)
    (out / "report.md").write_text(text)
    images = {}
    if plots:
        images = {name: (out / name).read_bytes() for name in ("curves.png", "strength.png")}
    (out / "report.html").write_text(page(f"bodoge train: {config.game}", text, images))
