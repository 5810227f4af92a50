"""The worked examples of shared/rules/tottarot.md §9, each test citing its number (TT-E1 … TT-E16)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import bodoge
from bodoge.errors import BadOption
from bodoge.games.tottarot import play, setup
from bodoge.games.tottarot.state import PH_BID, PH_PEEK, PH_SHARE, PH_STEAL, TottarotState


def make(players: int, stacked: list[str] | None = None, **options: Any) -> TottarotState:
    """A new game whose first-round deck starts with `stacked` (codes, top first)."""
    state = bodoge.make("tottarot", players=players, **options).new_state(seed=0, deck=stacked)
    assert isinstance(state, TottarotState)
    return state


def stack(state: TottarotState, rnd: int, codes: list[str]) -> None:
    """Stack round `rnd`'s deck (codes top first; the rest shuffled below)."""
    state._stacked[rnd] = setup.stacked_order(state.game, codes, random.Random(rnd))


def bids(state: TottarotState, by_seat: list[int]) -> list[int]:
    """Every player bids `by_seat[p]`; returns the seats in the order they were asked."""
    asked = []
    for _ in range(state.game.n):
        assert state.phase == PH_BID
        p = state.current_player
        assert p is not None
        asked.append(p)
        state.apply(f"bid {by_seat[p]}", seat=p)
    return asked


def texts(state: TottarotState) -> list[str]:
    return [state.action_text(a) for a in state.legal_actions()]


def row(state: TottarotState, p: int) -> list[tuple[str, int]]:
    """P's row as (code, effective points)."""
    return [(x["card"], x["points"]) for x in state.view(p)["rows"][p]]


def last_round_end(state: TottarotState) -> dict[str, Any]:
    return [e for e in state.view(None)["log"] if e["type"] == "round_end"][-1]


def play_round_randomly(state: TottarotState, rng: random.Random) -> None:
    r = state.round
    while state.round == r:
        state.apply(rng.choice(state.legal_actions()))


def test_tt_e1_drawing_order_from_a_stacked_deck() -> None:
    """TT-E1: 3 players, round 2 (start P1): P1, P2, P0 draw positions 1-3, 4-6, 7-9; bids asked P1, P2, P0."""
    state = make(3)
    deck = ["WORLD", "SUN", "LOVERS", "WHEEL", "MOON", "TOWER", "DEVIL", "WORLD", "SUN"]
    stack(state, 2, deck)
    play_round_randomly(state, random.Random(1))
    assert state.round == 2 and state.start == 1
    for turn in range(3):
        assert state.turn == turn + 1
        drawn = deck[3 * turn : 3 * turn + 3]
        assert [state.view(p)["declared"][p]["card"] for p in (1, 2, 0)] == drawn
        assert state.phase == PH_BID  # no icon acts: everybody bids 0, the actors take nothing
        assert bids(state, [turn, turn, turn]) == [1, 2, 0]
        if turn == 2:
            assert len(state.pile) == 21 - 9  # positions 10-21 are never drawn
        while state.phase == PH_STEAL:
            state.apply("steal none")


def test_tt_e2_single_highest_bidder_steals() -> None:
    """TT-E2: P2 bids 3 alone, discards MOON and steals P1's WORLD."""
    state = make(3, ["TOWER", "WORLD", "MOON"])
    bids(state, [1, 0, 3])
    assert state.current_player == 2 and state.phase == PH_STEAL
    assert state.view(None)["discard"] == ["MOON"]
    assert texts(state) == ["steal P0", "steal P1", "steal none"]
    state.apply("steal P1")
    steal = next(e for e in state.view(2)["log"] if e["type"] == "steal")
    assert steal["card"] == "WORLD"  # P2 now sees WORLD
    assert next(e for e in state.view(0)["log"] if e["type"] == "steal")["card"] is None
    assert row(state, 0) == [("TOWER", -3)] and row(state, 1) == [] and row(state, 2) == [("WORLD", 5)]
    view = state.view(None)
    assert view["discard"] == ["MOON"]
    assert view["unused_tokens"] == [[0, 2, 3], [1, 2, 3], [0, 1, 2]]


