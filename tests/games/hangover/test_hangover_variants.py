"""Hangover's non-drinker variants (spec §2.3; HO-D29 … HO-D32), each option's rule on a stacked
deal, their words, their records, the secret round's information sets and determinizations, the
bots under them, and random games under every option set keeping the invariants.

Defaults reproduce draft 2: every other test of this folder plays them."""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_hangover_examples import deal, last, play, texts
from test_hangover_rollout import quick_moves_checked

import bodoge
from bodoge.core import options as opts
from bodoge.errors import BadOption
from bodoge.games.hangover import heuristic
from bodoge.games.hangover.rollout import act
from bodoge.games.hangover.state import DECLARING, DRINKER, NON_DRINKER, OUT_NON_DRINKER, HangoverState

# -- the options ------------------------------------------------------------------------------------


def test_the_variants_default_to_draft_2_and_stay_out_of_default_records() -> None:
    game = bodoge.make("hangover", players=4)
    assert game.options["declaration"] == "in_order"
    assert game.options["non_drinker_vp"] == 1
    assert game.options["non_drinker_tricks"] == 0
    assert game.options["out_non_drinker_gains"] is False
    # a default game's record is what it was before these options existed (HO-D29 … HO-D32)
    assert not {"declaration", "non_drinker_vp", "non_drinker_tricks", "out_non_drinker_gains"} & set(
        game.options_json()
    )
    varied = bodoge.make(
        "hangover", players=4, declaration="secret", non_drinker_vp=2, out_non_drinker_gains=True
    )
    assert varied.options_json()["declaration"] == "secret"
    assert varied.options_json()["non_drinker_vp"] == 2
    assert varied.options_json()["out_non_drinker_gains"] is True
    assert "non_drinker_tricks" not in varied.options_json()


def test_the_variants_accept_command_line_forms() -> None:
    """`--set declaration=secret` etc.: the command line's text goes through `parse_text`."""
    game = bodoge.make(
        "hangover",
        players=3,
        declaration=opts.parse_text("any_trick"),
        non_drinker_vp=opts.parse_text("-2"),
        non_drinker_tricks=opts.parse_text("3"),
        out_non_drinker_gains=opts.parse_text("true"),
    )
    assert game.declaration == "any_trick" and game.non_drinker_vp == -2
    assert game.non_drinker_tricks == 3 and game.out_non_drinker_gains is True
    assert bodoge.make("hangover", declaration=" Secret ").declaration == "secret"


@pytest.mark.parametrize(
    ("option", "value", "allowed", "reason"),
    [
        ("declaration", "sometimes", "one of in_order, secret, any_trick", "in_order, secret, any_trick"),
        ("declaration", 3, "one of in_order, secret, any_trick", "must be a text"),
        ("declaration", ["secret"], "one of in_order, secret, any_trick", "must be a text"),
        ("non_drinker_vp", 10**6 + 1, "an integer from -1000000 to 1000000", "at most 1000000"),
        ("non_drinker_vp", "lots", "an integer from -1000000 to 1000000", "expected an integer"),
        ("non_drinker_tricks", -1, "an integer from 0 to 18", "at least 0"),
        ("non_drinker_tricks", 19, "an integer from 0 to 18", "at most 18"),
        ("out_non_drinker_gains", "maybe", "true or false", "true or false"),
    ],
)
def test_bad_variant_values_are_refused(option: str, value: object, allowed: str, reason: str) -> None:
    """HO-2.4: a BadOption naming the option, what is allowed and why."""
    with pytest.raises(BadOption) as exc:
        bodoge.make("hangover", players=3, **{option: value})
    assert exc.value.option == option
    assert exc.value.allowed == allowed
    assert reason in exc.value.reason
    assert option in str(exc.value)


