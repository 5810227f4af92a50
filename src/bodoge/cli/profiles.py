"""`bodoge profiles GAME --choice C --out DIR`: every profile of "always C" / "never C" at the seats,
its equilibria and their outcome in public (the library: `bodoge.arena.profiles`; docs/profiles.md)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.markup import escape
from rich.table import Table

from bodoge.arena import profiles as profile_analysis
from bodoge.cli.common import (
    FirstSeed,
    GameName,
    Jobs,
    Players,
    SetOptions,
    ShowProgress,
    console,
    error_line,
    fail,
    integers,
    parse_settings,
    path_markup,
    printable,
    progress_bar,
    worker_count,
)
from bodoge.errors import BodogeError


def profiles(
    game: GameName,
    choice: Annotated[
        str,
        typer.Option(
            help="The choice: the start of an action's text (e.g. declare in Hangover, troika in Troika). "
            "A seat either always takes it when it is legal or never does."
        ),
    ],
    out: Annotated[Path, typer.Option(help="Folder for profiles.json and report.md (a new or empty one).")],
    players: Players = None,
    games: Annotated[
        int,
        typer.Option(
            callback=integers(1, profile_analysis.MAX_GAMES),
            help="Games per profile, on the same deals in every profile (2^players profiles; at most "
            f"{profile_analysis.MAX_GAMES} per profile and {profile_analysis.MAX_TOTAL:,} games in all).",
        ),
    ] = 200,
    seed: FirstSeed = 1,
    agent: Annotated[
        str,
        typer.Option(
            help="The agent both roles wrap: always = AGENT:prefer=CHOICE, never = AGENT:avoid=CHOICE."
        ),
    ] = "heuristic",
    jobs: Jobs = None,
    settings: SetOptions = None,
    force: Annotated[bool, typer.Option(help="Write into --out even if it is not empty.")] = False,
    progress: ShowProgress = True,
) -> None:
    """Play every profile of "always CHOICE" / "never CHOICE" at the seats on the same deals; report
    the pure and mixed equilibria of the choice and its outcome when made in public in seat order
    (profiles.json, report.md). See docs/profiles.md."""

    from bodoge.arena import runner

    # Everything is checked before any game: the game, players, choice, agent, sizes and the folder.
    try:
        config = profile_analysis.prepare(game, players, choice, games, seed, agent, parse_settings(settings))
        runner.check_out(out)
    except BodogeError as exc:
        fail(str(exc))
    try:
        crowded = out.is_dir() and any(out.iterdir())
    except OSError as exc:
        fail(f"--out {printable(str(out))} cannot be read: {exc.strerror or exc}")
    if crowded and not force:
        fail(
            f"--out {printable(str(out))} already exists and is not empty; give a new folder, "
            "or --force to write profiles.json and report.md into it"
        )
    workers = worker_count(jobs)
    n = config.players
    total = 2**n * config.games
    bar = progress_bar(escape(f"{config.game} {n}p, {2**n} profiles"), progress)
    task = bar.add_task("games", total=total)

    def on_progress(done: int, all_games: int) -> None:
        bar.update(task, completed=done, total=all_games)

    start = time.perf_counter()
    bar.start()
    try:
        played = profile_analysis.play(config, jobs=workers, on_progress=on_progress)
    except KeyboardInterrupt:
        bar.stop()
        console.print("[yellow]Interrupted:[/yellow] nothing was written")
        raise typer.Exit(130) from None
    except BodogeError as exc:
        bar.stop()
        fail(str(exc))
    finally:
        bar.stop()
    elapsed = time.perf_counter() - start
    data = profile_analysis.analyse(config, played)
    data["command"] = config.command(str(out))
    try:
        json_path, report_path = profile_analysis.write(data, out)
    except OSError as exc:
        error_line(f"the results could not be written to {printable(str(out))}: {exc.strerror or exc}")
        raise typer.Exit(1) from None
    print_profiles(data, config.choice, n)
    console.print(f"{total} games in {elapsed:.1f} s ({workers} worker(s))")
    console.print(f"results: {path_markup(json_path)}; report: {path_markup(report_path)}", soft_wrap=True)


def print_profiles(data: dict[str, Any], choice: str, n: int) -> None:
    """The win shares of every profile, the equilibria and the outcome in public, as `profiles` prints them."""
    table = Table(
        "roles",
        *(f"P{s}" for s in range(n)),
        "ties",
        "offered",
        title=f"win share (A: always {choice}, N: never)",
        box=box.SIMPLE,
    )
    for p in data["profiles"]:
        table.add_row(
            profile_analysis.short(p["roles"]),
            *(f"{e['mean']:.3f}" for e in p["win_share"]),
            f"{p['ties']:.3f}",
            f"{p['kind_used']['per_game']:.2f}",
        )
    console.print(table)
    eq = data["equilibria"]
    pure = ", ".join(
        profile_analysis.short(e["roles"]) + (" (clear)" if e["clear"] else " (not clear)")
        for e in eq["pure"]
    )
    console.print(f"pure equilibria: {pure or 'none'}", markup=False, soft_wrap=True)
    undecided = ", ".join(profile_analysis.short(r) for r in eq["with_intervals"])
    console.print(f"not ruled out with the intervals: {undecided or 'none'}", markup=False, soft_wrap=True)
    if eq["mixed"] is None:
        console.print(f"mixed equilibria: not computed ({eq['mixed_note']})", markup=False, soft_wrap=True)
    else:
        mixed = "; ".join(
            "always " + ", ".join(f"P{s} {x:.3f}" for s, x in enumerate(m["always"])) for m in eq["mixed"]
        )
        console.print(
            f"mixed equilibria: {mixed or 'none besides the pure ones'}", markup=False, soft_wrap=True
        )
    seq = data["sequential"]
    steps = "; ".join(
        f"P{d['seat']} {d['choice']} (margin {profile_analysis.signed_text(d['margin'])}"
        + (", tie" if d["tie"] else "")
        + ")"
        for d in seq["path"]
    )
    console.print(
        f"in public, in seat order: {steps} -> {profile_analysis.short(seq['outcome'])}",
        markup=False,
        soft_wrap=True,
    )