def test_tt_e3_taking_nothing() -> None:
    """TT-E3: as TT-E2, but P2 picks `steal none`."""
    state = make(3, ["TOWER", "WORLD", "MOON"])
    bids(state, [1, 0, 3])
    state.apply("steal none")
    assert row(state, 0) == [("TOWER", -3)] and row(state, 1) == [("WORLD", 5)] and row(state, 2) == []
    assert state.view(None)["discard"] == ["MOON"]


def test_tt_e4_three_way_tie_a_card_stolen_twice() -> None:
    """TT-E4: actors P0, P1, P2; the SUN moves P3 -> P0 -> P1 -> P2; P2 then has a pending EXPOSE."""
    state = make(4, ["DEVIL", "TOWER", "MOON", "SUN"])
    bids(state, [2, 2, 2, 0])
    assert state.view(None)["actors"] == [0, 1, 2]
    assert state.current_player == 0 and state.view(None)["discard"] == ["DEVIL"]
    assert texts(state) == ["steal P1", "steal P2", "steal P3", "steal none"]
    state.apply("steal P3")
    assert state.view(0)["declared"][0]["card"] == "SUN"
    assert state.current_player == 1 and state.view(None)["discard"] == ["DEVIL", "TOWER"]
    assert texts(state) == ["steal P0", "steal P2", "steal none"]  # P3 holds nothing
    state.apply("steal P0")
    assert state.view(1)["declared"][1]["card"] == "SUN"
    assert state.view(3)["declared"][1]["card"] == "SUN"  # P3 knows its old card
    assert state.view(2)["declared"][1]["card"] is None
    assert state.current_player == 2 and state.view(None)["discard"] == ["DEVIL", "TOWER", "MOON"]
    assert texts(state) == ["steal P1", "steal none"]
    state.apply("steal P1")
    assert [row(state, p) for p in range(4)] == [[], [], [("SUN", 3)], []]
    view = state.view(None)
    assert view["discard"] == ["DEVIL", "TOWER", "MOON"]
    # Turn 2: P2's EXPOSE has acted (automatic) right after the declaration.
    assert view["turn"] == 2
    exposes = [e for e in view["log"] if e["type"] == "expose"]
    assert [(e["seat"], e["turn"]) for e in exposes] == [(2, 2)]
    assert view["declared"][2]["exposed"] and view["declared"][2]["card"] is not None


def test_tt_e5_wrap_around_priority_and_a_skipped_actor() -> None:
    """TT-E5: round 2 (start P1); actors P1, P2, P0; P0 is skipped; P3 then has a pending SHARE."""
    state = make(4)
    stack(state, 2, ["DEVIL", "TOWER", "LOVERS", "WORLD"])  # drawn by P1, P2, P3, P0
    play_round_randomly(state, random.Random(2))
    assert state.round == 2 and state.start == 1
    assert [state.view(p)["declared"][p]["card"] for p in range(4)] == ["WORLD", "DEVIL", "TOWER", "LOVERS"]
    assert bids(state, [3, 3, 3, 1]) == [1, 2, 3, 0]
    assert state.view(None)["actors"] == [1, 2, 0]
    assert state.current_player == 1
    state.apply("steal P0")
    assert state.current_player == 2
    assert texts(state) == ["steal P1", "steal P3", "steal none"]
    state.apply("steal P1")
    log = state.view(None)["log"]
    assert [e["seat"] for e in log if e["type"] == "skip" and e["round"] == 2] == [0]
    assert [e["seat"] for e in log if e["type"] == "discard" and e["round"] == 2] == [1, 2]
    assert [row(state, p) for p in range(4)] == [[], [], [("WORLD", 5)], [("LOVERS", 1)]]
    assert state.view(None)["discard"] == ["DEVIL", "TOWER"]
    assert state.turn == 2 and state.phase == PH_SHARE and state.current_player == 3


