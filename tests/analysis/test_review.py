"""The game review (issue #33): values from the seat's view only, forced moves, the chosen action among
the options, determinism, and that it tells random play from the heuristic's."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import bodoge
from bodoge import agents
from bodoge.analysis import review as reviewing
from bodoge.analysis.review import BLUNDER, INACCURACY, JUDGED, MISTAKE, accuracy, classify, review_record
from bodoge.analysis.values import Budget, OptionValues, option_values
from bodoge.errors import BadOption, BadRecord


def played(name: str, players: int, seed: int, random_seat: int | None = None) -> dict[str, Any]:
    """A finished game's record: the heuristic at every seat but `random_seat` (random play)."""
    game = bodoge.make(name, players)
    state = game.new_state(seed=seed)
    heuristic, rand = agents.make("heuristic"), agents.make("random")
    rng = random.Random(seed)
    while not state.is_terminal:
        p = state.current_player
        agent = rand if p == random_seat else heuristic
        state.apply(agent.act(game, state.view(p, log=False), rng))
    return state.to_record()


# Short games: 2 or 3 players; Troika's playouts use random play here only to keep the test short.
SMALL = {"hangover": 3, "tokkuri": 2, "tottarot": 2, "troika": 2}
FAST = {"rollout": "random"}


@pytest.mark.parametrize("name", sorted(SMALL))
def test_every_decision_has_its_options_and_forced_moves_lose_nothing(name: str) -> None:
    record = played(name, SMALL[name], seed=3, random_seat=0)
    review = review_record(record, seats=[0], budget=Budget(deals=2), seed=5, **FAST)
    game = bodoge.make(name, SMALL[name])
    state = game.new_state(seed=record["seed"])
    moves = [m for m, _, _ in reviewing.decision_states(game, record)]
    assert len(moves) == len(record["actions"])
    seat0 = []
    for move, action in enumerate(record["actions"]):
        if state.current_player == 0:
            seat0.append((move, action, state.legal_actions()))
        state.apply(action)
    assert [(d["move"], d["chosen"]) for d in review["decisions"]] == [(m, a) for m, a, _ in seat0]
    for d, (_, _, legal) in zip(review["decisions"], seat0, strict=True):
        options = [o["action"] for o in d["options"]]
        assert options == legal
        assert d["chosen"] in options and d["best"] in options
        for o in d["options"]:
            assert 0 <= o["low"] <= o["value"] <= o["high"] <= 1
        if len(legal) == 1:
            assert (d["class"], d["loss"]) == ("forced", 0)
        else:
            assert d["class"] != "forced"
            assert d["loss"] >= 0
            assert d["win_chance"] == max(o["value"] for o in d["options"])
    (summary,) = review["seats"]
    assert summary["decisions"] == len(seat0)
    assert sum(summary["classes"].values()) == len(seat0)


def test_a_forced_move_is_forced_with_loss_zero() -> None:
    # Tokkuri 2p has forced decisions (a single legal action); find one in a played game
    record = played("tokkuri", 2, seed=3)
    review = review_record(record, budget=Budget(deals=2), seed=1, **FAST)
    forced = [d for d in review["decisions"] if len(d["options"]) == 1]
    assert forced, "the game has no forced decision: pick another seed"
    for d in forced:
        assert d["class"] == "forced" and d["loss"] == 0 and d["best"] == d["chosen"]
    assert all(d["class"] != "forced" for d in review["decisions"] if len(d["options"]) > 1)


def test_same_seed_same_review_whatever_the_workers() -> None:
    record = played("tottarot", 3, seed=8)
    one = review_record(record, budget=Budget(deals=3), seed=11)
    again = review_record(record, budget=Budget(deals=3), seed=11)
    pooled = review_record(record, budget=Budget(deals=3), seed=11, jobs=2)
    assert one == again == pooled
    other = review_record(record, budget=Budget(deals=3), seed=12)
    assert [d["options"] for d in other["decisions"]] != [d["options"] for d in one["decisions"]]


