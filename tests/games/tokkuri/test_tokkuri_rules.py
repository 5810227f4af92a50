"""Tokkuri rules: the worked examples of spec §9 (TK-E1 … TK-E19), options, settlement, texts."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bodoge
from bodoge.errors import BadOption, IllegalAction
from bodoge.games.tokkuri import DEFAULT_DECK, play, scoring, settle, setup
from bodoge.games.tokkuri.rules import Tokkuri
from bodoge.games.tokkuri.state import ACTION, GIVE, OPEN, TARGET, VICTIM, TokkuriState


def position(
    players: int,
    hands: dict[int, list[str]],
    table: tuple[tuple[str, str, int], ...] = (),
    stock: tuple[str, ...] = (),
    active: int = 0,
    captured: dict[int, list[str]] | None = None,
    bonus: dict[int, list[str]] | None = None,
    balances: list[int] | None = None,
    round_no: int = 1,
    **options: Any,
) -> TokkuriState:
    """A mid-round position at `active`'s ACTION; every card not named lies in the discard pile."""
    game = bodoge.make("tokkuri", players=players, **options)
    assert isinstance(game, Tokkuri)
    s = game.new_state(seed=0)
    assert isinstance(s, TokkuriState)
    pool = list(game.all_cards)

    def take(code: str) -> int:
        t = game.code_index[code.lower()]
        pool.remove(t)
        return t

    s.hands = [sorted(take(c) for c in hands.get(p, [])) for p in range(players)]
    s.table, s.levels, s.faces = [], [], []
    s.placed = [0] * players
    for tid_text, code, level in sorted(table, key=lambda e: game.tokkuri_ids[e[0]]):
        owner, k = game.tokkuri_ids[tid_text]
        s.table.append(owner * game.total + k - 1)
        s.levels.append(level)
        s.faces.append(take(code))
        s.placed[owner] = max(s.placed[owner], k)
    s.sorted_levels = sorted(s.levels)
    s.stock = [take(c) for c in reversed(stock)]
    s.captured = [[take(c) for c in (captured or {}).get(p, [])] for p in range(players)]
    s.bonus = [[take(c) for c in (bonus or {}).get(p, [])] for p in range(players)]
    s.discard = pool
    s.events = []
    s.pending = [-1] * players
    s.round_no = round_no
    s.start = (round_no - 1) % players
    s.phase = ACTION
    s.active = active
    s.current_player = active
    s._legal = None
    if balances is not None:
        s.balances = list(balances)
    s.check_invariants()
    return s


def texts(s: TokkuriState) -> list[str]:
    return [s.action_text(a) for a in s.legal_actions()]


def codes(s: TokkuriState, cards: list[int]) -> list[str]:
    return [s.game.codes[t] for t in cards]


def hand(s: TokkuriState, seat: int) -> list[str]:
    return sorted(codes(s, s.hands[seat]))


def log_of(s: TokkuriState, seat: int | None, event: str) -> list[dict[str, Any]]:
    """The facts of `seat`'s log events of this kind (their "text" and "text_ja" left out)."""
    return [
        {k: v for k, v in e.items() if k not in ("text", "text_ja")}
        for e in s.view(seat)["log"]
        if e["type"] == event
    ]


# -- TK-E1: the deal ------------------------------------------------------------------------------


def test_tk_e1_deal_from_a_stacked_deck_in_round_3() -> None:
    """TK-E1: round 3 of 4 players starts at P2; position i goes to seat (2 + i − 1) mod 4."""
    game = bodoge.make("tokkuri", players=4)
    order = list(game.all_cards)
    random.Random(3).shuffle(order)
    s = game.new_state(seed=0)
    s.round_no = 2
    s._forced_decks = {3: order}
    s.events = []
    setup.start_round(s)
    play.begin_round(s)
    assert s.start == 2
    positions = {2: range(1, 29, 4), 3: range(2, 29, 4), 0: range(3, 29, 4), 1: range(4, 29, 4)}
    for seat, pos in positions.items():
        assert sorted(s.hands[seat]) == sorted(order[i - 1] for i in pos)
    assert [s.stock[-1 - j] for j in range(4)] == order[28:32]  # 29 is the top
    asked = []
    while s.phase == OPEN:
        asked.append(s.current_player)
        s.apply(s.legal_actions()[0])
    assert asked == [2, 3, 0, 1]
    assert s.phase == ACTION and s.current_player == 2


def test_tk_e1_stacked_deck_through_new_state() -> None:
    """TK-E1 (round 1): `new_state(deck=...)` deals the codes top first from P0."""
    game = bodoge.make("tokkuri", players=4)
    deck = [game.codes[t] for t in game.all_cards]
    random.Random(5).shuffle(deck)
    s = game.new_state(seed=9, deck=deck)
    for seat in range(4):
        assert hand(s, seat) == sorted(deck[seat:28:4])
    record = json.loads(json.dumps(s.to_record()))
    assert bodoge.replay(record).view(0) == s.view(0)


@pytest.mark.parametrize(
    "bad",
    [["5"] * 32, ["no-such-card"], "5,5,5", [1, 2, 3], [c for c in ["5"] * 31]],
)
def test_stacked_deck_is_validated(bad: Any) -> None:
    game = bodoge.make("tokkuri", players=2)
    with pytest.raises(BadOption, match="deck"):
        game.new_state(seed=1, deck=bad)


def test_the_largest_deck_is_shuffled_and_dealt_from_the_seed() -> None:
    """TK-3.3 with the largest deck the options allow (200 cards, 50 copies of a type): each round
    is one Fisher–Yates shuffle on the state's seeded RNG, linear in the deck (rules version 1's
    draw below N! grew with a deck that had no bound then; it is kept for version 1's records,
    tests/core/test_record_versions.py). The seed fixes the deal: changing how it is drawn changes
    every game, so it needs a new rules_version."""
    deck = [{"code": str(v), "kind": "number", "slots": [v], "copies": 50} for v in (1, 2, 3, 4)]
    game = bodoge.make("tokkuri", players=2, hand_size=100, deck=deck)
    assert game.rules_version == 2 and game.total == 200
    s = game.new_state(seed=3)
    cards = list(game.all_cards)
    random.Random(3).shuffle(cards)
    assert s.hands == [sorted(cards[0:200:2]), sorted(cards[1:200:2])]  # P0 first (TK-3.2)
    assert game.new_state(seed=3).hands == s.hands
    assert game.new_state(seed=4).hands != s.hands
    rng = random.Random(3)
    while s.round_no == 1:
        s.apply(rng.choice(s.legal_actions()))
    if not s.is_terminal:  # round 2: a fresh shuffle of all 200 cards, dealt from P1
        assert sorted(s.hands[0] + s.hands[1] + s.stock) == game.all_cards


