"""Many games in parallel: seat rotation, duplicate deals, variants, JSON lines, resume (DESIGN.md §5).

    config = SimConfig(game="troika", players=4, agents=["ismcts", "heuristic", "heuristic", "heuristic"],
                       games=2000, seed=1, variants=[{}])
    records = run(config, out=Path("results"), jobs=2)        # process pool
    records = run(config, out=Path("results"), backend="ray")   # the same games on a Ray cluster

**Which games.** Game `index` i of a variant plays deal d with the lineup rotated by r:
- with rotation and duplicate deals (the default), d = i // n and r = i mod n: each deal is played n
  times, the agents moved one seat further each time, so every agent gets every seat on the same
  cards and card luck cancels out;
- with rotation only, d = i and r = i mod n; with neither, d = i and r = 0.
Deal d is `new_state(seed + d)`. In rotation r, seat s holds `agents[(s - r) mod n]`. The agent at
seat s draws its randomness from `Random("<deal seed>:<r>:<s>")`. Every variant (a set of option
values) plays the same games, so variants compare on the same deals.

**Where they run.** Workers receive only the configuration and (variant, index) pairs, never states,
and return one JSON-ready record per game. Chunks are sized from the time per game seen so far
(about two seconds of work each), so a long run streams results back steadily. Every game's result
depends only on its (variant, index): a serial run, the process pool and Ray give the same records.

**Files.** `out/run.json` (the configuration) and `out/games.jsonl`, one line per finished game, in
the order they finish. Each line is a `bodoge-record/1` (so `bodoge.replay(line)` rebuilds the game)
plus an `arena` object: index, variant, deal, rotation, the agents by seat, returns, length,
decisions, thinking seconds, wall-clock seconds, game metrics, the choices by kind of decision
(`arena.choices`) and how the game ended (`metrics.end_reason`). Every finished game is written at once, so an
interrupted run keeps them all; `resume=True` reads them back and plays only the games still missing
(a half-written last line is dropped).
"""

from __future__ import annotations

import concurrent.futures as cf
import importlib
import importlib.util
import itertools
import json
import math
import multiprocessing
import os
import random
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import bodoge
from bodoge import agents as agent_registry
from bodoge.agents.base import Agent
from bodoge.arena.match import play_match
from bodoge.arena.metrics import end_reason, game_metrics
from bodoge.core.game import MAX_SEED, Game
from bodoge.core.workers import check_ray, ignore_sigint, start_ray
from bodoge.errors import BadOption, BadRecord, BodogeError, is_int_in

RUN_FORMAT = "bodoge-sim/1"
CHUNK_SECONDS = 2.0
MAX_CHUNK = 64
# Bounds of a run. Records are kept in memory until the summary (about 10 KB a game), so a run is at
# most a million games, all variants together; more is several runs with different seeds.
MAX_GAMES = 1_000_000
MAX_VARIANTS = 100  # combinations of --set values; each gets its own plots and comparison
MAX_JOBS = 256  # worker processes (a Ray cluster's CPUs count apart: see _run_ray)


def make_game(name: str, players: int | None, options: dict[str, Any]) -> Game:
    """A registered game by name, or a game class outside bodoge by its path `module:Class`."""
    if ":" in name:
        module_name, _, class_name = name.partition(":")
        allowed = "a registered game or module:Class (a bodoge Game class)"
        try:
            cls = getattr(importlib.import_module(module_name), class_name)
        except (ImportError, AttributeError, ValueError, TypeError) as exc:
            raise BadOption("game", name, allowed, str(exc) or type(exc).__name__) from None
        if not (isinstance(cls, type) and issubclass(cls, Game)):
            raise BadOption("game", name, allowed, f"{class_name} is not a Game class")
        game: Game = cls(players, **options)
        return game
    return bodoge.make(name, players, **options)


def options_label(options: Mapping[str, Any]) -> str:
    """Game options as people read them, `hand_size=7, removed_numbers=[6,7]` (empty: none given)."""
    return ", ".join(f"{k}={json.dumps(val, separators=(',', ':'))}" for k, val in options.items())