def test_the_review_never_reads_the_hidden_state(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every state the review is handed is replaced by another deal consistent with the seat's view
    (the other seats' hidden cards re-dealt): the review must not change."""
    record = played("hangover", 4, seed=5, random_seat=1)
    true_review = review_record(record, budget=Budget(deals=3), seed=2)
    real = reviewing.decision_states
    scrambled_any = []

    def scrambled(game: Any, rec: dict[str, Any]) -> Any:
        rng = random.Random(99)
        for move, state, action in real(game, rec):
            seat = state.current_player
            other = game.sample_state(state.view(seat), rng)
            others = [q for q in range(game.num_players) if q != seat]
            scrambled_any.append(any(other.view(q, log=False) != state.view(q, log=False) for q in others))
            yield move, other, action

    monkeypatch.setattr(reviewing, "decision_states", scrambled)
    assert review_record(record, budget=Budget(deals=3), seed=2) == true_review
    assert any(scrambled_any), "no hidden card was re-dealt: the test would prove nothing"


# Per game: players, games, deals (small, yet enough for the difference to show: at 16 deals the
# random seat keeps 44, 82, 53 and 49 against the heuristic seats' 100, 100, 68 and 57; the games are seeded).
SKILL = {"hangover": (3, 3, 16), "tokkuri": (2, 2, 16), "tottarot": (2, 4, 16), "troika": (3, 3, 16)}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SKILL))
def test_random_play_is_judged_below_the_heuristic(name: str) -> None:
    """The random seat's accuracy (the win share at stake it kept, over judged decisions) is below the
    heuristic seats', seats rotated, in small games (Troika's judged by its network, the others by
    playouts); bench/review_ladder.py (and its test) measures the same at 3 and 4 players, with the
    search and the network as players too. Troika with 2 players, judged by playouts (no network is
    shipped), does not hold: docs/review.md says so."""
    players, games, deals = SKILL[name]
    judged: dict[bool, list[dict[str, Any]]] = {True: [], False: []}
    for g in range(games):
        random_seat = g % players
        review = review_record(
            played(name, players, seed=g, random_seat=random_seat), budget=Budget(deals=deals), jobs=1
        )
        for d in review["decisions"]:
            if d["class"] in JUDGED:
                judged[d["seat"] == random_seat].append(d)
    kept = {k: accuracy(v) for k, v in judged.items()}
    assert kept[True] is not None and kept[False] is not None
    assert kept[True] < kept[False], kept


def test_classes_follow_the_thresholds_and_the_interval() -> None:
    assert classify(0.5, 0.3, 0.7, is_best=True) == "best"
    assert classify(0.04, -0.02, 0.09, is_best=False) == "good"  # a small loss, surely not a mistake
    assert classify(0.04, 0.01, 0.07, is_best=False) == "good"
    assert classify(0.04, -0.05, 0.13, is_best=False) == "unclear"  # could be a mistake
    assert classify(0.375, -0.117, 0.867, is_best=False) == "unclear"  # issue #55's "✓ Good" of a 37.5 loss
    assert classify(0.07, 0.01, 0.13, is_best=False) == "inaccuracy"
    assert classify(0.15, 0.06, 0.24, is_best=False) == "mistake"
    assert classify(0.15, 0.01, 0.29, is_best=False) == "inaccuracy"  # surely a loss, not surely a mistake
    assert classify(0.30, 0.11, 0.49, is_best=False) == "blunder"
    assert classify(0.30, 0.07, 0.53, is_best=False) == "mistake"
    assert classify(0.30, 0.02, 0.58, is_best=False) == "inaccuracy"