# -- TK-E2 … TK-E4, TK-E17: settlement -------------------------------------------------------------


def test_tk_e2_seed_payment_example_1() -> None:
    """TK-E2: scores 2, 1, 0, −1 → P0 receives 6; balances 16, 9, 8, 7."""
    delta = settle([2, 1, 0, -1])
    assert delta == [6, -1, -2, -3]
    assert [10 + d for d in delta] == [16, 9, 8, 7]


def test_tk_e3_seed_payment_example_2() -> None:
    """TK-E3: scores 2, 2, 1, 0 → balances 13, 13, 8, 6."""
    assert [10 + d for d in settle([2, 2, 1, 0])] == [13, 13, 8, 6]


def test_tk_e4_round_ties() -> None:
    """TK-E4: (a) all tied: nobody pays; (b) 1, 1, −3: P2 pays 4 to each."""
    assert settle([1, 1, 1]) == [0, 0, 0]
    assert [10 + d for d in settle([1, 1, -3])] == [14, 14, 2]


@given(st.lists(st.integers(min_value=-30, max_value=30), min_size=2, max_size=4))
def test_settle_properties(scores: list[int]) -> None:
    delta = settle(scores)
    assert sum(delta) == 0
    top = max(scores)
    winners = [i for i, s in enumerate(scores) if s == top]
    for i, s in enumerate(scores):
        if s == top:
            assert delta[i] == sum(top - x for x in scores)
        else:
            assert delta[i] == -len(winners) * (top - s)


def test_tk_e17_bankruptcy_with_a_negative_balance() -> None:
    """TK-E17: balances 2, 10, 18 and round scores 0, 3, 1 → −1, 15, 16; the game ends, P2 wins."""
    s = position(
        3,
        {0: ["1"]},
        table=(("T1.1", "5", 2),),
        captured={1: ["2", "3", "4"], 2: ["6"]},
        balances=[2, 10, 18],
    )
    s.apply("drink 1")
    s.apply("target T1.1")
    assert log_of(s, None, "round_end")[-1]["round_scores"] == [0, 3, 1]
    assert s.is_terminal
    assert s.scores() == [-1, 15, 16]
    assert s.winners() == [2]
    assert s.view(None)["log"][-1]["type"] == "game_end"
    assert log_of(s, None, "game_end") == [
        {
            "type": "game_end",
            "reason": "bankruptcy",
            "round": 1,
            "winners": [2],
            "balances": [-1, 15, 16],
            "bankrupt": [0],
        }
    ]
    assert s.returns() == [0.0, 0.0, 1.0]


def test_tk_e18_shared_final_win() -> None:
    """TK-E18: rounds = 3; after the third settlement 12, 12, 6: P0 and P1 share the win."""
    s = position(
        3,
        {2: ["1"]},
        table=(("T0.1", "5", 2),),
        active=2,
        captured={0: ["2"], 1: ["3"]},
        balances=[11, 11, 8],
        round_no=3,
        rounds=3,
    )
    s.apply("drink 1")
    s.apply("target T0.1")
    assert s.is_terminal
    assert s.scores() == [12, 12, 6]
    assert s.winners() == [0, 1]
    assert log_of(s, 1, "game_end") == [
        {
            "type": "game_end",
            "reason": "rounds_played",
            "round": 3,
            "winners": [0, 1],
            "balances": [12, 12, 6],
            "bankrupt": [],
        }
    ]


def test_tk_e19_start_player_rotation_and_the_round_cap() -> None:
    """TK-E19: start players P0, P1, P2, P0, …; with no bankruptcy round 50 (start P1) is the last."""
    game = bodoge.make("tokkuri", players=3, start_points=10**6)
    s = game.new_state(seed=4)
    rng = random.Random(4)
    while not s.is_terminal:
        s.apply(rng.choice(s.legal_actions()))
    starts = [(e["round"], e["start_player"]) for e in log_of(s, None, "round_start")]
    assert starts[:4] == [(1, 0), (2, 1), (3, 2), (4, 0)]
    assert len(starts) == 50 and starts[-1] == (50, 1)
    assert len(log_of(s, None, "round_end")) == 50
    end = log_of(s, None, "game_end")
    assert [(e["reason"], e["round"], e["winners"]) for e in end] == [("max_rounds", 50, s.winners())]
    assert len(s.history) <= game.max_game_length()


# -- TK-E5: the penalty ----------------------------------------------------------------------------


def test_tk_e5_penalty_at_exactly_2_and_3() -> None:
    """TK-E5: levels 2 is not penalised, 3 and 10 are: P0 scores −2, P1 scores 2; balances 6, 14."""
    s = position(
        2,
        {1: ["2"]},
        table=(("T0.1", "6", 2), ("T0.2", "4", 3), ("T0.4", "dummy", 10), ("T1.1", "5", 1)),
        active=1,
        captured={0: ["7", "8"], 1: ["9"]},
        bonus={1: ["8+8+8"]},
    )
    assert scoring.round_scores(s) == [-2, 2]
    s.apply("drink 2")
    s.apply("target T0.4")  # the dummy stays at 8: still penalised
    score = log_of(s, None, "round_end")[-1]
    assert score["round_scores"] == [-2, 2]
    assert score["balances"] == [6, 14]
    assert s.scores() == [6, 14] and s.round_no == 2


# -- TK-E6, TK-E7: bonus cards ---------------------------------------------------------------------


def test_tk_e6_777_empties_two_real_tokkuri_bonus() -> None:
    """TK-E6: 7+7+7 empties T0.1 and T1.1 (trouble): +2 captured and the card as a bonus (+3)."""
    s = position(
        3,
        {0: ["7+7+7", "2"], 1: ["3"], 2: ["4"]},
        table=(("T0.1", "5", 7), ("T1.1", "trouble", 7), ("T2.1", "dummy", 10)),
    )
    discard_before = list(s.discard)
    s.apply("drink 7+7+7")
    assert texts(s) == ["target T0.1", "target T1.1", "target T2.1"]
    s.apply("target T0.1")
    s.apply("target T1.1")
    s.apply("target T2.1")
    assert s.levels == [3] and s.table == [2 * s.game.total]
    assert sorted(codes(s, s.captured[0])) == ["5", "trouble"]
    assert codes(s, s.bonus[0]) == ["7+7+7"]
    assert s.discard == discard_before
    assert scoring.round_scores(s)[0] == 3
    assert scoring.round_scores(s)[2] == -2  # the secret dummy at 3 would be penalised
    seen = {p: [e.get("card") for e in log_of(s, p, "empty") if e["tokkuri"] == "T1.1"] for p in range(3)}
    assert seen == {0: ["trouble"], 1: ["trouble"], 2: [None]}
    assert s.view(2)["tokkuri"][0]["card"] == "dummy"
    assert s.view(0)["tokkuri"][0]["card"] is None


