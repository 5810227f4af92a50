"""The `bodoge` command: list games, read rules, play in the terminal, simulate many games.

Bad input never gets as far as a traceback: every refusal is one line, `error: ...`, on standard error,
naming what was wrong and what is allowed, with exit status 2, before any work starts (nothing is
written). That holds for typer's own refusals too (a flag out of its range, a missing argument):
`_Commands` prints them the same way. A run stopped by Ctrl-C keeps what it had done (`play` writes
the record of the game so far, `sim` keeps its finished games) and exits with 130.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import json
import math
import os
import socket
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
import typer.core
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

import bodoge
from bodoge import agents as agent_registry
from bodoge import terminal
from bodoge.arena import profiles as profile_analysis
from bodoge.arena.runner import MAX_GAMES, MAX_JOBS
from bodoge.core.game import MAX_SEED, Game
from bodoge.core.options import parse_text
from bodoge.core.registry import game_class
from bodoge.core.registry import games as game_names
from bodoge.errors import BadOption, BodogeError

MAX_BOT_WORKERS = 64  # processes that run the server's bots
MAX_BOT_TIME = 600.0  # seconds a server bot may think about one move
MAX_BOT_DELAY = 60.0  # seconds of pause before a server bot's move
MAX_MESSAGE = 600  # characters of an error line; a longer one keeps its start and its end


def _usage_exceptions() -> tuple[tuple[type[Exception], ...], tuple[type[BaseException], ...]]:
    """The classes of typer's usage errors and aborts: typer's own where it vendors click (recent
    typer), click's where it uses click (older typer; both where click is installed too)."""
    usage: list[type[Exception]] = []
    aborts: list[type[BaseException]] = [typer.Abort]
    typer_exception = getattr(typer, "TyperException", None)
    if typer_exception is not None:
        usage.append(typer_exception)
    try:
        import click
    except ImportError:
        pass
    else:
        usage.append(click.ClickException)
        aborts.append(click.exceptions.Abort)
    return tuple(usage), tuple(aborts)


_USAGE_ERRORS, _ABORTS = _usage_exceptions()


class _Commands(typer.core.TyperGroup):
    """typer's usage errors (a flag out of range, a value that is no integer, a missing argument or
    command) as one `error:` line like every other refusal, instead of a framed panel."""

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except _USAGE_ERRORS as exc:
            ctx = getattr(exc, "ctx", None)
            hint = f" (see: {ctx.command_path} --help)" if ctx is not None else ""
            _error_line(str(getattr(exc, "format_message", exc.__str__)()) + hint)
            sys.exit(getattr(exc, "exit_code", 2))
        except _ABORTS:
            _error_line("aborted")
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


app = typer.Typer(
    help="bodoge: Tokkuri, Tottarot, Hangover and Troika, played exactly by their rules.",
    cls=_Commands,
    # A traceback (a bug) must not print local variables: `serve` holds the database URL, password included.
    pretty_exceptions_show_locals=False,
)
console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False, soft_wrap=True)  # soft wrap: an error stays one line


def _print_version(wanted: bool) -> None:
    if wanted:
        console.print(f"bodoge {importlib.metadata.version('bodoge')}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_print_version, is_eager=True, help="Print the version and exit."),
    ] = False,
) -> None:
    """bodoge: Tokkuri, Tottarot, Hangover and Troika, played exactly by their rules."""


def _integers(lo: int, hi: int) -> Callable[[int | None], int | None]:
    """A flag's check: an integer from lo to hi (None: the flag was not given)."""

    def check(value: int | None) -> int | None:
        if value is not None and not lo <= value <= hi:
            raise typer.BadParameter(f"{value} is out of range; allowed: an integer from {lo} to {hi}")
        return value

    return check


def _seconds(hi: float, zero_ok: bool) -> Callable[[float], float]:
    """A flag's check: a finite number of seconds up to `hi`, from 0 or above 0."""
    allowed = f"from 0 to {hi:g}" if zero_ok else f"above 0, at most {hi:g}"

    def check(value: float) -> float:
        if not (math.isfinite(value) and (value >= 0 if zero_ok else value > 0) and value <= hi):
            raise typer.BadParameter(f"{value} is not allowed; allowed: a number of seconds {allowed}")
        return value

    return check


GameName = Annotated[
    str, typer.Argument(help="The game, by name ('bodoge games' lists every registered one).")
]
Players = Annotated[
    int | None, typer.Option("--players", "-p", help="Number of players (the game's default if omitted).")
]
# Shared by the commands that play or review many games in parallel (sim, profiles, tune, review).
Jobs = Annotated[
    int | None,
    typer.Option(callback=_integers(1, MAX_JOBS), help="Parallel workers (default: the CPU count)."),
]
FirstSeed = Annotated[
    int, typer.Option(callback=_integers(0, MAX_SEED), help="Seed of the first deal; deal d uses seed + d.")
]
SetOptions = Annotated[
    list[str] | None,
    typer.Option(
        "--set", help="A game option as name=value (value in JSON: 12, true, [2,1,-1]); repeatable."
    ),
]


def _workers(jobs: int | None) -> int:
    """The parallel workers of a command: `--jobs`, or the CPU count."""
    return jobs if jobs is not None else min(os.cpu_count() or 1, MAX_JOBS)


def _progress_bar(label: str, shown: bool) -> Any:
    """A command's progress bar over its games or decisions (`label`: rich markup, escaped)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    return Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=not shown,
    )


def _printable(text: str) -> str:
    """`text` with what a terminal must not be sent written as escapes: lone surrogates (from arguments
    or file names that are not UTF-8: printing them raises UnicodeEncodeError) as \\udcff, control
    characters (a line break, a terminal escape sequence) as \\n or \\x1b."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)


def _shown(path: Path) -> str:
    """A path as rich markup that prints it literally."""
    return escape(_printable(str(path)))