@given(
    loss=st.floats(0, 1),
    below=st.floats(0, 2),
    above=st.floats(0, 2),
)
def test_a_class_is_never_better_than_its_interval_allows(loss: float, below: float, above: float) -> None:
    """Never a positive class for a loss of MISTAKE or more, nor where the interval reaches MISTAKE;
    a class that says the move lost needs the interval's low end above 0, and a blunder or a mistake
    needs it above the floor of the class below."""
    low, high = max(-1.0, loss - below), min(1.0, loss + above)
    cls = classify(loss, low, high, is_best=False)
    if cls == "good":
        assert loss < INACCURACY and high < MISTAKE
    if cls in ("inaccuracy", "mistake", "blunder"):
        assert low > 0 and loss >= INACCURACY
    if cls == "mistake":
        assert loss >= MISTAKE and low > INACCURACY
    if cls == "blunder":
        assert loss >= BLUNDER and low > MISTAKE
    if loss >= MISTAKE:
        assert cls != "good"


def test_accuracy_is_the_share_of_the_stakes_kept() -> None:
    """Weighted by what was at stake: a seat with no chance left (every option about 0) is judged by
    the decision that mattered, not flattered by the many that did not."""

    def decision(loss: float, values: list[float]) -> dict[str, Any]:
        return {"loss": loss, "options": [{"value": v} for v in values]}

    hopeless = [decision(0.0, [0.0, 0.01]) for _ in range(20)]
    mattered = decision(0.3, [0.1, 0.4])
    assert accuracy([*hopeless, mattered]) == pytest.approx(100 * (1 - 0.3 / (20 * 0.01 + 0.3)), abs=0.1)
    assert accuracy([decision(0.0, [0.5, 0.2])]) == 100
    assert accuracy([decision(0.3, [0.5, 0.2])]) == 0
    assert accuracy([decision(0.0, [0.3, 0.3])]) is None  # nothing at stake: nothing to say
    # the paired loss may exceed the rounded values' range by a hair: never below 0
    assert accuracy([decision(0.1049, [0.5, 0.3952])]) == 0


def test_bad_input_is_refused_before_any_search() -> None:
    record = played("tottarot", 2, seed=1)
    with pytest.raises(BadOption, match="seats"):
        review_record(record, seats=[0, 2])
    with pytest.raises(BadOption, match="seats"):
        review_record(record, seats=[1, 1])
    with pytest.raises(BadOption, match="iterations"):
        Budget(deals=1)
    with pytest.raises(BadOption, match="seconds"):
        Budget(seconds=float("nan"))
    with pytest.raises(BadOption, match="jobs"):
        review_record(record, jobs=0)
    with pytest.raises(BadOption, match="rollout"):
        review_record(record, rollout="best")
    unfinished = dict(record, actions=record["actions"][:5], result=None)
    with pytest.raises(BadRecord, match="not finished"):
        review_record(unfinished)
    with pytest.raises(BadRecord):
        review_record({"format": "something else"})


def test_a_time_budget_plays_at_least_two_deals() -> None:
    record = played("hangover", 3, seed=2)
    review = review_record(record, seats=[0], budget=Budget(seconds=0.001))
    assert all(d["deals"] >= 2 for d in review["decisions"])


def test_ray_reviews_several_records_as_the_pool_does() -> None:
    """`backend="ray"` (a local Ray that the review starts with 2 CPUs and shuts down again): the
    same reviews as the process pool for the same seed and a budget of deals."""
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'bodoge[ray]')")
    if ray.is_initialized():  # another test's Ray: this one must start and stop its own
        ray.shutdown()
    records = [played("hangover", 3, seed=4, random_seat=2), played("tottarot", 2, seed=6)]
    pooled = reviewing.review_records(records, budget=Budget(deals=2), seed=9, jobs=2)
    done: list[tuple[int, int]] = []
    rayed = reviewing.review_records(
        records,
        budget=Budget(deals=2),
        seed=9,
        jobs=2,
        backend="ray",
        progress=lambda d, t: done.append((d, t)),
    )
    assert not ray.is_initialized(), "the review left the Ray it started running"
    assert rayed == pooled
    assert [r["game"] for r in rayed] == ["hangover", "tottarot"]
    total = sum(len(r["decisions"]) for r in rayed)
    assert done[0] == (0, total) and done[-1] == (total, total)