@pytest.mark.parametrize(("t11_level", "gain"), [(8, 1), (7, 2)])
def test_tk_e7_777_and_a_dummy_no_bonus(t11_level: int, gain: int) -> None:
    """TK-E7 (a) T1.1 at 8: +1; (b) at 7: +2. An emptied dummy cancels the bonus; discard: dummy, 7+7+7."""
    s = position(
        3,
        {0: ["7+7+7", "2"], 1: ["4"], 2: ["4"]},
        table=(("T0.1", "3", 7), ("T1.1", "2", t11_level), ("T2.1", "dummy", 7)),
    )
    s.apply("drink 7+7+7")
    for t in ("T0.1", "T1.1", "T2.1"):
        s.apply(f"target {t}")
    assert codes(s, s.discard[-2:]) == ["dummy", "7+7+7"]
    assert s.bonus[0] == []
    assert len(s.captured[0]) == gain
    assert scoring.round_scores(s)[0] == gain
    if t11_level == 8:
        assert s.levels == [1]
    else:
        assert s.table == []
    dummy_seen = [e for e in log_of(s, 1, "empty") if e["tokkuri"] == "T2.1"]
    assert dummy_seen == [{"type": "empty", "seat": 0, "tokkuri": "T2.1", "dummy": True, "card": "dummy"}]
    assert [
        e["text_ja"] for e in s.view(1)["log"] if e.get("tokkuri") == "T2.1" and e["type"] == "empty"
    ] == ["P0がT2.1を空けた：ダミートックリなので表にして捨て札へ（得点なし）。"]
    resolve = [e["text_ja"] for e in s.view(None)["log"] if e["type"] == "resolve"]
    assert len(resolve) == 1 and "追加で1点" not in resolve[0]


# -- TK-E8, TK-E9: several numbers, no dead ends ---------------------------------------------------


def test_tk_e8_legal_drinks_with_several_numbers() -> None:
    """TK-E8: 11 legal ACTIONs; 9+4 then offers only T0.1, then only T1.1."""
    s = position(
        3,
        {2: ["9+4", "8+5", "1+1+1", "1+1+1+1", "1~3", "dummy"], 0: ["5"]},
        table=(("T0.1", "5", 10), ("T1.1", "6", 4), ("T1.2", "7", 2)),
        active=2,
    )
    assert sorted(texts(s)) == sorted(
        [
            "place 9+4",
            "place 8+5",
            "place 1+1+1",
            "place 1+1+1+1",
            "place 1~3",
            "place dummy",
            "drink 9+4",
            "drink 1+1+1",
            "drink 1~3=1",
            "drink 1~3=2",
            "drink 1~3=3",
        ]
    )
    s.apply("drink 9+4")
    assert texts(s) == ["target T0.1"]
    s.apply("target T0.1")
    assert texts(s) == ["target T1.1"]
    s.apply("target T1.1")
    assert s.levels == [1, 2]
    assert codes(s, s.captured[2]) == ["6"]
    assert codes(s, s.discard[-1:]) == ["9+4"]


def test_tk_e9_no_dead_ends_with_a_custom_card() -> None:
    """TK-E9: a custom 4+9 card: slot 1 (4) offers only T1.1, slot 2 (9) T0.1; both end at 1."""
    deck = [*DEFAULT_DECK, {"code": "4+9", "kind": "number", "slots": [4, 9], "effect": "none", "copies": 1}]
    s = position(2, {0: ["4+9", "2"], 1: ["3"]}, table=(("T0.1", "5", 10), ("T1.1", "6", 5)), deck=deck)
    assert "drink 4+9" in texts(s)
    s.apply("drink 4+9")
    assert texts(s) == ["target T1.1"]
    s.apply("target T1.1")
    assert texts(s) == ["target T0.1"]
    s.apply("target T0.1")
    assert s.levels == [1, 1]


# -- TK-E10 … TK-E12: the 9 ------------------------------------------------------------------------


def e10() -> TokkuriState:
    return position(3, {0: ["9", "3"], 1: ["2", "2", "8"]}, table=(("T1.1", "5", 10),), stock=("6", "4"))


def test_tk_e10_nine_with_one_other_card_holder() -> None:
    """TK-E10: only `victim P1`; with outcome 8: 8 discarded, P1 draws 6; next ACTION P1."""
    s = e10()
    s.apply("drink 9")
    s.apply("target T1.1")
    assert s.levels == [1]
    assert s.phase == VICTIM and texts(s) == ["victim P1"]
    s._forced_steals = [s.game.code_index["8"]]
    s.apply("victim P1")
    assert hand(s, 1) == ["2", "2", "6"]
    assert hand(s, 0) == ["3"]
    assert codes(s, s.discard[-2:]) == ["9", "8"]
    assert s.phase == ACTION and s.current_player == 1
    # the drinker (seat) picks the victim (target) and draws its random card, discarded face up
    assert log_of(s, 2, "victim") == [{"type": "victim", "seat": 0, "target": 1}]
    assert log_of(s, 2, "steal") == [{"type": "steal", "seat": 0, "target": 1, "card": "8"}]
    assert log_of(s, 2, "draw") == [{"type": "draw", "seat": 1, "card": None}]
    assert log_of(s, 1, "draw") == [{"type": "draw", "seat": 1, "card": "6"}]


def test_tk_e10_chance_is_uniform_over_physical_cards() -> None:
    """TK-E10: the random card is `2` with probability 2/3 and `8` with 1/3."""
    s = e10()
    s.apply("drink 9")
    s.apply("target T1.1")
    outcomes: Counter[str] = Counter()
    for seed in range(600):
        c = s.clone()
        c.rng = random.Random(seed)
        c.apply("victim P1")
        outcomes[c.game.codes[c.discard[-1]]] += 1
    assert set(outcomes) == {"2", "8"}
    assert abs(outcomes["2"] / 600 - 2 / 3) < 0.07


