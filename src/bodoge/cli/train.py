"""`bodoge train GAME`: a policy and value network learnt by self-play for the `nn` agent (the
library: `bodoge.train`; docs/models.md)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape

from bodoge.cli.common import (
    DrawPlots,
    GameName,
    Players,
    SetOptions,
    console,
    fail,
    integers,
    parse_settings,
    path_markup,
    printable,
)
from bodoge.core.options import parse_text
from bodoge.core.registry import game_class
from bodoge.errors import BodogeError

if TYPE_CHECKING:
    from rich.progress import Progress


def train(
    game: GameName,
    players: Players = None,
    settings: SetOptions = None,
    iterations: Annotated[
        int,
        typer.Option(callback=integers(1, 1000), help="Expert-iteration rounds (self-play, learn, measure)."),
    ] = 4,
    games: Annotated[
        int, typer.Option(callback=integers(1, 100_000), help="Self-play games per iteration.")
    ] = 40,
    bootstrap: Annotated[
        str,
        typer.Option(
            help="The agent that plays the first iteration's games (every seat), or lookahead "
            "(the teacher who sees every hand: docs/models.md)."
        ),
    ] = "heuristic",
    bootstrap_games: Annotated[
        int | None,
        typer.Option(callback=integers(1, 100_000), help="Games of the first iteration (default: --games)."),
    ] = None,
    expert: Annotated[
        str,
        typer.Option(
            help="The agent that plays the later iterations, guided by the last network (--guide), or "
            "lookahead[:rollout=R,temperature=T,bonus=B] (with --bootstrap lookahead), or "
            "ppo[:against=heuristic|self,clip=C,entropy=E,lambda=L,explore=X] (the network plays and "
            "learns from its games' outcomes; with --window 1), or "
            "nfsp[:anticipatory=A,epsilon=E,sl_lr=S,rl_lr=R,learn_every=K,min_buffer=M,reservoir=C] "
            "(OpenSpiel's NFSP from scratch, --games episodes an iteration; docs/models.md)."
        ),
    ] = "ismcts:iterations=100",
    start: Annotated[
        Path | None,
        typer.Option(
            help="Start from this model's weights (e.g. a shipped one; the same --hidden) instead of a "
            "bootstrap iteration."
        ),
    ] = None,
    guide: Annotated[
        str, typer.Option(help="How the expert (an ismcts) uses the network: none, prior, value or both.")
    ] = "prior",
    hidden: Annotated[
        str, typer.Option(help="Widths of the network's hidden layers, comma-separated.")
    ] = "128,128",
    epochs: Annotated[
        int, typer.Option(callback=integers(1, 1000), help="Passes over the samples an iteration.")
    ] = 8,
    lr: Annotated[
        float, typer.Option(help="Adam's learning rate (above 0, below 1; lower for ppo, e.g. 0.0003).")
    ] = 1e-3,
    window: Annotated[
        int,
        typer.Option(
            callback=integers(1, 1000),
            help="Learn from the samples of this many last iterations (may change on --resume).",
        ),
    ] = 3,
    eval_deals: Annotated[
        int,
        typer.Option(
            callback=integers(0, 100_000),
            help="Deals to measure each iteration's network on against n-1 heuristics (each played with it "
            "in every seat); 0: do not measure.",
        ),
    ] = 30,
    seed: Annotated[
        int, typer.Option(callback=integers(0, 2**31), help="Seed of the deals and the network.")
    ] = 1,
    jobs: Annotated[
        int, typer.Option(callback=integers(1, 256), help="Processes that play the self-play games.")
    ] = 1,
    out: Annotated[Path | None, typer.Option(help="Folder of the run (default: runs/train/GAME-Np).")] = None,
    resume: Annotated[
        bool, typer.Option(help="Continue the run in --out after its last checkpoint.")
    ] = False,
    force: Annotated[bool, typer.Option(help="Replace a run already in --out.")] = False,
    progress: Annotated[bool, typer.Option(help="Show progress.")] = True,
    plots: DrawPlots = True,
) -> None:
    """Learn a policy and a value network by self-play (expert iteration) for the `nn` agent.

    Writes into --out the model (model.npz + its card model.json), a checkpoint after every iteration
    (--resume continues after Ctrl-C), and report.md / report.html with the learning curves and the
    strength against the heuristic. --set trains on a variant: every game of the run, the measures
    included, is played with those options, and the card records them. Needs the train extra (pip
    install 'bodoge[train]'); see docs/models.md."""

    from bodoge.train import TrainConfig
    from bodoge.train import run as train_run
    from bodoge.train.nfsp import is_nfsp

    try:
        n = game_class(game)(players).num_players if players is None else players
        widths = [parse_text(w.strip()) for w in hidden.split(",") if w.strip()]
        if is_nfsp(expert):
            unused = {
                "--bootstrap": bootstrap != "heuristic",
                "--bootstrap-games": bootstrap_games is not None,
                "--start": start is not None,
                "--guide": guide != "prior",
                "--epochs": epochs != 8,
                "--lr": lr != 1e-3,
                "--window": window != 3,
                "--jobs": jobs != 1,
                "--resume": resume,
            }
            given = [name for name, used in unused.items() if used]
            if given:
                fail(
                    f"--expert nfsp does not take {', '.join(given)}: OpenSpiel's NFSP plays every seat "
                    "itself, from scratch, in one process (its learning rates: nfsp:sl_lr=…,rl_lr=…)"
                )
            _train_nfsp(
                game,
                n,
                parse_settings(settings),
                expert,
                iterations,
                games,
                widths,
                eval_deals,
                seed,
                out,
                force,
                progress,
            )
            return
        config = TrainConfig(
            game=game,
            players=n,
            options=parse_settings(settings),
            iterations=iterations,
            games=games,
            bootstrap=bootstrap,
            bootstrap_games=bootstrap_games,
            start=None if start is None else str(start),
            expert=expert,
            guide=guide,
            hidden=widths,
            epochs=epochs,
            lr=lr,
            window=window,
            eval_deals=eval_deals,
            seed=seed,
        )
        config.check()
    except BodogeError as exc:
        fail(str(exc))
    folder = out if out is not None else Path("runs") / "train" / f"{game}-{n}p"
    bar, on_step = progress_bar(f"{game} {n}p", progress)

    history: list[dict[str, Any]] = []
    try:
        with bar:
            history = train_run(
                config, folder, resume=resume, force=force, jobs=jobs, on_step=on_step, plots=plots
            )
    except KeyboardInterrupt:
        console.print(
            f"[yellow]Interrupted:[/yellow] the iterations finished so far are kept in {path_markup(folder)}; "
            "--resume continues the run.",
            soft_wrap=True,
        )
        raise typer.Exit(130) from None
    except BodogeError as exc:
        fail(str(exc))
    print_history(history)
    console.print(
        f"model: {path_markup(folder / 'model.npz')}; report: {path_markup(folder / 'report.md')}",
        soft_wrap=True,
    )


def _train_nfsp(
    game: str,
    players: int,
    options: dict[str, Any],
    expert: str,
    iterations: int,
    games: int,
    hidden: list[Any],
    eval_deals: int,
    seed: int,
    out: Path | None,
    force: bool,
    progress: bool,
) -> None:
    """`--expert nfsp`: OpenSpiel's NFSP, every seat learning, `iterations` × `games` episodes; seat
    0's average policy exported as the model (bodoge.train.nfsp)."""

    from bodoge.train.nfsp import NFSPConfig
    from bodoge.train.nfsp import run as nfsp_run

    try:
        config = NFSPConfig.from_spec(
            expert,
            game=game,
            players=players,
            options=options,
            iterations=iterations,
            games=games,
            hidden=hidden,
            eval_deals=eval_deals,
            seed=seed,
        )
        config.check()
    except BodogeError as exc:
        fail(str(exc))
    folder = out if out is not None else Path("runs") / "train" / f"nfsp-{game}-{players}p"
    bar, on_step = progress_bar(f"{game} {players}p", progress)

    try:
        with bar:
            history = nfsp_run(config, folder, force=force, on_step=on_step)
    except KeyboardInterrupt:
        # (as the main path's: every finished iteration wrote its model; NFSP has no --resume)
        console.print(
            f"[yellow]Interrupted:[/yellow] the model of the last finished iteration, if any, is in "
            f"{path_markup(folder)}.",
            soft_wrap=True,
        )
        raise typer.Exit(130) from None
    except BodogeError as exc:
        fail(str(exc))
    for h in history:
        s = h["strength"]
        share = "" if not s or s["mean"] is None else f", win share vs heuristic {s['mean']:.3f}"
        if s and s.get("low") is not None:
            share += f" ± {(s['high'] - s['low']) / 2:.3f} (fair {s['fair']:.3f})"
        console.print(
            f"iteration {h['iteration']}: {h['episodes']:,} episodes, {h['decisions']:,} decisions{share}",
            soft_wrap=True,
        )
    console.print(f"model: {path_markup(folder / 'model.npz')}", soft_wrap=True)


def progress_bar(label: str, shown: bool) -> tuple[Progress, Callable[[str, int, int], None]]:
    """A training's spinner (hidden unless `shown`) and the `on_step` that tells it where the run is."""
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    bar = Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        TimeElapsedColumn(),
        console=console,
        disable=not shown,
    )
    task = bar.add_task(label, total=None)

    def on_step(what: str, iteration: int, total: int) -> None:
        bar.update(task, description=escape(f"{label}: iteration {iteration}/{total}: {printable(what)}"))

    return bar, on_step


def print_history(history: list[dict[str, Any]]) -> None:
    """One line per iteration of a training run: its samples, agreement and strength."""
    for h in history:
        s = h["strength"]
        share = "" if not s or s["mean"] is None else f", win share vs heuristic {s['mean']:.3f}"
        if s and s.get("low") is not None:
            share += f" ± {(s['high'] - s['low']) / 2:.3f} (fair {s['fair']:.3f})"
        console.print(
            f"iteration {h['iteration']}: {h['samples']:,} decisions, agrees with the expert "
            f"{h['heldout_accuracy']:.3f} (held out){share}",
            soft_wrap=True,
        )
