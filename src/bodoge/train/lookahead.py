"""The lookahead teacher (`--expert lookahead`): a teacher who sees every hand, and a network who learns
from it what the seat's view alone can say.

At every decision of a self-play game the teacher plays each legal move out from the *true* state: the
move, then every seat by the rollout policy (the game's quick policy, the heuristic's moves) to the
end, every move on the same luck (common random numbers, as `bodoge.analysis.values`). The deciding
seat's win share is that move's value. The game itself goes on by the rollout policy's move, so the
decisions recorded are those of the heuristic's games.

The network sees only the seat's view (its observation tensor). Its policy is fitted, by cross-entropy,
to the distribution

    target(a) ∝ exp(bonus · [a is the heuristic's move] + value(a) / temperature)

over the legal moves: the heuristic's move, shifted toward the moves that played out better. That is
the policy which gains most over the heuristic for a given divergence from it (the KL-regularised
improvement step of AWR and MPO). Averaged over many games, a view's fitted policy weighs the values
over all the deals the view is consistent with, *as they really occur* among the heuristic's games:
the belief a search must guess (ISMCTS deals the unseen cards uniformly, or by a model of the others'
plays) comes here from the games themselves. The bonus keeps the network on the heuristic's move
where the values only scatter with the hidden cards. Suphx's "oracle guiding" (Li et al. 2020) is the
same idea of a teacher with hidden information and a student without.

    bodoge train hangover --players 4 --bootstrap lookahead --expert lookahead:temperature=0.5,bonus=1

Measured (docs/models.md): with the bonus it taught Hangover's networks no more than the heuristic's
own games, and Tokkuri's less: where a view leaves the deal open, the teacher's values are mostly the
hidden cards. Without it (`bonus=0`) it took both of Hangover's shipped networks just above the
heuristic, where every other teacher had left them level: 4 players from 200,000 games (0.262 ±
0.007 over 2,000 new deals), 3 players from 300,000 (0.342 ± 0.008).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from bodoge import agents
from bodoge.analysis.values import Rollout, play_each, rollout_policy
from bodoge.core.game import Game, State
from bodoge.errors import BadOption, is_number_in

NAME = "lookahead"
FORM = "lookahead or lookahead:rollout=R,temperature=T,bonus=B"


def is_lookahead(spec: str) -> bool:
    return isinstance(spec, str) and agents.parse_spec(spec)[0] == NAME


@dataclass(frozen=True)
class Teaching:
    """A lookahead spec's settings: how the playouts go on (`rollout`, as `bodoge review`'s), and the
    target's `temperature` (a win share worth one unit of logit) and `bonus` (the heuristic's move's
    head start, in logits)."""

    rollout: str = Rollout.AUTO
    temperature: float = 0.5
    bonus: float = 1.0

    @classmethod
    def parse(cls, spec: str) -> Teaching:
        """The settings of a lookahead spec (BadOption naming what is wrong)."""
        _, params = agents.parse_spec(spec)
        unknown = sorted(set(params) - {"rollout", "temperature", "bonus"})
        if unknown:
            raise BadOption("expert", spec, FORM, f"unknown parameter {unknown[0]!r}")
        kind = params.get("rollout", Rollout.AUTO)
        if not isinstance(kind, str) or kind not in tuple(Rollout):
            raise BadOption("rollout", kind, ", ".join(Rollout))
        temperature, bonus = params.get("temperature", cls.temperature), params.get("bonus", cls.bonus)
        if not is_number_in(temperature, 0.01, 100):
            raise BadOption("temperature", temperature, "a number from 0.01 to 100")
        if not is_number_in(bonus, 0, 100):
            raise BadOption("bonus", bonus, "a number from 0 to 100")
        return cls(kind, float(temperature), float(bonus))


class Lookahead:
    """The teacher for one game: `returns(state, legal, rng)` and `move(state, rng)`."""

    def __init__(self, game: Game, spec: str) -> None:
        self.policy = rollout_policy(game, Teaching.parse(spec).rollout)

    def returns(self, state: State, legal: list[int], rng: random.Random) -> list[list[float]]:
        """Every seat's returns after each of `legal`, played out from `state` itself (not a deal
        guessed from a view) with the same luck for every move."""
        return play_each(state, legal, self.policy, rng.getrandbits(64))

    def move(self, state: State, rng: random.Random) -> Any:
        """The move the game goes on by: the rollout policy's (at random where it is random)."""
        if self.policy is None:
            return rng.choice(state.legal_actions())
        return self.policy(state, rng)
