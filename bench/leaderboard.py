"""The leaderboard (issue #58): every baseline against every other, rated by openskill, per game and count.

    python bench/leaderboard.py                                  # every game, 3 and 4 players
    python bench/leaderboard.py troika --players 4 --games 2 --simulations 100 --jobs 2
    python bench/leaderboard.py --agents random,heuristic,ismcts # a part of the roster
    python bench/leaderboard.py --write-docs                     # and docs/leaderboard.md from it
    python bench/leaderboard.py --kept --write-docs              # the docs from the games kept, none played

**The roster** (`ROSTER`, each row named by its short name; its exact spec is printed and written):
`random`; `heuristic` (the game's rule-of-thumb bot); `ismcts` (bodoge's search at K iterations a
move, its other settings as shipped); `nn` (the shipped network for the game and count, played by its
policy alone); `guided` (the search at K iterations with the network's best move as the root's move
to beat, `prior=nn,root=halving`: the guided form measured best, agents/ismcts.py); `openspiel`
(OpenSpiel's Python ISMCTSBot at K simulations a move, bench/peer_agents.py); `ppo` and `nfsp` (the
learned baselines, `nn:model=artifacts/baselines/<ppo|nfsp>-<game>-<n>p.npz`, played by the same
NumPy network player). Both searches and the peer get the **same** K (`--simulations`), so the row
compares algorithms at equal simulations, not at equal time (their seconds a move are printed). A
model file that is absent is left out of that configuration, with the reason printed.

**The schedule** (`schedule`). The k agents present are seated at tables of n (the player count),
cyclically: agents are numbered round a circle in the roster's order, a few base tables are turned
round it (agent a to a + 1, and so on), so every agent sits at equally many tables; of the fewest
base tables with which every pair of agents meets, the ones whose pairs meet most evenly (then the
fewest tables). 8 agents: 16 tables of 3, every pair meeting once or twice; 8 tables of 4, once or
twice. Each table plays `--games` deals, each deal once in every rotation of its seats (the arena's
duplicate deals: every agent plays every seat on the same cards); deal d (from 0) is seed `SEED + d`
at every table, so all tables play the same deals.

**The rating.** openskill's Plackett–Luce model, as the arena rates (`arena.ratings`): each game ranks
its seats by returns, then score (equal returns and score are a tie), and the games are rated in
one declared order: deal by deal, table by table within a deal, rotation by rotation. Printed: mu and
its interval mu ± 2 sigma (sigma is the model's uncertainty about the skill; ± 2 sigma holds about
95% of a normal belief, so two agents whose intervals overlap are not ordered by this run); the
games each agent played; its win share (mean return, a shared win counts 1/k) with its 95%
interval over (table, deal) clusters, beside the fair share 1/n; its mean seconds a move.

Runs are kept under results/leaderboard/<game>-<n>p/<table>/ (one arena run a table, named by its
agents and a digest of their specs and model weights) and resumed: a rerun plays only missing games.
Each configuration's table is kept beside them as <game>-<n>p.json, with the agents it seated; `--kept`
rates the games kept with that seating and plays nothing (a model that appeared since is not seated).
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import itertools
import json
import math
import os
import platform
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

import bodoge
from bodoge import arena
from bodoge.agents import nn
from bodoge.arena.stats import SHARE, Estimate, clustered_mean_ci
from bodoge.core.registry import game_class

GAMES = ("hangover", "tokkuri", "tottarot", "troika")
SEED = 1
BASELINES = Path("artifacts/baselines")
# The roster: short name -> spec; {k} is --simulations, {game} and {n} the configuration's.
ROSTER: dict[str, str] = {
    "random": "random",
    "heuristic": "heuristic",
    "ismcts": "ismcts:iterations={k}",
    "nn": "nn",
    "guided": "ismcts:iterations={k},prior=nn,root=halving",
    "openspiel": "openspiel:simulations={k}",
    "ppo": "nn:model=" + str(BASELINES / "ppo-{game}-{n}p.npz"),
    "nfsp": "nn:model=" + str(BASELINES / "nfsp-{game}-{n}p.npz"),
}
MAX_DEALS = 1000  # deals a table (each played n times)
MAX_SIMULATIONS = 10_000  # per move, for both searches and the peer
MAX_JOBS = 64
WIDTH = 2.0  # the interval is mu ± WIDTH sigma
MAX_BASES = 3  # base tables tried for a cyclic schedule before every combination is played


@dataclass
class Row:
    """One agent's line of a configuration's table."""

    name: str
    spec: str
    mu: float
    sigma: float
    games: int
    win_share: Estimate
    seconds_per_move: float

    @property
    def low(self) -> float:
        return self.mu - WIDTH * self.sigma

    @property
    def high(self) -> float:
        return self.mu + WIDTH * self.sigma


def schedule(k: int, n: int) -> list[tuple[int, ...]]:
    """Tables of n of agents 0..k-1 (module docstring): every pair meets, every agent sits equally."""
    if not 2 <= n <= k:
        raise ValueError(f"tables of {n} need from {n} agents and n ≥ 2, not {k} agents")
    pairs = list(itertools.combinations(range(k), 2))
    bases = [c for c in itertools.combinations(range(k), n) if c[0] == 0]
    for m in range(1, MAX_BASES + 1):
        found: list[tuple[tuple[int, int], list[tuple[int, ...]]]] = []
        for chosen in itertools.combinations(bases, m):
            # each base turned round the circle of agents: every agent sits in as many tables
            tables = sorted({tuple(sorted((i + b) % k for b in base)) for base in chosen for i in range(k)})
            met = Counter(p for t in tables for p in itertools.combinations(t, 2))
            if all(met[p] for p in pairs):
                counts = [met[p] for p in pairs]
                found.append(((max(counts) - min(counts), len(tables)), tables))
        if found:
            return min(found, key=lambda f: f[0])[1]  # the most even, then the fewest tables
    return list(itertools.combinations(range(k), n))  # every combination: even too


def roster(game: str, n: int, names: Sequence[str], k: int) -> tuple[dict[str, str], list[str]]:
    """The specs of the agents `names` for a configuration, and a reason for each one left out."""
    specs, skipped = {}, []
    for name in names:
        spec = ROSTER[name].format(k=k, game=game, n=n)
        model = model_path(spec)
        if model is not None and not model.exists():
            skipped.append(f"{name}: {model} is absent (train it: docs/models.md)")
            continue
        if model is not None and not model.with_suffix(".json").exists():
            skipped.append(f"{name}: {model} has no card {model.with_suffix('.json').name}")
            continue
        specs[name] = spec
    return specs, skipped


def model_path(spec: str) -> Path | None:
    """The model file a spec names (`model=`), or None when it plays the shipped one or none."""
    params = bodoge.agents.parse_spec(spec)[1]
    return Path(str(params["model"])) if "model" in params else None


def weights(game: str, n: int, spec: str) -> Path | None:
    """The weights a spec plays with: its `model=`, the shipped model if it uses the network, or None."""
    kind, params = bodoge.agents.parse_spec(spec)
    if "model" in params:
        return Path(str(params["model"]))
    if kind == "nn" or "nn" in (params.get("prior"), params.get("value")):
        return nn.shipped_path(game, n)
    return None


def card_sha256(path: Path) -> str:
    """The weights' sha256 as the model's card gives it (nn.load checks the file against it)."""
    card = json.loads(path.with_suffix(".json").read_text())
    return str(card.get("sha256", ""))


def table_folder(out: Path, game: str, n: int, specs: dict[str, str]) -> Path:
    """A table's run folder: its agents' names and a digest of their specs and weights, so a changed
    spec or a retrained model starts afresh instead of resuming games it did not play."""
    keyed = {
        name: [spec, card_sha256(w) if (w := weights(game, n, spec)) else ""] for name, spec in specs.items()
    }
    digest = hashlib.sha256(json.dumps(keyed, sort_keys=True).encode()).hexdigest()[:10]
    return out / f"{game}-{n}p" / f"{'+'.join(specs)}-{digest}"


def last_seated(
    path: Path, args: argparse.Namespace, names: Sequence[str], now: tuple[dict[str, str], list[str]]
) -> tuple[dict[str, str], list[str]]:
    """With --kept, the agents the configuration's last run seated (its summary at `path`), so that a
    model that appeared since does not add tables nobody played; `now` (the roster as it is) where
    that run was of another size or there was none."""
    try:
        last = json.loads(path.read_text())
    except (OSError, ValueError):
        return now
    if last.get("simulations") != args.simulations or last.get("deals", 0) < args.games:
        return now
    specs = {name: spec for name, spec in last["specs"].items() if name in names}
    return specs, [reason for reason in last["skipped"] if reason.split(":")[0] in names]


def play_configuration(
    game: str, n: int, specs: dict[str, str], deals: int, jobs: int, out: Path, kept: bool
) -> tuple[list[dict[str, Any]], int]:
    """Every table's records, tagged with the table's number, and how many games the schedule holds."""
    names = list(specs)
    records: list[dict[str, Any]] = []
    tables = schedule(len(names), n)
    for t, table in enumerate(tables):
        members = {names[a]: specs[names[a]] for a in table}
        config = arena.SimConfig(
            game=game, players=n, agents=list(members.values()), games=deals * n, seed=SEED
        )
        folder = table_folder(out, game, n, members)
        if kept:
            found = arena.kept_records(folder / "games.jsonl", config.games)
        else:
            found = arena.run(config, out=folder, jobs=jobs, resume=True)
        print(
            f"  table {t + 1}/{len(tables)} {'+'.join(members)}: {len(found)} games",
            file=sys.stderr,
            flush=True,
        )
        for r in found:
            r["arena"]["table"] = t
        records += found
    # the declared rating order: deal by deal, table by table, rotation by rotation
    records.sort(key=lambda r: (r["arena"]["deal"], r["arena"]["table"], r["arena"]["rotation"]))
    return records, len(tables) * deals * n


def rows(records: list[dict[str, Any]], specs: dict[str, str]) -> list[Row]:
    """The table of a configuration, best mu first."""
    rated = arena.ratings(records) if records else {}
    out = []
    for name, spec in specs.items():
        returns = []
        seconds = decisions = 0.0
        for r in records:
            a = r["arena"]
            for s, seated in enumerate(a["agents"]):
                if seated == spec:
                    returns.append(((a["table"], a["deal"]), float(a["returns"][s])))
                    seconds += a["seconds"][s]
                    decisions += a["decisions"][s]
        rating = rated.get(spec, {"mu": math.nan, "sigma": math.nan})
        out.append(
            Row(
                name=name,
                spec=spec,
                mu=rating["mu"],
                sigma=rating["sigma"],
                games=len(returns),
                win_share=clustered_mean_ci(returns, within=SHARE),
                seconds_per_move=seconds / decisions if decisions else 0.0,
            )
        )
    return sorted(out, key=lambda row: -row.mu if not math.isnan(row.mu) else math.inf)


def markdown(table: list[Row], n: int) -> str:
    lines = [
        f"| agent | rating mu ± {WIDTH:g} sigma | interval | games | win share [95%] (fair {1 / n:.3f}) | s/move |",
        "|---|---|---|---|---|---|",
    ]
    for row in table:
        if not row.games:
            lines.append(f"| {row.name} | not played | | 0 | | |")
            continue
        lines.append(
            f"| {row.name} | {row.mu:.1f} ± {WIDTH * row.sigma:.1f} | [{row.low:.1f}, {row.high:.1f}] "
            f"| {row.games} | {row.win_share.text()} | {row.seconds_per_move:.3f} |"
        )
    return "\n".join(lines)


def reading(table: list[Row], n: int) -> str:
    """What the intervals order and what they do not: an agent is above another only where its whole
    interval lies above the other's; every other pair overlaps, and the run cannot order it. Then the
    win shares whose 95% interval lies wholly above or below the fair share 1/n (the rest: not told
    from fair)."""
    rated = [row for row in table if not math.isnan(row.mu)]
    said, level = [], []
    for i, a in enumerate(rated):
        below = [b.name for b in rated if b is not a and a.low > b.high]
        if below:
            said.append(f"{a.name} above {', '.join(below)}")
        overlapping = [b.name for b in rated[i + 1 :] if not (a.low > b.high or b.low > a.high)]
        if overlapping:
            level.append(f"{a.name} with {', '.join(overlapping)}")
    parts = ["Ordered by the intervals: " + ("; ".join(said) if said else "no pair") + "."]
    if level:
        parts.append(
            "Not ordered, the intervals overlap (this run cannot say which is stronger): "
            + "; ".join(level)
            + "."
        )
    for side, test in (("above", Estimate.above), ("below", Estimate.below)):
        found = [row.name for row in table if row.games and test(row.win_share, 1 / n)]
        parts.append(f"Win share {side} fair ({1 / n:.3f}) by its interval: {', '.join(found) or 'none'}.")
    return " ".join(parts)


def summary(results: list[dict[str, Any]]) -> str:
    """How many pairs the intervals order over every configuration, and how wide the intervals are."""
    pairs = ordered = 0
    widths = []
    for res in results:
        played = [r for r in res["rows"] if r["games"]]
        widths += [(r["high"] - r["low"]) / 2 for r in played]
        for i, a in enumerate(played):
            for b in played[i + 1 :]:
                pairs += 1
                ordered += a["low"] > b["high"] or b["low"] > a["high"]
    if not pairs:
        return "No configuration has games yet."
    return (
        f"Over the {len(results)} configurations, the rating intervals order {ordered} of the {pairs} pairs of"
        f" agents that met; every other pair overlaps, and this run cannot say which of the two is stronger"
        f" (its table lists them). The intervals are ± {min(widths):.1f} to ± {max(widths):.1f} rating points"
        f" wide at this size; sigma falls as games are added (a larger --games), so more pairs may be ordered"
        f" by a longer run, never by reading the order of the mu column alone."
    )


def reproduce(args: argparse.Namespace) -> list[str]:
    """The command line that plays this page's games (its sizes; what was not the default)."""
    out = [*args.games_]
    if args.players != [3, 4]:
        out += ["--players", *map(str, args.players)]
    if args.agents != ",".join(ROSTER):
        out += ["--agents", args.agents]
    return [
        *out,
        "--games",
        str(args.games),
        "--simulations",
        str(args.simulations),
        "--jobs",
        str(args.jobs),
        "--write-docs",
    ]


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, Python {platform.python_version()}"