@dataclass
class SimConfig:
    """What a run plays. `agents` holds one spec per seat (agents[i] starts at seat i)."""

    game: str
    players: int
    agents: list[str]
    games: int = 1000  # games per variant
    seed: int = 1
    variants: list[dict[str, Any]] = field(default_factory=lambda: [{}])
    rotate: bool = True
    duplicate: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.game, str):
            raise BadOption("game", self.game, "a game's name")
        if not _is_int(self.players) or self.players < 1:
            raise BadOption("players", self.players, "a number of players")
        if not isinstance(self.agents, list) or not all(isinstance(a, str) for a in self.agents):
            raise BadOption("agents", self.agents, "a list of agent specs")
        if len(self.agents) != self.players:
            raise BadOption("agents", ",".join(self.agents), f"one agent spec per seat ({self.players})")
        if not is_int_in(self.games, 1, MAX_GAMES):
            raise BadOption("games", self.games, f"an integer from 1 to {MAX_GAMES}")
        if not is_int_in(self.seed, 0, MAX_SEED):
            raise BadOption("seed", self.seed, f"an integer from 0 to {MAX_SEED}")
        if not self.variants:
            self.variants = [{}]
        if not isinstance(self.variants, list) or not all(isinstance(v, dict) for v in self.variants):
            raise BadOption("variants", self.variants, "a list of option sets (dicts)")
        if len(self.variants) > MAX_VARIANTS:
            raise BadOption("variants", len(self.variants), f"at most {MAX_VARIANTS} variants")
        if self.games * len(self.variants) > MAX_GAMES:
            raise BadOption(
                "games",
                self.games,
                f"at most {MAX_GAMES} games in all variants together",
                f"{len(self.variants)} variants of {self.games} games",
            )
        if not isinstance(self.rotate, bool) or not isinstance(self.duplicate, bool):
            raise BadOption("rotate", self.rotate, "rotate and duplicate are true or false")

    @property
    def rotations(self) -> int:
        return self.players if self.rotate else 1

    def deal_of(self, index: int) -> tuple[int, int]:
        """(deal, rotation) of game `index`."""
        r = self.rotations
        if self.duplicate and self.rotate:
            return index // r, index % r
        return index, index % r

    @property
    def deal_seeds(self) -> range:
        """The seeds of the deals this run plays (deal d is `new_state(seed + d)`)."""
        last = max(self.deal_of(i)[0] for i in (0, self.games - 1))
        return range(self.seed, self.seed + last + 1)

    def lineup(self, rotation: int) -> list[str]:
        n = self.players
        return [self.agents[(s - rotation) % n] for s in range(n)]

    def variant_label(self, v: int) -> str:
        return options_label(self.variants[v]) or "default"

    def to_json(self) -> dict[str, Any]:
        return {"format": RUN_FORMAT, **asdict(self)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SimConfig:
        data = {k: v for k, v in data.items() if k != "format"}
        return cls(**data)

    def check(self) -> list[Game]:
        """Make every variant's game and every agent once, so bad options fail before any work."""
        made = [make_game(self.game, self.players, v) for v in self.variants]
        for spec in sorted(set(self.agents)):
            agent = agent_registry.make(spec)
            check = getattr(agent, "check", None)
            if check is not None:
                check(made[0])
        return made


# -- workers ------------------------------------------------------------------------------------

_games: dict[str, Game] = {}
_agents: dict[str, Agent] = {}


def _cached_game(config: SimConfig, v: int) -> Game:
    key = json.dumps([config.game, config.players, config.variants[v]], sort_keys=True)
    if key not in _games:
        _games[key] = make_game(config.game, config.players, config.variants[v])
    return _games[key]


def _cached_agent(spec: str) -> Agent:
    if spec not in _agents:
        _agents[spec] = agent_registry.make(spec)
    return _agents[spec]


def play_game(config: SimConfig, variant: int, index: int) -> dict[str, Any]:
    """Game `index` of `variant` as its JSON-lines record."""
    game = _cached_game(config, variant)
    deal, rotation = config.deal_of(index)
    seed = config.seed + deal
    lineup = config.lineup(rotation)
    agents = [_cached_agent(spec) for spec in lineup]
    rngs = [random.Random(f"{seed}:{rotation}:{s}") for s in range(config.players)]
    start = time.perf_counter()
    result = play_match(game, agents, seed, rngs=rngs)
    wall = time.perf_counter() - start
    record = result.record
    assert result.state is not None
    record["arena"] = {
        "index": index,
        "variant": variant,
        "deal": deal,
        "rotation": rotation,
        "agents": lineup,
        "returns": result.returns,
        "length": result.length,
        "decisions": result.decisions,
        "seconds": [round(s, 4) for s in result.seconds],
        "wall": round(wall, 4),
        "metrics": {**game_metrics(result.state), **result.quality},
        "choices": result.choices,
        "end": end_reason(result.state),
    }
    return record


def play_chunk(config_json: dict[str, Any], jobs: Sequence[tuple[int, int]]) -> list[dict[str, Any]]:
    """Play (variant, index) pairs in a worker; what travels is the configuration and the pairs."""
    try:
        config = SimConfig.from_json(config_json)
        return [play_game(config, v, i) for v, i in jobs]
    except BodogeError as exc:
        # BadOption and IllegalAction take several arguments and do not unpickle in the parent (which
        # would break the pool); their message travels intact as a plain BodogeError.
        raise BodogeError(str(exc)) from None


# -- backends ------------------------------------------------------------------------------------

Chunk = list[tuple[int, int]]


class _Chunker:
    """Hands out chunks sized to about CHUNK_SECONDS of work, from the time per game seen so far."""

    def __init__(self, todo: list[tuple[int, int]], jobs: int) -> None:
        self.todo = todo
        self.pos = 0
        self.jobs = jobs
        self.games_done = 0
        self.seconds = 0.0

    def next(self) -> Chunk | None:
        if self.pos >= len(self.todo):
            return None
        if self.games_done == 0:
            size = 1
        else:
            per_game = max(self.seconds / self.games_done, 1e-4)
            size = max(1, min(MAX_CHUNK, int(CHUNK_SECONDS / per_game)))
            left = len(self.todo) - self.pos
            size = min(size, max(1, math.ceil(left / self.jobs)))  # keep every worker busy to the end
        chunk = self.todo[self.pos : self.pos + size]
        self.pos += size
        return chunk

    def done(self, batch: list[dict[str, Any]]) -> None:
        self.games_done += len(batch)
        self.seconds += sum(r["arena"]["wall"] for r in batch)


def _run_serial(config: SimConfig, todo: list[tuple[int, int]]) -> Iterator[list[dict[str, Any]]]:
    for v, i in todo:
        yield [play_game(config, v, i)]


def _run_pool(config: SimConfig, todo: list[tuple[int, int]], jobs: int) -> Iterator[list[dict[str, Any]]]:
    chunker = _Chunker(todo, jobs)
    payload = config.to_json()
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
    # The pool's workers are the children this process starts from here on (the executor does not
    # say which processes are its own).
    others = set(multiprocessing.active_children())
    executor = cf.ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=multiprocessing.get_context(method),
        initializer=ignore_sigint,
        initargs=(list(sys.path),),
    )
    pending: set[cf.Future[list[dict[str, Any]]]] = set()
    try:
        while True:
            while len(pending) < 2 * jobs:
                chunk = chunker.next()
                if chunk is None:
                    break
                pending.add(executor.submit(play_chunk, payload, chunk))
            if not pending:
                break
            finished, _ = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
            for future in finished:
                pending.discard(future)
                batch = future.result()
                chunker.done(batch)
                yield batch
    finally:
        for future in pending:
            future.cancel()
        processes = [p for p in multiprocessing.active_children() if p not in others]
        executor.shutdown(wait=False, cancel_futures=True)
        if pending:  # interrupted or failed: stop the workers now rather than after their chunks
            for process in processes:
                if process.is_alive():
                    process.terminate()