def test_tk_e11_nine_when_only_the_drinker_holds_cards() -> None:
    """TK-E11: only `victim P1` (itself); with outcome 6, P1 draws 3 and plays again."""
    s = position(3, {1: ["9", "4", "6"]}, table=(("T2.3", "5", 10),), stock=("3", "dummy"), active=1)
    s.apply("drink 9")
    s.apply("target T2.3")
    assert texts(s) == ["victim P1"]
    s._forced_steals = [s.game.code_index["6"]]
    s.apply("victim P1")
    assert hand(s, 1) == ["3", "4"]
    assert codes(s, s.stock) == ["dummy"]
    assert codes(s, s.discard[-2:]) == ["9", "6"]
    assert s.current_player == 1 and s.phase == ACTION


def test_tk_e12_nine_as_the_very_last_card() -> None:
    """TK-E12: T0.2 reaches 0 and is captured; no VICTIM, no discard, no draw; the round ends."""
    s = position(3, {1: ["9"]}, table=(("T0.2", "5", 9),), stock=("3", "4"), active=1)
    s.apply("drink 9")
    s.apply("target T0.2")
    assert log_of(s, None, "victim") == [] and log_of(s, None, "steal") == []
    assert log_of(s, None, "draw") == []
    assert log_of(s, None, "round_end")[-1]["round_scores"] == [0, 1, 0]
    assert s.round_no == 2


# -- TK-E13: pass-left -----------------------------------------------------------------------------


def test_tk_e13_pass_left() -> None:
    """TK-E13: GIVE asked of P2 then P0; P0 gets 5, P1 gets the dummy; each knows only its cards."""
    s = position(
        3,
        {0: ["dummy"], 2: ["1+1+1", "5"]},
        table=(("T0.1", "2", 1), ("T1.1", "3", 4), ("T2.1", "4", 10)),
        active=2,
    )
    s.apply("drink 1+1+1")
    for t in ("T0.1", "T1.1", "T2.1"):
        s.apply(f"target {t}")
    assert codes(s, s.captured[2]) == ["2"]
    assert [e["card"] for e in log_of(s, 2, "empty")] == ["2"]
    assert [e["card"] for e in log_of(s, 1, "empty")] == [None]
    assert s.levels == [3, 9]
    assert s.phase == GIVE and s.current_player == 2
    assert texts(s) == ["give 5"]
    s.apply("give 5")
    assert s.current_player == 0 and s.view(0)["pending"] is None
    assert s.view(2)["pending"] == "5" and s.view(0)["chosen"] == [2]
    s.apply("give dummy")
    assert hand(s, 0) == ["5"] and hand(s, 1) == ["dummy"] and hand(s, 2) == []
    gave = {p: [(e["seat"], e["to"], e["card"]) for e in log_of(s, p, "gave")] for p in range(3)}
    assert gave[2] == [(2, 0, "5"), (0, 1, None)]
    assert gave[0] == [(2, 0, "5"), (0, 1, "dummy")]
    assert gave[1] == [(2, 0, None), (0, 1, "dummy")]
    assert s.current_player == 0 and s.phase == ACTION
    assert texts(s) == ["place 5", "drink 5"]
    s.apply("drink 5")
    assert texts(s) == ["target T2.1"]


# -- TK-E14: 1~3 -----------------------------------------------------------------------------------


def test_tk_e14_wild_card_forced_draw() -> None:
    """TK-E14: 1~3=3 on T1.1 captures it and draws the last card; a later 1~3 draws nothing."""
    s = position(
        2, {0: ["1~3", "7"], 1: ["1~3", "5"]}, table=(("T1.1", "8", 3), ("T0.1", "6", 2)), stock=("4",)
    )
    assert [t for t in texts(s) if t.startswith("drink 1~3")] == ["drink 1~3=1", "drink 1~3=2", "drink 1~3=3"]
    s.apply("drink 1~3=3")
    assert texts(s) == ["target T1.1"]
    s.apply("target T1.1")
    assert codes(s, s.captured[0]) == ["8"]
    assert hand(s, 0) == ["4", "7"] and s.stock == []
    s.apply("drink 1~3=2")
    s.apply("target T0.1")
    assert codes(s, s.captured[1]) == ["6"]
    assert hand(s, 1) == ["5"]
    assert [e["seat"] for e in log_of(s, None, "draw")] == [0]


# -- TK-E15: trouble -------------------------------------------------------------------------------


def test_tk_e15_trouble_only_as_the_last_card() -> None:
    """TK-E15: with `trouble, 5` only `place 5` and `drink 5`; alone, `place trouble` is forced."""
    s = position(2, {0: ["trouble", "5"], 1: ["3"]}, table=(("T1.1", "6", 10), ("T0.2", "4", 8)))
    assert texts(s) == ["place 5", "drink 5"]
    s.hands[0] = [s.game.code_index["trouble"]]
    s.discard.append(s.game.code_index["5"])
    s._legal = None
    assert texts(s) == ["place trouble"]
    s.apply("place trouble")
    assert {"id": "T0.3", "owner": 0, "level": 10, "card": "trouble"} in s.view(0)["tokkuri"]
    assert {"id": "T0.3", "owner": 0, "level": 10, "card": None} in s.view(1)["tokkuri"]
    assert scoring.round_scores(s)[0] == -4  # T0.2 at 8 and T0.3 at 10


def test_tk_e15_trouble_emptied_is_captured() -> None:
    """TK-E15: another player who empties the troublesome tokkuri captures it for +1."""
    s = position(2, {1: ["5", "2"], 0: ["3"]}, table=(("T0.3", "trouble", 5),), active=1)
    s.apply("drink 5")
    s.apply("target T0.3")
    assert codes(s, s.captured[1]) == ["trouble"]
    assert scoring.round_scores(s) == [0, 1]


def test_trouble_never_opens() -> None:
    """TK-D5: OPEN never offers `trouble`."""
    game = bodoge.make("tokkuri", players=2)
    for seed in range(40):
        s = game.new_state(seed=seed)
        for _ in range(2):
            assert "place trouble" not in texts(s)
            s.apply(s.legal_actions()[0])


# -- TK-E16: the cap -------------------------------------------------------------------------------


