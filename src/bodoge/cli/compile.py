"""`bodoge compile`: build the hot modules with mypyc, say whether they run, or remove them
(the library: `bodoge.compiled`)."""

from __future__ import annotations

from typing import Annotated

import typer

from bodoge import compiled
from bodoge.cli.common import console, fail


def compile_modules(
    force: Annotated[bool, typer.Option(help="Build again even where the build is current.")] = False,
    status: Annotated[
        bool, typer.Option(help="Only say whether the compiled modules run, or why not.")
    ] = False,
    clean: Annotated[
        bool, typer.Option(help="Remove the compiled modules (the pure-Python ones then run).")
    ] = False,
) -> None:
    """Compile the rules and observations a learning step runs most (mypyc; `make setup` does it).

    Without a C compiler everything runs in pure Python, the same games bit for bit, only slower."""
    if sum((force, status, clean)) > 1:
        fail("--force, --status and --clean are one each: give at most one")
    if status:
        console.print(compiled.status(), markup=False, highlight=False)
        return
    if clean:
        compiled.clean()
        console.print("compiled modules removed", markup=False)
        return
    if compiled.build(force=force) != 0:
        raise typer.Exit(1)
