"""A tune's recommendation played again by agents that choose freely, at every player count
(issue #54): a variant that looked sound with constrained bots (`heuristic:prefer=declare`) or at
one player count, and collapses again once the bots choose for themselves, shows here.

    outcome["recheck"] = recheck(outcome, games=200, jobs=2)      # outcome: tune.result(...)
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bodoge.arena.findings import free_agent
from bodoge.arena.runner import SimConfig, make_game, run
from bodoge.arena.summary import summarize_variant
from bodoge.arena.tune import parse_goal
from bodoge.core.registry import game_class
from bodoge.errors import BadOption

#: Games per player count of a recheck, by default.
RECHECK_GAMES = 200


def lineup(specs: list[str], players: int) -> list[str]:
    """One spec per seat for `players` from a tune's specs by starting seat: the last fills the
    seats beyond them; with fewer seats the first ones, each kind of agent kept while seats allow."""
    if len(specs) <= players:
        return specs + [specs[-1]] * (players - len(specs))
    seats = specs[:players]
    for spec in dict.fromkeys(specs):
        if spec not in seats:  # a kind of agent cut off: it takes the last seat held twice
            spare = [i for i in range(players - 1, 0, -1) if seats.count(seats[i]) > 1]
            if spare:
                seats[spare[0]] = spec
    return seats


def recheck(
    outcome: dict[str, Any],
    players_counts: list[int] | None = None,
    games: int = RECHECK_GAMES,
    seed: int | None = None,
    jobs: int = 1,
    backend: str = "pool",
    address: str | None = None,
    out: Path | None = None,
) -> dict[str, Any] | None:
    """The recommended options of a tune's result (`result`, with its `findings`) played again by the
    tune's agents choosing freely (`findings.free_agent`: no `avoid=`/`prefer=`/`at=`) at every player count the
    game supports (or `players_counts`), `games` games per count on the same seed (the tune's unless
    `seed`): per count its goals, ties, games without a winner and findings (`arena.findings.detect`),
    and `new_findings`, the kinds the tune's own findings lacked. A variant that looked sound with
    constrained bots, or at one player count, and collapses with free ones shows there. None without a
    recommendation. With `out`, each count's games are kept in `out/<n>p/` (replaced on a new recheck).
    BadOption for a count the game does not support, or more games than the runner plays."""
    from bodoge.arena.findings import Context, detect
    from bodoge.arena.runner import MAX_GAMES
    from bodoge.arena.summary import to_json

    best = outcome.get("recommended")
    if not best:
        return None
    config = outcome["config"]
    game = config["game"]
    cls = game_class(game)
    supported = list(range(cls.min_players, cls.max_players + 1))
    counts = supported if players_counts is None else sorted(set(players_counts))
    for n in counts:
        if n not in supported:
            raise BadOption("players", n, f"a player count of {game}: {supported[0]} to {supported[-1]}")
    if not counts:
        raise BadOption("players", "", f"at least one player count of {game}")
    most = MAX_GAMES // len(counts)
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= most:
        raise BadOption("recheck games", games, f"an integer from 1 to {most} (games per player count)")
    seed = config["seed"] if seed is None else seed
    options = dict(best["options"])
    free = [free_agent(a) for a in config["agents"]]
    goals = [parse_goal(g) for g in config["goals"]]
    found_before = {f["kind"] for f in outcome.get("findings") or []}
    entries: list[dict[str, Any]] = []
    for n in counts:
        agents = lineup(free, n)
        sets = " ".join(f"--set '{k}={json.dumps(v, separators=(',', ':'))}'" for k, v in options.items())
        entry: dict[str, Any] = {
            "players": n,
            "agents": agents,
            "command": f"bodoge sim {game} --players {n} --agents {','.join(agents)} --games {games} "
            f"--seed {seed} {sets}".strip(),
        }
        try:
            make_game(game, n, options)
        except BadOption as exc:  # options of one count may not suit another (e.g. a map without it)
            entries.append({**entry, "refused": str(exc)})
            continue
        sim = SimConfig(game=game, players=n, agents=agents, games=games, seed=seed, variants=[options])
        where = out / f"{n}p" if out is not None else None
        records = run(sim, out=where, jobs=jobs, backend=backend, address=address, overwrite=True)
        summary = summarize_variant(records, n)
        values: dict[str, Any] = {}
        for goal in goals:
            try:
                values[goal.name] = goal.measure(summary).to_json()
            except BadOption:  # a number this count's games do not report
                continue
        metrics = summary["metrics"]
        found = to_json(detect(summary, Context(game, n, agents, games, seed, options)))
        entries.append(
            {
                **entry,
                "values": values,
                "tie": metrics["tie"].to_json() if "tie" in metrics else None,
                "no_winner": metrics["no_winner"].to_json() if "no_winner" in metrics else None,
                "findings": found,
                "new_findings": sorted({f["kind"] for f in found} - found_before),
            }
        )
    return {
        "games": games,
        "seed": seed,
        "agents": list(dict.fromkeys(free)),
        "tuned_players": config["players"],
        "options": options,
        "counts": entries,
    }
