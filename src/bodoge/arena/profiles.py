"""One choice as a game between the seats: every profile of "always KIND" / "never KIND" (issue #54).

    config = prepare("hangover", 4, "declare", games=40, seed=1)    # BadOption for bad input
    played = play(config, jobs=2)                                   # 2^4 profiles on the same 40 deals
    data = analyse(config, played)                                  # profiles.json's content
    write(data, Path("results/profiles"))                           # profiles.json and report.md

A designer who sees the bots always take some choice (Hangover's declaration, Troika's) asks whether
a table of players would: is "everyone declares" a stable way to play, is there another, does the
order of the choice decide it? Each seat gets one of two roles, both counterfactual wrappers of one
agent (`bodoge.agents.counterfactual`): **always** (`<agent>:prefer=KIND`, takes an action starting
with KIND whenever one is legal) and **never** (`<agent>:avoid=KIND`, takes another whenever one is).
Elsewhere both play as the agent does. Every one of the 2^N assignments of roles to seats (a
**profile**) plays the same G deals, seeds S..S+G−1, with the seats fixed: game g of every profile
is `bodoge sim --no-rotate` game g, played by the arena's runner (`arena.run`), so a profile's
numbers are exactly those of that sim run, and two profiles compare deal by deal.

Each seat's win share (its mean return: 1 for a win, 1/k for a win shared by k) in each profile
makes a table of payoffs, one number per seat per profile: a game in which every seat picks a role.

- **Pure equilibria** (`pure_equilibria`): profiles where no seat gains, by the point estimates, by
  switching its role alone. Each is then judged with intervals: a switch's gain is the paired
  difference over the same deals, with its 95% interval; the equilibrium is *clear* when every
  switch clearly loses (its interval wholly below 0). `with_intervals` lists every profile that no
  switch *clearly* improves (a switch counts only if its gain's interval lies wholly above 0): the
  profiles the games played cannot rule out.
- **Mixed equilibria** (`mixed_equilibria`) come from Gambit's solvers (`pygambit`, the optional
  extra `bodoge[equilibria]`) on the point estimates; without it the JSON says so.
- **Sequential** (`backward_induction`): the choice made publicly in seat order, seat 0 first, each
  seat knowing the earlier roles and assuming the later seats answer optimally. Each decision's
  margin is its win share under the chosen role minus under the other, each with the later seats'
  answers, and its interval from the paired deals.

Intervals are Student's t over deals (one game per deal here), clipped to what a win share or a
difference of two can be; `stats.t_test_p` (with its exact sign test where every deal gives the same
difference) must agree, so that three identical deals are not taken for certainty. No correction
is made for the many comparisons; the report says so, and that an interval containing 0 means "not
told apart by these games", never "equal" or "fair".
"""

from __future__ import annotations

import importlib.metadata
import itertools
import json
import math
import shlex
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bodoge import agents as agent_registry
from bodoge.agents.counterfactual import PARAMETERS, matches, vocabulary
from bodoge.arena.runner import SimConfig, make_game, options_label
from bodoge.arena.runner import run as run_games
from bodoge.arena.stats import mean_ci, t_test_p
from bodoge.core.game import MAX_SEED, Game
from bodoge.errors import BadOption, is_int_in

FORMAT = "bodoge-profiles/1"
#: The two roles of a seat, in this order everywhere (the solver's strategy 0 is "always").
ROLES = ("always", "never")
#: Games per profile, and games of all profiles together.
MAX_GAMES = 2000
MAX_TOTAL = 200_000
#: Two win shares closer than this are equal (sums of 1/k returns in another order differ by rounding).
EPS = 1e-9
#: A gain counts as clear when its 95% interval excludes 0 and its t test (or sign test) says p < ALPHA.
ALPHA = 0.05
#: How a seat that gains exactly as much either way chooses in `backward_induction`.
TIE_BREAK = "always"

Profile = tuple[str, ...]
Table = Mapping[Profile, Sequence[float]]


def profiles_of(players: int) -> list[Profile]:
    """Every assignment of the roles to `players` seats (2^players), seat 0's role varying slowest."""
    return list(itertools.product(ROLES, repeat=players))


