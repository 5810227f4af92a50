"""`bodoge tune GAME`: a search of option values toward several goals at once, with Optuna (the
library: `bodoge.arena.tune` and `bodoge.arena.tune_report`; docs/tuning.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from bodoge.cli.common import (
    Backend,
    DrawPlots,
    GameName,
    Jobs,
    Players,
    ReportLang,
    ShowProgress,
    check_backend,
    check_lang,
    console,
    fail,
    integers,
    path_markup,
    worker_count,
)
from bodoge.core.game import MAX_SEED
from bodoge.errors import BodogeError


def tune(
    game: GameName,
    players: Players = None,
    space: Annotated[
        list[str] | None,
        typer.Option(
            help="An option to vary: name=lo..hi (integers), name=a,b,c (choices), or one entry of a map "
            "option for one player count, e.g. drunk_limit.4=10..14. Repeatable; other options keep "
            "their values."
        ),
    ] = None,
    goal: Annotated[
        list[str] | None,
        typer.Option(
            help="What to aim for (repeatable): balance (minimize the largest gap between a seat's win "
            "share and the fair share), skill (maximize the first agent's win share above fair), drama "
            "(maximize lead changes per game), or NUMBER=lo..hi (minimize the distance of a reported "
            "number's mean from the range, e.g. length=40..60, minutes=15..25). See docs/tuning.md."
        ),
    ] = None,
    require: Annotated[
        list[str] | None,
        typer.Option(
            help="A constraint on a reported number or goal, e.g. tie<0.1 (<, <=, >, >=). Repeatable."
        ),
    ] = None,
    agents: Annotated[
        str | None,
        typer.Option(
            help="Agent specs by starting seat, as in sim (default: heuristic,random with the skill goal, else heuristic)."
        ),
    ] = None,
    trials: Annotated[int, typer.Option(callback=integers(1, 10_000), help="Trials (variants) to run.")] = 12,
    games: Annotated[
        int,
        typer.Option(
            callback=integers(2, 100_000),
            help="Games per trial, on the same deals for every trial (halves: a trial stops after the first "
            "half when a constraint is broken past its interval). More games narrow every interval "
            "(by the square root of the deals); see docs/tuning.md.",
        ),
    ] = 200,
    seed: Annotated[
        int, typer.Option(callback=integers(0, MAX_SEED), help="Seed of the first deal and of the search.")
    ] = 1,
    jobs: Jobs = None,
    backend: Backend = "pool",
    address: Annotated[str | None, typer.Option(help="Ray cluster address for --backend ray.")] = None,
    out: Annotated[
        Path, typer.Option(help="Folder for the study, each trial's games, tune.json and the reports.")
    ] = Path("results/tune"),
    study: Annotated[
        str | None,
        typer.Option(
            help="Optuna storage URL of the study (default: sqlite:///OUT/study.db; postgresql://… to share it)."
        ),
    ] = None,
    resume: Annotated[bool, typer.Option(help="Go on with the study in --out (or --study).")] = False,
    progress: ShowProgress = True,
    plots: DrawPlots = True,
    recheck_games: Annotated[
        int,
        typer.Option(
            callback=integers(0, 100_000),
            help="Play the recommended options again with the agents choosing freely (no avoid=/prefer=/"
            "at=) at every player count the game supports, this many games per count, and report what "
            "changes (docs/tuning.md); 0: none.",
        ),
    ] = 0,
    lang: ReportLang = "en",
) -> None:
    """Search option values toward several goals at once (Optuna); write the Pareto set, a
    recommended variant and the `bodoge sim` command that reproduces it (tune.json, report.md, report.html)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from bodoge import arena
    from bodoge.arena import runner, tune_recheck, tune_report
    from bodoge.arena import tune as tuning

    try:
        import optuna
    except ImportError:
        fail("bodoge tune needs Optuna: pip install 'bodoge[tune]'")
    check_backend(backend)
    check_lang(lang)
    goals = goal or ["balance"]
    try:
        dims = tuning.parse_space(game, players, space or [])
        parsed_goals = [tuning.parse_goal(g) for g in goals]
        if len({g.name for g in parsed_goals}) != len(parsed_goals):
            fail("each --goal once")
        for c in require or []:  # refused now, before any trial (the objective parses them again)
            tuning.parse_constraint(c)
        n = arena.make_game(game, players, {}).num_players
        specs = (
            arena.split_agents(agents)
            if agents
            else (["heuristic", "random"] if "skill" in goals else ["heuristic"])
        )
        if "skill" in goals and len(set(specs)) < 2:
            fail("the skill goal compares agents: give at least two, e.g. --agents heuristic,random")
        if len(specs) > n:
            fail(f"{len(specs)} agents for {n} players: give at most one spec per seat")
        specs += [specs[-1]] * (n - len(specs))
        config = tuning.TuneConfig(game, n, list(space or []), goals, list(require or []), specs, games, seed)
        arena.SimConfig(game=game, players=n, agents=specs, games=games, seed=seed).check()
        if backend == "ray":
            runner.check_ray()
        out.mkdir(parents=True, exist_ok=True)
        storage = study or f"sqlite:///{out / 'study.db'}"
        optuna.logging.set_verbosity(optuna.logging.WARNING)
        the_study = tuning.open_study(config, storage, resume)
    except BodogeError as exc:
        fail(str(exc))
    workers = worker_count(jobs)
    done_before = len([t for t in the_study.trials if t.state.is_finished()])
    left = max(0, trials - done_before)
    bar = Progress(
        TextColumn(escape(f"tune {game} {n}p")),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.description}"),
        TimeRemainingColumn(),
        console=console,
        disable=not progress,
    )
    task = bar.add_task("", total=trials, completed=done_before)

    objective = tuning.objective(the_study, config, dims, out, workers, backend, address)

    def on_trial(study_: Any, trial: Any) -> None:
        best = tuning.result(study_, config)["recommended"]
        bar.update(task, advance=1, description=f"best so far: trial {best['trial']}" if best else "")

    interrupted = False
    with bar:
        try:
            the_study.optimize(objective, n_trials=left, callbacks=[on_trial], catch=())
        except KeyboardInterrupt:
            interrupted = True
        except BodogeError as exc:
            fail(str(exc))
    outcome = tuning.result(the_study, config)
    outcome["findings"] = tuning.recommended_findings(outcome, out)
    if recheck_games and not interrupted:
        try:
            outcome["recheck"] = tune_recheck.recheck(
                outcome, None, recheck_games, seed, workers, backend, address, out / "recheck"
            )
        except BodogeError as exc:
            fail(str(exc))
    tune_report.write(outcome, out, plots=plots, lang=lang)
    print_outcome(outcome, out)
    if interrupted:
        console.print("interrupted: the study is kept; --resume goes on with it")
        raise typer.Exit(130)