@pytest.mark.parametrize(
    "options",
    [
        {"declaration": "secret"},
        {"declaration": "any_trick", "non_drinker_tricks": 2},
        {"non_drinker_vp": 4, "out_non_drinker_gains": True},
    ],
)
def test_variant_records_replay(options: dict[str, Any]) -> None:
    """The options round-trip through a record (JSON), and the replay shows the same to every seat."""
    game = bodoge.make("hangover", players=4, **options)
    state = game.new_state(seed=5)
    rng = random.Random(5)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    record = json.loads(json.dumps(state.to_record()))
    for name, value in options.items():
        assert record["options"][name] == value
    again = bodoge.replay(record)
    assert again.to_record() == record
    for seat in (None, 0, 1, 2, 3):
        assert again.view(seat) == state.view(seat)


def test_an_old_record_replays_with_the_defaults() -> None:
    """A record written before these options existed (no such keys) replays as draft 2."""
    state = bodoge.make("hangover", players=3).new_state(seed=3)
    rng = random.Random(3)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    record = state.to_record()
    assert "declaration" not in record["options"]
    again = bodoge.replay(record)
    assert again.game.options["declaration"] == "in_order" and again.scores() == state.scores()


# -- declaration = secret (HO-D29) ---------------------------------------------------------------------


def secret_game(*answers: str) -> HangoverState:
    state = bodoge.make("hangover", players=4, declaration="secret", snacks_per_player=0).new_state(seed=9)
    assert isinstance(state, HangoverState)
    for a in answers:
        state.apply(a)
    return state


def test_secret_answers_are_unseen_until_all_are_in() -> None:
    """HO-D29: each seat answers in seat order without seeing another's answer; then all are shown."""
    state = secret_game("declare", "pass", "declare")
    assert state.current_player == 3 and state.decision() == "P3 declares non-drinker or passes, in secret"
    assert state.decision_ja() == "P3が非公開で下戸宣言をするかパスします"
    for seat in (None, 0, 1, 2, 3):
        view = state.view(seat)
        assert [s["status"] for s in view["seats"]] == ["drinker"] * 4
        for q, s in enumerate(view["seats"]):
            assert s["declared"] == ({0: True, 1: False, 2: True}.get(q) if q == seat else None)
        declares = [e for e in view["log"] if e["type"] == "declare"]
        assert [e["non_drinker"] for e in declares] == [
            True if seat == 0 else None,
            False if seat == 1 else None,
            True if seat == 2 else None,
        ]
    assert [e["text"] for e in state.view(3)["log"]] == [
        "P0 answers in secret.",
        "P1 answers in secret.",
        "P2 answers in secret.",
    ]
    assert [e["text"] for e in state.view(1)["log"]][1] == "P1 passes (stays a drinker)."
    play(state, "pass")
    assert state.status == [NON_DRINKER, DRINKER, NON_DRINKER, DRINKER]
    reveal = last(state, "declarations")
    assert reveal == {"type": "declarations", "non_drinkers": [0, 2], "drinkers": [1, 3]}
    assert state.view(None)["log"][-1]["text"] == (
        "The secret answers are revealed: P0, P2 declared non-drinker; the others stay drinkers."
    )
    assert state.view(None)["log"][-1]["text_ja"].startswith("非公開の答えが公開された")
    assert [s["declared"] for s in state.view(1)["seats"]] == [True, False, True, False]
    assert state.current_player == 0 and state.decision() == "P0 leads trick 1"
    nobody = secret_game("pass", "pass", "pass", "pass")
    assert (
        nobody.view(None)["log"][-1]["text"]
        == "The secret answers are revealed: nobody declared non-drinker."
    )