def switched(profile: Profile, seat: int) -> Profile:
    """`profile` with `seat` in the other role."""
    other = ROLES[1 - ROLES.index(profile[seat])]
    return (*profile[:seat], other, *profile[seat + 1 :])


def short(profile: Sequence[str]) -> str:
    """`A N N A` for always, never, never, always."""
    return " ".join(role[0].upper() for role in profile)


# -- settings and checks ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ProfilesConfig:
    """What `play` plays; made by `prepare`, which checks it."""

    game: str
    players: int
    choice: str
    games: int
    seed: int = 1
    agent: str = "heuristic"
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def specs(self) -> dict[str, str]:
        """The agent spec of each role."""
        join = "," if ":" in self.agent else ":"
        return {
            "always": f"{self.agent}{join}prefer={self.choice}",
            "never": f"{self.agent}{join}avoid={self.choice}",
        }

    def sim_config(self, profile: Profile) -> SimConfig:
        """The `bodoge sim --no-rotate` run of one profile."""
        return SimConfig(
            game=self.game,
            players=self.players,
            agents=[self.specs[role] for role in profile],
            games=self.games,
            seed=self.seed,
            variants=[dict(self.options)],
            rotate=False,
        )

    def command(self, out: str = "DIR") -> str:
        """The command line that plays these games again."""
        parts = [
            "bodoge",
            "profiles",
            self.game,
            "--players",
            str(self.players),
            "--choice",
            self.choice,
            "--games",
            str(self.games),
            "--seed",
            str(self.seed),
        ]
        if self.agent != "heuristic":
            parts += ["--agent", self.agent]
        for name, value in self.options.items():
            parts += ["--set", f"{name}={json.dumps(value, separators=(',', ':'))}"]
        return shlex.join([*parts, "--out", out])


def prepare(
    game: str,
    players: int | None,
    choice: str,
    games: int,
    seed: int = 1,
    agent: str = "heuristic",
    options: Mapping[str, Any] | None = None,
) -> ProfilesConfig:
    """A checked configuration: BadOption (one line, naming what is allowed) for an unknown game, a
    player count the game does not allow, a choice that starts no action of the game, a number of
    games out of bounds, an agent that is no agent spec. Nothing is played."""
    options = dict(options or {})
    if not is_int_in(games, 1, MAX_GAMES):
        raise BadOption("games", games, f"an integer from 1 to {MAX_GAMES} (games per profile)")
    if not is_int_in(seed, 0, MAX_SEED):
        raise BadOption("seed", seed, f"an integer from 0 to {MAX_SEED}")
    made = make_game(game, players, options)
    n = made.num_players
    total = 2**n * games
    if total > MAX_TOTAL:
        most = MAX_TOTAL // 2**n
        raise BadOption(
            "games",
            games,
            f"at most {most} games per profile at {n} players ({MAX_TOTAL:,} games in all {2**n} profiles)",
            f"{2**n} profiles × {games} games = {total:,}",
        )
    kind = check_choice(made, choice)
    _name, params = agent_registry.parse_spec(agent)
    wrapped = sorted(k for k in params if k in PARAMETERS)
    if wrapped:
        raise BadOption(
            "agent",
            agent,
            "an agent spec without prefer=, avoid= or at= (the roles add prefer= and avoid=)",
            f"it has {', '.join(wrapped)}",
        )
    config = ProfilesConfig(game, n, kind, games, seed, agent.strip(), options)
    config.sim_config(profiles_of(n)[0]).check()  # makes every agent and checks it against the game
    config.sim_config(profiles_of(n)[-1]).check()
    return config


def check_choice(game: Game, choice: str) -> str:
    """`choice` with its spaces tidied, if it starts some action of `game` (the words that
    `bodoge.agents.counterfactual` checks a prefer= or avoid= against); BadOption otherwise."""
    kind = " ".join(str(choice).split())
    words = vocabulary(game)
    shown = ", ".join(w.shown() for w in words)
    allowed = f"the start of an action of {game.name}: {shown}"
    if not kind or any(ch in kind for ch in ",:="):
        raise BadOption("choice", choice, allowed, "it is empty or holds ',', ':' or '='")
    for part in kind.split("|"):
        prefix = tuple(part.split())
        if not prefix:
            raise BadOption("choice", choice, allowed, "an empty part between '|'")
        if not any(w.admits(prefix) for w in words):
            raise BadOption(
                "choice", choice, allowed, f"no action of {game.name} starts with {part.strip()!r}"
            )
    return kind


