"""DESIGN.md §3: the protocol checks every registered game must pass, at every player count.

A game gets these for free by registering (docs/adding-a-game.md); the toy game package `toygame/`
is checked with them.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from conformance_games import CASES, GAMES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bodoge
from bodoge.core import State
from bodoge.errors import BadOption, BadRecord, IllegalAction

SEEDS = (1, 2, 3)
IDS = [f"{name}-{players}p" for name, players in CASES]


def roundtrip(value: Any) -> Any:
    return json.loads(json.dumps(value))


def all_views(state: State) -> list[Any]:
    return [state.view(p) for p in [None, *range(state.game.num_players)]]


def random_step(state: State, rng: random.Random) -> int:
    legal = state.legal_actions()
    assert legal, "legal_actions() is empty before the end"
    a = rng.choice(legal)
    state.apply(a)
    return a


def play_out(state: State, rng: random.Random, check: bool = True) -> None:
    bound = state.game.max_game_length()
    while not state.is_terminal:
        legal = state.legal_actions()
        assert legal, f"no legal action at {state.decision()}"
        assert legal == sorted(set(legal)), "legal_actions() must be sorted and without repeats"
        assert all(0 <= a < state.game.num_actions for a in legal)
        state.apply(rng.choice(legal))
        if check:
            state.check_invariants()
        assert len(state.history) <= bound, f"the game ran past its stated bound of {bound} actions"


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_play_terminates_and_conserves(name: str, players: int, seed: int) -> None:
    game = bodoge.make(name, players=players)
    state = game.new_state(seed=seed)
    state.check_invariants()
    play_out(state, random.Random(seed))
    assert state.legal_actions() == []
    winners = state.winners()
    assert all(0 <= w < players for w in winners)
    returns = state.returns()
    assert len(returns) == players
    if winners:
        assert sum(returns) == pytest.approx(1.0)
    assert len(state.scores()) == players


@given(seed=st.integers(min_value=0, max_value=2**32))
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_random_play_never_deadlocks(name: str, players: int, seed: int) -> None:
    state = bodoge.make(name, players=players).new_state(seed=seed)
    play_out(state, random.Random(seed), check=False)


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
@pytest.mark.parametrize("seed", SEEDS)
def test_same_seed_same_game_and_record_round_trip(name: str, players: int, seed: int) -> None:
    game = bodoge.make(name, players=players)
    a, b = game.new_state(seed=seed), game.new_state(seed=seed)
    rng = random.Random(seed * 7919)
    while True:
        views = all_views(a)
        assert views == all_views(b)
        for v in views:
            assert roundtrip(v) == v, "a view must survive JSON unchanged (lists, str keys)"
            if v["seat"] is None or v["seat"] != a.current_player:
                assert "legal_actions" not in v
            else:
                assert [x["id"] for x in v["legal_actions"]] == a.legal_actions()
            # a bot's simulation view: the same, less the log
            assert a.view(v["seat"], log=False) == {k: x for k, x in v.items() if k != "log"}
        if a.is_terminal:
            break
        action = random_step(a, rng)
        b.apply(action)
    assert a.scores() == b.scores() and a.winners() == b.winners()

    record = roundtrip(a.to_record())
    assert record["format"] == "bodoge-record/1"
    assert record["game"] == name and record["seed"] == seed
    replayed = bodoge.replay(record)
    assert all_views(replayed) == all_views(a)

    stale = dict(record, rules_version=record["rules_version"] + 1)
    with pytest.raises(BadRecord, match="rules version"):
        bodoge.replay(stale)
    broken = dict(record, actions=[*record["actions"], 0])
    with pytest.raises(BadRecord):
        bodoge.replay(broken)
    wrong_result = dict(record, result={"scores": [999] * players, "winners": []})
    with pytest.raises(BadRecord):
        bodoge.replay(wrong_result)


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_clone_is_independent(name: str, players: int) -> None:
    game = bodoge.make(name, players=players)
    state = game.new_state(seed=11)
    rng = random.Random(11)
    while not state.is_terminal:
        if rng.random() < 0.2:
            before = all_views(state)
            copy = state.clone()
            assert all_views(copy) == before
            play_out(copy, random.Random(rng.random()), check=False)
            assert all_views(state) == before, "playing a clone changed the original"
        random_step(state, rng)


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
@pytest.mark.parametrize("seed", SEEDS[:2])
def test_information_sets(name: str, players: int, seed: int) -> None:
    """s2 = sample_state(view(p)) must give s2.view(p) == view(p), play on legally, and vary the hidden."""
    game = bodoge.make(name, players=players)
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    sampler = random.Random(seed + 1)
    checked = varied = 0
    step = 0
    while not state.is_terminal:
        if step % 3 == 0:
            for p in range(players):
                view = roundtrip(state.view(p))
                truth = json.dumps([state.view(q) for q in range(players) if q != p], sort_keys=True)
                for _ in range(2):  # two deals of the hidden: enough to see it vary (issue #59)
                    s2 = game.sample_state(view, sampler)
                    assert s2.view(p) == view, f"sample_state breaks P{p}'s view at {state.decision()}"
                    s2.check_invariants()
                    others = json.dumps([s2.view(q) for q in range(players) if q != p], sort_keys=True)
                    checked += 1
                    varied += others != truth
                    if sampler.random() < 0.1:
                        play_out(s2, random.Random(sampler.random()))
        random_step(state, rng)
        step += 1
    assert checked > 0
    # Each of these games hides cards, so what P sees must leave other seats' information open.
    assert varied > 0, "sample_state never varied another seat's hidden information: it copies the truth"


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_illegal_actions_change_nothing(name: str, players: int) -> None:
    game = bodoge.make(name, players=players)
    state = game.new_state(seed=5)
    rng = random.Random(5)
    while not state.is_terminal:
        legal = state.legal_actions()
        texts = [state.action_text(a) for a in legal]
        assert len(set(texts)) == len(texts), f"two legal actions share a text: {texts}"
        for a, text in zip(legal, texts, strict=True):
            assert state.parse_action(text) == a
            assert state.parse_action(f"  {text.upper()} ") == a
        if rng.random() < 0.3:
            before = all_views(state)
            illegal_ids = [a for a in range(game.num_actions) if a not in legal][:3]
            other_seats = [p for p in range(players) if p != state.current_player]
            bad: list[Any] = [-1, game.num_actions, *illegal_ids, "no such move", "take 999", 1.5, None, True]
            for action in bad:
                with pytest.raises(IllegalAction):
                    state.apply(action)
            for p in other_seats:
                with pytest.raises(IllegalAction, match="not P"):
                    state.apply(legal[0], seat=p)
            assert all_views(state) == before, "an illegal action changed a view"
        random_step(state, rng)
    with pytest.raises(IllegalAction, match="over"):
        state.apply(0)


@pytest.mark.parametrize("name", GAMES)
def test_bad_options_and_seats_are_refused(name: str) -> None:
    cls = bodoge.core.registry.game_class(name)
    with pytest.raises(BadOption, match="players"):
        bodoge.make(name, players=cls.max_players + 1)
    with pytest.raises(BadOption, match="players"):
        bodoge.make(name, players=cls.min_players - 1)
    with pytest.raises(BadOption, match="no such option"):
        bodoge.make(name, no_such_option=1)
    game = bodoge.make(name)
    assert set(game.options) == {spec.name for spec in cls.option_specs}
    state = game.new_state(seed=1)
    for seat in (-1, game.num_players, "0", 1.0):
        with pytest.raises(BadOption, match="seat"):
            state.view(seat)
    with pytest.raises(BadOption, match="seed"):
        game.new_state(seed=-3)
    text = state.render(0)
    assert isinstance(text, str) and text