@pytest.mark.parametrize("variant", ["a", "b"])
def test_tt_e6_two_players_tied_bids(variant: str) -> None:
    """TT-E6: 2 players bid 1 and 1. (a) P0 steals the TOWER, P1 is skipped; (b) both take nothing."""
    state = make(2, ["SUN", "TOWER"])
    bids(state, [1, 1])
    assert state.view(None)["actors"] == [0, 1]
    assert state.current_player == 0
    if variant == "a":
        state.apply("steal P1")
        assert [e["seat"] for e in state.view(None)["log"] if e["type"] == "skip"] == [1]
        assert row(state, 0) == [("TOWER", -3)] and row(state, 1) == []
        assert state.view(None)["discard"] == ["SUN"]
    else:
        state.apply("steal none")
        assert state.current_player == 1 and state.phase == PH_STEAL
        assert texts(state) == ["steal none"]  # TT-D27: still asked
        state.apply("steal none")
        assert row(state, 0) == [] and row(state, 1) == []
        assert state.view(None)["discard"] == ["SUN", "TOWER"]


def test_tt_e7_invert_in_the_last_turn() -> None:
    """TT-E7: P0's row SUN, TOWER; WHEEL in turn 3 flips TOWER: total 6."""
    state = make(2, ["SUN", "WORLD", "TOWER", "WORLD", "WHEEL", "WORLD"])
    for turn in range(3):  # P1 acts alone each turn and takes nothing
        bids(state, [turn, turn + 1])
        if turn < 2:
            state.apply("steal none")
    assert row(state, 0) == [("SUN", 3), ("TOWER", -3)]
    state.apply("steal none")  # turn 3 ends the round
    inverts = [e for e in state.view(None)["log"] if e["type"] == "invert"]
    assert [(e["seat"], e["card"], e["inverted"], e["turn"]) for e in inverts] == [(0, "TOWER", True, 3)]
    assert last_round_end(state)["totals"] == [6, 0]


def test_tt_e8_invert_skips_an_empty_turn_and_does_nothing_in_turn_1() -> None:
    """TT-E8: P1 DEVIL, nothing, WHEEL -> +5. P2 WHEEL (no effect), DEVIL, SUN -> -2."""
    deck = ["WORLD", "DEVIL", "WHEEL", "WORLD", "TOWER", "DEVIL", "MOON", "WHEEL", "SUN"]
    state = make(3, deck)
    bids(state, [3, 2, 2])  # P0 acts alone each turn
    state.apply("steal none")
    bids(state, [2, 1, 1])
    state.apply("steal P1")  # P1's turn-2 card is taken: P1 decides nothing in turn 2
    assert row(state, 1) == [("DEVIL", -5)]
    assert row(state, 2) == [("WHEEL", 0), ("DEVIL", -5)]
    bids(state, [1, 0, 0])
    state.apply("steal none")
    inverts = [e for e in state.view(None)["log"] if e["type"] == "invert"]
    assert [(e["seat"], e["card"]) for e in inverts] == [(1, "DEVIL")]
    totals = last_round_end(state)["totals"]
    assert totals[1] == 5 and totals[2] == -2


def test_tt_e9a_two_inverts_in_a_row() -> None:
    """TT-E9 (a): DEVIL, WHEEL, WHEEL: the second WHEEL flips the first, DEVIL stays +5. Total +5."""
    state = make(2, ["DEVIL", "WORLD", "WHEEL", "WORLD", "WHEEL", "WORLD"])
    for turn in range(2):
        bids(state, [turn, turn + 1])
        state.apply("steal none")
    bids(state, [2, 3])
    before = state.clone()
    before_rows = [(x["card"], x["inverted"]) for x in before.view(0)["rows"][0]]
    assert before_rows == [("DEVIL", True), ("WHEEL", False)]
    state.apply("steal none")
    inverts = [(e["card"], e["inverted"]) for e in state.view(0)["log"] if e["type"] == "invert"]
    assert inverts == [("DEVIL", True), ("WHEEL", True)]
    assert last_round_end(state)["totals"][0] == 5