# -- playing ---------------------------------------------------------------------------------------


@dataclass
class ProfileGames:
    """What one profile's games showed, game by game (game g is deal g: seed + g)."""

    returns: list[list[float]]  # [game][seat]
    ties: list[bool]  # a win shared by several seats
    came_up: list[int]  # decisions that offered the choice (all seats together)
    taken: list[int]  # of those, how many took it


def _prefixes(choice: str) -> list[tuple[str, ...]]:
    return [tuple(part.split()) for part in choice.split("|")]


def from_records(records: Sequence[Mapping[str, Any]], choice: str) -> ProfileGames:
    """A profile's numbers from its `arena.run` records (sorted by index)."""
    prefixes = _prefixes(choice)
    out = ProfileGames([], [], [], [])
    for r in records:
        a = r["arena"]
        out.returns.append([float(x) for x in a["returns"]])
        out.ties.append(len(r.get("result", {}).get("winners", ())) > 1)
        came, took = 0, 0
        for kind, options in (a.get("choices") or {}).items():
            if not any(matches(option, prefixes) for option in kind.split("/")):
                continue
            for option, (chosen, _single) in options.items():
                came += chosen
                if matches(option, prefixes):
                    took += chosen
        out.came_up.append(came)
        out.taken.append(took)
    return out


def play(
    config: ProfilesConfig,
    jobs: int = 1,
    on_progress: Callable[[int, int], None] | None = None,
) -> dict[Profile, ProfileGames]:
    """Play every profile on the same deals with `arena.run` (one run per profile, seats fixed)."""
    played: dict[Profile, ProfileGames] = {}
    every = profiles_of(config.players)
    total = len(every) * config.games
    for k, profile in enumerate(every):
        base = k * config.games

        def progress(done: int, _all: int, base: int = base) -> None:
            if on_progress is not None:
                on_progress(base + done, total)

        records = run_games(config.sim_config(profile), jobs=jobs, on_progress=progress)
        played[profile] = from_records(records, config.choice)
    return played


# -- analysis --------------------------------------------------------------------------------------


def _num(x: float, digits: int = 6) -> float | None:
    return None if math.isnan(x) else round(x, digits)


def interval(values: Sequence[float], low: float, high: float) -> dict[str, float | None]:
    """Mean and 95% interval of independent values (one per deal), the interval clipped to [low, high]."""
    e = mean_ci(values)
    return {
        "mean": _num(e.mean),
        "low": _num(min(max(e.low, low), high)),
        "high": _num(min(max(e.high, low), high)),
    }


def gain(values: Sequence[float]) -> dict[str, Any]:
    """A paired difference (one value per deal): its mean, interval in [−1, 1], p-value, and whether it
    is clearly above or below 0 ('above', 'below' or None)."""
    out: dict[str, Any] = interval(values, -1.0, 1.0)
    p = t_test_p(values)
    out["p"] = _num(p)
    clear = None
    if out["low"] is not None and not math.isnan(p) and p < ALPHA:
        if out["low"] > 0:
            clear = "above"
        elif out["high"] is not None and out["high"] < 0:
            clear = "below"
    out["clear"] = clear
    return out


def differences(played: Mapping[Profile, ProfileGames], seat: int, a: Profile, b: Profile) -> list[float]:
    """Seat's return in profile b minus in profile a, deal by deal."""
    return [rb[seat] - ra[seat] for ra, rb in zip(played[a].returns, played[b].returns, strict=True)]


def means(played: Mapping[Profile, ProfileGames]) -> dict[Profile, list[float]]:
    """The table of point estimates: each profile's win share per seat."""
    table = {}
    for profile, games in played.items():
        n = len(profile)
        table[profile] = [math.fsum(r[s] for r in games.returns) / len(games.returns) for s in range(n)]
    return table