def print_outcome(outcome: dict[str, Any], out: Path) -> None:
    """The recommended trial, the command that reproduces it and its findings, as `tune` prints them."""
    best = outcome["recommended"]
    if best:
        console.print(f"recommended: trial {best['trial']}: {escape(tuning_options_text(best['options']))}")
        console.print(f"  reproduce: {escape(best['command'])}")
        for i, f in enumerate(outcome["findings"], 1):
            console.print(f"  finding {i}. [bold]{escape(f['kind'])}[/bold]: {escape(f['text']['en'])}")
            console.print(f"     experiment: {escape(f['experiment'])}", soft_wrap=True)
        if not outcome["findings"]:
            console.print("  no findings on the recommended trial (docs/findings.md)")
        for count in (outcome.get("recheck") or {}).get("counts", []):
            if count.get("new_findings"):
                console.print(
                    f"  with free agents at {count['players']} players: new findings "
                    f"{', '.join(count['new_findings'])} (report.md says more)"
                )
    console.print(f"wrote {escape(path_markup(out / 'report.md'))}, report.html and tune.json")


def tuning_options_text(options: dict[str, Any]) -> str:
    """A trial's options as name=value, comma-separated (values as compact JSON)."""
    return ", ".join(f"{k}={json.dumps(v, separators=(',', ':'))}" for k, v in options.items())
