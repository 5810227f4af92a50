"""`bodoge review RECORD...`: finished games reviewed, every decision of the chosen seats valued from
that seat's view (the library: `bodoge.analysis.review`; docs/review.md)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.markup import escape
from rich.table import Table

from bodoge.cli.common import (
    Backend,
    Jobs,
    ShowProgress,
    check_address,
    check_backend,
    check_file_to_write,
    console,
    error_line,
    fail,
    integers,
    path_markup,
    printable,
    progress_bar,
    worker_count,
)
from bodoge.core.game import MAX_SEED
from bodoge.core.records import read_records
from bodoge.errors import BadOption, BodogeError


def review(
    records: Annotated[
        list[Path],
        typer.Argument(
            help="Finished games' records: JSON (bodoge play --record) or JSON lines (sim's games.jsonl)."
        ),
    ],
    seats: Annotated[str, typer.Option(help="The seats to review: all, or e.g. 0,2.")] = "all",
    seed: Annotated[
        int,
        typer.Option(
            callback=integers(0, MAX_SEED), help="Seed of the review's deals: same seed, same review."
        ),
    ] = 1,
    iterations: Annotated[
        int | None,
        typer.Option(
            help="The most deals an option plays in a decision (options clearly behind the best stop "
            "early); default 128, or 32 where playouts use the view heuristic.",
        ),
    ] = None,
    seconds: Annotated[
        float | None,
        typer.Option(help="Seconds per decision instead (or as a cap with --iterations); not reproducible."),
    ] = None,
    jobs: Jobs = None,
    backend: Backend = "pool",
    address: Annotated[
        str | None, typer.Option(help="Ray cluster address for --backend ray (default: a local Ray).")
    ] = None,
    rollout: Annotated[
        str, typer.Option(help="How every seat plays in the playouts: auto, quick, heuristic or random.")
    ] = "auto",
    leaf: Annotated[
        str,
        typer.Option(
            help="How an option's playout is valued: auto (the network where it judges better), rollout "
            "(played to the end) or nn (played to the seat's next decision, then the shipped network)."
        ),
    ] = "auto",
    out: Annotated[
        Path | None,
        typer.Option(help="Folder for review.json and review.html (one subfolder per record if several)."),
    ] = None,
    progress: ShowProgress = True,
) -> None:
    """Review finished games: every decision of the chosen seats, each option valued from that seat's
    view (expected win share), the move's loss and class; a table per seat (docs/review.md)."""

    from bodoge.analysis import review as reviewing
    from bodoge.analysis.values import Budget
    from bodoge.arena import runner

    check_backend(backend)
    check_address(address, backend)
    named: list[tuple[str, Any]] = []
    for path in records:
        try:
            named.extend(read_records(path))
        except BodogeError as exc:
            fail(str(exc))
    if len(named) > reviewing.MAX_RECORDS:
        fail(f"{len(named)} records; a review takes at most {reviewing.MAX_RECORDS} at once")
    wanted = parse_seats(seats)
    try:
        budget = None if iterations is None and seconds is None else Budget(iterations, seconds)
        plans = []
        for name, record in named:
            try:
                plans.append(reviewing.plan_review(record, wanted, budget, seed, rollout, "likely", leaf))
            except BadOption as exc:
                fail(review_flags(str(exc)))
            except BodogeError as exc:
                fail(f"{name}: {exc}")
        if backend == "ray":
            runner.check_ray()
    except BodogeError as exc:
        fail(review_flags(str(exc)))
    names = [name for name, _ in named]
    if len(set(names)) != len(names):  # the same file name twice: number the folders
        names = [f"{i:04d}-{name}" for i, name in enumerate(names, 1)]
    folders: list[Path] = []
    if out is not None:
        folders = [out] if len(named) == 1 else [out / name for name in names]
        for folder in folders:
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                fail(f"--out {printable(str(folder))} cannot be made: {exc.strerror or exc}")
            check_file_to_write(folder / "review.json", "--out")
    workers = worker_count(jobs)
    bar = progress_bar("review", progress)
    task = bar.add_task("decisions", total=sum(len(units) for _, units in plans))

    def on_progress(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    start = time.perf_counter()
    try:
        with bar:
            reviews = reviewing.review_records(
                [record for _, record in named],
                wanted,
                budget,
                seed,
                workers,
                on_progress,
                backend=backend,
                address=address,
                rollout=rollout,
                leaf=leaf,
            )
    except KeyboardInterrupt:
        console.print("[yellow]Interrupted:[/yellow] nothing was written.")
        raise typer.Exit(130) from None
    except BodogeError as exc:
        fail(str(exc))
    elapsed = time.perf_counter() - start
    for i, result in enumerate(reviews):
        print_review(result, names[i] if len(reviews) > 1 else None)
        if folders:
            try:
                reviewing.write_review(result, folders[i])
            except OSError as exc:
                error_line(f"the review could not be written to {folders[i]}: {exc.strerror or exc}")
                raise typer.Exit(1) from None
    decisions = sum(len(r["decisions"]) for r in reviews)
    console.print(f"{decisions} decisions reviewed in {elapsed:.1f} s with {workers} workers.")
    if out is not None:
        where = out if len(reviews) == 1 else out / "*"
        console.print(f"wrote {path_markup(where / 'review.json')} and review.html", soft_wrap=True)


def parse_seats(text: str) -> list[int] | None:
    """`--seats`: all, or seat numbers separated by commas."""
    if text.strip().lower() == "all":
        return None
    seats = []
    for part in text.split(","):
        part = part.strip()
        if not part.isdigit() or len(part) > 3:
            fail(f"--seats takes all or seat numbers separated by commas (e.g. 0,2), not {text!r}")
        seats.append(int(part))
    return seats


def review_flags(message: str) -> str:
    """An option's error in the words of `review`'s flags."""
    for name in ("iterations", "seconds", "seats", "rollout", "leaf"):
        message = message.replace(f"'{name}'", f"--{name}")
    return message


def print_review(result: dict[str, Any], name: str | None) -> None:
    """A review's table of seats."""
    settings = result["review"]
    budget = f"{settings['deals']} deals" if settings["deals"] is not None else f"{settings['seconds']:g} s"
    title = f"{result['game']} {result['players']}p, record seed {result['record_seed']}"
    table = Table(
        title=escape((f"{name}: " if name else "") + f"{title} ({budget} a decision)"),
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    # short headers: the table fits 80 columns (docs/review.md names them in full)
    for column in ("seat", "moves", "judged", "loss", "acc", "inacc", "mist", "blund", "uncl", "bot", "won"):
        table.add_column(column, justify="right", no_wrap=True, min_width=len(column))
    for s in result["seats"]:
        c = s["classes"]
        table.add_row(
            f"P{s['seat']}",
            str(s["reviewed"]),
            str(s["judged"]),
            "–" if s["mean_loss"] is None else f"{100 * s['mean_loss']:.1f}%",
            "–" if s["accuracy"] is None else f"{s['accuracy']:.0f}",
            *(str(c[k]) for k in ("inaccuracy", "mistake", "blunder", "unclear")),
            "–" if s["bot_agreement"] is None else f"{100 * s['bot_agreement']:.0f}%",
            f"{s['return']:g}",
        )
    console.print(table)