def test_tk_e16_capped_table_with_no_legal_action() -> None:
    """TK-E16: max_tokkuri = 2, nobody can place or drink: the round ends at once; 2 : 2, no payment."""
    s = position(
        2,
        {0: ["9", "dummy"], 1: ["8"]},
        table=(("T0.1", "5", 2), ("T1.1", "6", 1)),
        captured={0: ["2", "3"], 1: ["4", "7"]},
        max_tokkuri=2,
    )
    play.begin_turn(s, 0)
    assert [e["type"] for e in s.view(None)["log"]][:2] == ["stuck", "round_end"]
    assert s.view(None)["log"][0]["text_ja"] == "手札を持つ誰も動けないので、ラウンド終了。"
    assert "  全員同点：支払いなし。" in s.view(None)["log"][1]["text_ja"].splitlines()
    score = log_of(s, None, "round_end")[-1]
    assert score["round_scores"] == [2, 2] and score["balances"] == [10, 10]
    assert s.round_no == 2


def test_tk_4_8_skip_a_player_without_a_legal_action() -> None:
    """TK-4.8: at the cap, a holder who cannot drink is skipped (a public event)."""
    s = position(
        2,
        {0: ["9", "dummy"], 1: ["2"]},
        table=(("T0.1", "5", 2), ("T1.1", "6", 1)),
        max_tokkuri=2,
    )
    play.begin_turn(s, 0)
    assert log_of(s, 1, "skip") == [{"type": "skip", "seat": 0}]
    assert [e["text_ja"] for e in s.view(1)["log"]] == ["P0は出せる手が無いのでパス。"]
    assert s.current_player == 1 and texts(s) == ["drink 2"]


# -- options --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "name"),
    [
        ({"start_points": 0}, "start_points"),
        ({"hand_size": 1}, "hand_size"),
        ({"hand_size": 9}, "hand_size"),  # 4 × 9 > 32
        ({"rounds": 0}, "rounds"),
        ({"rounds": 51}, "rounds"),  # > max_rounds
        ({"rounds": 5, "max_rounds": 4}, "rounds"),
        ({"max_rounds": 0}, "max_rounds"),
        ({"max_tokkuri": 3}, "max_tokkuri"),  # < 4 players
        ({"tokkuri_level": 0}, "tokkuri_level"),
        ({"penalty_level": 0}, "penalty_level"),
        ({"penalty_points": -1}, "penalty_points"),
        ({"deck": []}, "deck"),
        ({"deck": "not json"}, "deck"),
        (
            {"deck": [{"code": "5", "kind": "number", "slots": [5], "effect": "none", "copies": 40}] * 2},
            "deck",
        ),
        ({"deck": [{"code": "5", "kind": "joker", "slots": [5], "effect": "none", "copies": 40}]}, "deck"),
        ({"deck": [{"code": "5", "kind": "number", "slots": [0], "effect": "none", "copies": 40}]}, "deck"),
        (
            {"deck": [{"code": "5", "kind": "number", "slots": ["3~1"], "effect": "none", "copies": 40}]},
            "deck",
        ),
        ({"deck": [{"code": "5", "kind": "number", "slots": [], "effect": "none", "copies": 40}]}, "deck"),
        ({"deck": [{"code": "5", "kind": "number", "slots": [5], "effect": "boom", "copies": 40}]}, "deck"),
        ({"deck": [{"code": "5", "kind": "number", "slots": [5], "effect": "none", "copies": 0}]}, "deck"),
        ({"deck": [{"code": "a b", "kind": "number", "slots": [5], "effect": "none", "copies": 40}]}, "deck"),
        ({"deck": [{"code": "x=1", "kind": "number", "slots": [5], "effect": "none", "copies": 40}]}, "deck"),
        ({"deck": [{"code": "d", "kind": "dummy", "slots": [2], "effect": "none", "copies": 40}]}, "deck"),
        ({"deck": [{"code": "t", "kind": "trouble", "slots": [], "effect": "none", "copies": 2}]}, "deck"),
        ({"deck": [{"code": "5", "kind": "number", "slots": [5], "effect": "none", "copies": 5}]}, "deck"),
        (
            {"deck": [{"code": "5", "kind": "number", "slots": [5], "effect": "none", "copies": 40, "x": 1}]},
            "deck",
        ),
    ],
)
def test_bad_options_name_the_option_and_what_is_allowed(options: dict[str, Any], name: str) -> None:
    with pytest.raises(BadOption) as exc:
        bodoge.make("tokkuri", players=4, **options)
    assert exc.value.option == name
    assert exc.value.allowed


def test_deck_option_round_trips_through_json_and_text() -> None:
    game = bodoge.make("tokkuri", players=3)
    deck_json = game.options_json()["deck"]
    assert json.loads(json.dumps(deck_json)) == deck_json
    assert sum(e["copies"] for e in deck_json) == 32 and len(deck_json) == 23
    again = bodoge.make("tokkuri", players=3, deck=deck_json)
    assert again.options == game.options
    as_text = bodoge.make("tokkuri", players=3, deck=json.dumps(deck_json))
    assert as_text.options == game.options
    small = [
        {"code": "2", "kind": "number", "slots": [2], "effect": "none", "copies": 6},
        {"code": "2~5", "kind": "number", "slots": ["2~5"], "effect": "draw", "copies": 2},
        {"code": "d", "kind": "dummy", "copies": 2},
    ]
    g = bodoge.make("tokkuri", players=2, hand_size=3, deck=small)
    assert g.total == 10 and g.var_text[1:] == ["drink 2~5=2", "drink 2~5=3", "drink 2~5=4", "drink 2~5=5"]


def test_default_deck_is_the_spec_list() -> None:
    """TK-1.1, TK-1.2: 28 number cards, 3 dummies, 1 troublesome tokkuri; 18/11/4 left to draw."""
    game = bodoge.make("tokkuri", players=4)
    kinds = Counter(game.kind[t] for t in game.all_cards)
    assert kinds == {0: 28, 1: 3, 2: 1}
    for players, left in ((2, 18), (3, 11), (4, 4)):
        s = bodoge.make("tokkuri", players=players).new_state(seed=1)
        assert s.view(None)["deck_count"] == left


# -- texts, rendering, no dead ends ---------------------------------------------------------------


def test_action_texts_parse() -> None:
    s = position(2, {0: ["1~3", "9+4", "dummy"], 1: ["2"]}, table=(("T1.1", "5", 10), ("T0.1", "6", 4)))
    assert s.parse_action("DRINK 1~3=2") == s.parse_action("drink 1~3=2")
    with pytest.raises(IllegalAction, match="legal"):
        s.parse_action("drink dummy")
    s.apply("drink 9+4")
    assert s.decision() == "P0 chooses a tokkuri for the 9 of 9+4 (number 1 of 2)"
    assert s.phase == TARGET and texts(s) == ["target T1.1"]