def _error_line(message: str) -> None:
    message = _printable(message)  # one line, whatever the message holds
    if len(message) > MAX_MESSAGE:
        half = MAX_MESSAGE // 2
        message = f"{message[:half]} … {message[-half:]}"
    err_console.print(f"[red]error:[/red] {escape(message)}")


def _fail(message: str) -> NoReturn:
    """Refuse: one `error:` line on standard error, exit status 2."""
    _error_line(message)
    raise typer.Exit(2)


def _value(text: str, what: str) -> Any:
    """A value typed on the command line (JSON if it parses, else the text)."""
    try:
        return parse_text(text)
    except ValueError as exc:
        _fail(f"{what}: {exc}")


def parse_settings(settings: list[str] | None) -> dict[str, Any]:
    """`--set name=value` pairs as game options (values parsed as JSON where they parse)."""
    options: dict[str, Any] = {}
    for item in settings or []:
        name, value = _setting(item)
        if name in options:
            _fail(f"--set {name} is given twice; give each option once")
        options[name] = _value(value, f"--set {name}")
    return options


def _setting(item: str) -> tuple[str, str]:
    name, eq, value = item.partition("=")
    if not eq or not name.strip():
        _fail(f"--set takes name=value (e.g. --set rounds=2), not {item!r}")
    if name.strip() == "players":
        _fail("--set players: the number of players is --players, not a game option")
    return name.strip(), value.strip()


def _make(name: str, players: int | None, settings: list[str] | None) -> Game:
    try:
        return bodoge.make(name, players, **parse_settings(settings))
    except BodogeError as exc:
        _fail(str(exc))


def _check_file_to_write(path: Path, flag: str) -> None:
    """Refuse now, before any play, a path that the end of the command could not write: a folder, a
    file in a folder that does not exist, or one that cannot be opened for writing. Nothing is left
    behind: a file made to try it is removed again."""
    shown = _printable(str(path))
    try:
        if path.is_dir():
            _fail(f"{flag} {shown} is a folder; give the path of a file to write")
        parent = path.parent
        if not parent.is_dir():
            what = "is not a folder" if parent.exists() else "does not exist"
            _fail(f"{flag} {shown}: the folder {_printable(str(parent))} {what}")
        if path.exists():
            with path.open("a"):  # appending nothing changes nothing, but needs write permission
                pass
        else:
            with path.open("x"):
                pass
            path.unlink()
    except OSError as exc:
        _fail(f"{flag} {shown} cannot be written: {exc.strerror or exc}")
    except ValueError as exc:  # e.g. an embedded NUL
        _fail(f"{flag} {shown} is not a file path: {exc}")


@app.command("games")
def list_games() -> None:
    """List the games with their player counts."""
    table = Table("game", "title", "players", "options")
    for name in game_names():
        cls = game_class(name)
        table.add_row(
            name,
            f"{cls.title['en']} ({cls.title['ja']})",
            f"{cls.min_players}–{cls.max_players}",
            ", ".join(spec.name for spec in cls.option_specs),
        )
    console.print(table)


def allowed_text(spec: Any) -> str:
    """What an option allows, its bounds named: the spec's own text, with `lo`/`hi` (an integer
    option's bounds) added where the text does not name them already."""
    text = str(spec.allowed)
    lo, hi = getattr(spec, "lo", None), getattr(spec, "hi", None)
    missing = [n for n in (lo, hi) if n is not None and str(n) not in text and f"{n:,}" not in text]
    if missing and lo is not None and hi is not None:
        text += f" (from {lo} to {hi})"
    elif missing:
        text += f" ({'at least' if lo is not None else 'at most'} {missing[0]})"
    return text


@app.command()
def rules(
    game: GameName,
    lang: Annotated[str, typer.Option(help="Language: en or ja.")] = "en",
) -> None:
    """Print a readable summary of a game's rules and its options."""
    if lang not in ("en", "ja"):
        _fail(f"--lang takes en or ja, not {lang!r}")
    try:
        cls = game_class(game)
    except BodogeError as exc:
        _fail(str(exc))
    console.print(cls.rules_summary(lang), markup=False)
    words = RULES_TABLE[lang]
    table = Table(title=words["title"])
    # An option's name is what one types: never cut it; the other columns wrap instead.
    width = max((len(spec.name) for spec in cls.option_specs), default=6)
    table.add_column(words["option"], no_wrap=True, min_width=width)
    table.add_column(words["default"], overflow="fold")
    table.add_column(words["allowed"], overflow="fold")
    table.add_column(words["help"], overflow="fold")
    texts = cls.needed_part("text").TEXTS if lang != "en" else None
    for spec in cls.option_specs:
        said = None if texts is None else texts.option_words(lang, spec)
        help_, allowed = said or (spec.help, allowed_text(spec))
        table.add_row(
            spec.name,
            json.dumps(spec.to_json(spec.convert(spec.default)), ensure_ascii=False),
            escape(allowed),
            escape(help_),
            end_section=False,
        )
    console.print(table)


# The `rules` options table's own words.
RULES_TABLE = {
    "en": {
        "title": "Options (bodoge play/sim --set name=value)",
        "option": "option",
        "default": "default",
        "allowed": "allowed",
        "help": "what it changes",
    },
    "ja": {
        "title": "オプション（bodoge play/sim --set 名前=値）",
        "option": "オプション",
        "default": "既定値",
        "allowed": "とりうる値",
        "help": "変わること",
    },
}


