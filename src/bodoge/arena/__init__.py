"""Matches between agents, many of them, and what they show (DESIGN.md §5).

    from bodoge import arena
    config = arena.SimConfig("troika", 4, ["ismcts", "heuristic", "heuristic", "heuristic"], games=200)
    records = arena.run(config, out=Path("results"), jobs=2)    # or backend="ray"
    summary = arena.summarize(records, config)
    arena.write_report(summary, records, Path("results"))

`bodoge sim` is the same from the command line.
"""

from bodoge.arena.match import MatchResult, play_match
from bodoge.arena.report import print_summary, write_report
from bodoge.arena.runner import (
    SimConfig,
    kept_records,
    load_records,
    make_game,
    play_game,
    run,
    split_agents,
    split_top_level,
    variants_from_settings,
)
from bodoge.arena.stats import Estimate, clustered_mean_ci, mean_ci, paired_difference_ci
from bodoge.arena.summary import ratings, summarize

__all__ = [
    "Estimate",
    "MatchResult",
    "SimConfig",
    "clustered_mean_ci",
    "kept_records",
    "load_records",
    "make_game",
    "mean_ci",
    "paired_difference_ci",
    "play_game",
    "play_match",
    "print_summary",
    "ratings",
    "run",
    "split_agents",
    "split_top_level",
    "summarize",
    "variants_from_settings",
    "write_report",
]