def test_tt_e9b_two_inverts_with_a_custom_deck() -> None:
    """TT-E9 (b): a `deck` adding JUDGE (+2, INVERT): SUN, JUDGE, JUDGE -> -3, -2, +2. Total -3."""
    game = bodoge.make("tottarot", players=2)
    deck = [*game.options_json()["deck"], {"code": "JUDGE", "points": 2, "icon": "INVERT", "copies": 3}]
    state = make(2, ["SUN", "WORLD", "JUDGE", "WORLD", "JUDGE", "WORLD"], deck=deck)
    for turn in range(3):
        bids(state, [turn, turn + 1])
        if turn < 2:
            state.apply("steal none")
    assert state.view(0)["declared"][0]["card"] == "JUDGE"
    # Turn 2's decision made SUN -3; after turn 3 the row reads -3, -2, +2.
    assert row(state, 0) == [("SUN", -3), ("JUDGE", 2)]
    state.apply("steal none")
    inverts = [(e["card"], e["inverted"]) for e in state.view(0)["log"] if e["type"] == "invert"]
    assert inverts == [("SUN", True), ("JUDGE", True)]
    assert last_round_end(state)["totals"][0] == -3


# TT-E10 / TT-E11 scripts: (deck top first, bids per turn, actions after the bids per turn).
E10 = (
    ["DEVIL", "SUN", "TOWER", "WORLD", "LOVERS", "DEVIL", "MOON", "LOVERS", "TOWER"],
    [[3, 2, 0], [1, 1, 3], [0, 0, 2]],
    [["steal none"], ["steal P1", "share P0"], ["steal none"]],
)
E11 = (
    ["DEVIL", "TOWER", "WHEEL", "SUN", "WORLD", "DEVIL", "LOVERS", "MOON", "TOWER"],
    [[3, 3, 0], [1, 1, 3], [0, 0, 2]],
    [["steal P2", "steal none"], ["steal none"], ["steal none"]],
)


def play_script(state: TottarotState, script: tuple[list[str], list[list[int]], list[list[str]]]) -> None:
    _, turn_bids, after = script
    for turn in range(3):
        bids(state, turn_bids[turn])
        for text in after[turn]:
            state.apply(text)


def test_tt_e10_unused_token_tie_break() -> None:
    """TT-E10: P0 and P1 both total 4; unused sums 2 and 3: P1 alone gets a token; round 2 starts at P1."""
    state = make(3, E10[0])
    play_script(state, E10)
    end = last_round_end(state)
    assert end["totals"] == [4, 4, -2]
    assert end["unused_sums"] == [2, 3, 1]
    assert end["gainers"] == [1]
    assert state.scores() == [0, 1, 0]
    assert state.round == 2 and state.start == 1
    bid_history = {(e["turn"]): e["bids"] for e in state.view(0)["log"] if e["type"] == "reveal"}
    assert [[bid_history[t][p] for t in (1, 2, 3)] for p in range(3)] == [[3, 1, 0], [2, 1, 0], [0, 3, 2]]


def test_tt_e11_still_tied_both_score() -> None:
    """TT-E11: P0 and P1 both total 4 and both left token 2 unused: both get a token."""
    state = make(3, E11[0])
    play_script(state, E11)
    end = last_round_end(state)
    assert end["totals"][:2] == [4, 4] and end["totals"][2] < 4
    assert end["unused_sums"][:2] == [2, 2]
    assert end["gainers"] == [0, 1]
    assert state.scores() == [1, 1, 0]


def one_winner_deck(rnd: int, winner: int, actor: int, n: int = 3) -> list[str]:
    """Round `rnd`'s stacked deck: `winner` draws WORLD every turn, `actor` DEVIL, the others TOWER."""
    start = (rnd - 1) % n
    order = [(start + j) % n for j in range(n)]
    return ["WORLD" if p == winner else "DEVIL" if p == actor else "TOWER" for p in order] * 3