def _run_ray(
    config: SimConfig, todo: list[tuple[int, int]], jobs: int, address: str | None
) -> Iterator[list[dict[str, Any]]]:
    import ray

    remote = ray.remote(play_chunk)
    workers = jobs if not address else max(jobs, int(ray.cluster_resources().get("CPU", jobs)))
    chunker = _Chunker(todo, workers)
    payload = ray.put(config.to_json())
    pending: list[Any] = []
    try:
        while True:
            while len(pending) < 2 * workers:
                chunk = chunker.next()
                if chunk is None:
                    break
                pending.append(remote.remote(payload, chunk))
            if not pending:
                break
            finished, _ = ray.wait(pending, num_returns=1)
            for ref in finished:
                pending.remove(ref)
                batch = ray.get(ref)
                chunker.done(batch)
                yield batch
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)


# -- files ----------------------------------------------------------------------------------------


def check_out(out: Path) -> None:
    """BadOption unless `out` is a folder, or can be made one, that this process may write in."""
    try:
        problem = _out_problem(out)
    except (OSError, ValueError) as exc:  # a name too long, a NUL in it
        problem = str(exc)
    if problem:
        raise BadOption("out", str(out), "a folder, new or existing, that can be written", problem)


def _out_problem(out: Path) -> str:
    if out.exists():
        if not out.is_dir():
            return "it is a file, not a folder"
        if not os.access(out, os.W_OK | os.X_OK):
            return "it is not writable"
        return ""
    ancestor = out.parent
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        return f"{ancestor} is a file, not a folder"
    if not os.access(ancestor, os.W_OK | os.X_OK):
        return f"no folder can be made in {ancestor}"
    return ""


