"""Learning from the games' outcomes (`--expert ppo`): the network plays, and the moves of the games it
did better in than its value head expected become likelier.

The other teachers (a search, the heuristic, the lookahead) can only take a network to their own level:
imitating a teacher stops at or below it (docs/models.md). This one has no teacher. Each iteration the
last network (or `--start`) plays `--games` games, drawing every move from its policy; each decision's
advantage is the decider's final win share less what the value head expected of the position; the
policy is fitted by proximal policy optimisation (PPO, Schulman et al. 2017: the probability ratio of
a move to the policy that played it clipped to 1 ± `clip`, so the passes over one iteration's games
cannot move the policy far) with an entropy bonus, and the value head, as always, to the win shares.

    bodoge train tokkuri --players 3 --start runs/tokkuri-3p/model.npz \
      --expert ppo:against=heuristic --games 2000 --window 1 --epochs 4

`against`: who sits at the other seats. `heuristic` (the default): one seat is the network (the deal's
number modulo n, so every seat in turn) and the others the game's heuristic: the network learns to beat
the players `nn`'s target is measured against, no more (a best response to them, not to everyone).
`self`: every seat is the network (self-play). Only the network's own decisions are recorded.

`lambda`: what a decision's advantage is measured from. At 1 (the default) the decider's final win
share: every decision of a game is credited with its end, however early it came. Below 1 the λ-return
of generalised advantage estimation (GAE, Schulman et al. 2016), over the value head's expectations at
the seat's later decisions of the game, as the network saw them when it played:

    G(t) = (1 − λ) · V(t + 1) + λ · G(t + 1),   G after the seat's last decision = its final win share

A long game (Tokkuri's seat decides about 40 times with 4 players) credits each move with less of
what the moves after it did, for the bias of a value head that is not exact.

`explore`: the share of the network's decisions at which the move is drawn uniformly among the legal
ones instead of from its policy (0 by default). A network sure of a move (Hangover's trained ones
declare non-drinker at every seat) draws the others too seldom to learn what they are worth; with
`explore` it plays the mixture (1 − explore) · policy + explore · uniform, and the probability it
records for PPO's ratio is the mixture's, so the passes over a batch weigh each move by how much
likelier the policy now makes it than the mixture that drew it (off-policy PPO: the ratio is still
clipped to 1 ± `clip`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

import numpy as np

import bodoge
from bodoge import agents
from bodoge.agents import nn
from bodoge.agents.base import legal_ids
from bodoge.errors import BadOption, is_number_in
from bodoge.train.selfplay import Samples

NAME = "ppo"
FORM = "ppo or ppo:against=heuristic|self,clip=C,entropy=E,lambda=L,explore=X"
AGAINST = ("heuristic", "self")


def is_ppo(spec: str) -> bool:
    return isinstance(spec, str) and agents.parse_spec(spec)[0] == NAME


@dataclass(frozen=True)
class Improving:
    """A ppo spec's settings: who plays the other seats (`against`), the ratio's `clip`, the weight
    of the policy's entropy in the loss (`entropy`), the λ of the returns (`lam`, `lambda=` in the
    spec) and the share of uniformly drawn moves (`explore`); `model`: the network that plays (the run
    adds it: the last iteration's)."""

    against: str = "heuristic"
    clip: float = 0.2
    entropy: float = 0.01
    model: str | None = None
    lam: float = 1.0
    explore: float = 0.0

    @classmethod
    def parse(cls, spec: str) -> Improving:
        """The settings of a ppo spec (BadOption naming what is wrong)."""
        _, params = agents.parse_spec(spec)
        unknown = sorted(set(params) - {"against", "clip", "entropy", "lambda", "explore", "model"})
        if unknown:
            raise BadOption("expert", spec, FORM, f"unknown parameter {unknown[0]!r}")
        against = params.get("against", cls.against)
        if against not in AGAINST:
            raise BadOption("against", against, ", ".join(AGAINST))
        clip, entropy = params.get("clip", cls.clip), params.get("entropy", cls.entropy)
        if not is_number_in(clip, 0.01, 1):
            raise BadOption("clip", clip, "a number from 0.01 to 1")
        if not is_number_in(entropy, 0, 1):
            raise BadOption("entropy", entropy, "a number from 0 to 1")
        lam = params.get("lambda", cls.lam)
        if not is_number_in(lam, 0, 1):
            raise BadOption("lambda", lam, "a number from 0 to 1")
        explore = params.get("explore", cls.explore)
        if not is_number_in(explore, 0, 1):
            raise BadOption("explore", explore, "a number from 0 to 1")
        model = params.get("model")
        if model is not None and (not isinstance(model, str) or not model.strip()):
            raise BadOption("model", model, "the path of a model's .npz")
        return cls(str(against), float(clip), float(entropy), model, float(lam), float(explore))


def lambda_returns(seats: list[int], expected: list[float], final: list[float], lam: float) -> list[float]:
    """Each decision's λ-return (module docstring): `seats` decided in turn, `expected[i]` the value
    head's win share for the decider when it decided, `final[i]` the decider's final win share. Each
    seat's decisions chain to its own next one, not to the other seats' in between."""
    out = [0.0] * len(seats)
    ahead: dict[int, float] = {}  # a seat's λ-return of the decision after the one at hand
    for i in reversed(range(len(seats))):
        seat = seats[i]
        out[i] = ahead.get(seat, final[i])
        ahead[seat] = (1 - lam) * expected[i] + lam * out[i]
    return out


def play(name: str, players: int, options: dict, spec: str, seeds: list[int], agent_seed: int) -> Samples:
    """One game per seed, the network of `spec` drawing its moves (from the policy, or with `explore`
    from its mixture with the uniform); its decisions with more than one legal action, with the
    log-probability of the move drawn (`Samples.behaviour`) and, with `lambda` below 1, the λ-return
    its advantage is measured from (`Samples.outcome`)."""
    settings = Improving.parse(spec)
    if settings.model is None:
        raise ValueError("a ppo iteration needs the network that plays (model=)")
    game = bodoge.make(name, players, **options)
    model = nn.model_for(game, settings.model)
    other = agents.make("heuristic")
    n, actions = game.num_players, nn.policy_size(game)
    parts = []
    for seed in seeds:
        state = game.new_state(seed=seed)
        rng = random.Random(f"{agent_seed}:{seed}")
        ours = set(range(n)) if settings.against == "self" else {seed % n}
        obs, legals, chosen, logp, seats, expected = [], [], [], [], [], []
        while state.current_player is not None:
            seat = state.current_player
            view = state.lazy_view(seat)
            legal = legal_ids(view)
            if seat not in ours:
                action = other.act(game, view, rng)
            elif len(legal) == 1:
                action = legal[0]
            else:
                seen = nn.readable(view)
                x = nn.observe(game, seen)
                outputs = model.outputs(game, seen, legal)
                p, shares = model.evaluate(x, outputs)
                if settings.explore:
                    p = (1 - settings.explore) * p + settings.explore / len(legal)
                i = legal.index(nn.choose(p, legal, 1.0, rng))  # drawn from what plays: policy or mixture
                obs.append(x)
                legals.append(outputs)
                chosen.append(outputs[i])
                logp.append(float(np.log(max(float(p[i]), 1e-12))))
                seats.append(seat)
                expected.append(float(shares[0]))
                action = legal[i]
            state.apply(action, seat=seat)
        if chosen:
            game_samples = Samples.of_game(
                obs, legals, chosen, seats, state.returns(), actions, behaviour=logp
            )
            if settings.lam < 1:
                final = [float(v) for v in game_samples.value[:, 0]]
                returns = lambda_returns(seats, expected, final, settings.lam)
                game_samples = replace(game_samples, outcome=np.asarray(returns, np.float32))
            parts.append(game_samples)
    if not parts:
        size = int(np.prod(game.observation_shape))
        return Samples.empty(size, actions, n, played=True, returned=settings.lam < 1)
    return Samples.join(parts)
