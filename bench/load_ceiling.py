"""--ceiling of bench/load.py: the tables and actions/s at which the steady p99 passes 100 ms, stepped
up run by run on fresh servers, with the median and range of each step's runs. Not a script: run
bench/load.py."""

from __future__ import annotations

import argparse
import statistics
from dataclasses import dataclass

from load_common import percentile
from load_run import Run, measure, steady_rate

MAX_REPEAT = 10
CEILING_STEPS = (50, 100, 150, 200, 300, 400, 600, 800, 1000, 1500, 2000, 3000, 4000, 5000)
CEILING_P99_MS = 100.0
START_COST = 8.0  # seconds a run of --ceiling spends besides its load (start, stop, log check), about


def ceiling_steps(max_tables: int) -> list[int]:
    """The tables of each step, up to max_tables (which is the last step if it is not on the ladder)."""
    steps = [t for t in CEILING_STEPS if t <= max_tables]
    if not steps or steps[-1] < max_tables:
        steps.append(max_tables)
    return steps


@dataclass
class Figures:
    """One run of --ceiling in numbers (ms), and what went wrong in it."""

    actions_per_s: float
    p50: float  # inf when no client action was answered: a step that cannot count as under
    p99: float
    health_p99: float  # GET /api/health under load; nan without the observer's results
    lost: int | None  # None: the log was not checked
    problems: list[str]
    notes: list[str]  # error lines in the servers' logs: told, not counted as failures


def figures(run: Run) -> Figures:
    """The run's figures after its warm-up: actions/s, latencies, the health probe's p99."""
    stats = run.stats
    ms = [x * 1000 for x in stats.steady]
    problems = list(run.died)
    lost = None
    if run.log is not None:
        _logged, log_problems, lost = run.log
        problems += log_problems
    problems += stats.errors
    health = float("nan")
    if run.observed is None:
        problems.append("the observer process sent no results")
    else:
        samples = run.observed["samples"]
        probes = [(e - s) * 1000 for s, e, _ in samples if stats.warm_mono <= s < run.load[1]]
        health = percentile(probes, 0.99)
    return Figures(
        steady_rate(run),
        percentile(ms, 0.5) if ms else float("inf"),
        percentile(ms, 0.99) if ms else float("inf"),
        health,
        lost,
        problems,
        run.log_errors,
    )


def _median_p99(runs: list[Figures]) -> float:
    return statistics.median(f.p99 for f in runs)


def _median_range(values: list[float], digits: int) -> str:
    """The median of the runs, and their range when there are several."""
    mid = f"{statistics.median(values):,.{digits}f}"
    return mid if len(values) == 1 else f"{mid} ({min(values):,.{digits}f}–{max(values):,.{digits}f})"


def ceiling_table(rows: list[tuple[int, list[Figures]]]) -> None:
    """One line per step: the median of its runs, and their range when there are several."""
    several = max(len(runs) for _, runs in rows) > 1
    header = ["tables", "clients", "actions/s", "p50 ms", "p99 ms", "health p99 ms", "lost"]
    lines = [header]
    for tables, runs in rows:
        lost = [f.lost for f in runs]
        lines.append(
            [
                str(tables),
                str(2 * tables),
                _median_range([f.actions_per_s for f in runs], 0),
                _median_range([f.p50 for f in runs], 1),
                _median_range([f.p99 for f in runs], 1),
                _median_range([f.health_p99 for f in runs], 1),
                "not checked" if None in lost else str(sum(x for x in lost if x is not None)),
            ]
        )
    widths = [max(len(line[k]) for line in lines) for k in range(len(header))]
    if several:
        print("each figure: the median of the step's runs (their lowest–highest)")
    for line in lines:
        cells = [
            cell.rjust(w) if k < 2 else cell.ljust(w)
            for k, (cell, w) in enumerate(zip(line, widths, strict=True))
        ]
        print("  ".join(cells).rstrip())