def _is_int(value: Any) -> bool:
    """Whether `value` is an integer, not a bool: for the fields whose range is judged later, with
    a message that says of what (a record's variant and index, against the run's); a bounded one
    is `is_int_in`."""
    return isinstance(value, int) and not isinstance(value, bool)


def _read_records(path: Path) -> tuple[list[dict[str, Any]], int]:
    """The records of a games.jsonl and the length in bytes of its good part. A bad last line (a run
    killed mid-write) is left out; a bad line with more after it is a BadRecord: the file is not a
    run's games.jsonl, or it was changed, and nothing of it may be dropped silently."""
    records: list[dict[str, Any]] = []
    if not path.exists():
        return records, 0
    seen: set[tuple[int, int]] = set()
    good_bytes = 0
    bad: str | None = None
    with path.open("rb") as f:
        for number, raw in enumerate(f, 1):
            if bad is not None:
                raise BadRecord(
                    f"{path}: line {number - 1} is not a game record ({bad}), and more lines follow it; "
                    "it is not the games.jsonl of a bodoge sim run, or it was edited"
                )
            try:
                record = json.loads(raw)
                key = (record["arena"]["variant"], record["arena"]["index"])
                if not (_is_int(key[0]) and _is_int(key[1])):
                    raise TypeError("its variant and index are not integers")
            except (ValueError, KeyError, TypeError, RecursionError) as exc:
                bad = f"{type(exc).__name__}: {exc}"
                continue
            if not raw.endswith(b"\n"):
                bad = "it is not finished"
                continue
            good_bytes += len(raw)
            if key not in seen:
                seen.add(key)
                records.append(record)
    return records, good_bytes


def load_records(path: Path, repair: bool = False) -> list[dict[str, Any]]:
    """The records of a games.jsonl; a broken last line (a run killed mid-write) is dropped, and with
    `repair` cut from the file too. Repeated games keep their first record. A broken line in the middle
    is a BadRecord (the file is not a run's, or was edited)."""
    records, good_bytes = _read_records(path)
    if repair and path.exists() and good_bytes < path.stat().st_size:
        with path.open("r+b") as f:
            f.truncate(good_bytes)
    return records


def kept_records(path: Path | None, games: int) -> list[dict[str, Any]]:
    """The finished games of a run's games.jsonl at `path` (after an interrupt or a failure: what
    `run` kept), as far as they can be read, of its first `games` games; [] with no file or none
    readable. `bodoge sim` reports them and summarizes them when it is stopped."""
    if path is None:
        return []
    try:
        records = load_records(path)
    except (BodogeError, OSError):
        return []
    return [r for r in records if r["arena"]["index"] < games]


#: Folders beside a run's that `seed_overlaps` reads at most (each a run.json: bounded work).
MAX_NEIGHBOURS = 200
#: A run.json is a few hundred bytes: a larger file beside the run is not read (bounded work).
MAX_RUN_FILE = 1 << 20