@app.command()
def play(
    game: GameName,
    players: Players = None,
    seat: Annotated[int, typer.Option(help="Your seat (0 starts round 1).")] = 0,
    bots: Annotated[
        str, typer.Option(help="Agent spec for the other seats, e.g. random or heuristic.")
    ] = "random",
    seed: Annotated[
        int | None,
        typer.Option(callback=_integers(0, MAX_SEED), help="Seed of the deal (random if omitted)."),
    ] = None,
    settings: SetOptions = None,
    record: Annotated[
        Path | None,
        typer.Option(
            help="Write the game record (JSON) here: at the end, on 'quit', Ctrl-C or the end of the input. "
            "Without it, a game left unfinished is kept in bodoge-GAME-SEED.json in the current folder."
        ),
    ] = None,
    lang: Annotated[
        str,
        typer.Option(help="Language of the log, the legend and the rules: en or ja (the board is English)."),
    ] = "en",
) -> None:
    """Play in the terminal against bots.

    Each turn shows the board once, then your choices numbered 1, 2, 3, …
    Type a number (its place in the list, never an id) or a choice's text, e.g. take 12.
    A choice in parts (Hangover's arrangement of snacks) is taken a part at a time; back undoes a part.
    A legend of the board's symbols comes first; ? shows it again with every command.
    Ctrl-C, the end of the input and quit stop at once and keep the game so far (see --record).
    """
    if lang not in ("en", "ja"):
        _fail(f"--lang takes en or ja, not {lang!r}")
    g = _make(game, players, settings)
    try:
        g.check_seat(seat, spectator_ok=False)
        bot = agent_registry.make(bots)
        check = getattr(bot, "check", None)
        if check is not None:
            check(g)
        state = g.new_state(seed=seed)
    except BodogeError as exc:
        _fail(str(exc))
    if record is not None:
        _check_file_to_write(record, "--record")
    terminal.read_any_bytes(sys.stdin)
    console.print(
        f"[bold]{g.title['en']} ({g.title['ja']})[/bold], {g.num_players} players, seed {state.seed}."
    )
    ending = terminal.Session(console, state, seat, bot, lang).play()
    if ending is terminal.Ending.FINISHED:
        if record is not None:
            _save_record(state.to_record(), record, "Record written to {path}.")
        return
    # A game left unfinished is always kept, where --record says or beside the current folder's others.
    path = record if record is not None else terminal.default_record_path(state)
    _save_record(terminal.record_so_far(state), path, f"{ending.value}: the game so far is in {{path}}.")
    raise typer.Exit(130 if ending is terminal.Ending.INTERRUPTED else 0)


@app.command()
def learn(
    game: GameName,
    lesson: Annotated[
        str | None, typer.Option(help="The lesson's id (the game's first lesson if omitted).")
    ] = None,
    lang: Annotated[str, typer.Option(help="Language of the lesson: en or ja.")] = "en",
) -> None:
    """Learn a game by a lesson: the coach explains, you play the moves it asks for.

    Your move is typed as in bodoge play (a number from the list, or the move's text); another move
    than the lesson's is refused with a hint. The other players' moves are played for them.
    The same lessons are at /learn/GAME of bodoge serve.
    """
    from bodoge.learn import Coach, find_lesson, load_lessons
    from bodoge.learn.terminal import LessonSession

    if lang not in ("en", "ja"):
        _fail(f"--lang takes en or ja, not {lang!r}")
    try:
        lessons = load_lessons(game)
        if not lessons:
            _fail(f"{game} has no lessons yet")
        chosen = lessons[0] if lesson is None else find_lesson(game, lesson)
    except BodogeError as exc:
        _fail(str(exc))
    terminal.read_any_bytes(sys.stdin)
    ending = LessonSession(console, Coach(chosen), lang).run()
    if ending is terminal.Ending.INTERRUPTED:
        raise typer.Exit(130)


def _save_record(record: dict[str, Any], path: Path, said: str) -> None:
    """Write the record to `path` and say so in one line (`said`, with the path for {path})."""
    text = json.dumps(record, ensure_ascii=False, indent=1) + "\n"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(record, indent=1) + "\n"
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        _error_line(f"the record could not be written to {path}: {exc.strerror or exc}")
        raise typer.Exit(1) from None
    console.print(said.format(path=_printable(str(path))), markup=False, soft_wrap=True)  # a path stays whole