def test_the_held_out_loss_has_no_floor_of_noisy_maxima() -> None:
    """Ten options all worth ½ (coin flips, 24 deals): the best of their noisy means leads the move
    played by about a sd of the means, so the plain loss is clearly above 0 on average; the held-out
    loss (the best picked on the other half of the deals) is 0 on average. Where one option is worth
    more, the held-out loss of another is the gap."""
    rng = random.Random(3)
    plain, held = [], []
    for _ in range(300):
        returns = {a: [float(rng.random() < 0.5) for _ in range(24)] for a in range(10)}
        values = OptionValues(0, list(range(10)), returns)
        plain.append(values.loss_interval(values.best(), 0)[0])
        held.append(values.held_out_loss(0))
    assert sum(plain) / len(plain) > 0.12
    assert abs(sum(held) / len(held)) < 0.02
    sure = OptionValues(0, [0, 1, 2], {0: [1.0] * 6, 1: [0.0, 1.0] * 3, 2: [0.0] * 6})
    assert sure.held_out_loss(0) == 0
    assert sure.held_out_loss(1) == 0.5
    assert sure.held_out_loss(2) == 1


def test_the_race_keeps_the_move_played_and_puts_the_deals_where_options_are_close() -> None:
    """A Troika decision of many options: every option plays the first round; the move played (kept)
    and the leader play every deal; the others leave the race a half at a time, the leader's nearest
    rivals last, so far fewer playouts than every option on every deal; the same seed gives the same
    values."""
    game = bodoge.make("troika", 4)
    state = game.new_state(seed=3)
    rng = random.Random(3)
    while len(state.legal_actions()) < 6:
        state.apply(rng.choice(state.legal_actions()))
    view = state.view(state.current_player)
    options = [a["id"] for a in view["legal_actions"]]
    chosen = options[-1]
    values = option_values(
        game, view, Budget(deals=32), seed=4, keep=(chosen,), leaf="rollout", precision=None
    )
    again = option_values(
        game, view, Budget(deals=32), seed=4, keep=(chosen,), leaf="rollout", precision=None
    )
    assert values.returns == again.returns
    assert values.played(chosen) == values.played(values.best()) == values.deals == 32
    assert min(values.played(a) for a in options) == 4
    assert values.playouts <= 0.6 * len(options) * 32  # every option on every deal: 32 each
    finalists = [a for a in options if values.played(a) == 32]
    assert 2 <= len(finalists) <= 3  # the leader, its nearest rival, and the move played
    assert {values.best(), chosen} <= set(finalists)


def test_an_even_decision_plays_no_more_than_it_needs() -> None:
    """Options that come to the same on every deal: `even`, and the race stops after 16 deals."""
    values = OptionValues(0, [0, 1], {0: [0.0] * 16, 1: [0.0] * 16})
    assert values.even()
    assert not OptionValues(0, [0, 1], {0: [0.0] * 16, 1: [0.0] * 15 + [1.0]}).even()


def test_the_network_values_the_options_where_a_model_is_shipped() -> None:
    """`leaf="nn"`: each option played until the seat's next decision, then the shipped network's value;
    no model for 2 players: a clear error; `auto` is the measured choice (values.NN_LEAF)."""
    from bodoge.analysis.values import leaf_name

    game = bodoge.make("tottarot", 4)
    state = game.new_state(seed=2)
    view = state.view(state.current_player)
    values = option_values(game, view, Budget(deals=4), seed=1, leaf="nn")
    assert all(0 <= values.mean(a) <= 1 for a in values.options)
    assert leaf_name(game, "auto") == "nn"
    assert leaf_name(bodoge.make("hangover", 4), "auto") == "rollout"
    assert leaf_name(bodoge.make("troika", 2), "auto") == "rollout"  # no network for 2 players
    with pytest.raises(BadOption, match="'leaf': 'nn': no model is shipped for troika with 2 players"):
        option_values(
            bodoge.make("troika", 2),
            bodoge.make("troika", 2).new_state(seed=1).view(0),
            Budget(deals=2),
            1,
            leaf="nn",
        )
    with pytest.raises(BadOption, match="leaf"):
        option_values(game, view, Budget(deals=2), 1, leaf="oracle")