def seed_overlaps(config: SimConfig, out: Path) -> list[str]:
    """Warnings, one per earlier `bodoge sim` run in a folder beside `out`, of the same game and player
    count, whose deals partly overlap this run's under another seed (`--seed 7` replays deals 7… of a
    `--seed 1` run): such runs are neither independent samples nor a paired comparison (the same
    seed pairs them deal by deal; a seed past the other's last deal makes them independent)."""
    mine = config.deal_seeds
    found: list[str] = []
    try:
        neighbours = sorted(
            p for p in out.resolve().parent.iterdir() if p.is_dir() and p.resolve() != out.resolve()
        )
    except OSError:
        return []
    for folder in neighbours[:MAX_NEIGHBOURS]:
        path = folder / "run.json"
        try:
            if not path.is_file() or path.stat().st_size > MAX_RUN_FILE:  # not a run's settings
                continue
        except OSError:
            continue
        try:
            other = _read_run(folder)
        except BodogeError:
            continue
        if other.game != config.game or other.players != config.players or other.seed == config.seed:
            continue
        theirs = other.deal_seeds
        low, high = max(mine.start, theirs.start), min(mine.stop, theirs.stop) - 1
        if low > high:
            continue
        fresh = max(mine.stop, theirs.stop)
        found.append(
            f"this run's deals {mine.start}–{mine.stop - 1} share deals {low}–{high} with the run in "
            f"{folder.name} (--seed {other.seed}, deals {theirs.start}–{theirs.stop - 1}): the two are "
            f"neither independent samples nor a paired comparison; --seed {other.seed} pairs them deal "
            f"by deal, --seed {fresh} or above makes them independent"
        )
    return found


