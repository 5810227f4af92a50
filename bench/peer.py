"""Strength beside an outside peer: bodoge's `ismcts` against OpenSpiel's `ISMCTSBot` at equal time.

    python bench/peer.py                                   # every game, 3 and 4 players
    python bench/peer.py hangover --players 4 --games 120 --seconds 0.2 --jobs 2
    python bench/peer.py --against heuristic               # the same table against our heuristic
    python bench/peer.py troika --spec nn                  # the learned bot (it takes no time budget)
    python bench/peer.py hangover --spec nn --peer-simulations 32    # the peer at a fixed size (about
                                                           # what 0.1 s buys it on a quiet machine)

Each row is one arena run: bodoge's `ismcts:seconds=S` in one seat against n − 1 copies of the peer,
seats rotated and deals duplicated (every deal is played once with our bot in each seat). The peer:
- `openspiel` (the default): OpenSpiel's Python `ISMCTSBot` with one random rollout per simulation,
  UCT c = 2, max-visit final policy, playing through bodoge's OpenSpiel registration. It has no time
  budget, so each move gets the simulations it ran in S seconds on its moves before (`SpielAgent`,
  bench/peer_agents.py); the printed seconds per move show both sides' time. Its strength so moves
  with the machine's load (rows measured on different days differ); `--peer-simulations K` gives it
  K simulations a move instead, whatever the load (`openspiel:simulations=K`: a yardstick that stays put, while the
  seconds it took are printed beside ours);
- `heuristic`: bodoge's rule-of-thumb bot for the game.
The peer decides from the seat's view only: it searches from a state sampled from that view
(`game.sample_state`), whose information state is the view itself, so it resamples exactly as it
would from the true state.

Printed: our win share with its 95% interval (clustered by deal), the fair share 1/n, "yes" when the
interval lies above fair, and the mean seconds per move of each side. Runs are kept under
results/peer/ and resumed (a network's by the weights it plays with).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

import bodoge
import peer_agents  # bench/peer_agents.py: OpenSpiel's ISMCTS as the `openspiel` agent
from bodoge import agents, arena
from bodoge.core.registry import game_class
from nn import uses_network, weights_tag  # bench/nn.py
from peer_agents import MAX_SIMULATIONS


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("games_", nargs="*", metavar="GAME", help="games (default: every registered game)")
    parser.add_argument("--players", type=int, nargs="*", default=[3, 4], help="player counts (default 3 4)")
    parser.add_argument("--games", type=int, default=60, help="games per row (default 60)")
    parser.add_argument("--seconds", type=float, default=0.1, help="thinking time a move (default 0.1)")
    parser.add_argument("--against", choices=["openspiel", "heuristic"], default="openspiel")
    parser.add_argument(
        "--peer-simulations",
        type=int,
        default=0,
        metavar="K",
        help=f"give OpenSpiel's bot K simulations a move instead of --seconds (1 to {MAX_SIMULATIONS})",
    )
    parser.add_argument("--spec", default="ismcts", help="our bot (default: the default ismcts)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--out", type=Path, default=Path("results/peer"), help="where runs are kept")
    args = parser.parse_args(argv)
    if args.peer_simulations and not 1 <= args.peer_simulations <= MAX_SIMULATIONS:
        parser.error(f"--peer-simulations must be 1 to {MAX_SIMULATIONS}, not {args.peer_simulations}")
    if args.peer_simulations and args.against != "openspiel":
        parser.error("--peer-simulations sizes OpenSpiel's bot: it needs --against openspiel")
    peer_agents.register()
    # a search gets the thinking time; a bot that does not think (nn, heuristic) plays as it is
    thinks = agents.parse_spec(args.spec)[0] == "ismcts"
    ours = f"{args.spec}{',' if ':' in args.spec else ':'}seconds={args.seconds:g}" if thinks else args.spec
    print(
        f"| game | players | {ours} win share | fair | above? | games | s/move ours | s/move {args.against} |\n"
        "|---|---|---|---|---|---|---|---|",
        flush=True,
    )
    for name in args.games_ or bodoge.games():
        cls = game_class(name)
        for n in args.players:
            if not cls.min_players <= n <= cls.max_players:
                continue
            peer = (
                "heuristic"
                if args.against == "heuristic"
                else f"openspiel:simulations={args.peer_simulations}"
                if args.peer_simulations
                else f"openspiel:seconds={args.seconds:g}"
            )
            games = -(-args.games // n) * n  # whole deals: our bot in every seat
            config = arena.SimConfig(
                game=name, players=n, agents=[ours] + [peer] * (n - 1), games=games, seed=1
            )
            label = f"{name}-{n}p-{ours}-vs-{peer}"
            if uses_network(ours):  # a retrained model must not resume the old one's games
                label += f"-{weights_tag(name, n, ours)}"
            out = args.out / label.replace(":", "_").replace(",", "_").replace("=", "-").replace("/", "_")
            records = arena.run(config, out=out, jobs=args.jobs, resume=True)
            (variant,) = arena.summarize(records, config)["variants"]
            by_agent = {a["agent"]: a for a in variant["agents"]}
            mine = by_agent[ours]
            share = mine["win_share"]
            fair = mine["fair"]
            print(
                f"| {name} | {n} | {share.text()} | {fair:.3f} | {'yes' if share.above(fair) else 'no'} "
                f"| {len(records)} | {_per_move(records, ours):.3f} | {_per_move(records, peer):.3f} |",
                flush=True,
            )


def _per_move(records: list[dict[str, Any]], spec: str) -> float:
    seconds = decisions = 0.0
    for r in records:
        a = r["arena"]
        for s, agent in enumerate(a["agents"]):
            if agent == spec:
                seconds += a["seconds"][s]
                decisions += a["decisions"][s]
    return seconds / decisions if decisions else 0.0


if __name__ == "__main__":
    main()
