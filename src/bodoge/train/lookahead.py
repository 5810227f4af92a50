"""The lookahead teacher (`--expert lookahead`): a teacher who sees every hand, and a network who learns
from it what the seat's view alone can say.

At every decision of a self-play game the teacher plays each legal move out from the *true* state: the
move, then every seat by the rollout policy (the game's quick policy, the heuristic's moves) to the
end, every move on the same luck (common random numbers, as `bodoge.analysis.values`). The deciding
seat's win share is that move's value. The game itself goes on by the rollout policy's move, so the
decisions recorded are those of the heuristic's games.

The network sees only the seat's view (its observation tensor), and its policy is fitted to these
values. Over many games, a view's fitted value of a move is the move's mean over all the deals that
view is consistent with, *weighted as they really occur* among the heuristic's games: the belief a
search must guess (ISMCTS deals the unseen cards uniformly, or by a model of the others' plays) comes
here from the games themselves. The network's best move is then one step of policy improvement over
the heuristic, against heuristic players: a move better than the heuristic's where, on average over
what the seat cannot see, deviating once pays. Suphx's "oracle guiding" (Li et al. 2020) is the
same idea of a teacher with hidden information and a student without.
"""

from __future__ import annotations

import random
from typing import Any

from bodoge import agents
from bodoge.analysis.values import Rollout, play_out, rollout_policy
from bodoge.core.game import Game, State
from bodoge.errors import BadOption

NAME = "lookahead"

# The policy's logits are fitted to value / TEMPERATURE: the best move is the same either way, and the
# network's softmax is then a prior over moves as sharp as a tenth of a win share makes it.
TEMPERATURE = 0.1


def is_lookahead(spec: str) -> bool:
    return isinstance(spec, str) and agents.parse_spec(spec)[0] == NAME


def rollout_of(spec: str) -> str:
    """The rollout policy a `lookahead[:rollout=R]` spec names (BadOption for anything else)."""
    _, params = agents.parse_spec(spec)
    unknown = sorted(set(params) - {"rollout"})
    if unknown:
        raise BadOption(
            "expert", spec, "lookahead or lookahead:rollout=R", f"unknown parameter {unknown[0]!r}"
        )
    kind = params.get("rollout", Rollout.AUTO)
    if not isinstance(kind, str) or kind not in tuple(Rollout):
        raise BadOption("rollout", kind, ", ".join(Rollout))
    return kind


class Lookahead:
    """The teacher for one game: `values(state, legal, rng)` and `move(state, rng)`."""

    def __init__(self, game: Game, spec: str) -> None:
        self.policy = rollout_policy(game, rollout_of(spec))

    def values(self, state: State, legal: list[int], rng: random.Random) -> list[float]:
        """The win share of the seat to move after each of `legal`, played out from `state` itself
        (not a deal guessed from a view) with the same luck for every move."""
        me = state.current_player
        assert me is not None
        luck = rng.getrandbits(64)
        shares = []
        for a in legal:
            s = state.clone()  # every move on the same cards, the same engine chance ...
            s.apply(a)
            returns = play_out(s, self.policy, random.Random(luck))  # ... and the same rollout luck
            total = sum(returns)
            shares.append(returns[me] / total if total > 0 else 1.0 / len(returns))
        return shares

    def move(self, state: State, rng: random.Random) -> Any:
        """The move the game goes on by: the rollout policy's (at random where it is random)."""
        if self.policy is None:
            return rng.choice(state.legal_actions())
        return self.policy(state, rng)
