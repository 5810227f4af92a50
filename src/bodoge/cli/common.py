"""What the `bodoge` commands share: the consoles, the option types several commands take, the checks
of flags, and the one way of refusing.

Bad input never gets as far as a traceback: every refusal is one line, `error: ...`, on standard error,
naming what was wrong and what is allowed, with exit status 2, before any work starts (nothing is
written). That holds for typer's own refusals too (a flag out of its range, a missing argument):
`Commands` prints them the same way.
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
import typer.core
from rich.console import Console
from rich.markup import escape

import bodoge
from bodoge.arena.runner import MAX_JOBS
from bodoge.core.game import MAX_SEED, Game
from bodoge.core.options import parse_text
from bodoge.errors import BodogeError

MAX_MESSAGE = 600  # characters of an error line; a longer one keeps its start and its end
LANGUAGES = ("en", "ja")  # of --lang
BACKENDS = ("pool", "ray")  # of --backend

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False, soft_wrap=True)  # soft wrap: an error stays one line


# -- refusing -----------------------------------------------------------------------------------------


def printable(text: str) -> str:
    """`text` with what a terminal must not be sent written as escapes: lone surrogates (from arguments
    or file names that are not UTF-8: printing them raises UnicodeEncodeError) as \\udcff, control
    characters (a line break, a terminal escape sequence) as \\n or \\x1b."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)


def path_markup(path: Path) -> str:
    """A path as rich markup that prints it literally."""
    return escape(printable(str(path)))


def error_line(message: str) -> None:
    """One `error: ...` line on standard error (a long message keeps its start and its end)."""
    message = printable(message)  # one line, whatever the message holds
    if len(message) > MAX_MESSAGE:
        half = MAX_MESSAGE // 2
        message = f"{message[:half]} … {message[-half:]}"
    err_console.print(f"[red]error:[/red] {escape(message)}")


def fail(message: str) -> NoReturn:
    """Refuse: one `error:` line on standard error, exit status 2."""
    error_line(message)
    raise typer.Exit(2)


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


class Commands(typer.core.TyperGroup):
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
            error_line(str(getattr(exc, "format_message", exc.__str__)()) + hint)
            sys.exit(getattr(exc, "exit_code", 2))
        except _ABORTS:
            error_line("aborted")
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


# -- checks of flags ----------------------------------------------------------------------------------


def integers(lo: int, hi: int) -> Callable[[int | None], int | None]:
    """A flag's check: an integer from lo to hi (None: the flag was not given)."""

    def check(value: int | None) -> int | None:
        if value is not None and not lo <= value <= hi:
            raise typer.BadParameter(f"{value} is out of range; allowed: an integer from {lo} to {hi}")
        return value

    return check


def seconds(hi: float, zero_ok: bool) -> Callable[[float], float]:
    """A flag's check: a finite number of seconds up to `hi`, from 0 or above 0."""
    allowed = f"from 0 to {hi:g}" if zero_ok else f"above 0, at most {hi:g}"

    def check(value: float) -> float:
        if not (math.isfinite(value) and (value >= 0 if zero_ok else value > 0) and value <= hi):
            raise typer.BadParameter(f"{value} is not allowed; allowed: a number of seconds {allowed}")
        return value

    return check


#: `--lang` of the commands that write a report (sim, tune): the terminal stays English.
ReportLang = Annotated[
    str, typer.Option(help="Language of report.md and report.html: en or ja (the terminal stays English).")
]


def check_lang(lang: str) -> None:
    """`--lang`: en or ja."""
    if lang not in LANGUAGES:
        fail(f"--lang takes en or ja, not {lang!r}")


def check_backend(backend: str) -> None:
    """`--backend`: pool or ray."""
    if backend not in BACKENDS:
        fail(f"--backend takes pool or ray, not {backend!r}")


def check_address(address: str | None, backend: str) -> None:
    """`--address` goes with `--backend ray` only."""
    if address is not None and backend != "ray":
        fail("--address is the address of a Ray cluster: it needs --backend ray")