def test_tt_e12_reaching_the_target_together() -> None:
    """TT-E12: tokens 1, 1, 1 after round 3; round 4 ends as in TT-E11: tokens 2, 2, 1, winners P0, P1."""
    script = {1: (0, 2), 2: (1, 0), 3: (2, 1)}  # round: (its only winner, the seat that acts alone)
    state = make(3, one_winner_deck(1, *script[1]))
    stack(state, 2, one_winner_deck(2, *script[2]))
    stack(state, 3, one_winner_deck(3, *script[3]))
    stack(state, 4, E11[0])
    for rnd in (1, 2, 3):
        winner, actor = script[rnd]
        assert state.round == rnd and state.start == (rnd - 1) % 3
        for turn, high in enumerate((3, 2, 1)):
            by_seat = [2 - turn] * 3
            by_seat[actor] = high
            bids(state, by_seat)
            state.apply("steal none")
        assert last_round_end(state)["gainers"] == [winner]
    assert state.scores() == [1, 1, 1]
    assert state.round == 4 and state.start == 0
    play_script(state, E11)
    assert state.is_terminal
    assert state.scores() == [2, 2, 1]
    assert state.winners() == [0, 1]
    assert state.returns() == [0.5, 0.5, 0.0]
    assert state.view(None)["log"][-1] == {
        "type": "game_end",
        "winners": [0, 1],
        "reason": "target_reached",
        "victory_tokens": [2, 2, 1],
        "text": "Game over (2 victory tokens reached): P0, P1 win. Victory tokens: P0 2, P1 2, P2 1.",
        "text_ja": "ゲーム終了(勝利点トークン2個に到達):P0、P1の勝ちです。勝利点トークン P0 2、P1 2、P2 1。",
    }


def test_tt_e13_icons_and_knowledge() -> None:
    """TT-E13: SHARE P0<->P2, PEEK P1->P0, EXPOSE P2, then P0 steals P1's WORLD.

    Turn 1 as written (all three players decide a card) cannot arise in play: the first actor
    always discards, so some player decides nothing. The position after turn 1 is built directly
    here; test_tt_e13_reachable_with_four_players plays the same icon step from a real game.
    """
    state = make(3, ["LOVERS", "MOON", "SUN", "TOWER", "WORLD", "DEVIL"])
    # Decide turn 1 as the example states: bids 0, 1, 2 (used), everyone keeps their card.
    state.bids = [0, 1, 2]
    state.used = [1, 2, 4]
    state.nbid = 3
    play.decide(state)
    state.check_invariants()
    check_e13_turn_2(state, [3, 0, 1], others=[])


def check_e13_turn_2(state: TottarotState, turn_bids: list[int], others: list[int]) -> None:
    assert [row(state, p) for p in range(3)] == [[("LOVERS", 1)], [("MOON", -1)], [("SUN", 3)]]
    assert state.turn == 2 and state.phase == PH_SHARE and state.current_player == 0
    assert [(x["seat"], x["icon"]) for x in state.view(None)["pending_icons"]] == [
        (0, "SHARE"),
        (1, "PEEK"),
        (2, "EXPOSE"),
    ]
    state.apply("share P2")
    assert state.phase == PH_PEEK and state.current_player == 1
    state.apply("peek P0")
    assert state.phase == PH_BID

    def known(p: int) -> set[str]:
        return {d["card"] for d in state.view(p)["declared"][:3] if d["card"] is not None}

    assert known(0) == {"TOWER", "DEVIL"}
    assert known(1) == {"WORLD", "TOWER", "DEVIL"}
    assert known(2) == {"DEVIL", "TOWER"}
    assert state.view(None)["declared"][2]["card"] == "DEVIL"  # EXPOSE: everyone
    assert state.view(None)["declared"][0]["card"] is None
    share = next(e for e in state.view(None)["log"] if e["type"] == "share")
    assert (share["seat"], share["target"], share["card"]) == (0, 2, None)  # the choice is public
    bids(state, [*turn_bids, *others])
    assert state.current_player == 0 and state.view(None)["discard"][-1] == "TOWER"
    state.apply("steal P1")
    steal = {p: [e for e in state.view(p)["log"] if e["type"] == "steal"][-1]["card"] for p in range(3)}
    assert steal == {0: "WORLD", 1: "WORLD", 2: None}  # P1 knows where its card went; P2 does not
    assert row(state, 0)[-1] == ("WORLD", 5) and row(state, 2)[-1] == ("DEVIL", -5)
    assert len(row(state, 1)) == 1
    # Turn 3: nothing pending.
    assert state.turn == 3 and state.phase == PH_BID


