"""The `nn` agent's speed and strength, and what the network costs and brings to ISMCTS (docs/models.md).

    python bench/nn.py speed                        # nn decisions/s; ismcts iterations/s with and without it
    python bench/nn.py strength --deals 200         # nn against n - 1 heuristics, every shipped model
    python bench/nn.py guided tottarot --players 3 --deals 60 --seconds 0.1
                                                    # guided ismcts and the default, each against heuristics
    python bench/nn.py versus troika --players 3 --deals 30 --seconds 0.05 --guided prior=nn,root=halving
                                                    # the guided ismcts against n - 1 default ones

speed: at positions taken every few moves from heuristic games, one process: the `nn` agent's
decisions per second (its whole act: the observation built from the view, the network, the choice),
and the iterations per second of `ismcts` with a fixed iteration budget, by default and with
`prior=nn`, `value=nn` and both.

strength: one agent against n − 1 `heuristic`, seat rotation and duplicate deals (every deal played
once with it in every seat): its win share with the 95% interval over deals, the fair share 1/n and
"yes" when the interval lies above it. Runs are kept under results/nn/ and resumed (a run's folder
is named by the weights it plays with, so a retrained model starts afresh).

guided: `ismcts:seconds=S,prior=nn,value=nn` (and the options given by --guided) and the default
`ismcts:seconds=S`, each against n − 1 heuristics on the same deals: the two win shares and their
paired difference with its 95% interval.

versus: the guided search (--guided) in one seat against n − 1 default `ismcts:seconds=S`, every
deal once with it in every seat: its win share, the issue's target (above fair).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import bodoge
from agents import positions  # bench/agents.py
from bodoge import agents, arena
from bodoge.agents import nn
from bodoge.agents.ismcts import ISMCTSAgent
from bodoge.arena.stats import mean_ci


def shipped(only: str | None = None, players: int | None = None) -> list[tuple[str, int]]:
    """The (game, players) of every shipped model, or of those of one game and player count."""
    return [
        (name, n)
        for name in bodoge.games()
        for n in nn.shipped_counts(name)
        if (only is None or name == only) and (players is None or n == players)
    ]


def speed(count: int, iterations: int) -> None:
    print(
        f"| game | players | nn decisions/s | ismcts it/s (iterations={iterations}) | prior=nn | value=nn | both |\n"
        "|---|---|---|---|---|---|---|"
    )
    for name, n in shipped():
        game = bodoge.make(name, n)
        states = positions(game, count)
        bot = agents.make("nn")
        bot.check(game)  # type: ignore[attr-defined]
        rng = random.Random(0)
        start = time.process_time()
        for state in states:
            bot.act(game, state.lazy_view(state.current_player), rng)
        rate = len(states) / (time.process_time() - start)
        cells = []
        for extra in ("", ",prior=nn", ",value=nn", ",prior=nn,value=nn"):
            search = agents.make(f"ismcts:iterations={iterations}{extra}")
            assert isinstance(search, ISMCTSAgent)
            done, start = 0, time.process_time()
            for state in states[: max(4, count // 10)]:
                search.act(game, state.view(state.current_player), rng)
                done += search.last_iterations
            cells.append(f"{done / (time.process_time() - start):,.0f}")
        print(f"| {name} | {n} | {rate:,.0f} | " + " | ".join(cells) + " |", flush=True)


def one_against(
    name: str, n: int, spec: str, deals: int, jobs: int, out: Path, other: str = "heuristic"
) -> list[dict]:
    """`spec` in one seat against n − 1 `other`, every deal once with it in every seat."""
    config = arena.SimConfig(game=name, players=n, agents=[spec] + [other] * (n - 1), games=deals * n, seed=1)
    label = f"{name}-{n}p-{spec}" + ("" if other == "heuristic" else f"-vs-{other}")
    # The network's weights are part of the name: runs are resumed from their folder, and a retrained
    # model under the same spec ("nn", or the same path) must not be scored with the old one's games.
    label += "".join(f"-{weights_tag(name, n, s)}" for s in (spec, other) if uses_network(s))
    folder = out / label.replace(":", "_").replace(",", "_").replace("=", "-").replace("/", "_")
    return arena.run(config, out=folder, jobs=jobs, resume=True)


def uses_network(spec: str) -> bool:
    kind, params = agents.parse_spec(spec)
    return kind == "nn" or "nn" in (params.get("prior"), params.get("value"))


def weights_tag(name: str, n: int, spec: str) -> str:
    """The first 12 hex digits of the sha256 of the weights `spec` plays with."""
    model = agents.parse_spec(spec)[1].get("model")
    path = Path(str(model)) if model is not None else nn.shipped_path(name, n)
    return nn.file_sha256(path)[:12]


def share(records: list[dict], name: str, n: int, spec: str, other: str = "heuristic") -> arena.Estimate:
    config = arena.SimConfig(
        game=name, players=n, agents=[spec] + [other] * (n - 1), games=len(records), seed=1
    )
    (variant,) = arena.summarize(records, config)["variants"]
    est: arena.Estimate = {a["agent"]: a for a in variant["agents"]}[spec]["win_share"]
    return est


def strength(deals: int, jobs: int, out: Path, spec: str, only: str | None, players: int | None) -> None:
    print(
        f"| game | players | {spec} vs heuristics: win share | fair | above? | games |\n|---|---|---|---|---|---|"
    )
    for name, n in shipped(only, players):
        records = one_against(name, n, spec, deals, jobs, out)
        est = share(records, name, n, spec)
        fair = 1 / n
        print(
            f"| {name} | {n} | {est.text()} | {fair:.3f} | {'yes' if est.above(fair) else 'no'} | {len(records)} |",
            flush=True,
        )


def guided(name: str, n: int, deals: int, seconds: float, options: str, jobs: int, out: Path) -> None:
    plain = f"ismcts:seconds={seconds:g}"
    with_nn = f"{plain},{options}"
    runs = {spec: one_against(name, n, spec, deals, jobs, out) for spec in (plain, with_nn)}

    def per_deal(spec: str) -> dict[int, float]:
        totals: dict[int, list[float]] = {}
        for r in runs[spec]:
            a = r["arena"]
            totals.setdefault(a["deal"], []).append(a["returns"][a["agents"].index(spec)])
        return {k: sum(v) / len(v) for k, v in totals.items()}

    for spec in (plain, with_nn):
        print(
            f"{name} {n}p {spec}: {share(runs[spec], name, n, spec).text()} vs heuristics (fair {1 / n:.3f})"
        )
    a, b = per_deal(with_nn), per_deal(plain)
    keys = sorted(a.keys() & b.keys())
    diff = mean_ci([a[k] - b[k] for k in keys])  # paired by deal
    print(f"guided minus default: {diff.text()} over {len(keys)} deals")


def versus(name: str, n: int, deals: int, seconds: float, options: str, jobs: int, out: Path) -> None:
    """The issue's target as it says it: the guided search in one seat against n − 1 default
    searches, all at the same time a move."""
    plain = f"ismcts:seconds={seconds:g}"
    with_nn = f"{plain},{options}"
    records = one_against(name, n, with_nn, deals, jobs, out, other=plain)
    est = share(records, name, n, with_nn, other=plain)
    fair = 1 / n
    print(
        f"{name} {n}p {with_nn} vs {n - 1} {plain}: {est.text()} (fair {fair:.3f}, "
        f"{'above' if est.above(fair) else 'not above'}) over {len(records)} games"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("what", choices=["speed", "strength", "guided", "versus"])
    parser.add_argument("game", nargs="?", help="only this game (`guided`, `versus`: default tottarot)")
    parser.add_argument("--players", type=int, help="only this player count (`guided`: default 3)")
    parser.add_argument("--positions", type=int, default=300, help="positions of `speed` (default 300)")
    parser.add_argument("--iterations", type=int, default=200, help="ismcts iterations of `speed`")
    parser.add_argument(
        "--deals", type=int, default=100, help="deals of `strength`, `guided` and `versus` (default 100)"
    )
    parser.add_argument("--seconds", type=float, default=0.1, help="thinking time of `guided` (default 0.1)")
    parser.add_argument("--guided", default="prior=nn,value=nn", help="the network options of `guided`")
    parser.add_argument("--spec", default="nn", help="the agent of `strength` (default nn)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--out", type=Path, default=Path("results/nn"), help="where runs are kept")
    args = parser.parse_args(argv)
    if args.what == "speed":
        speed(args.positions, args.iterations)
    elif args.what == "strength":
        strength(args.deals, args.jobs, args.out, args.spec, args.game, args.players)
    else:
        (guided if args.what == "guided" else versus)(
            args.game or "tottarot",
            args.players or 3,
            args.deals,
            args.seconds,
            args.guided,
            args.jobs,
            args.out,
        )


if __name__ == "__main__":
    main()