# -- option types several commands take ---------------------------------------------------------------

GameName = Annotated[
    str, typer.Argument(help="The game, by name ('bodoge games' lists every registered one).")
]
Players = Annotated[
    int | None, typer.Option("--players", "-p", help="Number of players (the game's default if omitted).")
]
# Shared by the commands that play or review many games in parallel (sim, profiles, tune, review).
Jobs = Annotated[
    int | None,
    typer.Option(callback=integers(1, MAX_JOBS), help="Parallel workers (default: the CPU count)."),
]
FirstSeed = Annotated[
    int, typer.Option(callback=integers(0, MAX_SEED), help="Seed of the first deal; deal d uses seed + d.")
]
SetOptions = Annotated[
    list[str] | None,
    typer.Option(
        "--set", help="A game option as name=value (value in JSON: 12, true, [2,1,-1]); repeatable."
    ),
]
Backend = Annotated[str, typer.Option(help="pool (processes on this machine) or ray.")]
ShowProgress = Annotated[bool, typer.Option(help="Show a progress bar.")]
DrawPlots = Annotated[bool, typer.Option(help="Draw the report's plots (matplotlib).")]


def worker_count(jobs: int | None) -> int:
    """The parallel workers of a command: `--jobs`, or the CPU count."""
    return jobs if jobs is not None else min(os.cpu_count() or 1, MAX_JOBS)


def progress_bar(label: str, shown: bool) -> Any:
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


# -- game options (--set) -----------------------------------------------------------------------------


def typed_value(text: str, what: str) -> Any:
    """A value typed on the command line (JSON if it parses, else the text)."""
    try:
        return parse_text(text)
    except ValueError as exc:
        fail(f"{what}: {exc}")


def split_setting(item: str) -> tuple[str, str]:
    """One `--set name=value` as its name and its value's text."""
    name, eq, value = item.partition("=")
    if not eq or not name.strip():
        fail(f"--set takes name=value (e.g. --set rounds=2), not {item!r}")
    if name.strip() == "players":
        fail("--set players: the number of players is --players, not a game option")
    return name.strip(), value.strip()


def parse_settings(settings: list[str] | None) -> dict[str, Any]:
    """`--set name=value` pairs as game options (values parsed as JSON where they parse)."""
    options: dict[str, Any] = {}
    for item in settings or []:
        name, value = split_setting(item)
        if name in options:
            fail(f"--set {name} is given twice; give each option once")
        options[name] = typed_value(value, f"--set {name}")
    return options


def make_game(name: str, players: int | None, settings: list[str] | None) -> Game:
    """The game of a command's GAME, --players and --set; refused if it cannot be made."""
    try:
        return bodoge.make(name, players, **parse_settings(settings))
    except BodogeError as exc:
        fail(str(exc))


# -- files --------------------------------------------------------------------------------------------


def check_file_to_write(path: Path, flag: str) -> None:
    """Refuse now, before any play, a path that the end of the command could not write: a folder, a
    file in a folder that does not exist, or one that cannot be opened for writing. Nothing is left
    behind: a file made to try it is removed again."""
    shown = printable(str(path))
    try:
        if path.is_dir():
            fail(f"{flag} {shown} is a folder; give the path of a file to write")
        parent = path.parent
        if not parent.is_dir():
            what = "is not a folder" if parent.exists() else "does not exist"
            fail(f"{flag} {shown}: the folder {printable(str(parent))} {what}")
        if path.exists():
            with path.open("a"):  # appending nothing changes nothing, but needs write permission
                pass
        else:
            with path.open("x"):
                pass
            path.unlink()
    except OSError as exc:
        fail(f"{flag} {shown} cannot be written: {exc.strerror or exc}")
    except ValueError as exc:  # e.g. an embedded NUL
        fail(f"{flag} {shown} is not a file path: {exc}")
