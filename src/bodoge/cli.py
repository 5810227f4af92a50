"""The `bodoge` command: list games, read rules, play in the terminal, simulate many games."""

from __future__ import annotations

import importlib
import json
import os
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
            spec.name,
            json.dumps(spec.to_json(spec.convert(spec.default)), ensure_ascii=False),
            spec.allowed,
            spec.help,
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
            console.print("Stopped." + ("" if record else " (--record FILE keeps a game's record.)"))
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
    agents: Annotated[
        str,
        typer.Option(
            help="Agent specs by starting seat, comma-separated, e.g. "
            "'ismcts:iterations=2000,rollout=heuristic,heuristic' (a part with '=' and no ':' belongs to "
            "the agent before it). Fewer than the players: the last one fills the other seats."
        ),
    ] = "random",
    games: Annotated[
        int, typer.Option(help="Games per variant. With rotation and duplicate deals: games/players deals.")
    ] = 1000,
    seed: Annotated[int, typer.Option(help="Seed of the first deal; deal d uses seed + d.")] = 1,
    jobs: Annotated[int | None, typer.Option(help="Parallel workers (default: the CPU count).")] = None,
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
) -> None:
    """Play many games between agents in parallel; print win shares, seats, ratings; write a report."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from bodoge import arena

    variant_values: dict[str, list[Any]] = {}
    for item in settings or []:
        name, eq, value = item.partition("=")
        if not eq or not name.strip():
            _fail(f"--set takes name=value, not {item!r}")
        variant_values[name.strip()] = [parse_text(v.strip()) for v in arena.split_top_level(value)]
    specs = arena.split_agents(agents)
    if not specs:
        _fail("--agents needs at least one agent spec")
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
    except BodogeError as exc:
        _fail(str(exc))
        raise
    if resume and out is None:
        _fail("--resume needs --out, the folder of the run to continue")
    workers = jobs if jobs is not None else (os.cpu_count() or 1)
    total = games * len(variants)
    bar = Progress(
        TextColumn(f"{game} {n}p"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=not progress,
    )
    task = bar.add_task("games", total=total)
    start = time.perf_counter()
    first_done: list[int] = []

    def on_progress(done: int, all_games: int) -> None:
        if not first_done:
            first_done.append(done)
        bar.update(task, completed=done, total=all_games)

    interrupted = False
    try:
        with bar:
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
        interrupted = True
        records = arena.load_records(out / "games.jsonl") if out is not None else []
        records = [r for r in records if r["arena"]["index"] < games]
        console.print(
            f"[yellow]Interrupted:[/yellow] {len(records)} of {total} games are finished"
            + (f" and kept in {out / 'games.jsonl'}; --resume continues the run." if out else ".")
        )
    except BodogeError as exc:
        _fail(str(exc))
        raise
    elapsed = time.perf_counter() - start
    if not records:
        raise typer.Exit(130 if interrupted else 0)
    summary = arena.summarize(records, config)
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
        console.print(f"records: {out / 'games.jsonl'}; report: {report}")
    if interrupted:
        raise typer.Exit(130)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[
        str, typer.Option(help="SQLAlchemy database URL, e.g. postgresql://user:pw@localhost/bodoge.")
    ] = "sqlite:///bodoge.db",
    bot_workers: Annotated[
        int | None, typer.Option(help="Processes that run bots (default: cores, at most 4).")
    ] = None,
    bot_time: Annotated[float, typer.Option(help="Seconds a bot may think about one move.")] = 5.0,
    bot_delay: Annotated[
        float, typer.Option(help="Pause in seconds before each bot move, so people can follow.")
    ] = 0.5,
) -> None:
    """Serve the lobby and tables: play in the browser with friends and bots (see docs/protocol.md)."""
    try:
        from bodoge.server import ServerConfig
        from bodoge.server import serve as run_server
    except ImportError as exc:
        _fail(f"the server needs its extra: pip install 'bodoge[server]' ({exc})")
        raise
    config = ServerConfig(db=db, bot_budget=bot_time, bot_delay=bot_delay)
    if bot_workers is not None:
        config.bot_workers = bot_workers
    console.print(f"bodoge: serving the lobby at http://{host}:{port}/")
    run_server(host, port, config)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
