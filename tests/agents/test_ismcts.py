"""The agents: spec strings, random, heuristic and ISMCTS (legal, deterministic, within budget, horizons).

Most tests run on the test-only hidden-card game `bodoge_tinygame` (beside this file); the last ones
run every built-in agent on every registered game.
"""

from __future__ import annotations

import random
import time

import pytest
from bodoge_tinygame import TinyGame

import bodoge
from bodoge import agents
from bodoge.agents.ismcts import DEFAULT_ITERATIONS, DEFAULT_SECONDS, ISMCTSAgent, Search, _Node, cut_value
from bodoge.arena import play_match
from bodoge.core import Game, State
from bodoge.errors import BadOption


def positions(game: Game, seeds: range, every: int = 3) -> list[State]:
    """States along random games, every few actions."""
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_state(seed=seed)
        while not state.is_terminal:
            if len(state.history) % every == 0:
                out.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
    return out


def test_spec_strings_make_agents() -> None:
    a = agents.make("ismcts:iterations=20,rollout=heuristic,c=1.2")
    assert isinstance(a, ISMCTSAgent)
    assert (a.iterations, a.rollout, a.c, a.seconds) == (20, "heuristic", 1.2, None)
    assert a.spec == "ismcts:iterations=20,c=1.2,rollout=heuristic"
    assert agents.make(a.spec).spec == a.spec
    uniform = agents.make("ismcts:iterations=20,deal=uniform")
    assert isinstance(uniform, ISMCTSAgent) and uniform.deal == "uniform"
    assert uniform.spec == "ismcts:iterations=20,deal=uniform"
    default = agents.make("ismcts")
    assert isinstance(default, ISMCTSAgent)
    assert default.iterations == DEFAULT_ITERATIONS and default.seconds == DEFAULT_SECONDS <= 1.0
    assert default.rollout == "auto" and default.prior == 0.5 and default.deal == "likely"
    timed = agents.make("ismcts", seconds=0.5)
    assert isinstance(timed, ISMCTSAgent) and timed.iterations is None and timed.seconds == 0.5
    assert {"random", "heuristic", "ismcts"} <= set(agents.names())


@pytest.mark.parametrize(
    "spec",
    [
        "ismcts:iterations=0",
        "ismcts:iterations=2.5",
        "ismcts:seconds=-1",
        "ismcts:rollout=smart",
        "ismcts:horizon=soon",
        "ismcts:cut=maybe",
        "ismcts:c=-1",
        "ismcts:root=widest",
        "ismcts:prior=2",
        "ismcts:z=-1",
        "ismcts:opponents=psychic",
        "ismcts:deal=peeking",
        "ismcts:depth=3",
        "nobody",
    ],
)
def test_bad_specs_say_what_is_allowed(spec: str) -> None:
    with pytest.raises(BadOption):
        agents.make(spec)


def test_ismcts_returns_legal_actions_from_views_only() -> None:
    game = TinyGame(3)
    bot = agents.make("ismcts:iterations=30")
    for i, state in enumerate(positions(game, range(3))):
        seat = state.current_player
        assert seat is not None
        view = state.view(seat)
        action = bot.act(game, view, random.Random(i))
        assert action in state.legal_actions()
        assert state.view(seat) == view  # the agent did not touch what it was shown


def test_ismcts_is_deterministic_for_a_given_rng() -> None:
    game = TinyGame(3)
    for state in positions(game, range(2), every=4):
        view = state.view(state.current_player)
        for spec in (
            "ismcts:iterations=60",
            "ismcts:iterations=40,rollout=random,horizon=end,prior=0",
            "ismcts:iterations=40,opponents=tree,cut=win",
            "ismcts:iterations=50,root=halving",
        ):
            first = agents.make(spec).act(game, view, random.Random(5))
            again = agents.make(spec).act(game, view, random.Random(5))
            assert first == again
            bot = ISMCTSAgent(iterations=60)
            root1 = bot.search(game, view, random.Random(9)).root
            root2 = bot.search(game, view, random.Random(9)).root
            assert {a: (c.visits, c.totals) for a, c in root1.children.items()} == {
                a: (c.visits, c.totals) for a, c in root2.children.items()
            }


