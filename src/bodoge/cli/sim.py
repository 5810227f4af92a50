"""`bodoge sim GAME`: many games between agents in parallel, their summary and report (the library:
`bodoge.arena`; the review of some of the games: `bodoge.arena.decided.review_decided`).

A run stopped by Ctrl-C keeps its finished games and exits with 130.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from bodoge.arena.runner import MAX_GAMES
from bodoge.cli.common import (
    Backend,
    DrawPlots,
    FirstSeed,
    GameName,
    Jobs,
    Players,
    ReportLang,
    ShowProgress,
    check_address,
    check_backend,
    check_lang,
    console,
    error_line,
    fail,
    integers,
    path_markup,
    progress_bar,
    split_setting,
    typed_value,
    worker_count,
)
from bodoge.errors import BodogeError

MAX_SIM_REVIEWS = 100  # games `sim --review` reviews (a Tokkuri game takes about a minute on 2 cores)

#: The most games a finding's experiment plays (paired with the run's first games).
EXPERIMENT_GAMES = 1000


def sim(
    game: GameName,
    players: Players = None,
    agents: Annotated[
        str,
        typer.Option(
            help="Agent specs by starting seat, comma-separated, e.g. "
            "'ismcts:iterations=2000,rollout=heuristic,heuristic' (a part with '=' and no ':' belongs to "
            "the agent before it). Fewer than the players: the last one fills the other seats."
        ),
    ] = "random",
    games: Annotated[
        int,
        typer.Option(
            callback=integers(1, MAX_GAMES),
            help="Games per variant. With rotation and duplicate deals: games/players deals. "
            f"At most {MAX_GAMES:,} games in all variants together.",
        ),
    ] = 1000,
    seed: FirstSeed = 1,
    jobs: Jobs = None,
    backend: Backend = "pool",
    address: Annotated[
        str | None, typer.Option(help="Ray cluster address for --backend ray (default: a local Ray).")
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(help="Folder for games.jsonl, run.json, summary.json, report.md and the plots."),
    ] = None,
    settings: Annotated[
        list[str] | None,
        typer.Option(
            "--set",
            help="A game option as name=value (JSON value); several values name=11,12,13 make variants, "
            "played on the same deals and compared. Repeatable.",
        ),
    ] = None,
    rotate: Annotated[bool, typer.Option(help="Rotate the agents through the seats.")] = True,
    duplicate: Annotated[bool, typer.Option(help="Replay each deal once per rotation.")] = True,
    resume: Annotated[
        bool, typer.Option(help="Continue the run in --out, playing only missing games.")
    ] = False,
    force: Annotated[bool, typer.Option(help="Replace a run already in --out.")] = False,
    progress: ShowProgress = True,
    plots: DrawPlots = True,
    experiments: Annotated[
        int,
        typer.Option(
            callback=integers(0, 8),
            help="Play the experiments of this many dominant_choice findings (a counterfactual agent "
            "that avoids the dominant option, on the same deals, at most 1000 games) and report what "
            "avoiding it costs in win share; 0: none. See docs/findings.md.",
        ),
    ] = 1,
    review: Annotated[
        int,
        typer.Option(
            callback=integers(0, MAX_SIM_REVIEWS),
            help="Review this many of the games (every seat, the default budget; see docs/review.md) and "
            "report where the games are decided (the moves where win chances swing most) and the "
            f"agents' mean loss per kind of decision; 0: none (at most {MAX_SIM_REVIEWS}).",
        ),
    ] = 0,
    lang: ReportLang = "en",
) -> None:
    """Play many games between agents in parallel; print win shares, seats, ratings and findings; write
    a report (report.md, report.html, summary.json)."""
    import concurrent.futures.process

    from bodoge import arena
    from bodoge.arena import runner

    # Everything is checked before any work: flags, options of every variant, every agent, the folder.
    check_backend(backend)
    check_address(address, backend)
    check_lang(lang)
    if resume and force:
        fail("--resume continues the run in --out and --force replaces it: give one of them")
    if resume and out is None:
        fail("--resume needs --out, the folder of the run to continue")
    variant_values: dict[str, list[Any]] = {}
    for item in settings or []:
        name, value = split_setting(item)
        if name in variant_values:
            fail(f"--set {name} is given twice; give its values once, comma-separated (--set {name}=1,2)")
        variant_values[name] = [typed_value(v.strip(), f"--set {name}") for v in arena.split_top_level(value)]
    specs = arena.split_agents(agents)
    if not specs:
        fail("--agents needs at least one agent spec (e.g. random, heuristic, ismcts)")
    try:
        variants = arena.variants_from_settings(variant_values)
        n = arena.make_game(game, players, variants[0]).num_players
        if len(specs) > n:
            fail(f"{len(specs)} agents for {n} players: give at most one spec per seat")
        specs += [specs[-1]] * (n - len(specs))
        config = arena.SimConfig(
            game=game,
            players=n,
            agents=specs,
            games=games,
            seed=seed,
            variants=variants,
            rotate=rotate,
            duplicate=duplicate,
        )
        config.check()
        if backend == "ray":
            runner.check_ray()
        if out is not None:
            runner.check_out(out)
    except BodogeError as exc:
        fail(str(exc))
    # deals shared with a run beside this one under another seed: neither independent nor paired
    overlaps = runner.seed_overlaps(config, out) if out is not None and not resume else []
    for warning in overlaps:
        console.print(f"[yellow]Warning:[/yellow] {escape(warning)}", soft_wrap=True)
    workers = worker_count(jobs)
    total = games * len(variants)
    bar = progress_bar(escape(f"{game} {n}p"), progress)
    task = bar.add_task("games", total=total)
    start = time.perf_counter()
    first_done: list[int] = []

    def on_progress(done: int, all_games: int) -> None:
        if not first_done:  # the run has passed its checks: show the bar from now on
            first_done.append(done)
            bar.start()
        bar.update(task, completed=done, total=all_games)

    interrupted = False
    games_file = out / "games.jsonl" if out is not None else None
    try:
        records = arena.run(
            config,
            out=out,
            jobs=workers,
            backend=backend,
            resume=resume,
            overwrite=force,
            address=address,
            on_progress=on_progress,
        )
    except KeyboardInterrupt:
        bar.stop()
        interrupted = True
        records = arena.kept_records(games_file, games)
        console.print(
            f"[yellow]Interrupted:[/yellow] {len(records)} of {total} games are finished"
            + (
                f" and kept in {path_markup(games_file)}; --resume continues the run."
                if games_file is not None
                else "."
            ),
            soft_wrap=True,
        )
    except BodogeError as exc:
        bar.stop()
        fail(str(exc))
    except (OSError, concurrent.futures.process.BrokenProcessPool) as exc:
        bar.stop()
        kept = len(arena.kept_records(games_file, games))
        why = "a worker process died (killed, or out of memory?)" if not isinstance(exc, OSError) else exc
        error_line(
            f"the run stopped: {why}"
            + (f"; {kept} finished games are kept in {games_file}, --resume continues" if games_file else "")
        )
        raise typer.Exit(1) from None
    finally:
        bar.stop()
    elapsed = time.perf_counter() - start
    if not records:
        raise typer.Exit(130 if interrupted else 0)
    summary = arena.summarize(records, config)
    summary["warnings"] += overlaps
    if experiments and not interrupted:
        measure_costs(summary, records, config, experiments, workers, backend, address)
    if review and not interrupted:
        review_games(summary, records[:review], config.seed, workers, backend, address, progress)
    arena.print_summary(summary, console)
    played = len(records) - (first_done[0] if first_done else 0)
    if played > 0:
        actions = sum(r["arena"]["length"] for r in records[-played:])
        console.print(
            f"throughput: {played / elapsed:.2f} games/s, {actions / elapsed:,.0f} actions/s "
            f"({played} games in {elapsed:.1f} s, {workers} {backend} worker(s))"
        )
    if out is not None:
        report = arena.write_report(summary, records, out, plots=plots, lang=lang)
        console.print(
            f"records: {path_markup(out / 'games.jsonl')}; report: {path_markup(report)}", soft_wrap=True
        )
    if interrupted:
        raise typer.Exit(130)


def review_games(
    summary: dict[str, Any],
    records: list[dict[str, Any]],
    seed: int,
    workers: int,
    backend: str,
    address: str | None,
    progress: bool,
) -> None:
    """Review `records` (every seat) and put where they were decided into the summary (`review`),
    with a progress bar; an interrupt or a failure leaves the review out and says so."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from bodoge.arena.decided import review_decided

    bar = Progress(
        TextColumn("review"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), console=console
    )
    task = bar.add_task("review", total=None)

    def step(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    if progress:
        bar.start()
    try:
        decided = review_decided(
            records, seed=seed, jobs=workers, progress=step, backend=backend, address=address
        )
    except KeyboardInterrupt:
        bar.stop()
        console.print("[yellow]Interrupted:[/yellow] the review is left out of the report")
        return
    except BodogeError as exc:
        bar.stop()
        error_line(f"the games could not be reviewed: {exc}")
        return
    finally:
        bar.stop()
    summary["review"] = decided


def measure_costs(
    summary: dict[str, Any],
    records: list[dict[str, Any]],
    config: Any,
    most: int,
    workers: int,
    backend: str,
    address: str | None,
) -> None:
    """Play the experiments of the `most` most important dominant_choice findings (arena.findings),
    each of at most EXPERIMENT_GAMES games, saying each one as it starts; an interrupt or a failure
    leaves them out and says so."""
    from dataclasses import replace

    from bodoge import arena
    from bodoge.arena import findings

    def play(experiment: Any) -> list[dict[str, Any]]:
        games = min(experiment.games, EXPERIMENT_GAMES)
        console.print(
            f"experiment: {escape(experiment.agents[0])} in {games} games (--experiments 0 skips it)",
            highlight=False,
            soft_wrap=True,
        )
        return arena.run(replace(experiment, games=games), jobs=workers, backend=backend, address=address)

    try:
        findings.measure_costs(summary["findings"], records, config, play, most=most)
    except KeyboardInterrupt:
        console.print("[yellow]Interrupted:[/yellow] the experiment is left out of the findings")
    except BodogeError as exc:
        error_line(f"an experiment could not be played: {exc}")
