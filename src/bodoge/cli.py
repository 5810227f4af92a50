"""The `bodoge` command: list games, read rules, play in the terminal, simulate many games."""

from __future__ import annotations

import importlib
import json
import random
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

import bodoge
from bodoge import agents as agent_registry
from bodoge.core.game import Game
from bodoge.core.options import parse_text
from bodoge.core.registry import game_class
from bodoge.core.registry import games as game_names
from bodoge.errors import BodogeError, IllegalAction

app = typer.Typer(help="bodoge: Tokkuri, Tottarot, Hangover and Troika, played exactly by their rules.")
console = Console(highlight=False)

GameName = Annotated[
    str, typer.Argument(help="The game: " + "/".join(["hangover", "tokkuri", "tottarot", "troika"]))
]
Players = Annotated[
    int | None, typer.Option("--players", "-p", help="Number of players (the game's default if omitted).")
]
SetOptions = Annotated[
    list[str] | None,
    typer.Option(
        "--set", help="A game option as name=value (value in JSON: 12, true, [2,1,-1]); repeatable."
    ),
]


def _fail(message: str) -> None:
    console.print(f"[red]error:[/red] {message}")
    raise typer.Exit(2)


def parse_settings(settings: list[str] | None) -> dict[str, Any]:
    """`--set name=value` pairs as game options (values parsed as JSON where they parse)."""
    options: dict[str, Any] = {}
    for item in settings or []:
        name, eq, value = item.partition("=")
        if not eq or not name.strip():
            _fail(f"--set takes name=value, not {item!r}")
        options[name.strip()] = parse_text(value.strip())
    return options


def _make(name: str, players: int | None, settings: list[str] | None) -> Game:
    try:
        return bodoge.make(name, players, **parse_settings(settings))
    except BodogeError as exc:
        _fail(str(exc))
        raise  # unreachable: _fail exits


def _text_module(name: str) -> Any:
    return importlib.import_module(f"bodoge.games.{name}.text")


def event_line(event: dict[str, Any]) -> str:
    """One log event as a line of text: its own `text` where the game gives one."""
    if "text" in event:
        return str(event["text"])
    return ", ".join(f"{k}={v}" for k, v in event.items())


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
        raise
    console.print(_text_module(game).RULES[lang], markup=False)
    table = Table(
        "option", "default", "allowed", "what it changes", title="Options (bodoge play/sim --set name=value)"
    )
    for spec in cls.option_specs:
        table.add_row(
            spec.name, json.dumps(spec.to_json(spec.default), ensure_ascii=False), spec.allowed, spec.help
        )
    console.print(table)


@app.command()
def play(
    game: GameName,
    players: Players = None,
    seat: Annotated[int, typer.Option(help="Your seat (0 starts round 1).")] = 0,
    bots: Annotated[
        str, typer.Option(help="Agent spec for the other seats, e.g. random or heuristic.")
    ] = "random",
    seed: Annotated[int | None, typer.Option(help="Seed of the deal (random if omitted).")] = None,
    settings: SetOptions = None,
    record: Annotated[Path | None, typer.Option(help="Write the game record (JSON) here at the end.")] = None,
) -> None:
    """Play in the terminal against bots: type an action's text or number; 'help' lists them."""
    g = _make(game, players, settings)
    try:
        g.check_seat(seat, spectator_ok=False)
        bot = agent_registry.make(bots)
    except BodogeError as exc:
        _fail(str(exc))
        raise
    state = g.new_state(seed=seed)
    bot_rng = random.Random(state.seed)
    console.print(
        f"[bold]{g.title['en']} ({g.title['ja']})[/bold], {g.num_players} players, seed {state.seed}."
    )
    console.print(f"You are P{seat}. Type an action (text or number), 'help', 'rules' or 'quit'.\n")
    seen = 0
    while not state.is_terminal:
        log = state.log(seat)
        for event in log[seen:]:
            console.print(f"  · {event_line(event)}", markup=False)
        seen = len(log)
        if state.current_player != seat:
            mover = state.current_player
            state.apply(bot.act(g, state.view(mover), bot_rng), seat=mover)
            continue
        console.print()
        console.print(state.render(seat), markup=False)
        legal = state.legal_actions()
        console.print("  ".join(f"[cyan]{a}[/cyan]:{state.action_text(a)}" for a in legal))
        try:
            answer = input(f"P{seat}> ").strip()
        except EOFError:
            answer = "quit"
        if answer in ("quit", "exit", "q"):
            console.print("Stopped. The game so far:")
            _save_record(state, record)
            raise typer.Exit(0)
        if answer in ("help", "?", ""):
            console.print(f"{state.decision()}. Legal actions:")
            for a in legal:
                console.print(f"  {a:>4}  {state.action_text(a)}", markup=False)
            continue
        if answer == "rules":
            console.print(_text_module(game).RULES["en"], markup=False)
            continue
        try:
            state.apply(answer, seat=seat)
        except IllegalAction as exc:
            console.print(f"[red]{exc.reason}[/red]", markup=True)
    for event in state.log(seat)[seen:]:
        console.print(f"  · {event_line(event)}", markup=False)
    console.print(state.render(seat), markup=False)
    scores, winners = state.scores(), state.winners()
    console.print("Scores: " + ", ".join(f"P{p} {s}" for p, s in enumerate(scores)))
    console.print("Winner(s): " + (", ".join(f"P{w}" for w in winners) or "nobody"))
    _save_record(state, record)


def _save_record(state: Any, path: Path | None) -> None:
    if path is not None:
        path.write_text(json.dumps(state.to_record(), ensure_ascii=False, indent=1))
        console.print(f"Record written to {path}.")


@app.command()
def sim(
    game: GameName,
    players: Players = None,
    games: Annotated[int, typer.Option(help="How many games to play.")] = 1000,
    seed: Annotated[int, typer.Option(help="Seed of the first game; game i uses seed + i.")] = 1,
    settings: SetOptions = None,
) -> None:
    """Play many games between random bots and print win share by seat, mean score, length, throughput."""
    g = _make(game, players, settings)
    if games < 1:
        _fail(f"--games takes a positive number, not {games}")
    n = g.num_players
    wins = [0.0] * n
    score_sum = [0] * n
    actions = 0
    start = time.perf_counter()
    for i in range(games):
        state = g.new_state(seed=seed + i)
        rng = random.Random(seed + i)
        while state.current_player is not None:
            state.apply(rng.choice(state.legal_actions()))
        for p, share in enumerate(state.returns()):
            wins[p] += share
        for p, s in enumerate(state.scores()):
            score_sum[p] += s
        actions += len(state.history)
    elapsed = time.perf_counter() - start
    table = Table(
        "seat", "win share", "mean score", title=f"{g.title['en']}: {games} games, {n} players, random bots"
    )
    for p in range(n):
        table.add_row(f"P{p}", f"{wins[p] / games:.3f}", f"{score_sum[p] / games:.2f}")
    console.print(table)
    console.print(f"mean game length: {actions / games:.1f} actions")
    console.print(
        f"throughput: {games / elapsed:.1f} games/s, {actions / elapsed:,.0f} actions/s ({elapsed:.2f} s)"
    )


def main() -> None:
    app()


if __name__ == "__main__":
    main()
