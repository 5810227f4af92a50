"""`bodoge play GAME`: a game in the terminal against bots (the session itself is `bodoge.terminal`).

Ctrl-C, the end of the input and `quit` keep the record of the game so far; Ctrl-C exits with 130.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from bodoge import agents as agent_registry
from bodoge import terminal
from bodoge.cli.common import (
    GameName,
    Players,
    SetOptions,
    check_file_to_write,
    check_lang,
    console,
    error_line,
    fail,
    integers,
    make_game,
    printable,
)
from bodoge.core.game import MAX_SEED
from bodoge.core.records import write_record
from bodoge.errors import BodogeError


def play(
    game: GameName,
    players: Players = None,
    seat: Annotated[int, typer.Option(help="Your seat (0 starts round 1).")] = 0,
    bots: Annotated[
        str, typer.Option(help="Agent spec for the other seats, e.g. random or heuristic.")
    ] = "random",
    seed: Annotated[
        int | None,
        typer.Option(callback=integers(0, MAX_SEED), help="Seed of the deal (random if omitted)."),
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
    check_lang(lang)
    g = make_game(game, players, settings)
    try:
        g.check_seat(seat, spectator_ok=False)
        bot = agent_registry.make(bots)
        check = getattr(bot, "check", None)
        if check is not None:
            check(g)
        state = g.new_state(seed=seed)
    except BodogeError as exc:
        fail(str(exc))
    if record is not None:
        check_file_to_write(record, "--record")
    terminal.read_any_bytes(sys.stdin)
    console.print(
        f"[bold]{g.title['en']} ({g.title['ja']})[/bold], {g.num_players} players, seed {state.seed}."
    )
    ending = terminal.Session(console, state, seat, bot, lang).play()
    if ending is terminal.Ending.FINISHED:
        if record is not None:
            save_record(state.to_record(), record, "Record written to {path}.")
        return
    # A game left unfinished is always kept, where --record says or beside the current folder's others.
    path = record if record is not None else terminal.default_record_path(state)
    save_record(terminal.record_so_far(state), path, f"{ending.value}: the game so far is in {{path}}.")
    raise typer.Exit(130 if ending is terminal.Ending.INTERRUPTED else 0)


def save_record(record: dict[str, Any], path: Path, said: str) -> None:
    """Write the record to `path` and say so in one line (`said`, with the path for {path})."""
    try:
        write_record(record, path)
    except OSError as exc:
        error_line(f"the record could not be written to {path}: {exc.strerror or exc}")
        raise typer.Exit(1) from None
    console.print(said.format(path=printable(str(path))), markup=False, soft_wrap=True)  # a path stays whole