def _read_run(out: Path) -> SimConfig:
    """The configuration of the run in `out` (its run.json); BadOption if there is none to read."""
    allowed = f"a folder written by bodoge sim (its run.json of format {RUN_FORMAT!r})"
    try:
        data = json.loads((out / "run.json").read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as exc:
        raise BadOption("resume", str(out), allowed, f"its run.json cannot be read: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != RUN_FORMAT:
        raise BadOption("resume", str(out), allowed, "its run.json is not one")
    try:
        return SimConfig.from_json(data)
    except (BodogeError, TypeError, ValueError) as exc:
        raise BadOption("resume", str(out), allowed, f"its run.json is not a run's settings: {exc}") from None


def _check_resumed(records: list[dict[str, Any]], config: SimConfig, game: Game, out: Path) -> None:
    """BadOption if a record read back is not a game of this run (as `play_game` writes it)."""
    n = config.players
    for r in records:
        a = r["arena"]
        v, i = a["variant"], a["index"]
        problem = ""
        if not (0 <= v < len(config.variants) and i >= 0):
            problem = "its variant or index is not one of this run's"
        else:
            deal, rotation = config.deal_of(i)
            result = r.get("result")
            if r.get("game") != game.name or r.get("seed") != config.seed + deal:
                problem = "its game or seed differs"
            elif (a.get("deal"), a.get("rotation"), a.get("agents")) != (
                deal,
                rotation,
                config.lineup(rotation),
            ):
                problem = "its deal, rotation or agents differ"
            elif not (
                isinstance(a.get("returns"), list)
                and len(a["returns"]) == n
                and isinstance(result, dict)
                and isinstance(result.get("scores"), list)
                and len(result["scores"]) == n
                and _is_int(a.get("length"))
                and isinstance(a.get("metrics", {}), dict)
            ):
                problem = "its result is not a finished game's"
        if problem:
            raise BadOption(
                "resume",
                str(out),
                "a folder whose games.jsonl holds games of this run",
                f"the record of variant {v}, game {i}: {problem}",
            )


def _config_differences(old: SimConfig, new: SimConfig) -> list[str]:
    a, b = asdict(old), asdict(new)
    return [f"{k}: {a[k]!r} in the run, {b[k]!r} now" for k in a if k != "games" and a[k] != b[k]]


def run(
    config: SimConfig,
    out: Path | None = None,
    jobs: int = 1,
    backend: str = "pool",
    resume: bool = False,
    overwrite: bool = False,
    address: str | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> list[dict[str, Any]]:
    """Play every game of `config` (all variants) and return the records, sorted by (variant, index).

    With `out`, records are appended to `out/games.jsonl` as they finish. An existing run there is
    continued with `resume` (its settings must match, except that `games` may grow), replaced with
    `overwrite`, and refused otherwise. `on_progress(done, total)` is called after every chunk.
    Everything is checked before anything is written or played: a BadOption (or BadRecord) leaves
    `out` as it was.
    """
    if backend not in ("pool", "ray"):
        raise BadOption("backend", backend, "pool or ray")
    if not is_int_in(jobs, 1, MAX_JOBS):
        raise BadOption("jobs", jobs, f"an integer from 1 to {MAX_JOBS}")
    made = config.check()
    if backend == "ray":
        check_ray()
    records: list[dict[str, Any]] = []
    good_bytes: int | None = None  # of a games.jsonl read back
    if out is not None:
        check_out(out)
        games_path, run_path = out / "games.jsonl", out / "run.json"
        if run_path.exists() and not overwrite:
            if not resume:
                raise BadOption(
                    "out", str(out), "a new folder, --resume to continue the run in it, or --force"
                )
            diff = _config_differences(_read_run(out), config)
            if diff:
                raise BadOption("resume", str(out), "the same settings as the run there", "; ".join(diff))
            records, good_bytes = _read_records(games_path)
            _check_resumed(records, config, made[0], out)
        elif games_path.exists() and not overwrite:
            raise BadOption(
                "out",
                str(out),
                "a new folder, the folder of a bodoge sim run, or --force to replace what is there",
                "it holds a games.jsonl but no run.json",
            )
    started_ray = start_ray(jobs, address) if backend == "ray" else False
    sink = None
    try:
        if out is not None:
            out.mkdir(parents=True, exist_ok=True)
            if good_bytes is not None:
                if games_path.exists() and good_bytes < games_path.stat().st_size:
                    with games_path.open("r+b") as f:  # the half-written last line of a killed run
                        f.truncate(good_bytes)
            elif overwrite:
                games_path.unlink(missing_ok=True)
            run_path.write_text(json.dumps(config.to_json(), indent=1) + "\n")
            sink = games_path.open("a")
        done = {(r["arena"]["variant"], r["arena"]["index"]) for r in records}
        records = [r for r in records if r["arena"]["index"] < config.games]
        todo = [
            (v, i) for v in range(len(config.variants)) for i in range(config.games) if (v, i) not in done
        ]
        total = len(config.variants) * config.games
        finished = total - len(todo)
        if on_progress:
            on_progress(finished, total)
        if jobs == 1 and backend == "pool":
            batches = _run_serial(config, todo)
        elif backend == "pool":
            batches = _run_pool(config, todo, jobs)
        else:
            batches = _run_ray(config, todo, jobs, address)
        try:
            for batch in batches:
                for record in batch:
                    records.append(record)
                    if sink is not None:
                        sink.write(json.dumps(record, separators=(",", ":")) + "\n")
                if sink is not None:
                    sink.flush()
                finished += len(batch)
                if on_progress:
                    on_progress(finished, total)
        finally:
            close = getattr(batches, "close", None)
            if close is not None:
                close()
    finally:
        if sink is not None:
            sink.close()
        if started_ray:
            import ray

            ray.shutdown()
    records.sort(key=lambda r: (r["arena"]["variant"], r["arena"]["index"]))
    return records


def variants_from_settings(settings: dict[str, list[Any]]) -> list[dict[str, Any]]:
    """Every combination of the option values given (one variant for single values); BadOption for
    more than MAX_VARIANTS combinations, before any is made."""
    count = math.prod(len(values) for values in settings.values())
    if count > MAX_VARIANTS:
        sizes = " × ".join(str(len(values)) for values in settings.values())
        raise BadOption("set", f"{count} combinations ({sizes})", f"at most {MAX_VARIANTS} variants in a run")
    names = list(settings)
    return [dict(zip(names, values, strict=True)) for values in itertools.product(*settings.values())]


def split_top_level(text: str, sep: str = ",") -> list[str]:
    """Split on `sep` outside brackets, braces and quotes: '[1,2],{"a":1,"b":2},3' -> 3 parts."""
    parts: list[str] = []
    depth = 0
    quote: str | None = None
    current: list[str] = []
    escaped = False
    for ch in text:
        if quote:
            current.append(ch)
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = None
            continue
        if ch in "\"'":
            quote = ch
        elif ch in "[{(":
            depth += 1
        elif ch in "]})":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append("".join(current))
            current = []
            continue
        current.append(ch)
    parts.append("".join(current))
    return parts


def split_agents(text: str) -> list[str]:
    """'ismcts:iterations=2000,rollout=heuristic,heuristic' -> ['ismcts:iterations=2000,rollout=heuristic',
    'heuristic']: a comma-separated part with '=' and no ':' continues the agent before it."""
    specs: list[str] = []
    for part in (p.strip() for p in split_top_level(text)):
        if not part:
            continue
        if specs and "=" in part and ":" not in part:
            specs[-1] += ("," if ":" in specs[-1] else ":") + part
        else:
            specs.append(part)
    return specs