@app.command()
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
            callback=_integers(1, MAX_GAMES),
            help="Games per variant. With rotation and duplicate deals: games/players deals. "
            f"At most {MAX_GAMES:,} games in all variants together.",
        ),
    ] = 1000,
    seed: FirstSeed = 1,
    jobs: Jobs = None,
    backend: Annotated[str, typer.Option(help="pool (processes on this machine) or ray.")] = "pool",
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
    progress: Annotated[bool, typer.Option(help="Show a progress bar.")] = True,
    plots: Annotated[bool, typer.Option(help="Draw the report's plots (matplotlib).")] = True,
    experiments: Annotated[
        int,
        typer.Option(
            callback=_integers(0, 8),
            help="Play the experiments of this many dominant_choice findings (a counterfactual agent "
            "that avoids the dominant option, on the same deals, at most 1000 games) and report what "
            "avoiding it costs in win share; 0: none. See docs/findings.md.",
        ),
    ] = 1,
    review: Annotated[
        int,
        typer.Option(
            callback=_integers(0, MAX_SIM_REVIEWS),
            help="Review this many of the games (every seat, the default budget; see docs/review.md) and "
            "report where the games are decided (the moves where win chances swing most) and the "
            f"agents' mean loss per kind of decision; 0: none (at most {MAX_SIM_REVIEWS}).",
        ),
    ] = 0,
) -> None:
    """Play many games between agents in parallel; print win shares, seats, ratings and findings; write
    a report (report.md, report.html, summary.json)."""
    import concurrent.futures.process

    from bodoge import arena
    from bodoge.arena import runner

    # Everything is checked before any work: flags, options of every variant, every agent, the folder.
    if backend not in ("pool", "ray"):
        _fail(f"--backend takes pool or ray, not {backend!r}")
    if address is not None and backend != "ray":
        _fail("--address is the address of a Ray cluster: it needs --backend ray")
    if resume and force:
        _fail("--resume continues the run in --out and --force replaces it: give one of them")
    if resume and out is None:
        _fail("--resume needs --out, the folder of the run to continue")
    variant_values: dict[str, list[Any]] = {}
    for item in settings or []:
        name, value = _setting(item)
        if name in variant_values:
            _fail(f"--set {name} is given twice; give its values once, comma-separated (--set {name}=1,2)")
        variant_values[name] = [_value(v.strip(), f"--set {name}") for v in arena.split_top_level(value)]
    specs = arena.split_agents(agents)
    if not specs:
        _fail("--agents needs at least one agent spec (e.g. random, heuristic, ismcts)")
    try:
        variants = arena.variants_from_settings(variant_values)
        n = arena.make_game(game, players, variants[0]).num_players
        if len(specs) > n:
            _fail(f"{len(specs)} agents for {n} players: give at most one spec per seat")
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
        _fail(str(exc))
    workers = _workers(jobs)
    total = games * len(variants)
    bar = _progress_bar(escape(f"{game} {n}p"), progress)
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
        records = _kept_records(games_file, games)
        console.print(
            f"[yellow]Interrupted:[/yellow] {len(records)} of {total} games are finished"
            + (
                f" and kept in {_shown(games_file)}; --resume continues the run."
                if games_file is not None
                else "."
            ),
            soft_wrap=True,
        )
    except BodogeError as exc:
        bar.stop()
        _fail(str(exc))
    except (OSError, concurrent.futures.process.BrokenProcessPool) as exc:
        bar.stop()
        kept = len(_kept_records(games_file, games))
        why = "a worker process died (killed, or out of memory?)" if not isinstance(exc, OSError) else exc
        _error_line(
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
    if experiments and not interrupted:
        _measure_costs(summary, records, config, experiments, workers, backend, address)
    if review and not interrupted:
        _review_games(summary, records[:review], config.seed, workers, backend, address, progress)
    arena.print_summary(summary, console)
    played = len(records) - (first_done[0] if first_done else 0)
    if played > 0:
        actions = sum(r["arena"]["length"] for r in records[-played:])
        console.print(
            f"throughput: {played / elapsed:.2f} games/s, {actions / elapsed:,.0f} actions/s "
            f"({played} games in {elapsed:.1f} s, {workers} {backend} worker(s))"
        )
    if out is not None:
        report = arena.write_report(summary, records, out, plots=plots)
        console.print(f"records: {_shown(out / 'games.jsonl')}; report: {_shown(report)}", soft_wrap=True)
    if interrupted:
        raise typer.Exit(130)


@app.command()
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
            callback=_integers(1, profile_analysis.MAX_GAMES),
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
    progress: Annotated[bool, typer.Option(help="Show a progress bar.")] = True,
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
        _fail(str(exc))
    try:
        crowded = out.is_dir() and any(out.iterdir())
    except OSError as exc:
        _fail(f"--out {_printable(str(out))} cannot be read: {exc.strerror or exc}")
    if crowded and not force:
        _fail(
            f"--out {_printable(str(out))} already exists and is not empty; give a new folder, "
            "or --force to write profiles.json and report.md into it"
        )
    workers = _workers(jobs)
    n = config.players
    total = 2**n * config.games
    bar = _progress_bar(escape(f"{config.game} {n}p, {2**n} profiles"), progress)
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
        _fail(str(exc))
    finally:
        bar.stop()
    elapsed = time.perf_counter() - start
    data = profile_analysis.analyse(config, played)
    data["command"] = config.command(str(out))
    try:
        json_path, report_path = profile_analysis.write(data, out)
    except OSError as exc:
        _error_line(f"the results could not be written to {_printable(str(out))}: {exc.strerror or exc}")
        raise typer.Exit(1) from None
    table = Table(
        "roles",
        *(f"P{s}" for s in range(n)),
        "ties",
        "offered",
        title=f"win share (A: always {config.choice}, N: never)",
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
    console.print(f"{total} games in {elapsed:.1f} s ({workers} worker(s))")
    console.print(f"results: {_shown(json_path)}; report: {_shown(report_path)}", soft_wrap=True)


@app.command()
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
    trials: Annotated[
        int, typer.Option(callback=_integers(1, 10_000), help="Trials (variants) to run.")
    ] = 12,
    games: Annotated[
        int,
        typer.Option(
            callback=_integers(2, 100_000),
            help="Games per trial, on the same deals for every trial (halves: a trial stops after the first "
            "half when a constraint is broken past its interval). More games narrow every interval "
            "(by the square root of the deals); see docs/tuning.md.",
        ),
    ] = 200,
    seed: Annotated[
        int, typer.Option(callback=_integers(0, MAX_SEED), help="Seed of the first deal and of the search.")
    ] = 1,
    jobs: Jobs = None,
    backend: Annotated[str, typer.Option(help="pool (processes on this machine) or ray.")] = "pool",
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
    progress: Annotated[bool, typer.Option(help="Show a progress bar.")] = True,
    plots: Annotated[bool, typer.Option(help="Draw the report's plots (matplotlib).")] = True,
) -> None:
    """Search option values toward several goals at once (Optuna); write the Pareto set, a
    recommended variant and the `bodoge sim` command that reproduces it (tune.json, report.md, report.html)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from bodoge import arena
    from bodoge.arena import runner, tune_report
    from bodoge.arena import tune as tuning

    try:
        import optuna
    except ImportError:
        _fail("bodoge tune needs Optuna: pip install 'bodoge[tune]'")
    if backend not in ("pool", "ray"):
        _fail(f"--backend takes pool or ray, not {backend!r}")
    goals = goal or ["balance"]
    try:
        dims = tuning.parse_space(game, players, space or [])
        parsed_goals = [tuning.parse_goal(g) for g in goals]
        if len({g.name for g in parsed_goals}) != len(parsed_goals):
            _fail("each --goal once")
        constraints = [tuning.parse_constraint(c) for c in require or []]
        n = arena.make_game(game, players, {}).num_players
        specs = (
            arena.split_agents(agents)
            if agents
            else (["heuristic", "random"] if "skill" in goals else ["heuristic"])
        )
        if "skill" in goals and len(set(specs)) < 2:
            _fail("the skill goal compares agents: give at least two, e.g. --agents heuristic,random")
        if len(specs) > n:
            _fail(f"{len(specs)} agents for {n} players: give at most one spec per seat")
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
        _fail(str(exc))
    workers = _workers(jobs)
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

    def objective(trial: Any) -> list[float]:
        params = tuning.suggest(trial, dims)
        try:
            options = tuning.options_for(game, n, dims, params)
        except BadOption as exc:  # each end of each range is accepted, not every combination of them
            trial.set_user_attr("options", params)
            trial.set_user_attr("refused", str(exc))
            tuning.constrain(trial, constraints, [1.0] * len(constraints))
            raise optuna.TrialPruned() from None
        trial.set_user_attr("options", options)
        played = tuning.played_before(the_study, options)
        if played is not None:  # the sampler proposed a variant again: same deals, same numbers
            trial.set_user_attr("same_as", played.number)
            trial.set_user_attr("estimates", played.user_attrs["estimates"])
            tuning.constrain(trial, constraints, played.user_attrs["constraints"])
            return list(played.values)
        values, _summary = tuning.measure_trial(
            config, options, out / "trials" / f"{trial.number:04d}", workers, backend, address
        )
        if values is None:
            tuning.constrain(trial, constraints, [1.0] * len(constraints))
            raise optuna.TrialPruned()
        estimates = {name: est.to_json() for name, est in values.items()}
        trial.set_user_attr("estimates", estimates)
        tuning.constrain(
            trial, constraints, [c.violation(values[f"require {c.text}"].mean) for c in constraints]
        )
        return [values[g.name].mean for g in parsed_goals]

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
            _fail(str(exc))
    outcome = tuning.result(the_study, config)
    outcome["findings"] = tuning.recommended_findings(outcome, out)
    tune_report.write(outcome, out, plots=plots)
    best = outcome["recommended"]
    if best:
        console.print(f"recommended: trial {best['trial']}: {escape(tuning_options_text(best['options']))}")
        console.print(f"  reproduce: {escape(best['command'])}")
        for i, f in enumerate(outcome["findings"], 1):
            console.print(f"  finding {i}. [bold]{escape(f['kind'])}[/bold]: {escape(f['text']['en'])}")
            console.print(f"     experiment: {escape(f['experiment'])}", soft_wrap=True)
        if not outcome["findings"]:
            console.print("  no findings on the recommended trial (docs/findings.md)")
    console.print(f"wrote {escape(_shown(out / 'report.md'))}, report.html and tune.json")
    if interrupted:
        console.print("interrupted: the study is kept; --resume goes on with it")
        raise typer.Exit(130)


MAX_SIM_REVIEWS = 100  # games `sim --review` reviews (a Tokkuri game takes about a minute on 2 cores)


def _review_games(
    summary: dict[str, Any],
    records: list[dict[str, Any]],
    seed: int,
    workers: int,
    backend: str,
    address: str | None,
    progress: bool,
) -> None:
    """Review `records` (every seat) and put where they were decided into the summary (`review`)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from bodoge.analysis.decided import decided
    from bodoge.analysis.review import review_records

    bar = Progress(
        TextColumn("review"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), console=console
    )
    task = bar.add_task("review", total=None)

    def step(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    if progress:
        bar.start()
    try:
        reviews = review_records(
            records, seed=seed, jobs=workers, progress=step, backend=backend, address=address
        )
    except KeyboardInterrupt:
        bar.stop()
        console.print("[yellow]Interrupted:[/yellow] the review is left out of the report")
        return
    except BodogeError as exc:
        bar.stop()
        _error_line(f"the games could not be reviewed: {exc}")
        return
    finally:
        bar.stop()
    summary["review"] = decided(reviews)


#: The most games a finding's experiment plays (paired with the run's first games).
EXPERIMENT_GAMES = 1000


def _measure_costs(
    summary: dict[str, Any],
    records: list[dict[str, Any]],
    config: Any,
    most: int,
    workers: int,
    backend: str,
    address: str | None,
) -> None:
    """Play the experiments of the `most` most important dominant_choice findings (arena.findings)."""
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
        _error_line(f"an experiment could not be played: {exc}")


MAX_RECORD_BYTES = 64 * 2**20  # one file of records given to `review`


def _read_records(path: Path) -> list[tuple[str, Any]]:
    """The records in `path` with a name for each: a JSON record (as `play --record` writes), or JSON
    lines of records (as `sim --out` writes games.jsonl). Refused with one line if it is neither."""
    shown = _printable(str(path))
    try:
        if not path.exists():
            _fail(f"{shown}: no such file")
        if path.is_dir():
            _fail(f"{shown} is a folder; give a record file (JSON)")
        if path.stat().st_size > MAX_RECORD_BYTES:
            _fail(f"{shown} is larger than {MAX_RECORD_BYTES // 2**20} MiB; a record is far smaller")
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        _fail(f"{shown} cannot be read: {exc.strerror or exc}")
    except UnicodeDecodeError:
        _fail(f"{shown} is not a record: not UTF-8 text")
    stem = path.name.removesuffix(".jsonl").removesuffix(".json") or "record"
    try:
        return [(stem, json.loads(text))]
    except json.JSONDecodeError as whole:
        lines = [line for line in text.splitlines() if line.strip()]
        if len(lines) < 2:
            _fail(f"{shown} is not a record: not JSON ({whole})")
        records = []
        for i, line in enumerate(lines, 1):
            try:
                records.append((f"{stem}-{i}", json.loads(line)))
            except json.JSONDecodeError as exc:
                _fail(f"{shown} is not a record: line {i} is not JSON ({exc})")
        return records


def _parse_seats(text: str) -> list[int] | None:
    """`--seats`: all, or seat numbers separated by commas."""
    if text.strip().lower() == "all":
        return None
    seats = []
    for part in text.split(","):
        part = part.strip()
        if not part.isdigit() or len(part) > 3:
            _fail(f"--seats takes all or seat numbers separated by commas (e.g. 0,2), not {text!r}")
        seats.append(int(part))
    return seats


@app.command()
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
            callback=_integers(0, MAX_SEED), help="Seed of the review's deals: same seed, same review."
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
    backend: Annotated[str, typer.Option(help="pool (processes on this machine) or ray.")] = "pool",
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
    progress: Annotated[bool, typer.Option(help="Show a progress bar.")] = True,
) -> None:
    """Review finished games: every decision of the chosen seats, each option valued from that seat's
    view (expected win share), the move's loss and class; a table per seat (docs/review.md)."""

    from bodoge.analysis import review as reviewing
    from bodoge.analysis.review_html import review_html
    from bodoge.analysis.values import Budget
    from bodoge.arena import runner

    if backend not in ("pool", "ray"):
        _fail(f"--backend takes pool or ray, not {backend!r}")
    if address is not None and backend != "ray":
        _fail("--address is the address of a Ray cluster: it needs --backend ray")
    named: list[tuple[str, Any]] = []
    for path in records:
        named.extend(_read_records(path))
    if len(named) > reviewing.MAX_RECORDS:
        _fail(f"{len(named)} records; a review takes at most {reviewing.MAX_RECORDS} at once")
    wanted = _parse_seats(seats)
    try:
        budget = None if iterations is None and seconds is None else Budget(iterations, seconds)
        plans = []
        for name, record in named:
            try:
                plans.append(reviewing.plan_review(record, wanted, budget, seed, rollout, "likely", leaf))
            except BadOption as exc:
                _fail(_review_flags(str(exc)))
            except BodogeError as exc:
                _fail(f"{name}: {exc}")
        if backend == "ray":
            runner.check_ray()
    except BodogeError as exc:
        _fail(_review_flags(str(exc)))
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
                _fail(f"--out {_printable(str(folder))} cannot be made: {exc.strerror or exc}")
            _check_file_to_write(folder / "review.json", "--out")
    workers = _workers(jobs)
    bar = _progress_bar("review", progress)
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
        _fail(str(exc))
    elapsed = time.perf_counter() - start
    for i, result in enumerate(reviews):
        _print_review(result, names[i] if len(reviews) > 1 else None)
        if folders:
            text = json.dumps(result, ensure_ascii=False, indent=1) + "\n"
            try:
                (folders[i] / "review.json").write_text(text, encoding="utf-8")
                (folders[i] / "review.html").write_text(review_html(result), encoding="utf-8")
            except OSError as exc:
                _error_line(f"the review could not be written to {folders[i]}: {exc.strerror or exc}")
                raise typer.Exit(1) from None
    decisions = sum(len(r["decisions"]) for r in reviews)
    console.print(f"{decisions} decisions reviewed in {elapsed:.1f} s with {workers} workers.")
    if out is not None:
        where = out if len(reviews) == 1 else out / "*"
        console.print(f"wrote {_shown(where / 'review.json')} and review.html", soft_wrap=True)


def _review_flags(message: str) -> str:
    """An option's error in the words of `review`'s flags."""
    for name in ("iterations", "seconds", "seats", "rollout", "leaf"):
        message = message.replace(f"'{name}'", f"--{name}")
    return message


def _print_review(result: dict[str, Any], name: str | None) -> None:
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


def tuning_options_text(options: dict[str, Any]) -> str:
    return ", ".join(f"{k}={json.dumps(v, separators=(',', ':'))}" for k, v in options.items())


def _kept_records(path: Path | None, games: int) -> list[dict[str, Any]]:
    """The finished games in `path` (after an interrupt or a failure), as far as they can be read."""
    from bodoge import arena

    if path is None:
        return []
    try:
        records = arena.load_records(path)
    except (BodogeError, OSError):
        return []
    return [r for r in records if r["arena"]["index"] < games]


def _check_listen(host: str, port: int, host_flag: str = "--host", port_flag: str = "--port") -> None:
    """Refuse now an address the server could not listen on (unknown host, port taken, no permission);
    the socket is bound the way uvicorn binds it, then closed."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((host, port))
    except (
        OSError,
        UnicodeError,
        ValueError,
        TypeError,
        OverflowError,
    ) as exc:  # TypeError: a host that is not text
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        _fail(f"cannot listen on {host_flag} {host!r} {port_flag} {port}: {reason}")


def _db_url(db: str, normalize: Callable[[str], str]) -> tuple[Any, str]:
    """The `--db` URL as the server will use it, and as it may be shown (no password); refused now if
    it is not a URL, names a database SQLAlchemy does not know, or its driver is not installed."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    allowed = "a SQLAlchemy URL such as sqlite:///bodoge.db or postgresql://user:pw@host/bodoge"
    try:
        shown = make_url(db).render_as_string(hide_password=True)
        url = make_url(normalize(db))
    except (ArgumentError, ValueError, TypeError):
        _fail(f"--db {db!r} is not a database URL; allowed: {allowed}")
    try:
        dialect = url.get_dialect()
    except NoSuchModuleError:
        _fail(f"--db {shown}: SQLAlchemy has no database {url.drivername!r}; allowed: {allowed}")
    try:
        dialect.import_dbapi()
    except ImportError as exc:
        _fail(f"--db {shown}: the driver for {url.drivername} is not installed ({exc})")
    return url, shown


def _check_db(url: Any, shown: str) -> None:
    """Refuse now a database that cannot be reached or read (reading its schema: a file that is no
    database fails). SQLite makes a missing file here, as the server would a moment later."""
    import sqlalchemy
    from sqlalchemy.exc import SQLAlchemyError
    from sqlalchemy.pool import NullPool

    try:
        engine = sqlalchemy.create_engine(url, poolclass=NullPool)
        try:
            with engine.connect() as conn:
                sqlalchemy.inspect(conn).get_table_names()
        finally:
            engine.dispose()
    except SQLAlchemyError as exc:
        cause = getattr(exc, "orig", None) or exc
        reason = str(cause).strip().splitlines()[0] if str(cause).strip() else type(cause).__name__
        _fail(f"--db {shown}: cannot use the database: {reason}")


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[
        int, typer.Option(callback=_integers(1, 65535), help="Port to listen on (1 to 65535).")
    ] = 8000,
    db: Annotated[
        str, typer.Option(help="SQLAlchemy database URL, e.g. postgresql://user:pw@localhost/bodoge.")
    ] = "sqlite:///bodoge.db",
    bot_workers: Annotated[
        int | None,
        typer.Option(
            callback=_integers(1, MAX_BOT_WORKERS),
            help=f"Processes that run bots (default: cores, at most 4; up to {MAX_BOT_WORKERS}).",
        ),
    ] = None,
    bot_time: Annotated[
        float,
        typer.Option(
            callback=_seconds(MAX_BOT_TIME, zero_ok=False),
            help=f"Seconds a bot may think about one move (above 0, up to {MAX_BOT_TIME:g}).",
        ),
    ] = 5.0,
    bot_delay: Annotated[
        float,
        typer.Option(
            callback=_seconds(MAX_BOT_DELAY, zero_ok=True),
            help=f"Pause in seconds before each bot move, so people can follow (0 to {MAX_BOT_DELAY:g}).",
        ),
    ] = 0.5,
    max_body: Annotated[
        int | None, typer.Option(help="Bytes of one request body, 413 beyond (default 65536).")
    ] = None,
    create_rate: Annotated[
        str | None,
        typer.Option(help="New tables per client address, e.g. 10/minute; 429 beyond (default 30/minute)."),
    ] = None,
    open_tables: Annotated[
        int | None, typer.Option(help="Tables in play made by one client address (default 20).")
    ] = None,
    ws_per_address: Annotated[
        int | None, typer.Option(help="Websockets open at once per client address (default 64).")
    ] = None,
    message_rate: Annotated[
        str | None,
        typer.Option(help="Messages one websocket may send, e.g. 20/second; closed (1008) beyond."),
    ] = None,
    idle_timeout: Annotated[
        float | None,
        typer.Option(help="Seconds without a move before a table is abandoned (default 86400)."),
    ] = None,
    work_timeout: Annotated[
        float | None,
        typer.Option(help="Seconds for setting up, rebuilding or replaying one table (default 20)."),
    ] = None,
    unstarted_timeout: Annotated[
        float | None,
        typer.Option(
            help="Seconds a table may wait for its first move before it is abandoned (default 3600)."
        ),
    ] = None,
    away_grace: Annotated[
        float | None,
        typer.Option(
            help="Seconds a person may be disconnected before a stand-in bot plays for them (default 60)."
        ),
    ] = None,
    chat_rate: Annotated[
        str | None,
        typer.Option(help="Chat lines one websocket may send, e.g. 10/minute (the default)."),
    ] = None,
    allow_origin: Annotated[
        list[str] | None,
        typer.Option(help="Another page origin whose websockets are accepted (repeatable; * for any)."),
    ] = None,
    forwarded_allow_ips: Annotated[
        str,
        typer.Option(help="Proxies whose X-Forwarded-For gives the client address (comma-separated)."),
    ] = "127.0.0.1",
    metrics_port: Annotated[
        int | None,
        typer.Option(
            callback=_integers(1, 65535),
            help="Serve GET /metrics (Prometheus) on this port, apart from the lobby's (default: off).",
        ),
    ] = None,
    metrics_host: Annotated[
        str, typer.Option(help="Address the metrics port listens on (keep it private).")
    ] = "127.0.0.1",
    review_rate: Annotated[
        str | None,
        typer.Option(
            help="Game reviews one client address may start, e.g. 10/hour (the default); 429 beyond."
        ),
    ] = None,
    review_queue: Annotated[
        int | None,
        typer.Option(help="Game reviews queued or running at this process at once (default 8); 503 beyond."),
    ] = None,
    review_timeout: Annotated[
        float | None,
        typer.Option(help="Seconds one game review may run before it is stopped as failed (default 180)."),
    ] = None,
    review_deals: Annotated[
        int | None,
        typer.Option(
            callback=_integers(2, 10_000),
            help="The most deals an option plays in a decision of a game review, 2 to 10000 (default: 128; 32 for a game without a quick playout policy).",
        ),
    ] = None,
) -> None:
    """Serve the lobby and tables: play in the browser with friends and bots (see docs/protocol.md)."""
    if not host.strip():
        _fail("--host is empty; allowed: an address to listen on, such as 127.0.0.1 or 0.0.0.0")
    try:
        from bodoge.server import ServerConfig
        from bodoge.server import serve as run_server
        from bodoge.server.guard import Limits
        from bodoge.server.storage import normalize_url
    except ImportError as exc:
        _fail(f"the server needs its extra: pip install 'bodoge[server]' ({exc})")
    url, shown = _db_url(db, normalize_url)
    _check_listen(host, port)
    if metrics_port is not None:
        if metrics_port == port:
            _fail(f"--metrics-port {metrics_port} is --port too; allowed: another port")
        _check_listen(metrics_host, metrics_port, "--metrics-host", "--metrics-port")
    _check_db(url, shown)
    given: dict[str, Any] = {
        "max_body": max_body,
        "create_rate": create_rate,
        "open_tables": open_tables,
        "ws_per_address": ws_per_address,
        "message_rate": message_rate,
        "idle_timeout": idle_timeout,
        "work_timeout": work_timeout,
        "unstarted_timeout": unstarted_timeout,
        "away_grace": away_grace,
        "chat_rate": chat_rate,
        "allow_origins": allow_origin,
        "review_rate": review_rate,
        "review_queue": review_queue,
        "review_timeout": review_timeout,
    }
    try:
        limits = Limits(**{name: value for name, value in given.items() if value is not None})
    except ValueError as exc:  # its message starts with the field's name: say the flag's
        name = next(n for n in given if str(exc).startswith(n))
        flag = "--allow-origin" if name == "allow_origins" else "--" + name.replace("_", "-")
        _fail(flag + str(exc)[len(name) :])
    config = ServerConfig(
        db=db,
        bot_budget=bot_time,
        bot_delay=bot_delay,
        limits=limits,
        forwarded_allow_ips=forwarded_allow_ips,
        metrics_port=metrics_port,
        metrics_host=metrics_host,
        review_deals=review_deals,
    )
    if bot_workers is not None:
        config.bot_workers = bot_workers
    where = f"[{host}]" if ":" in host else host
    console.print(f"bodoge: serving the lobby at http://{escape(_printable(where))}:{port}/")
    try:
        run_server(host, port, config)
    except KeyboardInterrupt:  # uvicorn stops gracefully on Ctrl-C, then raises it again
        console.print("bodoge: stopped.")
        raise typer.Exit(130) from None