def test_histories_that_differ_in_an_unseen_answer_look_the_same() -> None:
    """HO-D29: P0 declared in one history and passed in the other; for every other seat (and a
    spectator) the views, observations and the bots' moves are the same."""
    a = secret_game("declare", "pass")
    b = secret_game("pass", "pass")
    assert a.view(0) != b.view(0)
    for seat in (None, 1, 2, 3):
        assert a.view(seat) == b.view(seat)
    for seat in (1, 2, 3):
        assert np.array_equal(a.observation_tensor(seat), b.observation_tensor(seat))
    game = a.game
    view = a.view(2)
    for k in range(20):
        assert (
            heuristic.act(game, view, random.Random(k))
            == act(a, random.Random(k))
            == act(b, random.Random(k))
        )


def test_the_sampler_never_copies_an_unseen_answer() -> None:
    """HO-D29: a determinization for P2 deals P0's and P1's unseen answers by chance, both ways, and
    is consistent with P2's view; P2's own answer is kept. After the reveal, the true answers."""
    state = secret_game("declare", "pass", "declare")
    for seat in (2, 3):
        view = state.view(seat)
        seen: dict[int, set[int]] = {0: set(), 1: set(), 2: set()}
        for k in range(60):
            s2 = state.game.sample_state(view, random.Random(k))
            assert isinstance(s2, HangoverState)
            assert s2.view(seat) == view
            for q in seen:
                seen[q].add(s2.declared[q])
            s2.check_invariants()
            s2.apply(s2.legal_actions()[0])  # play goes on from the sample
        for q, answers in seen.items():
            assert answers == ({1} if q == seat else {0, 1}), (seat, q)
    sampler = state.game.sampler(state.view(3), likely=True)
    assert {sampler(random.Random(k)).declared[0] for k in range(40)} == {0, 1}
    play(state, "pass")
    view = state.view(1)
    for k in range(10):
        s2 = state.game.sample_state(view, random.Random(k))
        assert isinstance(s2, HangoverState)
        assert s2.declared == [1, 0, 1, 0] and s2.status == state.status and s2.view(1) == view


# -- declaration = any_trick (HO-D29) ------------------------------------------------------------------


def test_any_trick_asks_the_drinkers_who_have_won_nothing_before_each_trick() -> None:
    """HO-D29: all pass before trick 1; P1 wins it; before trick 2 P0 and P2 (no trick won) are asked
    in seat order, P0 passes and P2 declares; P1 wins trick 2 (P2 gains 1); before trick 3 only P0 is
    asked and declares; from then on nobody may declare, so the phase is skipped."""
    state = deal(
        3,
        {0: ["R1", "B1"], 1: ["R3", "B5"], 2: ["R2", "B2"]},
        snacks_per_player=0,
        declaration="any_trick",
    )
    play(state, "pass", "pass", "pass")
    assert state.decision() == "P0 leads trick 1"
    play(state, "play R1", "play R3", "play R2")
    assert last(state, "trick")["winner"] == 1 and state.tricks == [0, 1, 0]
    assert state.current_player == 0 and texts(state) == ["declare", "pass"]
    assert state.decision() == "P0 may declare non-drinker before trick 2, or pass"
    assert state.decision_ja() == "P0はトリック2の前に下戸宣言をするかパスできます"
    play(state, "pass")
    assert state.current_player == 2
    play(state, "declare")
    assert last(state, "declare") == {"type": "declare", "seat": 2, "non_drinker": True, "before_trick": 2}
    lines = [e["text"] for e in state.view(1)["log"] if e["type"] == "declare"]
    assert lines[-2:] == [
        "P0 passes before trick 2 (stays a drinker).",
        "P2 declares non-drinker before trick 2.",
    ]
    assert lines[0] == "P0 passes (stays a drinker)."
    assert state.current_player == 1 and state.decision() == "P1 leads trick 2"
    play(state, "play B5", "play B2", "play B1")
    assert last(state, "trick")["winner"] == 1 and state.vp[2] == 1
    assert (
        state.current_player == 0 and state.decision() == "P0 may declare non-drinker before trick 3, or pass"
    )
    play(state, "declare")
    assert state.status == [NON_DRINKER, DRINKER, NON_DRINKER]
    assert state.current_player == 1 and state.decision() == "P1 leads trick 3"
    count = sum(1 for e in state.view(None)["log"] if e["type"] == "declare")
    while not state.is_terminal:
        play(state, "any")
        assert state.phase != DECLARING  # no declaration phase again
    assert sum(1 for e in state.view(None)["log"] if e["type"] == "declare") == count


