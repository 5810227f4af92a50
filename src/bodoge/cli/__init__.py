"""The `bodoge` command: list games, read rules, play in the terminal, simulate many games.

One module per command, each a thin layer over a function of the library that a Python user can call
too: it checks its flags, calls the library, prints. What they share (the consoles, the option types,
the checks, the one way of refusing) is `bodoge.cli.common`:

    games, rules   bodoge.cli.rules      play      bodoge.cli.play       learn    bodoge.cli.learn
    sim            bodoge.cli.sim        profiles  bodoge.cli.profiles   tune     bodoge.cli.tune
    review         bodoge.cli.review     serve     bodoge.cli.serve      train    bodoge.cli.train
    compile        bodoge.cli.compile

Bad input never gets as far as a traceback: every refusal is one line, `error: ...`, on standard error,
naming what was wrong and what is allowed, with exit status 2, before any work starts (nothing is
written). That holds for typer's own refusals too (a flag out of its range, a missing argument):
`common.Commands` prints them the same way. A run stopped by Ctrl-C keeps what it had done (`play`
writes the record of the game so far, `sim` keeps its finished games) and exits with 130.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import sys
from typing import Annotated

import typer

from bodoge.cli import compile, learn, play, profiles, review, rules, serve, sim, train, tune
from bodoge.cli.common import Commands, console

__all__ = ["app", "main"]

app = typer.Typer(
    help="bodoge: Tokkuri, Tottarot, Hangover and Troika, played exactly by their rules.",
    cls=Commands,
    # A traceback (a bug) must not print local variables: `serve` holds the database URL, password included.
    pretty_exceptions_show_locals=False,
)


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


# The commands, in the order `bodoge --help` lists them.
app.command("games")(rules.list_games)
app.command()(rules.rules)
app.command()(play.play)
app.command()(learn.learn)
app.command()(sim.sim)
app.command()(profiles.profiles)
app.command()(tune.tune)
app.command()(review.review)
app.command()(serve.serve)
app.command()(serve.reports)
app.command()(train.train)
app.command("compile")(compile.compile_modules)


def main() -> None:
    """The console script `bodoge`."""
    # Text that cannot be shown (a file name that is not UTF-8) is escaped rather than fatal.
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors="backslashreplace")
    app()