def test_ismcts_respects_its_budgets() -> None:
    game = TinyGame(3)
    state = game.new_state(seed=3)
    view = state.view(state.current_player)
    bot = ISMCTSAgent(iterations=37)
    root = bot.search(game, view, random.Random(1)).root
    assert bot.last_iterations == 37 and root.visits == 37
    assert sum(c.visits for c in root.children.values()) == 37
    timed = ISMCTSAgent(seconds=0.05)
    start = time.perf_counter()
    timed.act(game, view, random.Random(1))
    elapsed = time.perf_counter() - start
    assert elapsed < 0.5 and timed.last_iterations > 0
    both = ISMCTSAgent(iterations=5, seconds=10)
    both.act(game, view, random.Random(1))
    assert both.last_iterations == 5  # whichever budget ends first
    single = ISMCTSAgent(iterations=50)
    forced = game.new_state(seed=3)
    while len(forced.legal_actions()) > 1:
        forced.apply(forced.legal_actions()[0])
    seat = forced.current_player
    assert seat is not None
    assert single.act(game, forced.view(seat), random.Random(1)) == forced.legal_actions()[0]
    assert single.last_iterations == 0  # one legal action: no search


def test_halving_spends_its_budget_on_the_same_deals_for_every_move() -> None:
    game = TinyGame(3)
    state = game.new_state(seed=3)
    view = state.view(state.current_player)
    legal = [a["id"] for a in view["legal_actions"]]
    assert len(legal) >= 3
    bot = ISMCTSAgent(iterations=120, root="halving")
    found = bot.search(game, view, random.Random(1))
    assert bot.last_iterations == 120 == found.iterations == found.root.visits
    values, alive, prior_move = found.values, found.alive, found.prior_move
    counts = {a: len(values[a]) for a in legal}
    # phase 1 gives every move the same number of deals; later phases only the better half (and the
    # heuristic's move), so the survivors have more
    assert min(counts.values()) >= 120 // len(legal) // 2 >= 1
    assert set(alive) <= set(legal) and len(alive) <= -(-len(legal) // 2) + 1
    # the dropped moves were the worse half on the deals of phase 1 (the heuristic's move aside)
    for dropped in set(legal) - set(alive):
        k = len(values[dropped])
        mean = sum(values[dropped]) / k
        for kept in set(alive) - {prior_move}:
            assert sum(values[kept][:k]) / k >= mean
    assert all(counts[a] == max(counts.values()) for a in alive)
    assert prior_move in alive  # the heuristic's move is never dropped
    assert bot.act(game, view, random.Random(1)) in legal
    timed = ISMCTSAgent(seconds=0.05, root="halving")
    start = time.perf_counter()
    timed.act(game, view, random.Random(1))
    assert time.perf_counter() - start < 0.5 and timed.last_iterations > 0


def test_halving_keeps_the_heuristic_move_unless_the_paired_gap_is_clear() -> None:
    bot = ISMCTSAgent(root="halving", z=1.5)

    def found(values: dict[int, list[float]], prior_move: int | None) -> Search:
        return Search(_Node(3), prior_move=prior_move, values=values, alive=[1, 2])

    clear = {1: [0.5, 0.0, 1.0, 0.5], 2: [0.6, 0.1, 1.0, 0.55]}  # 2 better on every deal
    assert bot._paired_choice(found(clear, 1)) == 2
    lucky = {1: [0.0, 1.0, 0.0, 1.0], 2: [1.0, 0.0, 1.0, 1.0]}  # better on average, by luck
    assert bot._paired_choice(found(lucky, 1)) == 1
    assert bot._paired_choice(found(lucky, None)) == 2


def test_round_horizon_stops_simulations_at_the_end_of_the_round(monkeypatch: pytest.MonkeyPatch) -> None:
    game = TinyGame(3, rounds=3)
    state = game.new_state(seed=4)
    view = state.view(state.current_player)
    ended: list[int] = []
    cls = type(state)
    real_returns = cls.returns

    def returns(self: State) -> list[float]:
        ended.append(1)
        return real_returns(self)

    monkeypatch.setattr(cls, "returns", returns)  # every simulated state, clones included
    for root in ("halving", "puct"):
        for horizon in ("round", "auto", 3):
            ISMCTSAgent(iterations=30, horizon=horizon, root=root).act(game, view, random.Random(1))
        assert ended == []  # no simulation ran to the end of the 3-round game
        ISMCTSAgent(iterations=30, horizon="end", root=root).act(game, view, random.Random(1))
        assert len(ended) == 30
        ended.clear()


def test_cut_values_share_one_win() -> None:
    assert cut_value([3, 1, 3], "win") == [0.5, 0.0, 0.5]
    assert cut_value([2, 1, 0, -1], "rank") == pytest.approx([3 / 6, 2 / 6, 1 / 6, 0.0])
    assert cut_value([1, 1, 0], "rank") == pytest.approx([1.5 / 3, 1.5 / 3, 0.0])
    for scores in ([5, 2, 2, 9], [0, 0]):
        assert sum(cut_value(scores, "rank")) == pytest.approx(1.0)
        assert sum(cut_value(scores, "win")) == pytest.approx(1.0)


def test_heuristic_beats_random_on_the_tiny_game() -> None:
    game = TinyGame(3)
    heuristic, rand = agents.make("heuristic"), agents.make("random")
    share = sum(play_match(game, [heuristic, rand, rand], seed).returns[0] for seed in range(300)) / 300
    assert share > 0.36  # fair share 1/3; measured 0.40 (seat 0 only, so no rotation)


# -- the registered games -------------------------------------------------------------------------

CASES = [
    (name, players)
    for name in bodoge.games()
    for players in range(
        bodoge.core.registry.game_class(name).min_players,
        bodoge.core.registry.game_class(name).max_players + 1,
    )
]


@pytest.mark.parametrize(("name", "players"), CASES, ids=[f"{n}-{p}p" for n, p in CASES])
def test_every_agent_plays_legal_actions_in_every_game(name: str, players: int) -> None:
    game = bodoge.make(name, players=players)
    bots = [agents.make("random"), agents.make("heuristic"), agents.make("ismcts:iterations=8")]
    state = game.new_state(seed=players)
    rng = random.Random(players)
    step = 0
    while not state.is_terminal:
        seat = state.current_player
        assert seat is not None
        bot = bots[step % 3] if step < 60 else bots[0]
        action = bot.act(game, state.view(seat), rng)
        assert action in state.legal_actions(), f"{bot.spec} chose {action} at {state.decision()}"
        state.apply(action)
        step += 1


# -- how seats play inside the simulations (issue #17) ---------------------------------------------


def test_quick_policies_are_found_where_a_game_has_one() -> None:
    from bodoge.agents.heuristic import quick_policy
    from bodoge.games.tottarot import rollout

    assert quick_policy(bodoge.make("tottarot")) is rollout.act
    assert quick_policy(TinyGame(3)) is None  # a game outside bodoge.games without a quick_act
    bot = ISMCTSAgent(iterations=10, rollout="quick")
    with pytest.raises(BadOption, match="quick policy"):
        bot.check(TinyGame(3))
    policy, model = ISMCTSAgent(iterations=10).policies(TinyGame(3))
    assert policy is None and model is None  # auto: random rollouts, UCT for every seat
    policy, model = ISMCTSAgent(iterations=10).policies(bodoge.make("tottarot"))
    assert policy is model is rollout.act  # auto: the quick policy for both
    policy, model = ISMCTSAgent(iterations=10, rollout="random", opponents="random").policies(TinyGame(3))
    assert policy is None and model is not None  # random others in the tree, not UCT


@pytest.mark.parametrize("spec", ["rollout=heuristic,opponents=heuristic", "rollout=random,opponents=random"])
def test_every_way_of_playing_the_simulations_gives_legal_moves(spec: str) -> None:
    game = bodoge.make("tottarot", players=3)
    bot = agents.make(f"ismcts:iterations=40,{spec}")
    for i, state in enumerate(positions(game, range(2), every=7)):
        seat = state.current_player
        assert seat is not None
        assert bot.act(game, state.view(seat), random.Random(i)) in state.legal_actions()


def test_apply_random_takes_each_legal_action() -> None:
    state = bodoge.make("troika", players=3).new_state(seed=2)
    legal = state.legal_actions()
    seen = set()
    for k in range(200):
        copy = state.clone()
        a = copy.apply_random(random.Random(k).random)
        assert a in legal and copy.history == [*state.history, a]
        seen.add(a)
    assert seen == set(legal)


@pytest.mark.parametrize("name", bodoge.games())
def test_a_sampler_reads_a_view_once_and_samples_like_sample_state(name: str) -> None:
    game = bodoge.make(name, players=3)
    for state in positions(game, range(2), every=9):
        seat = state.current_player
        assert seat is not None
        view = state.view(seat)
        sample = game.sampler(view)
        likely = game.sampler(view, likely=True)  # Hangover's reads the plays; the others' are the same
        for k in range(3):
            assert sample(random.Random(k)).view(seat) == view
            assert sample(random.Random(k)).view(None) == game.sample_state(view, random.Random(k)).view(None)
            assert likely(random.Random(k)).view(seat) == view


def test_clones_of_a_sampled_state_meet_the_same_chance() -> None:
    game = bodoge.make("troika", players=3)
    state = game.new_state(seed=4)
    sampled = game.sample_state(state.view(0), random.Random(1))
    a, b = sampled.clone(), sampled.clone()
    for _ in range(60):  # across a round's end: the next round's deal comes from the state's own chance
        if a.is_terminal:
            break
        move = a.legal_actions()[0]
        a.apply(move)
        b.apply(move)
        assert a.view(None) == b.view(None)