def test_tt_e13_reachable_with_four_players() -> None:
    """TT-E13 with a fourth player (P3) who acts alone in turn 1 and takes nothing, so that P0, P1
    and P2 all decide a card; the icon step and the knowledge are then exactly as in the example."""
    state = make(4, ["LOVERS", "MOON", "SUN", "DEVIL", "TOWER", "WORLD", "DEVIL", "TOWER"])
    bids(state, [0, 1, 2, 3])
    state.apply("steal none")
    check_e13_turn_2(state, [3, 0, 1], others=[0])


def test_tt_e14_icons_that_do_nothing() -> None:
    """TT-E14: LOVERS decided in turn 3 never acts; a PEEK acts once, in turn 2 only."""
    deck = ["TOWER", "MOON", "DEVIL", "TOWER", "WORLD", "DEVIL", "LOVERS", "TOWER", "WORLD"]
    state = make(3, deck)
    bids(state, [3, 0, 1])  # P0 acts alone, takes nothing: P1 decides MOON
    state.apply("steal none")
    assert state.phase == PH_PEEK and state.current_player == 1
    state.apply("peek P0")
    bids(state, [0, 3, 0])  # P1 acts alone: P1 decides nothing in turn 2
    state.apply("steal none")
    assert row(state, 1) == [("MOON", -1)]
    assert state.turn == 3 and state.phase == PH_BID  # no PEEK pending in turn 3
    bids(state, [1, 1, 3])
    state.apply("steal none")
    log = state.view(None)["log"]
    end = next(e for e in log if e["type"] == "round_end")
    assert end["round"] == 1
    assert [e["seat"] for e in log if e["type"] == "peek"] == [1]
    decided = [e["cards"] for e in log if e["type"] == "decide" and e["round"] == 1]
    assert decided[2][0] == "LOVERS"  # P0 decided LOVERS in turn 3 ...
    assert state.round == 2 and state.phase == PH_BID  # ... and its SHARE never acts
    assert not [e for e in log if e["type"] == "share"]


@pytest.mark.parametrize(
    ("max_will", "expected"), [(3, ["bid 1", "bid 2"]), (4, ["bid 1", "bid 2", "bid 4"])]
)
def test_tt_e15_bid_legality(max_will: int, expected: list[str]) -> None:
    """TT-E15: P0 bid 3 then 0; turn 3 offers bid 1, bid 2 (and bid 4 with max_will 4)."""
    state = make(2, max_will=max_will)
    bids(state, [3, 0])
    state.apply("steal none")
    while state.phase != PH_BID:
        state.apply(state.legal_actions()[0])
    bids(state, [0, 1])
    state.apply("steal none")
    while state.phase != PH_BID:
        state.apply(state.legal_actions()[0])
    assert state.turn == 3 and state.current_player == 0
    assert texts(state) == expected


def test_tt_e16_validation() -> None:
    """TT-E16: 6 × 3 ≤ 21 valid; 6 × 4 > 21 rejected; max_will 1 with 3 turns rejected; 7 players rejected."""
    assert bodoge.make("tottarot", players=6).num_players == 6
    with pytest.raises(BadOption, match="turns_per_round") as exc:
        bodoge.make("tottarot", players=6, turns_per_round=4)
    assert "1 to 3" in exc.value.allowed
    with pytest.raises(BadOption, match="max_will") as exc:
        bodoge.make("tottarot", players=3, max_will=1, turns_per_round=3)
    assert "2 to 9" in exc.value.allowed
    with pytest.raises(BadOption, match="players"):
        bodoge.make("tottarot", players=7)