# -- non_drinker_tricks (HO-D31), non_drinker_vp (HO-D30), out_non_drinker_gains (HO-D32) ------------


def test_a_non_drinker_may_win_tricks_up_to_the_allowance() -> None:
    """HO-D31 with non_drinker_tricks = 1: P1's 1st trick leaves them an active non-drinker (no
    judgement, no VP, no snacks) and they lead next; their 2nd puts them out."""
    state = deal(
        3,
        {0: ["B2"], 1: ["B4", "Y5"], 2: ["R5"]},
        voids={0: "Y", 1: "B", 2: "BY"},
        non_drinker_tricks=1,
    )
    for _ in range(3):
        state.apply(state.legal_actions()[0])  # the arrangements
    play(state, "pass", "declare", "pass")
    columns = [c[:] for c in state.columns[1]]
    play(state, "play B2", "play B4", "play R5")
    trick = last(state, "trick")
    assert trick["winner"] == 1 and trick["outcome"] == "spared" and trick["bonus"] == []
    assert state.status[1] == NON_DRINKER and state.tricks[1] == 1 and state.vp == [0, 0, 0]
    assert state.columns[1] == columns and not [e for e in state.view(None)["log"] if e["type"] == "judge"]
    text = state.view(None)["log"][-1]["text"]
    assert (
        "a non-drinker's 1st trick, within the tricks allowed" in text
        and "stays an active non-drinker" in text
    )
    assert "下戸のまま" in state.view(None)["log"][-1]["text_ja"]
    assert state.current_player == 1 and state.decision() == "P1 leads trick 2"
    play(state, "play Y5", "any", "any")
    trick = last(state, "trick")
    assert trick["winner"] == 1 and trick["outcome"] == "out" and trick["own_trick"] == 2
    assert state.status[1] == OUT_NON_DRINKER and state.vp == [0, 0, 0]
    assert (
        "a non-drinker's 2nd trick, one more than allowed, so P1 is out"
        in state.view(None)["log"][-1]["text"]
    )
    assert state.current_player == 2
    while not state.is_terminal:
        play(state, "any")


@pytest.mark.parametrize("gains", [False, True])
def test_the_bonus_and_an_out_non_drinkers_bonus(gains: bool) -> None:
    """HO-D30 with non_drinker_vp = 3: P2 gains 3 when P1 goes out. HO-D32: when P0 then wins, P1
    (out) gains 3 too only with out_non_drinker_gains; otherwise their VP stays frozen (HO-D6)."""
    state = deal(
        3,
        {0: ["B1", "Y5"], 1: ["B4"], 2: ["R5", "Y1"]},
        voids={1: "B", 2: "B"},
        hand_size=4,
        snacks_per_player=0,
        non_drinker_vp=3,
        out_non_drinker_gains=gains,
    )
    play(state, "pass", "declare", "declare")
    play(state, "play B1", "play B4", "play R5")
    assert last(state, "trick")["outcome"] == "out" and state.scores() == [0, 0, 3]
    line = state.view(None)["log"][-1]["text"]
    assert line.endswith(" Non-drinker P2 gains 3 VP.")
    assert ("VP frozen" in line) is not gains
    assert state.view(None)["log"][-1]["text_ja"].endswith("下戸のP2が3VPを得る。")
    assert state.current_player == 2
    play(state, "play Y1", "play Y5", "any")
    trick = last(state, "trick")
    assert trick["winner"] == 0 and trick["bonus"] == ([1, 2] if gains else [2])
    # P0's trick: S = 6 < 7, judged 1 VP
    assert state.scores() == ([1, 3, 6] if gains else [1, 0, 6])
    if gains:
        assert "Non-drinker P1, P2 gain 3 VP each." in state.view(None)["log"][-2]["text"]


