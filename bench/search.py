"""Search speed beside an outside peer: bodoge's `ismcts` against OpenSpiel's Python `ISMCTSBot`.

    python bench/search.py                        # every game, 3 players
    python bench/search.py troika --players 4 --positions 20 --iterations 300

Both bots search the same positions (decision points spread over heuristic games) in one run, with
the same number of iterations: bodoge's default `ismcts` (its rollouts, root and opponent model as
shipped) and OpenSpiel's `ISMCTSBot` with one random rollout per simulation (`RandomRolloutEvaluator`),
UCT with c = 2, which plays bodoge's games through bodoge's own OpenSpiel registration
(`bodoge.rl.register_openspiel`: its `resample_from_infostate` is `game.sample_state`). The two take
turns position by position, and the whole is run `--rounds` times. Printed: each bot's iterations per
second over all positions in the median round, its ratio, and the ratio of every round (sorted).
Machines drift, so only a ratio means much.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts as spiel_ismcts
from open_spiel.python.algorithms import mcts as spiel_mcts

import bodoge
from agents import positions  # bench/agents.py
from bodoge import agents
from bodoge.agents.ismcts import ISMCTSAgent
from bodoge.core.game import Game, State
from bodoge.core.registry import game_class
from bodoge.rl import register_openspiel
from bodoge.rl.openspiel_adapter import BodogeSpielState


def spiel_game(game: Game) -> Any:
    """The OpenSpiel game for a bodoge game (same name, players and options)."""
    import json

    register_openspiel()
    return pyspiel.load_game(
        f"bodoge_{game.name}",
        {"players": game.num_players, "options": json.dumps(game.options_json())},
    )


def spiel_bot(sgame: Any, simulations: int, seed: int) -> Any:
    """OpenSpiel's ISMCTSBot with random rollouts, as its own examples set it up."""
    rs = np.random.RandomState(seed)
    evaluator = spiel_mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    return spiel_ismcts.ISMCTSBot(
        sgame,
        evaluator,
        uct_c=2.0,
        max_simulations=simulations,
        random_state=rs,
        final_policy_type=spiel_ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        use_observation_string=False,
        allow_inconsistent_action_sets=True,
    )


def ours_time(bot: ISMCTSAgent, game: Game, state: State, seed: int) -> tuple[int, float]:
    """Our iterations and seconds on one position."""
    view = state.view(state.current_player)
    start = time.perf_counter()
    bot.act(game, view, random.Random(seed))
    return bot.last_iterations, time.perf_counter() - start


def spiel_time(sgame: Any, state: State, iterations: int, seed: int) -> tuple[int, float]:
    """OpenSpiel's simulations and seconds on one position."""
    bot = spiel_bot(sgame, iterations, seed)
    sstate = BodogeSpielState(sgame, state.clone())
    start = time.perf_counter()
    bot.step(sstate)
    return iterations, time.perf_counter() - start


def spiel_rate(game: Game, states: list[State], iterations: int) -> float:
    """OpenSpiel's simulations per second over `states` (bench/peer.py gives its peer the simulations
    it runs in the time a move has)."""
    sgame = spiel_game(game)
    done, spent = 0, 0.0
    for i, state in enumerate(states):
        n, t = spiel_time(sgame, state, iterations, i)
        done += n
        spent += t
    return done / spent


def rates(
    game: Game, states: list[State], iterations: int, spec: str, rounds: int
) -> list[tuple[float, float]]:
    """(our iterations/s, OpenSpiel's simulations/s) for each round over every position. Within a round
    the two bots take turns on each position (which goes first alternates), so that the machine's drift
    touches both alike."""
    bot = agents.make(spec, iterations=iterations)
    assert isinstance(bot, ISMCTSAgent)
    sgame = spiel_game(game)
    out = []
    for r in range(rounds):
        done = [0, 0]
        spent = [0.0, 0.0]
        for i, state in enumerate(states):
            seed = r * len(states) + i
            for who in (0, 1) if i % 2 == 0 else (1, 0):
                if who == 0:
                    n, t = ours_time(bot, game, state, seed)
                else:
                    n, t = spiel_time(sgame, state, iterations, seed)
                done[who] += n
                spent[who] += t
        out.append((done[0] / spent[0], done[1] / spent[1]))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("games_", nargs="*", metavar="GAME", help="games (default: every registered game)")
    parser.add_argument("--players", type=int, nargs="*", default=[3], help="player counts (default 3)")
    parser.add_argument("--positions", type=int, default=12, help="positions per game (default 12)")
    parser.add_argument("--iterations", type=int, default=300, help="iterations a move (default 300)")
    parser.add_argument("--spec", default="ismcts", help="bodoge's bot (default: the default ismcts)")
    parser.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="rounds over the positions (default 3; the median round is printed)",
    )
    args = parser.parse_args(argv)
    if not 1 <= args.rounds <= 100:
        parser.error(f"--rounds must be from 1 to 100, not {args.rounds}")
    print(
        f"| game | players | bodoge {args.spec} it/s | OpenSpiel ISMCTSBot sims/s | ratio | ratio in each round |\n"
        "|---|---|---|---|---|---|"
    )
    for name in args.games_ or bodoge.games():
        cls = game_class(name)
        for n in args.players:
            if not cls.min_players <= n <= cls.max_players:
                continue
            game = bodoge.make(name, players=n)
            states = positions(game, args.positions)
            found = sorted(
                rates(game, states, args.iterations, args.spec, args.rounds), key=lambda r: r[0] / r[1]
            )
            ours, theirs = found[len(found) // 2]  # the median round
            each = ", ".join(f"{o / t:.1f}×" for o, t in found)
            print(
                f"| {name} | {n} | {ours:,.0f} | {theirs:,.0f} | {ours / theirs:.1f}× | {each} |", flush=True
            )


if __name__ == "__main__":
    main()
