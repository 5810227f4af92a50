"""Every finding on each game's defaults, as docs/design-notes/defaults.md lists them (issue #54).

    python bench/defaults_findings.py                   # all four games at 3 and 4 players → stdout
    python bench/defaults_findings.py --games 400 --out docs/design-notes/defaults.md

Plays what `bodoge sim GAME --players N --agents heuristic --games G --seed 1 --experiments 2` plays
(the findings of the summary, and the costs of the two most important dominant choices) and writes
each finding in its own words, with its experiment's command: the page is the runs' output, never
written by hand.
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

from bodoge import arena
from bodoge.arena import findings

GAMES = ("hangover", "tokkuri", "tottarot", "troika")
HEAD = """# Findings on every game's defaults

The closing list of the design notes ([Hangover](hangover.md), [Tokkuri](tokkuri.md), \
[Tottarot](tottarot.md), [Troika](troika.md)): every finding that `bodoge sim` reports on each game's \
default options at 3 and 4 players, with the `heuristic` bot at every seat, {games} games, seed 1 \
(docs/findings.md says what each kind means and when it is reported). Each heading's command gives \
that run; each finding's command is its experiment, as the report prints it. Where `bodoge sim` \
played the experiment (`--experiments 2`: the two most important dominant choices), the finding ends \
with what it measured, before what it rests on: the agents, what they assume of the others, and the \
rules spec's decisions (docs/rules/). Every finding holds for these bots under those decisions; a \
finding is not a verdict on the game until players who choose freely confirm it (`bodoge profiles`).

Written by `python bench/defaults_findings.py --games {games} --out docs/design-notes/defaults.md`.
"""


def section(game: str, players: int, games: int, jobs: int) -> list[str]:
    config = arena.SimConfig(game, players, ["heuristic"] * players, games=games, seed=1)
    records = arena.run(config, jobs=jobs)
    summary = arena.summarize(records, config)

    def play(experiment: arena.SimConfig) -> list[dict]:
        return arena.run(replace(experiment), jobs=jobs)

    findings.measure_costs(summary["findings"], records, config, play, most=2)
    lines = [
        f"### {players} players",
        "",
        "```sh",
        f"bodoge sim {game} --players {players} --agents heuristic --games {games} --seed 1 --experiments 2",
        "```",
        "",
    ]
    if not summary["findings"]:
        lines += ["No finding: nothing lies clearly past its threshold.", ""]
    for i, f in enumerate(summary["findings"], 1):
        lines += [
            f"{i}. **{f['kind']}**: {f['text']['en']}",
            "",
            "   ```sh",
            f"   {f['experiment']}",
            "   ```",
            "",
        ]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--games-list", default=",".join(GAMES), help="games, comma-separated")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    lines = [HEAD.format(games=args.games)]
    for game in args.games_list.split(","):
        lines += [f"## {game.capitalize()}", ""]
        for players in (4, 3):
            lines += section(game, players, args.games, args.jobs)
    text = "\n".join(lines).rstrip() + "\n"
    if args.out is None:
        print(text)
    else:
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
