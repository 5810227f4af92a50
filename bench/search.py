"""Search speed beside an outside peer: bodoge's `ismcts` against OpenSpiel's Python `ISMCTSBot`.

    python bench/search.py                        # every game, 3 players
    python bench/search.py troika --players 4 --positions 20 --iterations 300

Both bots search the same positions (decision points spread over heuristic games) in one run, with
the same number of iterations: bodoge's default `ismcts` (its rollouts, root and opponent model as
shipped) and OpenSpiel's `ISMCTSBot` with one random rollout per simulation (`RandomRolloutEvaluator`),
UCT with c = 2, which plays bodoge's games through bodoge's own OpenSpiel registration
(`bodoge.rl.register_openspiel`: its `resample_from_infostate` is `game.sample_state`). Printed: each
bot's iterations per second over all positions and the ratio. Machines drift, so only the ratio in one
run means much.
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


def ours_rate(game: Game, states: list[State], iterations: int, spec: str) -> float:
    bot = agents.make(spec, iterations=iterations)
    assert isinstance(bot, ISMCTSAgent)
    done, spent = 0, 0.0
    for i, state in enumerate(states):
        view = state.view(state.current_player)
        start = time.perf_counter()
        bot.act(game, view, random.Random(i))
        spent += time.perf_counter() - start
        done += bot.last_iterations
    return done / spent


def spiel_rate(game: Game, states: list[State], iterations: int) -> float:
    sgame = spiel_game(game)
    done, spent = 0, 0.0
    for i, state in enumerate(states):
        bot = spiel_bot(sgame, iterations, i)
        sstate = BodogeSpielState(sgame, state.clone())
        start = time.perf_counter()
        bot.step(sstate)
        spent += time.perf_counter() - start
        done += iterations
    return done / spent


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("games_", nargs="*", metavar="GAME", help="games (default: every registered game)")
    parser.add_argument("--players", type=int, nargs="*", default=[3], help="player counts (default 3)")
    parser.add_argument("--positions", type=int, default=12, help="positions per game (default 12)")
    parser.add_argument("--iterations", type=int, default=300, help="iterations a move (default 300)")
    parser.add_argument("--spec", default="ismcts", help="bodoge's bot (default: the default ismcts)")
    args = parser.parse_args(argv)
    print(
        f"| game | players | bodoge {args.spec} it/s | OpenSpiel ISMCTSBot sims/s | ratio |\n"
        "|---|---|---|---|---|"
    )
    for name in args.games_ or bodoge.games():
        cls = game_class(name)
        for n in args.players:
            if not cls.min_players <= n <= cls.max_players:
                continue
            game = bodoge.make(name, players=n)
            states = positions(game, args.positions)
            ours = ours_rate(game, states, args.iterations, args.spec)
            theirs = spiel_rate(game, states, args.iterations)
            print(f"| {name} | {n} | {ours:,.0f} | {theirs:,.0f} | {ours / theirs:.1f}× |", flush=True)


if __name__ == "__main__":
    main()