def test_render_shows_bottles_and_hides_other_faces() -> None:
    s = position(2, {0: ["1~3", "9+4"], 1: ["2"]}, table=(("T1.1", "5", 7), ("T0.1", "6", 4)))
    mine = s.render(0)
    assert "T0.1 [6] ■■■■□□□□□□ 4" in mine and "T1.1 [?] ■■■■■■■□□□ 7" in mine
    assert "Your hand: 9+4 1~3" in mine or "Your hand: 1~3 9+4" in mine
    theirs = s.render(1)
    assert "T0.1 [?]" in theirs and "T1.1 [5]" in theirs and "9+4" not in theirs
    assert "[6]" not in s.render(None)


def play_out(state: TokkuriState, rng: random.Random) -> None:
    bound = state.game.max_game_length()
    while not state.is_terminal:
        legal = state.legal_actions()
        assert legal and legal == sorted(set(legal))
        state.apply(rng.choice(legal))
        state.check_invariants()
        assert len(state.history) <= bound


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    players=st.integers(min_value=2, max_value=4),
    cap_extra=st.one_of(st.none(), st.integers(min_value=0, max_value=3)),
    hand_size=st.integers(min_value=2, max_value=8),
    level=st.integers(min_value=1, max_value=12),
)
def test_random_play_never_deadlocks(
    seed: int, players: int, cap_extra: int | None, hand_size: int, level: int
) -> None:
    """Random play always ends within max_game_length, with every option mix (TK-D20, TK-D25)."""
    hand_size = min(hand_size, 32 // players)
    game = bodoge.make(
        "tokkuri",
        players=players,
        max_tokkuri=None if cap_extra is None else players + cap_extra,
        hand_size=hand_size,
        tokkuri_level=level,
        rounds=3,
    )
    play_out(game.new_state(seed=seed), random.Random(seed))


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), players=st.integers(min_value=2, max_value=4))
def test_random_play_never_deadlocks_with_a_custom_deck(seed: int, players: int) -> None:
    deck = [
        {"code": "1~4+2", "kind": "number", "slots": ["1~4", 2], "effect": "pass", "copies": 3},
        {"code": "5+5", "kind": "number", "slots": [5, 5], "effect": "discard", "copies": 3},
        {"code": "3", "kind": "number", "slots": [3], "effect": "bonus", "copies": 4},
        {"code": "1~2+1~2", "kind": "number", "slots": ["1~2", "1~2"], "effect": "draw", "copies": 2},
        {"code": "dummy", "kind": "dummy", "copies": 2},
        {"code": "trouble", "kind": "trouble", "copies": 1},
    ]
    game = bodoge.make("tokkuri", players=players, deck=deck, hand_size=3, rounds=4)
    play_out(game.new_state(seed=seed), random.Random(seed))


def test_max_game_length_is_a_true_bound_without_rounds() -> None:
    game = bodoge.make("tokkuri", players=2, start_points=10**6, max_rounds=3)
    s = game.new_state(seed=2)
    play_out(s, random.Random(2))
    assert s.round_no == 3


def _completions(values: list[int], levels: dict[int, int]) -> bool:
    """Brute force: can the values go to distinct tokkuri without a level below 0?"""
    if not values:
        return True
    return any(
        lv >= values[0] and _completions(values[1:], {t: x for t, x in levels.items() if t != tid})
        for tid, lv in levels.items()
    )