@app.command()
def train(
    game: GameName,
    players: Players = None,
    settings: SetOptions = None,
    iterations: Annotated[
        int,
        typer.Option(
            callback=_integers(1, 1000), help="Expert-iteration rounds (self-play, learn, measure)."
        ),
    ] = 4,
    games: Annotated[
        int, typer.Option(callback=_integers(1, 100_000), help="Self-play games per iteration.")
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
        typer.Option(callback=_integers(1, 100_000), help="Games of the first iteration (default: --games)."),
    ] = None,
    expert: Annotated[
        str,
        typer.Option(
            help="The agent that plays the later iterations, guided by the last network (--guide), or "
            "lookahead[:rollout=R,temperature=T,bonus=B] (with --bootstrap lookahead), or "
            "ppo[:against=heuristic|self,clip=C,entropy=E,lambda=L,explore=X] (the network plays and "
            "learns from its games' outcomes; with --window 1)."
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
        int, typer.Option(callback=_integers(1, 1000), help="Passes over the samples an iteration.")
    ] = 8,
    lr: Annotated[
        float, typer.Option(help="Adam's learning rate (above 0, below 1; lower for ppo, e.g. 0.0003).")
    ] = 1e-3,
    window: Annotated[
        int,
        typer.Option(
            callback=_integers(1, 1000),
            help="Learn from the samples of this many last iterations (may change on --resume).",
        ),
    ] = 3,
    eval_deals: Annotated[
        int,
        typer.Option(
            callback=_integers(0, 100_000),
            help="Deals to measure each iteration's network on against n-1 heuristics (each played with it "
            "in every seat); 0: do not measure.",
        ),
    ] = 30,
    seed: Annotated[
        int, typer.Option(callback=_integers(0, 2**31), help="Seed of the deals and the network.")
    ] = 1,
    jobs: Annotated[
        int, typer.Option(callback=_integers(1, 256), help="Processes that play the self-play games.")
    ] = 1,
    out: Annotated[Path | None, typer.Option(help="Folder of the run (default: runs/train/GAME-Np).")] = None,
    resume: Annotated[
        bool, typer.Option(help="Continue the run in --out after its last checkpoint.")
    ] = False,
    force: Annotated[bool, typer.Option(help="Replace a run already in --out.")] = False,
    progress: Annotated[bool, typer.Option(help="Show progress.")] = True,
    plots: Annotated[bool, typer.Option(help="Draw the report's plots (matplotlib).")] = True,
) -> None:
    """Learn a policy and a value network by self-play (expert iteration) for the `nn` agent.

    Writes into --out the model (model.npz + its card model.json), a checkpoint after every iteration
    (--resume continues after Ctrl-C), and report.md / report.html with the learning curves and the
    strength against the heuristic. --set trains on a variant: every game of the run, the measures
    included, is played with those options, and the card records them. Needs the train extra (pip
    install 'bodoge[train]'); see docs/models.md."""
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    from bodoge.train import TrainConfig
    from bodoge.train import run as train_run

    try:
        n = game_class(game)(players).num_players if players is None else players
        widths = [parse_text(w.strip()) for w in hidden.split(",") if w.strip()]
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
        _fail(str(exc))
    folder = out if out is not None else Path("runs") / "train" / f"{game}-{n}p"
    bar = Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        TimeElapsedColumn(),
        console=console,
        disable=not progress,
    )
    task = bar.add_task(f"{game} {n}p", total=None)

    def on_step(what: str, iteration: int, total: int) -> None:
        bar.update(
            task, description=escape(f"{game} {n}p: iteration {iteration}/{total}: {_printable(what)}")
        )

    history: list[dict[str, Any]] = []
    try:
        with bar:
            history = train_run(
                config, folder, resume=resume, force=force, jobs=jobs, on_step=on_step, plots=plots
            )
    except KeyboardInterrupt:
        console.print(
            f"[yellow]Interrupted:[/yellow] the iterations finished so far are kept in {_shown(folder)}; "
            "--resume continues the run.",
            soft_wrap=True,
        )
        raise typer.Exit(130) from None
    except BodogeError as exc:
        _fail(str(exc))
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
    console.print(
        f"model: {_shown(folder / 'model.npz')}; report: {_shown(folder / 'report.md')}", soft_wrap=True
    )


def main() -> None:
    # Text that cannot be shown (a file name that is not UTF-8) is escaped rather than fatal.
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors="backslashreplace")
    app()


if __name__ == "__main__":
    main()