def write_docs(path: Path, results: list[dict[str, Any]], args: argparse.Namespace) -> None:
    """docs/leaderboard.md: the protocol, the table of each configuration and what it can say."""
    from importlib.metadata import version

    models: dict[str, str] = {}
    for res in results:
        for spec in res["specs"].values():
            w = weights(res["game"], res["players"], spec)
            if w is not None:
                models[
                    str(w.relative_to(Path.cwd()) if w.is_absolute() and w.is_relative_to(Path.cwd()) else w)
                ] = card_sha256(w)
    k = args.simulations
    out = [
        "# Leaderboard",
        "",
        "Every baseline against every other in every game at 3 and 4 players, rated by openskill. Generated by",
        "`bench/leaderboard.py` (its docstring is the full protocol); do not edit by hand.",
        "",
        "    .venv/bin/python bench/leaderboard.py " + " ".join(reproduce(args)),
        "",
        "A rerun resumes from results/leaderboard/ and plays only the games missing. Each configuration seats"
        " the roster's agents whose model files exist when it starts (a learned model that appeared during the"
        " run is seated in the configurations run after it); each section says which were left out and why."
        + (
            " This page was written from the games kept (`--kept`), seated as each configuration's last run was."
            if args.kept
            else ""
        ),
        "",
        "## Protocol",
        "",
        f"- **Date** {datetime.date.today().isoformat()}; **machine** {machine()}; bodoge {bodoge.__version__},"
        f" openskill {version('openskill')}, OpenSpiel {version('open_spiel')}.",
        f"- **Size**: {args.games} deal(s) a table, each played once in every rotation of the table's seats"
        f" (n games a deal); deal d is seed {SEED} + d at every table. Both searches and OpenSpiel's ISMCTS"
        f" at **{k} simulations a move** (equal simulations, not equal time: see s/move).",
        "- **Schedule**: the agents present are numbered round a circle in the order of the table below; a few"
        " base tables are turned round it, so every agent sits at equally many tables; of the fewest base"
        " tables with which every pair meets, the most even (8 agents: 16 tables of 3 and 8 tables of 4, each"
        " pair meeting once or twice; 7 agents: 7 tables of 3, each pair once, and 7 of 4, each pair twice;"
        " 6 agents: 6 tables of 3 and 3 of 4).",
        f"- **Rating**: openskill Plackett–Luce (the arena's, `bodoge.arena.ratings`): each game ranks its seats"
        f" by returns, then score, equal as ties; games rated deal by deal, then table, then rotation. The"
        f" interval is mu ± {WIDTH:g} sigma: sigma is the model's uncertainty about an agent's skill, and"
        f" ± {WIDTH:g} sigma holds about 95% of a normal belief. openskill's own leaderboard number, the"
        f" ordinal mu − 3 sigma, is one conservative point, not an interval, so it is not what orders here:"
        f" two agents are ordered only when their intervals do not overlap.",
        "- **Win share**: mean return over the agent's seats (a shared win counts 1/k), 95% interval over"
        " (table, deal) clusters, beside the fair share 1/n. Win shares are measured in different"
        " company (each agent meets the others at different tables), so the rating is the comparison.",
        "",
        "### Agents",
        "",
        "| name | spec |",
        "|---|---|",
    ]
    for name, template in ROSTER.items():
        out.append(f"| {name} | `{template.format(k=k, game='<game>', n='<n>')}` |")
    out += ["", "### Model files (sha256 from their cards)", "", "| file | sha256 |", "|---|---|"]
    for path_text, digest in sorted(models.items()):
        out.append(f"| `{path_text}` | `{digest}` |")
    out += ["", "## What this run can say", "", summary(results)]
    for res in results:
        out += ["", f"## {res['game'].capitalize()}, {res['players']} players", ""]
        out.append(
            f"{len(res['rows'])} agents, {res['tables']} tables, {res['played']} of {res['planned']} games played."
        )
        if res["skipped"]:
            out.append("Left out: " + "; ".join(res["skipped"]) + ".")
        if res["played"] < res["planned"]:
            out.append("**This configuration did not finish: its table rates only the games played.**")
        out += ["", res["markdown"], "", res["reading"]]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(out) + "\n")


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("games_", nargs="*", metavar="GAME", help=f"games (default: {' '.join(GAMES)})")
    parser.add_argument("--players", type=int, nargs="*", default=[3, 4], help="player counts (default 3 4)")
    parser.add_argument(
        "--agents",
        default=",".join(ROSTER),
        help=f"the roster's agents to seat (default: all, {','.join(ROSTER)})",
    )
    parser.add_argument("--games", type=int, default=2, help=f"deals a table, 1 to {MAX_DEALS} (default 2)")
    parser.add_argument(
        "--simulations",
        type=int,
        default=50,
        help=f"simulations a move of every search, 1 to {MAX_SIMULATIONS} (default 50)",
    )
    parser.add_argument("--jobs", type=int, default=1, help=f"worker processes, 1 to {MAX_JOBS} (default 1)")
    parser.add_argument("--out", type=Path, default=Path("results/leaderboard"), help="where runs are kept")
    parser.add_argument(
        "--kept",
        action="store_true",
        help="play nothing: rate the games already kept, seated as the configuration's last run was",
    )
    parser.add_argument("--write-docs", action="store_true", help="write --docs from the tables")
    parser.add_argument(
        "--docs", type=Path, default=Path("docs/leaderboard.md"), help="the page --write-docs writes"
    )
    args = parser.parse_args(argv)
    if not 1 <= args.games <= MAX_DEALS:
        parser.error(f"--games must be from 1 to {MAX_DEALS}, not {args.games}")
    if not 1 <= args.simulations <= MAX_SIMULATIONS:
        parser.error(f"--simulations must be from 1 to {MAX_SIMULATIONS}, not {args.simulations}")
    if not 1 <= args.jobs <= MAX_JOBS:
        parser.error(f"--jobs must be from 1 to {MAX_JOBS}, not {args.jobs}")
    names = [a.strip() for a in args.agents.split(",") if a.strip()]
    unknown = [a for a in names if a not in ROSTER]
    if unknown or len(set(names)) != len(names):
        parser.error(f"--agents takes distinct names of {', '.join(ROSTER)}, not {args.agents!r}")
    games = args.games_ or list(GAMES)
    for name in games:
        if name not in bodoge.games():
            parser.error(f"unknown game {name!r}: one of {', '.join(bodoge.games())}")
    if "openspiel" in names:
        import peer_agents  # bench/peer_agents.py (needs OpenSpiel)

        peer_agents.register()
    results = []
    for game in games:
        cls = game_class(game)
        for n in args.players:
            if not cls.min_players <= n <= cls.max_players:
                print(
                    f"{game}: {n} players is outside {cls.min_players}-{cls.max_players}; skipped", flush=True
                )
                continue
            specs, skipped = roster(game, n, names, args.simulations)
            if args.kept:
                specs, skipped = last_seated(args.out / f"{game}-{n}p.json", args, names, (specs, skipped))
            for reason in skipped:
                print(f"{game} {n}p: left out {reason}", flush=True)
            if len(specs) < n:
                print(f"{game} {n}p: {len(specs)} agents cannot fill tables of {n}; skipped", flush=True)
                continue
            records, planned = play_configuration(game, n, specs, args.games, args.jobs, args.out, args.kept)
            table = rows(records, specs)
            result = {
                "game": game,
                "players": n,
                "specs": specs,
                "skipped": skipped,
                "deals": args.games,
                "simulations": args.simulations,
                "tables": len(schedule(len(specs), n)),
                "planned": planned,
                "played": len(records),
                "markdown": markdown(table, n),
                "reading": reading(table, n),
                "rows": [
                    {
                        "name": r.name,
                        "spec": r.spec,
                        "mu": r.mu,
                        "sigma": r.sigma,
                        "low": r.low,
                        "high": r.high,
                        "games": r.games,
                        "win_share": r.win_share.to_json(),
                        "seconds_per_move": r.seconds_per_move,
                    }
                    for r in table
                ],
            }
            results.append(result)
            print(f"\n### {game} {n} players ({len(records)} of {planned} games)\n", flush=True)
            for name, spec in specs.items():
                print(f"- {name}: `{spec}`")
            print("\n" + result["markdown"] + "\n\n" + result["reading"] + "\n", flush=True)
            args.out.mkdir(parents=True, exist_ok=True)
            (args.out / f"{game}-{n}p.json").write_text(json.dumps(result, indent=1) + "\n")
    if args.write_docs:
        write_docs(args.docs, results, args)
        print(f"wrote {args.docs}", flush=True)


if __name__ == "__main__":
    main()