def pure_equilibria(table: Table) -> list[Profile]:
    """Profiles where no seat's win share rises (by more than EPS) when it alone switches role."""
    n = len(next(iter(table)))
    return [p for p in profiles_of(n) if all(table[switched(p, s)][s] <= table[p][s] + EPS for s in range(n))]


def backward_induction(table: Table, tie_break: str = TIE_BREAK) -> dict[str, Any]:
    """The roles chosen publicly in seat order (seat 0 first), each seat maximizing its own win share
    knowing the earlier roles and assuming the later seats do the same. Returns `outcome` (the profile
    reached), `path` (each seat's decision on it) and `plan` (the decision after every history), each
    decision as {seat, earlier, choice, chosen, other, value, other_value, tie}: `chosen` and `other`
    are the profiles reached by the two roles (later seats answering optimally), the values the seat's
    win shares there. An exact tie (within EPS) goes to `tie_break`."""
    if tie_break not in ROLES:
        raise ValueError(f"tie_break is one of {ROLES}, not {tie_break!r}")
    n = len(next(iter(table)))
    decisions: dict[Profile, dict[str, Any]] = {}

    def solve(earlier: Profile) -> Profile:
        seat = len(earlier)
        if seat == n:
            return earlier
        reached = {role: solve((*earlier, role)) for role in ROLES}
        value = {role: table[reached[role]][seat] for role in ROLES}
        tie = abs(value["always"] - value["never"]) <= EPS
        choice = tie_break if tie else max(ROLES, key=lambda role: value[role])
        other = ROLES[1 - ROLES.index(choice)]
        decisions[earlier] = {
            "seat": seat,
            "earlier": list(earlier),
            "choice": choice,
            "chosen": reached[choice],
            "other": reached[other],
            "value": value[choice],
            "other_value": value[other],
            "tie": tie,
        }
        return reached[choice]

    outcome = solve(())
    path = []
    earlier: Profile = ()
    for _ in range(n):
        step = decisions[earlier]
        path.append(step)
        earlier = (*earlier, step["choice"])
    plan = [decisions[h] for h in sorted(decisions, key=lambda h: (len(h), [ROLES.index(r) for r in h]))]
    return {"outcome": outcome, "path": path, "plan": plan, "tie_break": tie_break}


def mixed_equilibria(table: Table) -> tuple[list[dict[str, Any]] | None, str]:
    """The equilibria Gambit finds on the table of point estimates in which some seat mixes its roles
    (each as the probability of "always" per seat and the expected win shares), and a note on how they
    were found; (None, why) where pygambit is not installed or fails."""
    n = len(next(iter(table)))
    try:
        import numpy as np
        import pygambit as gbt
    except ImportError:
        return None, (
            "no solver: pygambit (Gambit) is not installed; pip install 'bodoge[equilibria]' "
            "for the mixed equilibria (they are not computed by hand here)"
        )
    arrays = [np.zeros((2,) * n) for _ in range(n)]
    for profile, values in table.items():
        index = tuple(ROLES.index(role) for role in profile)
        for s in range(n):
            arrays[s][index] = values[s]
    version = importlib.metadata.version("pygambit")
    try:
        game = gbt.Game.from_arrays(*arrays, title="roles")
        if n == 2:
            method = "enummixed_solve (every extreme equilibrium of a 2-player game)"
            result = gbt.nash.enummixed_solve(game, rational=False)
        else:
            method = "enumpoly_solve (every support profile; the isolated equilibria on each)"
            result = gbt.nash.enumpoly_solve(game, use_strategic=True)
        players = list(game.players)
        found = []
        for eq in result.equilibria:
            always = [float(eq[next(iter(player.strategies))]) for player in players]
            payoff = [float(eq.payoff(player)) for player in players]
            found.append((always, payoff))
    # Gambit's errors are its own classes (and RuntimeError, ValueError): any of them means no answer.
    except Exception as exc:
        return None, f"pygambit {version} failed on this table: {type(exc).__name__}: {exc}"
    mixed = []
    pure = 0
    for always, payoff in found:
        if all(min(p, 1 - p) < 1e-6 for p in always):
            pure += 1
            continue
        mixed.append(
            {
                "always": [round(min(max(p, 0.0), 1.0), 4) for p in always],
                "win_share": [round(x, 4) for x in payoff],
            }
        )
    note = (
        f"pygambit {version}, {method}, on the point estimates of the win shares (not their intervals); "
        f"it found {len(found)} equilibria: {pure} pure (listed under 'pure') and {len(mixed)} mixed. "
        "Where some seat's win share is exactly the same in two profiles (a choice that did not come up, "
        "or deals where it changed nothing) the game is degenerate and may have whole sets of equilibria, "
        "of which the solver lists only isolated points."
    )
    return mixed, note


