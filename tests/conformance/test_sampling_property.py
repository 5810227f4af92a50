"""`sample_state` never fails and never lies, whatever the players do (issue #17).

Games of every game and player count are played by a mix of deliberately different policies, one per
seat: the heuristic, the first or the last legal action, uniformly random, "rare" (an action id chosen
least so far in this game, which walks into positions no sensible player reaches), and now and then a
small ISMCTS. After every action, for every seat and the spectator and several RNG seeds,
`game.sample_state(view(p), rng)` must succeed, the sampled state's `view(p)` must equal `view(p)`
(DESIGN.md §2: the log too, for the first seed; the log, each event in two languages built afresh
for a sampled state, took most of the file's time), and play must go on legally from it; a search's likely deal
(`game.sampler(view, likely=True)`, which reads the others' plays as the heuristic's) must keep the
view too, even where the plays were nothing like the heuristic's. Strong and odd play together reach
the rare positions where a sampler that assumes too much finds nothing: Troika's crash was a tile
returned face down and later drawn unseen by a declarer (issue #17).

Some examples check whole games (up to `WHOLE` actions); the others stop after `PART` actions, to keep
the file within a minute on two cores.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest
from conformance_games import CASES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bodoge
from bodoge import agents
from bodoge.core.game import State

POLICIES = ["heuristic", "first", "last", "random", "rare"]
SEEDS = 2  # samples per seat and action: the first with its log, the second without (more positions prove more than more samples of one)
PART = 40  # actions checked by an example that does not check its whole game
WHOLE = 300  # ... and by one that does: whole games of all but the longest (Tokkuri played badly)

Policy = Callable[[State, random.Random, Counter[int]], int]


def _policy(kind: str) -> Policy:
    if kind in ("heuristic", "ismcts"):
        agent = agents.make("heuristic" if kind == "heuristic" else "ismcts:iterations=20")

        def by_agent(state: State, rng: random.Random, used: Counter[int]) -> int:
            return agent.act(state.game, state.view(state.current_player), rng)

        return by_agent
    if kind == "first":
        return lambda state, rng, used: state.legal_actions()[0]
    if kind == "last":
        return lambda state, rng, used: state.legal_actions()[-1]
    if kind == "random":
        return lambda state, rng, used: rng.choice(state.legal_actions())

    def rare(state: State, rng: random.Random, used: Counter[int]) -> int:
        legal = state.legal_actions()
        least = min(used[a] for a in legal)
        return rng.choice([a for a in legal if used[a] == least])

    return rare


@pytest.mark.parametrize(("name", "players"), CASES, ids=[f"{n}-{p}p" for n, p in CASES])
@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    seed=st.integers(0, 2**31 - 1),
    kinds=st.lists(st.sampled_from(POLICIES), min_size=6, max_size=6),
    ismcts_seat=st.integers(0, 9),  # the seat that searches, if there is one (0-5 of 10)
    whole=st.booleans(),
)
def test_sample_state_succeeds_and_keeps_the_view(
    name: str, players: int, seed: int, kinds: list[str], ismcts_seat: int, whole: bool
) -> None:
    game = bodoge.make(name, players=players)
    policies = [_policy("ismcts" if p == ismcts_seat else kinds[p % len(kinds)]) for p in range(players)]
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    used: Counter[int] = Counter()
    likely = hasattr(game.part("sampling"), "likely_sampler")  # elsewhere the same as sample_state
    limit = WHOLE if whole else PART
    while not state.is_terminal and len(state.history) < limit:
        mover = state.current_player
        assert mover is not None
        action = policies[mover](state, rng, used)
        used[action] += 1
        state.apply(action)
        for p in (*range(players), None):
            view = state.view(p)
            bare = {key: value for key, value in view.items() if key != "log"}
            for k in range(SEEDS):
                where = f"{name} {players}p seed {seed}, seat {p}, sample {k}, after {state.history}"
                sampled = game.sample_state(view, random.Random(seed * 31 + k))
                # The log, every event in words, is most of a view's cost (a fresh state has none of
                # it built): compared whole for the first deal, the rest of the view for every deal.
                assert sampled.view(p, log=k == 0) == (view if k == 0 else bare), f"the view changed: {where}"
                if k == 0 and p is not None and likely:  # what a search deals: the same promise
                    dealt = game.sampler(view, likely=True)(random.Random(seed))
                    assert dealt.view(p) == view, f"the likely deal changed the view: {where}"
                if not sampled.is_terminal:
                    legal = sampled.legal_actions()
                    assert legal, f"no legal action: {where}"
                    sampled.apply(legal[k * 7919 % len(legal)])  # play goes on legally