@settings(max_examples=150, deadline=None)
@given(
    levels=st.lists(st.integers(min_value=1, max_value=10), min_size=1, max_size=7),
    card=st.sampled_from(
        ["9+4", "8+5", "7+6", "6+4", "1+1+1", "3+3+3", "4+4+4", "7+7+7", "1+1+1+1", "2+2+2+2"]
    ),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_drinks_and_targets_match_brute_force(levels: list[int], card: str, seed: int) -> None:
    """TK-4.3, TK-4.4, TK-D9: a drink is offered iff it can be completed, and every offered target
    (and only those) still lets the remaining numbers be placed — no dead ends."""
    faces = ["5", "dummy", "6", "7", "dummy", "8", "trouble"]
    table = tuple((f"T{i % 2}.{i // 2 + 1}", faces[i], lv) for i, lv in enumerate(levels))
    s = position(2, {0: [card, "2"], 1: ["3"]}, table=table)
    values = [int(x) for x in card.split("+")]
    by_id = {tid: lv for tid, lv in zip(s.table, s.levels, strict=True)}
    possible = _completions(values, by_id)
    assert (f"drink {card}" in texts(s)) == possible
    if not possible:
        return
    s.apply(f"drink {card}")
    rng = random.Random(seed)
    for i in range(len(values)):
        offered = set(s.legal_actions())
        expected = {
            tid
            for tid, lv in by_id.items()
            if lv >= values[i] and _completions(values[i + 1 :], {t: x for t, x in by_id.items() if t != tid})
        }
        assert offered == {s.game.a_target + tid for tid in expected}
        a = rng.choice(sorted(offered))
        del by_id[a - s.game.a_target]
        s.apply(a)


# -- the log's lines of text -------------------------------------------------------------------------


def texts_of(s: TokkuriState, seat: int | None, *events: str) -> list[str]:
    return [e["text"] for e in s.view(seat)["log"] if not events or e["type"] in events]


def test_log_texts_of_a_bonus_drink_and_captured_faces() -> None:
    """TK-E6: the drink's levels before and after, the bonus, and captured faces only where seen."""
    s = position(
        3,
        {0: ["7+7+7", "2"], 1: ["3"], 2: ["4"]},
        table=(("T0.1", "5", 7), ("T1.1", "trouble", 7), ("T2.1", "dummy", 10)),
    )
    s.apply("drink 7+7+7")
    for t in ("T0.1", "T1.1", "T2.1"):
        s.apply(f"target {t}")
    resolve = log_of(s, 2, "resolve")
    assert resolve == [
        {
            "type": "resolve",
            "seat": 0,
            "card": "7+7+7",
            "values": [7, 7, 7],
            "levels": [["T0.1", 0], ["T1.1", 0], ["T2.1", 3]],
            "bonus": True,
        }
    ]
    assert texts_of(s, 2, "drink", "target", "resolve") == [
        "P0 plays 7+7+7 to drink.",
        "P0 chooses T0.1 to drink from.",
        "P0 chooses T1.1 to drink from.",
        "P0 chooses T2.1 to drink from.",
        "P0 drinks 7+7+7 from T0.1, T1.1 and T2.1 (T0.1: 7 → 0, T1.1: 7 → 0, T2.1: 10 → 3). "
        "Two or more emptied and no dummy: P0 keeps 7+7+7 as a bonus card (+1).",
    ]
    assert texts_of(s, 0, "empty") == [
        "P0 empties T0.1 and captures it (+1): it was 5.",
        "P0 empties T1.1 and captures it (+1): it was trouble.",
    ]
    assert texts_of(s, 1, "empty")[1] == "P0 empties T1.1 and captures it (+1): it was trouble."
    assert texts_of(s, 2, "empty") == [
        "P0 empties T0.1 and captures it face down (+1).",
        "P0 empties T1.1 and captures it face down (+1).",
    ]
    assert not any("trouble" in line for line in texts_of(s, 2))


def test_log_texts_of_gifts_draws_and_a_random_discard() -> None:
    """TK-E13 and TK-E10: a gift or a draw is named to those who saw it, and to nobody else."""
    s = position(
        3,
        {0: ["dummy"], 2: ["1+1+1", "5"]},
        table=(("T0.1", "2", 1), ("T1.1", "3", 4), ("T2.1", "4", 10)),
        active=2,
    )
    s.apply("drink 1+1+1")
    for t in ("T0.1", "T1.1", "T2.1"):
        s.apply(f"target {t}")
    s.apply("give 5")
    s.apply("give dummy")
    assert texts_of(s, 0, "give", "gave") == [
        "P2 chooses a card to pass left, face down.",
        "P0 chooses dummy to pass left, face down.",
        "P2 passes 5 to P0.",
        "P0 passes dummy to P1.",
    ]
    assert texts_of(s, 1, "give", "gave") == [
        "P2 chooses a card to pass left, face down.",
        "P0 chooses a card to pass left, face down.",
        "P2 passes a card to P0.",
        "P0 passes dummy to P1.",
    ]
    assert texts_of(s, None, "gave") == ["P2 passes a card to P0.", "P0 passes a card to P1."]

    s = e10()
    s.apply("drink 9")
    s.apply("target T1.1")
    s._forced_steals = [s.game.code_index["8"]]
    s.apply("victim P1")
    assert texts_of(s, 1, "victim", "steal", "draw") == [
        "P0 picks P1: a random card of their hand is discarded, then they draw.",
        "P1's 8 is discarded face up at random.",
        "P1 draws 6.",
    ]
    assert texts_of(s, 2, "draw") == ["P1 draws a card."]


def test_log_text_of_a_round_end() -> None:
    """TK-E5: the round scores with their reasons (captured, bonus, penalties), payments, balances."""
    s = position(
        2,
        {1: ["2"]},
        table=(("T0.1", "6", 2), ("T0.2", "4", 3), ("T0.4", "dummy", 10), ("T1.1", "5", 1)),
        active=1,
        captured={0: ["7", "8"], 1: ["9"]},
        bonus={1: ["8+8+8"]},
    )
    s.apply("drink 2")
    s.apply("target T0.4")
    assert log_of(s, 0, "round_end") == [
        {
            "type": "round_end",
            "round": 1,
            "round_scores": [-2, 2],
            "captured": [2, 1],
            "bonus": [0, 1],
            "penalised": [2, 0],
            "penalty": [4, 0],
            "changes": [-4, 4],
            "balances": [6, 14],
        }
    ]
    assert texts_of(s, 0, "round_end") == [
        "Round 1 ends. Round scores:\n"
        "  P0: 2 captured − 4 (2 tokkuri left too full) = −2\n"
        "  P1: 1 captured + 1 bonus = 2\n"
        "  P0 pays 4 to P1.\n"
        "Balances: P0 6 (−4), P1 14 (+4)."
    ]
    assert texts_of(s, 0, "round_start") == ["Round 2 begins; P1 is the start player."]


def test_log_text_of_the_game_end() -> None:
    """TK-E17, TK-E18, TK-E19: after the last settlement, the game's end says why and who won."""
    s = position(
        3,
        {0: ["1"]},
        table=(("T1.1", "5", 2),),
        captured={1: ["2", "3", "4"], 2: ["6"]},
        balances=[2, 10, 18],
    )
    s.apply("drink 1")
    s.apply("target T1.1")
    assert texts_of(s, None, "round_end")[-1].splitlines()[-2:] == [
        "  P2 pays 2 to P1.",
        "Balances: P0 −1 (−3), P1 15 (+5), P2 16 (−2).",
    ]
    assert texts_of(s, None)[-1] == "Game over (P0 is bankrupt): P2 wins with 16."
    s = position(
        3,
        {2: ["1"]},
        table=(("T0.1", "5", 2),),
        active=2,
        captured={0: ["2"], 1: ["3"]},
        balances=[11, 11, 8],
        round_no=3,
        rounds=3,
    )
    s.apply("drink 1")
    s.apply("target T0.1")
    assert texts_of(s, 2, "round_end")[-1].splitlines()[-2:] == [
        "  P2 pays 1 to each of P0 and P1.",
        "Balances: P0 12 (+1), P1 12 (+1), P2 6 (−2).",
    ]
    assert texts_of(s, 2)[-1] == "Game over (all 3 rounds played): P0 and P1 share the win with 12."
    s = position(2, {0: ["1"]}, table=(("T1.1", "5", 2),), captured={1: ["2", "3"]}, max_rounds=1)
    s.apply("drink 1")
    s.apply("target T1.1")
    assert texts_of(s, 0)[-1] == "Game over (the limit of 1 rounds reached): P1 wins with 12."
    s = position(3, {0: ["1"]}, table=(("T1.1", "5", 2),), captured={1: ["2", "3"]}, balances=[1, 5, 1])
    s.apply("drink 1")
    s.apply("target T1.1")
    assert texts_of(s, 0)[-1] == "Game over (P0 and P2 are bankrupt): P1 wins with 9."


# -- the log's lines and the decision in Japanese ------------------------------------------------------


def texts_ja(s: TokkuriState, seat: int | None, *events: str) -> list[str]:
    return [e["text_ja"] for e in s.view(seat)["log"] if not events or e["type"] in events]


def test_log_texts_ja_of_a_bonus_drink_and_captured_faces() -> None:
    """TK-E6 in Japanese: the drink, its targets and levels, the bonus, captured faces only where seen."""
    s = position(
        3,
        {0: ["7+7+7", "2"], 1: ["3"], 2: ["4"]},
        table=(("T0.1", "5", 7), ("T1.1", "trouble", 7), ("T2.1", "dummy", 10)),
    )
    assert s.decision_ja() == "P0の手番：トックリを出すか、飲めるカードがあれば酒を飲みます"
    s.apply("drink 7+7+7")
    assert s.decision_ja() == "P0が「7+7+7」の1個目の数字（7、全3個）で飲むトックリを選びます"
    for t in ("T0.1", "T1.1", "T2.1"):
        s.apply(f"target {t}")
    assert texts_ja(s, 2, "drink", "target", "resolve") == [
        "P0が「7+7+7」を使って酒を飲む。",
        "P0が飲むトックリにT0.1を選んだ。",
        "P0が飲むトックリにT1.1を選んだ。",
        "P0が飲むトックリにT2.1を選んだ。",
        "P0がT0.1、T1.1、T2.1から7+7+7を飲んだ（残量 T0.1：7 → 0、T1.1：7 → 0、T2.1：10 → 3）。"
        "2本以上を空け、ダミーは無かったので、P0は「7+7+7」を追加で1点のカードとして得る（+1）。",
    ]
    assert texts_ja(s, 1, "empty") == [
        "P0がT0.1を空け、裏向きのまま獲得した（+1）。",
        "P0がT1.1を空けて獲得した（+1）：中身はやっかいなトックリだった。",
    ]
    assert texts_ja(s, 2, "empty") == [
        "P0がT0.1を空け、裏向きのまま獲得した（+1）。",
        "P0がT1.1を空け、裏向きのまま獲得した（+1）。",
    ]
    assert not any("やっかい" in line for line in texts_ja(s, 2))


def test_log_texts_ja_of_gifts_draws_a_random_discard_and_a_dummy() -> None:
    """TK-E13 and TK-E10 in Japanese: a gift or a draw is named to those who saw it, to nobody else."""
    s = position(
        3,
        {0: ["dummy"], 2: ["1+1+1", "5"]},
        table=(("T0.1", "2", 1), ("T1.1", "3", 4), ("T2.1", "4", 10)),
        active=2,
    )
    s.apply("drink 1+1+1")
    for t in ("T0.1", "T1.1", "T2.1"):
        s.apply(f"target {t}")
    assert s.decision_ja() == "P2が左隣に渡すカードを選びます（全員が選ぶまで非公開）"
    s.apply("give 5")
    s.apply("give dummy")
    assert texts_ja(s, 1, "give", "gave") == [
        "P2が左隣に渡すカードを裏向きで選んだ。",
        "P0が左隣に渡すカードを裏向きで選んだ。",
        "P2がP0にカードを1枚渡した。",
        "P0がP1にダミートックリを渡した。",
    ]
    assert texts_ja(s, 0, "give")[1] == "P0が左隣に渡すカードにダミートックリを選んだ（裏向き）。"
    assert texts_ja(s, None, "gave") == ["P2がP0にカードを1枚渡した。", "P0がP1にカードを1枚渡した。"]

    s = e10()
    s.apply("drink 9")
    s.apply("target T1.1")
    assert s.decision_ja() == (
        "P0が相手を1人選びます：その人の手札から無作為に1枚が捨て札になり、その人が1枚引きます"
    )
    s._forced_steals = [s.game.code_index["8"]]
    s.apply("victim P1")
    assert texts_ja(s, 1, "victim", "steal", "draw") == [
        "P0がP1を選んだ：その人の手札から無作為に1枚が捨てられ、その人が1枚引く。",
        "P1の「8」が無作為に選ばれ、表向きで捨てられた。",
        "P1が山札から「6」を引いた。",
    ]
    assert texts_ja(s, 2, "draw") == ["P1が山札からカードを1枚引いた。"]


def test_log_texts_ja_of_a_round_end_and_the_game_end() -> None:
    """TK-E5, TK-E17, TK-E18 in Japanese: scores with their reasons, payments, balances, the winner."""
    s = position(
        2,
        {1: ["2"]},
        table=(("T0.1", "6", 2), ("T0.2", "4", 3), ("T0.4", "dummy", 10), ("T1.1", "5", 1)),
        active=1,
        captured={0: ["7", "8"], 1: ["9"]},
        bonus={1: ["8+8+8"]},
    )
    s.apply("drink 2")
    s.apply("target T0.4")
    assert texts_ja(s, 0, "round_end") == [
        "第1ラウンド終了。ラウンドの得点：\n"
        "  P0：獲得2 − 減点4（残量の多いトックリ2本） = −2\n"
        "  P1：獲得1 + 追加1 = 2\n"
        "  P0はP1に4点支払う。\n"
        "所持金：P0 6（−4）、P1 14（+4）。"
    ]
    assert texts_ja(s, 0, "round_start") == ["第2ラウンド開始。スタートプレイヤーはP1。"]
    assert s.decision_ja() == "P1が最初のトックリにするカードを選びます（裏向き。全員が選ぶまで非公開）"

    s = position(
        3,
        {0: ["1"]},
        table=(("T1.1", "5", 2),),
        captured={1: ["2", "3", "4"], 2: ["6"]},
        balances=[2, 10, 18],
    )
    s.apply("drink 1")
    s.apply("target T1.1")
    assert texts_ja(s, None, "round_end")[-1].splitlines()[-2:] == [
        "  P2はP1に2点支払う。",
        "所持金：P0 −1（−3）、P1 15（+5）、P2 16（−2）。",
    ]
    assert texts_ja(s, None)[-1] == "ゲーム終了（P0が破産）：P2が所持金16で優勝。"
    assert s.decision_ja() == "ゲーム終了"
    s = position(
        3,
        {2: ["1"]},
        table=(("T0.1", "5", 2),),
        active=2,
        captured={0: ["2"], 1: ["3"]},
        balances=[11, 11, 8],
        round_no=3,
        rounds=3,
    )
    s.apply("drink 1")
    s.apply("target T0.1")
    assert texts_ja(s, 2, "round_end")[-1].splitlines()[-2:] == [
        "  P2はP0、P1にそれぞれ1点支払う。",
        "所持金：P0 12（+1）、P1 12（+1）、P2 6（−2）。",
    ]
    assert texts_ja(s, 2)[-1] == "ゲーム終了（全3ラウンド終了）：P0、P1が同点で所持金12で優勝。"