# -- the bots under every option -----------------------------------------------------------------------

VARIANTS: list[dict[str, Any]] = [
    {"declaration": "secret"},
    {"declaration": "any_trick"},
    {"declaration": "any_trick", "non_drinker_tricks": 2, "non_drinker_vp": 2},
    {"non_drinker_tricks": 1, "out_non_drinker_gains": True},
    {"non_drinker_vp": 0},
]


@pytest.mark.parametrize("options", VARIANTS)
def test_the_quick_move_is_the_heuristics_move_under_the_variants(options: dict[str, Any]) -> None:
    """As test_hangover_rollout's test, under each variant: the rollout reads only what the seat knows."""
    game = bodoge.make("hangover", players=4, **options)
    assert quick_moves_checked(game, range(300, 304)) > 30


def test_the_heuristic_declares_by_its_rule_under_secret_and_any_trick() -> None:
    """Under secret every other seat is assumed to declare (its answer is unseen, even after P0 … P2
    passed): with 4 players and 11 tricks, a lone drinker cannot take 11 − 3 = 8 tricks in 4 columns,
    so each declares; under any_trick, the same count on the tricks left at a later declaration."""
    game = bodoge.make("hangover", players=4, declaration="secret", snacks_per_player=0)
    state = game.new_state(seed=1)
    for _ in range(4):
        view = state.view(state.current_player)
        assert heuristic.act(game, view, random.Random(0)) == state.parse_action("declare")
        state.apply("pass")
    # any_trick, one snack column: before trick 2 the winner of trick 1 can take no more tricks
    # safely, the seat asked at most one, and the other eligible seat is assumed to declare and take
    # one: 10 − 1 tricks left to a room of 1, so the seat asked declares, whatever its hand
    late = bodoge.make("hangover", players=3, declaration="any_trick", snacks_per_player=0, hangover_trick=2)
    for seed in range(5):
        state = late.new_state(seed=seed)
        play(state, "pass", "pass", "pass", "any", "any", "any")
        assert state.phase == DECLARING and state.current_player is not None
        seen = heuristic.seen_in_view(late, state.view(state.current_player))
        assert sum(seen.tricks) == 1 and heuristic._declares(late, seen) is True


# -- every option set keeps the invariants -------------------------------------------------------------


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(3, 5),
    declaration=st.sampled_from(["in_order", "secret", "any_trick"]),
    vp=st.sampled_from([-2, 0, 1, 3]),
    allowed=st.sampled_from([0, 1, 3]),
    gains=st.booleans(),
    snacks=st.sampled_from([0, 4]),
    seed=st.integers(0, 2**32),
)
def test_random_games_keep_the_invariants(
    players: int, declaration: str, vp: int, allowed: int, gains: bool, snacks: int, seed: int
) -> None:
    """Random play under any option set: every component in one place, statuses and tricks won
    consistent (check_invariants), the game ends within its bound, and determinizations at a few
    decisions are consistent with the mover's view."""
    game = bodoge.make(
        "hangover",
        players=players,
        declaration=declaration,
        non_drinker_vp=vp,
        non_drinker_tricks=allowed,
        out_non_drinker_gains=gains,
        snacks_per_player=snacks,
    )
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not state.is_terminal:
        state.check_invariants()
        if rng.random() < 0.1:
            seat = state.current_player
            view = state.view(seat)
            s2 = game.sample_state(view, rng)
            assert s2.view(seat) == view
        state.apply(rng.choice(state.legal_actions()))
        steps += 1
    state.check_invariants()
    assert steps <= game.max_game_length()
    assert len(state.view(None)["log"]) and state.winners() == state.view(None)["winners"]