def analyse(config: ProfilesConfig, played: Mapping[Profile, ProfileGames]) -> dict[str, Any]:
    """profiles.json's content (see the module docstring and docs/profiles.md)."""
    n = config.players
    table = means(played)
    profiles = []
    for profile in profiles_of(n):
        games = played[profile]
        came, taken = sum(games.came_up), sum(games.taken)
        profiles.append(
            {
                "roles": list(profile),
                "agents": [config.specs[role] for role in profile],
                "win_share": [interval([r[s] for r in games.returns], 0.0, 1.0) for s in range(n)],
                "ties": round(sum(games.ties) / len(games.ties), 6),
                "kind_used": {
                    "decisions": came,
                    "per_game": round(came / len(games.came_up), 4),
                    "games": sum(1 for c in games.came_up if c),
                    "taken": taken,
                    "share_taken": round(taken / came, 4) if came else None,
                },
            }
        )

    def deviations(profile: Profile) -> list[dict[str, Any]]:
        return [
            {
                "seat": s,
                "to": switched(profile, s)[s],
                "gain": gain(differences(played, s, profile, switched(profile, s))),
            }
            for s in range(n)
        ]

    pure = []
    for profile in pure_equilibria(table):
        devs = deviations(profile)
        pure.append(
            {
                "roles": list(profile),
                "win_share": [round(x, 6) for x in table[profile]],
                "deviations": devs,
                "holds_with_intervals": not any(d["gain"]["clear"] == "above" for d in devs),
                "clear": all(d["gain"]["clear"] == "below" for d in devs),
            }
        )
    with_intervals = [
        list(profile)
        for profile in profiles_of(n)
        if not any(d["gain"]["clear"] == "above" for d in deviations(profile))
    ]
    mixed, note = mixed_equilibria(table)
    sequential = backward_induction(table)

    def decision(step: dict[str, Any]) -> dict[str, Any]:
        margin = gain(differences(played, step["seat"], step["other"], step["chosen"]))
        return {
            "seat": step["seat"],
            "earlier": step["earlier"],
            "choice": step["choice"],
            "win_share": round(step["value"], 6),
            "win_share_other": round(step["other_value"], 6),
            "margin": margin,
            "tie": step["tie"],
            "reaches": list(step["chosen"]),
            "other_reaches": list(step["other"]),
        }

    return {
        "format": FORMAT,
        "game": config.game,
        "players": n,
        "choice": config.choice,
        "agent": config.agent,
        "roles": {role: config.specs[role] for role in ROLES},
        "options": config.options,
        "games": config.games,
        "seed": config.seed,
        "seeds": [config.seed, config.seed + config.games - 1],
        "command": config.command(),
        "profiles": profiles,
        "equilibria": {
            "pure": pure,
            "with_intervals": with_intervals,
            "mixed": mixed,
            "mixed_note": note,
        },
        "sequential": {
            "order": "public, in seat order from seat 0; each seat knows the earlier roles",
            "tie_break": sequential["tie_break"],
            "outcome": list(sequential["outcome"]),
            "win_share": [round(x, 6) for x in table[sequential["outcome"]]],
            "path": [decision(step) for step in sequential["path"]],
            "plan": [
                {"seat": s["seat"], "earlier": s["earlier"], "choice": s["choice"], "tie": s["tie"]}
                for s in sequential["plan"]
            ],
        },
    }


# -- the report ------------------------------------------------------------------------------------