def ceiling_line(rows: list[tuple[int, list[Figures]]], interrupted: bool) -> str:
    if not rows:
        return "ceiling: no step done"
    over = next((k for k, (_, runs) in enumerate(rows) if _median_p99(runs) > CEILING_P99_MS), None)
    if over is None:
        tables, runs = rows[-1]
        return (
            f"ceiling: not reached up to {tables} tables "
            f"({statistics.median(f.actions_per_s for f in runs):,.0f} actions/s, "
            f"p99 {_median_p99(runs):.1f} ms){' (interrupted)' if interrupted else ''}"
        )
    tables_over, runs_over = rows[over]
    if over == 0:
        return (
            f"ceiling: below {tables_over} tables, the first step (p99 {_median_p99(runs_over):.1f} ms at "
            f"{statistics.median(f.actions_per_s for f in runs_over):,.0f} actions/s); a --max-tables "
            f"below {tables_over} runs that many tables as the only step"
        )
    tables, runs = rows[over - 1]
    return (
        f"ceiling: about {tables} tables, {statistics.median(f.actions_per_s for f in runs):,.0f} actions/s "
        f"(p99 crosses {CEILING_P99_MS:g} ms between {tables} and {tables_over} tables)"
    )


def ceiling(args: argparse.Namespace) -> int:
    """Step the tables up, --repeat runs per step on fresh servers, until the median p99 of a step is
    over CEILING_P99_MS; print each run as it ends, then the table and the ceiling."""
    steps = ceiling_steps(args.max_tables)
    most = len(steps) * args.repeat * (args.duration + START_COST)
    at_most = f"{most / 60:.0f} min" if most >= 120 else f"{most:.0f} s"
    print(
        f"ceiling search: {args.game} ({args.players} players, seat 0 a client, bots {args.bots}), clients think "
        f"{args.think:g} s on average, bots wait {args.bot_delay:g} s; {args.servers} × bodoge serve; "
        f"steps of {', '.join(map(str, steps))} tables with 2 clients each, {args.duration:g} s, "
        f"counted from {args.warmup:g} s after every client set out (--warmup), {args.repeat} "
        f"run{'s' if args.repeat > 1 else ''} each on fresh servers; it stops once a step's median p99 "
        f"is over {CEILING_P99_MS:g} ms (at most about {at_most})",
        flush=True,
    )
    rows: list[tuple[int, list[Figures]]] = []
    failed = interrupted = False
    try:
        for tables in steps:
            runs: list[Figures] = []
            rows.append((tables, runs))  # filled run by run: Ctrl-C keeps the runs of a step begun
            for r in range(args.repeat):
                step = argparse.Namespace(**vars(args))
                step.tables, step.clients, step.no_heavy, step.seed = tables, 2 * tables, True, args.seed + r
                run = measure(step)
                f = figures(run)
                runs.append(f)
                failed |= bool(f.problems) or bool(f.lost)
                print(
                    f"  {tables} tables, run {r + 1}/{args.repeat} (servers {', '.join(run.ports)}): "
                    f"{f.actions_per_s:,.0f} actions/s, p50 {f.p50:.1f} ms, p99 {f.p99:.1f} ms, "
                    f"health p99 {f.health_p99:.1f} ms, lost {'not checked' if f.lost is None else f.lost}"
                    + (f"; {len(f.problems)} problems, first: {f.problems[0]}" if f.problems else ""),
                    flush=True,
                )
                for note in f.notes:
                    print(f"    server log: {note}")
            if _median_p99(runs) > CEILING_P99_MS:
                break
    except KeyboardInterrupt:
        interrupted = True
        print("interrupted: the servers are stopped; the runs done so far:")
        if rows and not rows[-1][1]:
            rows.pop()
    if rows:
        ceiling_table(rows)
    print(ceiling_line(rows, interrupted))
    if failed:
        print("FAILED: a run lost actions, had a log problem, a client error or a server that exited (above)")
    return 130 if interrupted else 1 if failed else 0