def share_text(e: Mapping[str, Any], sign: str = "") -> str:
    """An estimate as `0.250 [0.100, 0.400]` (`sign="+"`: a difference, `+0.050 [-0.010, +0.110]`)."""
    if e["mean"] is None:
        return "—"
    if e["low"] is None:
        return f"{e['mean']:{sign}.3f}"
    return f"{e['mean']:{sign}.3f} [{e['low']:{sign}.3f}, {e['high']:{sign}.3f}]"


def signed_text(e: Mapping[str, Any]) -> str:
    return share_text(e, "+")


def _verdict(g: Mapping[str, Any]) -> str:
    return {"below": "clearly worse", "above": "clearly better"}.get(g["clear"] or "", "not told apart")


def report(data: Mapping[str, Any]) -> str:
    """report.md: the profiles, the equilibria, the sequential path and what they rest on."""
    n = data["players"]
    kind = data["choice"]
    seats = [f"P{s}" for s in range(n)]
    g = data["games"]
    lines = [
        f"# Always or never `{kind}`: {data['game']}, {n} players",
        "",
        f"Every seat is given one of two roles, and all {2**n} ways of giving them were played on the same "
        f"{g} deals. The roles are counterfactual wrappers of one agent, `{data['agent']}`:",
        "",
        f"- **always** (A) = `{data['roles']['always']}`: takes an action starting with `{kind}` whenever one "
        "is legal;",
        f"- **never** (N) = `{data['roles']['never']}`: takes another action whenever one is legal.",
        "",
        f"Everywhere else both play exactly as `{data['agent']}` does. Reproduce with:",
        "",
        "```sh",
        data["command"],
        "```",
        "",
    ]
    if data["options"]:
        lines += [f"Game options: {options_label(data['options'])}.", ""]
    lines += [
        "## What this rests on",
        "",
        f"- **The agent.** These are the win shares of `{data['agent']}` in two counterfactual roles, not of "
        "people, nor of a stronger agent, which might play the rest of the game differently and so value "
        "the choice differently. A role fixes the choice at every decision where it is offered, whatever "
        "the cards.",
        f"- **The deals.** Every profile plays the same {g} deals (seeds {data['seeds'][0]} to "
        f"{data['seeds'][1]}), one game each, with the seats fixed (no rotation): P0 is the same seat, "
        "with the same cards, in every profile. Profile p's games are exactly those of "
        "`bodoge sim --no-rotate` with p's agents and the same seed.",
        "- **The intervals.** 95% Student-t intervals over the deals, clipped to [0, 1] for a win share. "
        "A switch's gain is the paired difference, deal by deal, between the two profiles; it is *clear* "
        f"when its interval excludes 0 and its test gives p < {ALPHA} (a sign test where every deal gives "
        f"the same difference). No correction is made for the {2**n * n} switches compared: among so many, "
        "a few clear ones may be chance.",
        "- **Not clear is not equal.** An interval that contains 0 says these games cannot tell the two "
        "apart; it does not say the choice is fair or harmless. More games (`--games`) narrow it.",
        "- **The equilibria** are of the game in which each seat picks a role before play and the agent "
        "plays the rest; they use the point estimates, judged again with the intervals where said.",
        "",
        "## The profiles",
        "",
        f"Win share of each seat (a shared win counts 1/k), with its 95% interval; ties: share of the games "
        f"won by several seats; `{kind}` offered: decisions per game that offered it (all seats); taken: "
        "the share of those where it was taken.",
        "",
        "| # | roles | " + " | ".join(seats) + f" | ties | `{kind}` offered | taken |",
        "|---|---|" + "---|" * n + "---|---|---|",
    ]
    for i, p in enumerate(data["profiles"]):
        used = p["kind_used"]
        taken = "—" if used["share_taken"] is None else f"{used['share_taken']:.2f}"
        lines.append(
            f"| {i} | {short(p['roles'])} | "
            + " | ".join(share_text(e) for e in p["win_share"])
            + f" | {p['ties']:.3f} | {used['per_game']:.2f} | {taken} |"
        )
    if all(p["kind_used"]["decisions"] == 0 for p in data["profiles"]):
        lines += [
            "",
            f"**`{kind}` was never offered as a choice** in these games: every profile is the plain agent, "
            "and the differences below are none.",
        ]
    eq = data["equilibria"]
    lines += ["", "## Equilibria of the simultaneous choice", ""]
    if eq["pure"]:
        lines += [
            "**Pure equilibria** (no seat's win share rises, by the point estimates, when it alone switches):",
            "",
        ]
        for e in eq["pure"]:
            shares = ", ".join(f"{s} {x:.3f}" for s, x in zip(seats, e["win_share"], strict=True))
            how = (
                "clear: every switch clearly loses"
                if e["clear"]
                else "not clear: some switch is not told apart from staying"
            )
            lines += [f"- **{short(e['roles'])}** (win shares {shares}): {how}.", ""]
            lines += ["  | seat | switch to | gain [95%] | p | |", "  |---|---|---|---|---|"]
            for d in e["deviations"]:
                p_value = "—" if d["gain"]["p"] is None else f"{d['gain']['p']:.3g}"
                lines.append(
                    f"  | P{d['seat']} | {d['to']} | {signed_text(d['gain'])} | {p_value} | {_verdict(d['gain'])} |"
                )
            lines.append("")
    else:
        lines += ["**No pure equilibrium** by the point estimates.", ""]
    lines += [
        "**Judged with the intervals** (a switch counts only if its gain's interval lies wholly above 0), "
        "the profiles that no switch clearly improves are: "
        + (", ".join(f"{short(r)}" for r in eq["with_intervals"]) or "none")
        + ".",
        "",
    ]
    if eq["mixed"] is None:
        lines += [f"**Mixed equilibria:** not computed: {eq['mixed_note']}.", ""]
    else:
        lines += ["**Mixed equilibria** (probability of *always* at each seat; expected win shares):", ""]
        if eq["mixed"]:
            for m in eq["mixed"]:
                probs = ", ".join(f"{s} {x:.3f}" for s, x in zip(seats, m["always"], strict=True))
                shares = ", ".join(f"{x:.3f}" for x in m["win_share"])
                lines.append(f"- always with {probs}; win shares {shares}")
        else:
            lines.append("- none found besides the pure ones.")
        lines += ["", f"({eq['mixed_note']})", ""]
    seq = data["sequential"]
    lines += [
        "## The choice made in public, in seat order",
        "",
        "P0 chooses first; each seat knows the earlier roles and assumes the later seats choose their "
        f"best answers (backward induction on the point estimates; an exact tie goes to {seq['tie_break']}). "
        "The margin is the seat's win share under the chosen role minus under the other, each with the "
        "later seats' answers, on the same deals.",
        "",
        "| seat | earlier roles | chooses | win share | under the other | margin [95%] | |",
        "|---|---|---|---|---|---|---|",
    ]
    for d in seq["path"]:
        earlier = short(d["earlier"]) or "—"
        mark = "tie" if d["tie"] else ("clear" if d["margin"]["clear"] == "above" else "not told apart")
        lines.append(
            f"| P{d['seat']} | {earlier} | {d['choice']} | {d['win_share']:.3f} | {d['win_share_other']:.3f} "
            f"| {signed_text(d['margin'])} | {mark} |"
        )
    shares = ", ".join(f"{s} {x:.3f}" for s, x in zip(seats, seq["win_share"], strict=True))
    unclear = [d["seat"] for d in seq["path"] if d["margin"]["clear"] != "above"]
    lines += [
        "",
        f"The table reaches **{short(seq['outcome'])}** (win shares {shares}).",
    ]
    if unclear:
        lines.append(
            "The decisions of "
            + ", ".join(f"P{s}" for s in unclear)
            + " on this path are not clear: their margins' intervals contain 0 (or they are ties), so these "
            "games do not settle which role that seat should take there."
        )
    lines.append("")
    return "\n".join(lines)


def write(data: Mapping[str, Any], out: Path) -> tuple[Path, Path]:
    """profiles.json and report.md in `out` (made if need be)."""
    out.mkdir(parents=True, exist_ok=True)
    json_path, report_path = out / "profiles.json", out / "report.md"
    json_path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    report_path.write_text(report(data), encoding="utf-8")
    return json_path, report_path
