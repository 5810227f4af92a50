"""Hangover: every worked example of spec §9 from HO-E4 on (HO-E1–E3, the deals, are in
test_hangover_rules.py), each test citing its number.

Examples that start at trick 1 are played from a stacked deal with every option at its default. The
others start in the middle of a game: `position` deals the example's hands with `hand_size` = the
hand's length and no snack deal, then sets statuses, tricks won, VP and snack columns as the example
states them (taking the snack cards from the set-aside pile, so every card stays in one place).
"""

from __future__ import annotations

import random
import re
from typing import Any

import bodoge
from bodoge.games.hangover.cards import DRINK_CODES, DRINK_INDEX, SUIT, SUITS
from bodoge.games.hangover.state import DRINKER, HUNG_OVER, NON_DRINKER, OUT_NON_DRINKER, HangoverState
from bodoge.games.hangover.text import drink_name

STATUS = {"drinker": DRINKER, "non_drinker": NON_DRINKER, "out": OUT_NON_DRINKER, "hung_over": HUNG_OVER}


def deal(
    players: int,
    hands: dict[int, list[str]],
    snacks: dict[int, list[str]] | None = None,
    voids: dict[int, str] | None = None,
    **options: Any,
) -> HangoverState:
    """A new game whose seats hold the given drink (and snack) cards; the rest of each hand is filled in
    canonical order, never with a suit named in `voids` for that seat."""
    game = bodoge.make("hangover", players=players, **options)
    n, size = players, game.hand_size
    given = {p: [DRINK_INDEX[c] for c in h] for p, h in hands.items()}
    used = {c for h in given.values() for c in h}
    rest = [c for c in game.drink_cards if c not in used]
    full = []
    for p in range(n):
        hand = list(given.get(p, []))
        for c in list(rest):
            if len(hand) == size:
                break
            if SUITS[SUIT[c]] in (voids or {}).get(p, ""):
                continue
            hand.append(c)
            rest.remove(c)
        assert len(hand) == size
        full.append(hand)
    drink = [DRINK_CODES[full[i % n][i // n]] for i in range(n * size)] + [DRINK_CODES[c] for c in rest]
    m = game.snacks_per_player
    pool = list(game.options["snack_deck"])
    snack_hands = []
    for p in range(n):
        mine = list((snacks or {}).get(p, []))
        for code in mine:
            pool.remove(code)
        snack_hands.append(mine)
    for p in range(n):
        while len(snack_hands[p]) < m:
            snack_hands[p].append(pool.pop(0))
    snack = [snack_hands[i % n][i // n] for i in range(n * m)] + pool
    state = game.new_state(seed=0, deck={"drink": drink, "snack": snack})
    assert isinstance(state, HangoverState)
    return state


def position(
    players: int,
    hands: dict[int, list[str]],
    *,
    size: int,
    leader: int,
    voids: dict[int, str] | None = None,
    status: dict[int, str] | None = None,
    tricks: dict[int, int] | None = None,
    vp: dict[int, int] | None = None,
    columns: dict[int, list[list[str]]] | None = None,
) -> HangoverState:
    """A trick about to be led, in the middle of a game with default rules (see the module's doc)."""
    state = deal(players, hands, voids=voids, hand_size=size, snacks_per_player=0, non_drinker=False)
    g = state.game
    for p, name in (status or {}).items():
        state.status[p] = STATUS[name]
        state.declared[p] = 1 if name in ("non_drinker", "out") else 0
    for p, t in (tricks or {}).items():
        state.tricks[p] = t
    for p, points in (vp or {}).items():
        state.vp[p] = points
    for p, cols in (columns or {}).items():
        for k, col in enumerate(cols):
            for code in col:
                d = g.snack_index[code]
                state.snack_aside.remove(d)
                state.columns[p][k].append(d)
            state.columns[p][k].sort()
    state.leader = state.current_player = leader
    state._legal = None
    state.check_invariants()
    return state


def play(state: HangoverState, *actions: str) -> None:
    """Apply action texts in turn; "any" takes the first legal action (a card whose choice does not
    matter to the example, e.g. an off-suit card or a face-down discard)."""
    for t in actions:
        state.apply(state.legal_actions()[0] if t == "any" else t)
        state.check_invariants()


def texts(state: HangoverState) -> list[str]:
    return [state.action_text(a) for a in state.legal_actions()]


def column(state: HangoverState, seat: int, k: int) -> list[str]:
    return sorted(state.game.snack_codes[d] for d in state.columns[seat][k - 1])


def arrange_and_declare(
    state: HangoverState,
    orders: dict[int, str],
    declare: tuple[int, ...] = (),
    first: dict[int, str] | None = None,
) -> None:
    """Every seat arranges (the text given in `orders`, else the first legal arrangement whose column 1
    holds the code given in `first`, else the first legal one), then declares or passes."""
    n = state.game.num_players
    for p in range(n):
        assert state.current_player == p
        action: int | str = state.legal_actions()[0]
        if p in orders:
            action = orders[p]
        elif first and p in first:
            action = next(t for t in texts(state) if t.startswith(f"arrange {first[p]} "))
        state.apply(action)
    for p in range(n):
        state.apply("declare" if p in declare else "pass")
    assert state.decision() == "P0 leads trick 1"


def last(state: HangoverState, kind: str) -> dict[str, Any]:
    """The facts of the last log event of this kind (its "text" and "text_ja" left out)."""
    event = [e for e in state.view(None)["log"] if e["type"] == kind][-1]
    return {k: v for k, v in event.items() if k not in ("text", "text_ja")}


def test_ho_e4_must_follow() -> None:
    """HO-E4: an active player follows the lead suit if able; an eliminated player discards any card."""
    expected = {
        "R4": ["play R2", "play R5^"],
        "B6": ["play B3"],
        "Y1": ["play R2", "play R5^", "play B3", "play G1"],
    }
    for lead, legal in expected.items():
        state = position(4, {0: [lead], 1: ["R2", "R5^", "B3", "G1"]}, size=4, leader=0)
        play(state, f"play {lead}")
        assert state.current_player == 1
        assert texts(state) == legal
        out = state.clone()
        assert isinstance(out, HangoverState)
        out.status[1] = OUT_NON_DRINKER
        out._legal = None
        assert texts(out) == ["discard R2", "discard R5^", "discard B3", "discard G1"]


def test_ho_e5_triangle_beats_plain_under_band_stop_or_flip() -> None:
    """HO-E5: B5^ beats B5; S = 11 < 12; stop gives 1 VP and slides, a flip gives 2 VP."""
    state = deal(4, {0: ["B5"], 1: ["B5^"], 2: ["B1"], 3: ["R6"]}, snacks={1: ["-1/-2"]}, voids={3: "B"})
    arrange_and_declare(state, {}, first={1: "-1/-2"})
    assert column(state, 1, 1) == ["-1/-2"]
    play(state, "play B5", "play B5^", "play B1", "play R6")
    assert last(state, "trick") == {
        "type": "trick",
        "trick": 1,
        "winner": 1,
        "card": "B5^",
        "sum": 11,
        "own_trick": 1,
        "outcome": "judged",
        "bonus": [],
    }
    assert state.current_player == 1 and texts(state) == ["stop", "flip -1/-2 -1", "flip -1/-2 -2"]
    column2 = column(state, 1, 2)

    stop = state.clone()
    play(stop, "stop")
    assert stop.vp[1] == 1
    assert column(stop, 1, 1) == [] and column(stop, 1, 2) == sorted([*column2, "-1/-2"])
    assert stop.current_player == 1 and stop.decision() == "P1 leads trick 2"

    for value in ("-1", "-2"):
        flip = state.clone()
        play(flip, f"flip -1/-2 {value}")
        assert flip.vp[1] == 2  # S' = 10 or 9 < 12: 1 × (1 + 1)
        assert column(flip, 1, 1) == [] and column(flip, 1, 2) == column2  # nothing slides
        assert flip.decision() == "P1 leads trick 2"


def test_ho_e6_a_lead_nobody_follows() -> None:
    """HO-E6: only the lead follows, so P2 wins with Y5 over R5^; S = 5; stop 1, +2 → 6, -2 → 2."""
    state = position(
        3,
        {2: ["Y5"], 0: ["R5^"], 1: ["B4"]},
        size=2,
        leader=2,
        voids={0: "Y", 1: "Y"},
        columns={2: [["-2/+2"], [], [], []]},
    )
    play(state, "play Y5", "play R5^", "play B4")
    assert last(state, "trick")["winner"] == 2 and last(state, "trick")["sum"] == 5
    expected = {"stop": 1, "flip -2/+2 +2": 6, "flip -2/+2 -2": 2}
    for action, points in expected.items():
        s = state.clone()
        assert isinstance(s, HangoverState)
        play(s, action)
        assert s.vp[2] == points
        if action == "stop":
            assert column(s, 2, 1) == [] and column(s, 2, 2) == ["-2/+2"]
    alias = state.clone()
    assert isinstance(alias, HangoverState)
    play(alias, "snack -2/+2 as +2")  # the wording of `flip -2/+2 +2`
    assert alias.vp[2] == 6


def test_ho_e7_just_limit_without_snacks() -> None:
    """HO-E7: 5 players, S = 4+5+7 = 16 = L; stop gives 3 VP and column 1 slides."""
    state = deal(
        5,
        {0: ["R4"], 1: ["R5"], 2: ["B7"], 3: ["R7^"], 4: ["G2"]},
        snacks={3: ["-1/+1"]},
        voids={2: "R", 4: "R"},
    )
    arrange_and_declare(state, {}, first={3: "-1/+1"})
    play(state, "play R4", "play R5", "play B7", "play R7^", "play G2")
    trick = last(state, "trick")
    assert trick["winner"] == 3 and trick["sum"] == 16
    column2 = column(state, 3, 2)
    stop = state.clone()
    play(stop, "stop")
    assert stop.vp[3] == 3
    assert column(stop, 3, 1) == [] and column(stop, 3, 2) == sorted([*column2, "-1/+1"])
    for value, points in (("-1", 2), ("+1", 0)):  # S' = 15 (under) or 17 (over), times 2
        flip = state.clone()
        play(flip, f"flip -1/+1 {value}")
        assert flip.vp[3] == points


def test_ho_e8_the_seeds_example_six_vp() -> None:
    """HO-E8: P2's 2nd trick, S = 10; `flip -2/+2 +2` reaches 12 = L and empties the column: 6 VP."""
    state = position(
        4,
        {3: ["Y2"], 0: ["Y2^"], 1: ["G5"], 2: ["Y6"]},
        size=2,
        leader=3,
        voids={1: "Y"},
        tricks={2: 1},
        vp={2: 2},
        columns={2: [[], ["-2/+2"], [], []]},
    )
    play(state, "play Y2", "play Y2^", "play G5", "play Y6")
    trick = last(state, "trick")
    assert trick["winner"] == 2 and trick["sum"] == 10 and trick["own_trick"] == 2
    assert texts(state) == ["stop", "flip -2/+2 -2", "flip -2/+2 +2"]
    play(state, "flip -2/+2 +2")
    assert last(state, "judge") == {
        "type": "judge",
        "seat": 2,
        "own_trick": 2,
        "adjusted_sum": 12,
        "limit": 12,
        "base": 3,
        "flipped": 1,
        "vp": 6,
        "slid": False,
    }
    assert state.vp[2] == 2 + 6 and state.decision() == "P2 leads trick 2"


def test_ho_e9_two_snacks_and_nine_vp() -> None:
    """HO-E9: column 3 holds +1/+2 and the slid -1/+1; P0's 3rd trick with S = 9."""

    def start() -> HangoverState:
        state = position(
            4,
            {0: ["R6"], 1: ["R2"], 2: ["R1"], 3: ["B1"]},
            size=2,
            leader=0,
            voids={3: "R"},
            tricks={0: 2},
            columns={0: [[], [], ["+1/+2", "-1/+1"], []]},
        )
        play(state, "play R6", "play R2", "play R1", "play B1")
        assert last(state, "trick")["sum"] == 9 and last(state, "trick")["own_trick"] == 3
        return state

    s = start()
    play(s, "flip +1/+2 +2", "flip -1/+1 +1")  # 11, then 12 = L; the column is empty
    assert s.vp[0] == 9 and column(s, 0, 3) == []

    s = start()
    play(s, "flip +1/+2 +2", "stop")  # 11 < 12
    assert s.vp[0] == 2
    assert column(s, 0, 3) == ["-1/+1"] and column(s, 0, 4) == []  # stays face down for good

    s = start()
    play(s, "flip +1/+2 +1", "flip -1/+1 -1")  # 9 < 12
    assert s.vp[0] == 3

    s = start()
    play(s, "stop")
    assert s.vp[0] == 1 and column(s, 0, 3) == [] and column(s, 0, 4) == ["+1/+2", "-1/+1"]


def test_ho_e10_over_band_with_and_without_snacks() -> None:
    """HO-E10: (a) R6^ beats R6, S = 14 > 12: stop 0 VP (slides), -4 → 10: 2 VP;
    (b) with P0's R3^, S = 17: -4 → 13 is still over: 0 VP, the card is spent, nothing slides."""
    cols = {1: [["-4/+4"], [], [], []]}
    a = position(
        4, {1: ["R6^"], 2: ["R2"], 3: ["R6"], 0: ["B3"]}, size=2, leader=1, voids={0: "R"}, columns=cols
    )
    play(a, "play R6^", "play R2", "play R6", "play B3")
    assert last(a, "trick")["winner"] == 1 and last(a, "trick")["sum"] == 14
    stop = a.clone()
    assert isinstance(stop, HangoverState)
    play(stop, "stop")
    assert stop.vp[1] == 0 and column(stop, 1, 1) == [] and column(stop, 1, 2) == ["-4/+4"]
    play(a, "flip -4/+4 -4")
    assert a.vp[1] == 2 and last(a, "judge")["adjusted_sum"] == 10

    b = position(4, {1: ["R6^"], 2: ["R2"], 3: ["R6"], 0: ["R3^"]}, size=2, leader=1, columns=cols)
    play(b, "play R6^", "play R2", "play R6", "play R3^")
    assert last(b, "trick")["winner"] == 1 and last(b, "trick")["sum"] == 17
    play(b, "flip -4/+4 -4")
    assert b.vp[1] == 0 and last(b, "judge")["adjusted_sum"] == 13 and last(b, "judge")["flipped"] == 1
    assert column(b, 1, 1) == [] and column(b, 1, 2) == []
    assert b.view(0)["seats"][1]["flipped"] == [{"column": 1, "card": "-4/+4", "value": -4}]


def test_ho_e11_sliding_across_tricks_then_hangover() -> None:
    """HO-E11: P3's columns slide, are used, and P3 hangs over on their 5th trick with 14 VP."""
    state = deal(
        4,
        {
            0: ["R1", "B1", "Y3", "G1"],
            1: ["R2", "B2", "Y2", "G2"],
            2: ["Y2^", "G2^"],
            3: ["R5", "B6", "Y6", "G6", "G6^"],
        },
        snacks={3: ["+1/+2", "-3/+3", "-1/-2", "+2/+3"]},
        voids={2: "RB"},
    )
    arrange_and_declare(state, {3: "arrange +1/+2 -3/+3 -1/-2 +2/+3"})
    assert [column(state, 3, k) for k in (1, 2, 3, 4)] == [["+1/+2"], ["-3/+3"], ["-1/-2"], ["+2/+3"]]
    # 1. S = 1 + 2 + 5 = 8 (P2 has no red): stop, 1 VP; +1/+2 slides
    play(state, "play R1", "play R2", "any", "play R5")
    assert last(state, "trick")["sum"] == 8
    play(state, "stop")
    assert state.vp[3] == 1 and column(state, 3, 2) == sorted(["-3/+3", "+1/+2"])
    # 2. S = 6 + 1 + 2 = 9: flip -3/+3 +3 (12), stop: 6 VP; +1/+2 stays in column 2
    play(state, "play B6", "play B1", "play B2", "any")
    assert last(state, "trick")["sum"] == 9
    play(state, "flip -3/+3 +3", "stop")
    assert state.vp[3] == 7 and column(state, 3, 2) == ["+1/+2"] and column(state, 3, 3) == ["-1/-2"]
    # 3. S = 6 + 3 + 2 + 2 = 13: flip -1/-2 -1 (12), the column is empty: 6 VP
    play(state, "play Y6", "play Y3", "play Y2", "play Y2^")
    assert last(state, "trick")["sum"] == 13
    play(state, "flip -1/-2 -1")
    assert state.vp[3] == 13 and column(state, 3, 3) == []
    # 4. S = 6 + 1 + 2 + 2 = 11: stop, 1 VP; +2/+3 stays in column 4 (no column 5)
    play(state, "play G6", "play G1", "play G2", "play G2^")
    assert last(state, "trick")["sum"] == 11
    play(state, "stop")
    assert state.vp[3] == 14 and column(state, 3, 4) == ["+2/+3"]
    # 5. Hangover: no judgement and no snacks
    play(state, "play G6^")
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    trick = last(state, "trick")
    assert trick["winner"] == 3 and trick["outcome"] == "hangover" and trick["own_trick"] == 5
    assert state.view(None)["seats"][3]["status"] == "hung_over" and state.scores()[3] == 14
    assert state.current_player == 0  # the first active player clockwise from P3
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    assert state.scores()[3] == 14 and 3 not in state.winners()


def test_ho_e12_double_slide_then_three_flips() -> None:
    """HO-E12: stop (1 VP), stop over the limit (0 VP), then three flips to 7 = L: 3 × 4 = 12 VP."""
    state = deal(
        3,
        {0: ["R4", "B5", "Y5"], 1: ["R1", "B2", "Y3"], 2: ["R1^", "B2^", "Y2"]},
        snacks={0: ["-1/+1", "+1/+3", "-2/-3", "-4/+4"]},
    )
    arrange_and_declare(state, {0: "arrange -1/+1 +1/+3 -2/-3 -4/+4"})
    play(state, "play R4", "play R1", "play R1^", "stop")
    assert last(state, "judge")["adjusted_sum"] == 6 and state.vp[0] == 1
    assert column(state, 0, 2) == sorted(["+1/+3", "-1/+1"])
    play(state, "play B5", "play B2", "play B2^", "stop")
    assert last(state, "judge")["adjusted_sum"] == 9 and state.vp[0] == 1
    assert column(state, 0, 3) == sorted(["-2/-3", "+1/+3", "-1/+1"]) and column(state, 0, 2) == []
    play(state, "play Y5", "play Y3", "play Y2")
    assert last(state, "trick")["sum"] == 10
    play(state, "flip -2/-3 -3")
    early = state.clone()
    play(early, "stop")
    assert early.vp[0] == 1 + 6  # stopping after the first flip: 3 × 2
    play(state, "flip +1/+3 +1", "flip -1/+1 -1")
    judge = last(state, "judge")
    assert judge["adjusted_sum"] == 7 and judge["flipped"] == 3 and judge["vp"] == 12
    assert column(state, 0, 3) == [] and state.vp[0] == 13


def test_ho_e13_fifth_trick_hangover_and_non_drinker_bonus() -> None:
    """HO-E13: P2's 5th trick hangs them over; active non-drinker P0 gains 1; P3 leads next."""
    state = position(
        4,
        {1: ["Y2"], 2: ["Y6^"], 3: ["Y3"], 0: ["Y6"]},
        size=2,
        leader=1,
        status={0: "non_drinker"},
        tricks={2: 4},
        vp={0: 6, 2: 5},
    )
    play(state, "play Y2", "play Y6^", "play Y3", "play Y6")
    trick = last(state, "trick")
    assert trick["winner"] == 2 and trick["outcome"] == "hangover" and trick["bonus"] == [0]
    assert state.scores() == [7, 0, 5, 0]
    assert state.view(None)["seats"][2]["status"] == "hung_over"
    assert state.current_player == 3 and state.decision() == "P3 leads trick 2"
    play(state, "any")
    state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])
    assert state.current_player == 2 and all(t.startswith("discard ") for t in texts(state))


def test_ho_e14_a_non_drinker_wins_a_trick() -> None:
    """HO-E14: P1 must play B4, wins, and is out with VP frozen at 3; P2 leads next."""
    state = position(
        3,
        {0: ["B2"], 1: ["B4"], 2: ["R5"]},
        size=3,
        leader=0,
        voids={1: "B", 2: "B"},
        status={1: "non_drinker"},
        vp={1: 3},
    )
    play(state, "play B2")
    assert texts(state) == ["play B4"]
    play(state, "play B4", "play R5")
    trick = last(state, "trick")
    assert trick["winner"] == 1 and trick["outcome"] == "out" and trick["bonus"] == []
    assert state.scores() == [0, 3, 0]
    assert state.view(None)["seats"][1]["status"] == "out_non_drinker"
    assert state.current_player == 2
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    assert state.scores()[1] == 3


def test_ho_e15_face_down_cannot_win_and_the_lead_skips_eliminated() -> None:
    """HO-E15: P3's face-down G6^ does not count; P2 wins with G4 (S = 8) and is out; P4 leads."""
    state = position(
        5,
        {1: ["G3"], 2: ["G4"], 3: ["G6^"], 4: ["G1"], 0: ["R7"]},
        size=2,
        leader=1,
        voids={0: "G"},
        status={3: "hung_over", 0: "non_drinker", 2: "non_drinker"},
        tricks={3: 5},
    )
    play(state, "play G3", "play G4", "discard G6^", "play G1", "play R7")
    trick = last(state, "trick")
    assert trick == {
        "type": "trick",
        "trick": 1,
        "winner": 2,
        "card": "G4",
        "sum": 8,
        "own_trick": 1,
        "outcome": "out",
        "bonus": [0],
    }
    assert state.scores() == [1, 0, 0, 0, 0]
    assert state.view(None)["tricks_played"][0]["cards"][2] == {"seat": 3, "card": None}
    assert state.view(3)["you"]["face_down"] == ["G6^"]
    assert state.current_player == 4 and state.decision() == "P4 leads trick 2"


def e16_state(**options: Any) -> HangoverState:
    state = deal(3, {0: ["R1", "B1", "Y1"], 1: ["R3"], 2: ["R2", "B2"]}, voids={1: "R"}, **options)
    arrange_and_declare(state, {}, declare=(0, 1, 2))
    return state


def test_ho_e16_everyone_declares_and_the_game_ends_early() -> None:
    """HO-E16: all non-drinkers; after trick 3 nobody is active and the game ends: VP 2, 0, 1."""
    state = e16_state()
    play(state, "play R1")
    assert texts(state) == ["play R3"]
    play(state, "play R3", "play R2")
    assert state.scores() == [1, 0, 1] and state.current_player == 2
    play(state, "play B2", "play B1", "any")
    assert state.scores() == [2, 0, 1] and state.current_player == 0
    play(state, "play Y1")
    state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])
    assert state.is_terminal and len(state.past) == 3
    assert [len(h) for h in state.hands] == [8, 8, 8]
    assert state.scores() == [2, 0, 1] and state.winners() == [0]
    assert state.returns() == [1.0, 0.0, 0.0]


def test_ho_e16_end_when_one_active() -> None:
    """HO-E16, with `end_when_one_active = true`: the game ends after trick 2; the same VP and winner."""
    state = e16_state(end_when_one_active=True)
    play(state, "play R1", "play R3", "play R2", "play B2", "play B1", "any")
    assert state.is_terminal and len(state.past) == 2
    assert state.scores() == [2, 0, 1] and state.winners() == [0]


def test_ho_e17_a_lone_active_player() -> None:
    """HO-E17: P2 plays on alone, is judged on tricks 3–6, hangs over on trick 7; P1 wins with 1 VP."""
    state = deal(3, {0: ["R5"], 1: ["R1", "B5"], 2: ["R2", "B1", "G4"]}, snacks={2: ["+2/+3"]})
    arrange_and_declare(state, {}, declare=(0, 1), first={2: "+2/+3"})
    play(state, "play R5", "play R1", "play R2")
    assert state.scores() == [0, 1, 0] and state.current_player == 1
    play(state, "play B5", "play B1", "any")
    assert state.scores() == [0, 1, 0] and state.current_player == 2
    assert [p["status"] for p in state.view(None)["seats"]] == [
        "out_non_drinker",
        "out_non_drinker",
        "drinker",
    ]
    # trick 3, P2's 1st: G4 alone, S = 4; +3 makes 7 = L: 6 VP
    play(state, "play G4", "any", "any")
    assert last(state, "trick")["sum"] == 4 and state.current_player == 2
    play(state, "flip +2/+3 +3")
    assert state.scores() == [0, 1, 6]
    judged = 0
    while not state.is_terminal:
        legal = texts(state)
        state.apply("stop" if "stop" in legal else legal[0])
        judged = sum(1 for e in state.view(None)["log"] if e["type"] == "judge")
    assert judged == 4  # tricks 3–6 are judged
    assert len(state.past) == 7 and last(state, "trick")["outcome"] == "hangover"
    assert state.winners() == [1]


def test_ho_e18_winners_at_game_end() -> None:
    """HO-E18: hung-over P0 has the most VP but cannot win; P1 and P2 tie at 7 and share the win."""
    state = position(4, {}, size=1, leader=0)
    for p, (name, points) in enumerate([("hung_over", 9), ("drinker", 7), ("out", 7), ("drinker", 5)]):
        state.status[p] = STATUS[name]
        state.vp[p] = points
    assert state.winners() == [1, 2]
    for p in range(4):
        state.status[p] = HUNG_OVER
    assert state.winners() == []


# -- the log's lines of text ---------------------------------------------------------------------


def log_texts(state: HangoverState, seat: int | None, kind: str | None = None) -> list[str]:
    return [e["text"] for e in state.view(seat)["log"] if kind is None or e["type"] == kind]


def test_log_texts_of_a_trick_and_its_judgement() -> None:
    """HO-E8 as the log tells it: the plays, the trick, the flip and the 6 VP judgement."""
    state = position(
        4,
        {3: ["Y2"], 0: ["Y2^"], 1: ["G5"], 2: ["Y6"]},
        size=2,
        leader=3,
        voids={1: "Y"},
        tricks={2: 1},
        vp={2: 2},
        columns={2: [[], ["-2/+2"], [], []]},
    )
    play(state, "play Y2", "play Y2^", "play G5", "play Y6", "flip -2/+2 +2")
    assert log_texts(state, 0) == [
        "P3 plays yellow 2.",
        "P0 plays yellow 2 △.",
        "P1 plays green 5.",
        "P2 plays yellow 6.",
        "P2 wins trick 1 with yellow 6 (sum 10): their 2nd trick, judged next.",
        "P2 flips snack -2/+2 and adds +2.",
        "P2's 2nd trick: adjusted sum 12, just the drunk limit 12: 3 VP × (1 + 1 snack flipped) = 6 VP.",
    ]


def test_log_texts_of_a_stop_and_a_slide() -> None:
    """HO-E5 with `stop`: 1 VP, and the unused column 1 slides into column 2."""
    state = deal(4, {0: ["B5"], 1: ["B5^"], 2: ["B1"], 3: ["R6"]}, snacks={1: ["-1/-2"]}, voids={3: "B"})
    arrange_and_declare(state, {}, first={1: "-1/-2"})
    play(state, "play B5", "play B5^", "play B1", "play R6", "stop")
    assert log_texts(state, 2, "declare")[:1] == ["P0 passes (stays a drinker)."]
    assert log_texts(state, 2)[-2:] == [
        "P1 stops flipping snacks.",
        "P1's 1st trick: sum 11, under the drunk limit 12: 1 VP × (1 + 0 snacks flipped) = 1 VP. "
        "Their unused column 1 slides into column 2.",
    ]


def test_log_texts_of_hangover_and_the_non_drinker_bonus() -> None:
    """HO-E13: the trick line says Hangover! and names the non-drinker who gains 1 VP."""
    state = position(
        4,
        {1: ["Y2"], 2: ["Y6^"], 3: ["Y3"], 0: ["Y6"]},
        size=2,
        leader=1,
        status={0: "non_drinker"},
        tricks={2: 4},
        vp={0: 6, 2: 5},
    )
    play(state, "play Y2", "play Y6^", "play Y3", "play Y6")
    assert log_texts(state, None, "trick") == [
        "P2 wins trick 1 with yellow 6 △ (sum 17): their 5th trick. Hangover! P2 is out and cannot win. "
        "Non-drinker P0 gains 1 VP."
    ]


def test_log_texts_never_name_a_face_down_card_to_others() -> None:
    """HO-E15: P3's face-down G6^ is named in P3's log only; the non-drinker P2 goes out."""
    state = position(
        5,
        {1: ["G3"], 2: ["G4"], 3: ["G6^"], 4: ["G1"], 0: ["R7"]},
        size=2,
        leader=1,
        voids={0: "G"},
        status={3: "hung_over", 0: "non_drinker", 2: "non_drinker"},
        tricks={3: 5},
    )
    play(state, "play G3", "play G4", "discard G6^", "play G1", "play R7")
    assert log_texts(state, 3, "discard") == ["P3 discards green 6 △ face down."]
    for seat in (None, 0, 1, 2, 4):
        assert log_texts(state, seat, "discard") == ["P3 discards a card face down."]
        assert not any("G6^" in line for line in log_texts(state, seat))
    assert log_texts(state, None, "trick") == [
        "P2 wins trick 1 with green 4 (sum 8): a non-drinker's first trick, so P2 is out (VP frozen, can still "
        "win). Non-drinker P0 gains 1 VP."
    ]


def test_log_text_of_the_game_end() -> None:
    """HO-E16: the end line gives why the game ended, every seat's VP and status, and the winner."""
    state = e16_state()
    play(state, "play R1", "play R3", "play R2", "play B2", "play B1", "any", "play Y1", "any", "any")
    assert state.is_terminal
    end = [e for e in state.view(1)["log"] if e["type"] == "game_end"]
    assert {k: v for k, v in end[0].items() if k not in ("text", "text_ja")} == {
        "type": "game_end",
        "reason": "no_active_player",
        "vp": [2, 0, 1],
        "status": ["out_non_drinker"] * 3,
        "winners": [0],
    }
    assert end[0]["text"] == (
        "Game over (no active player left: every player is out, as a non-drinker who won a trick or a "
        "drinker who hung over, so the cards still in hand are not played). Final VP:\n"
        "  P0: 2 VP (out non-drinker)\n"
        "  P1: 0 VP (out non-drinker)\n"
        "  P2: 1 VP (out non-drinker)\n"
        "P0 wins."
    )


def test_every_log_event_has_its_text() -> None:
    """Every event of every view carries its line, made from the event's own facts (so it says no more
    than they do); others' discards and snack orders stay unnamed."""
    from bodoge.games.hangover.text import event_text

    game = bodoge.make("hangover", players=4)
    for seed in range(3):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
        for seat in (None, 0, 1, 2, 3):
            log = state.view(seat)["log"]
            assert log[-1]["type"] == "game_end" and "Game over" in log[-1]["text"]
            for e in log:
                facts = {k: v for k, v in e.items() if k not in ("text", "text_ja")}
                assert e["text"] == event_text(game, facts, "en") and e["text"] != e["type"]
                if e["type"] == "discard" and e["seat"] != seat:
                    assert e["text"] == f"P{e['seat']} discards a card face down."
                if e["type"] == "arrange" and e["seat"] != seat:
                    assert "/" not in e["text"]


# -- the log's lines and the decision in Japanese ------------------------------------------------


def log_texts_ja(state: HangoverState, seat: int | None, kind: str | None = None) -> list[str]:
    return [e["text_ja"] for e in state.view(seat)["log"] if kind is None or e["type"] == kind]


def test_log_texts_ja_of_a_trick_and_its_judgement() -> None:
    """HO-E8 in Japanese: the same plays, trick, flip and 6 VP judgement as the English lines."""
    state = position(
        4,
        {3: ["Y2"], 0: ["Y2^"], 1: ["G5"], 2: ["Y6"]},
        size=2,
        leader=3,
        voids={1: "Y"},
        tricks={2: 1},
        vp={2: 2},
        columns={2: [[], ["-2/+2"], [], []]},
    )
    play(state, "play Y2", "play Y2^", "play G5", "play Y6")
    assert state.decision_ja() == "P2は2列目の肴カードを表にできます(合計値10、泥酔値12)"
    play(state, "flip -2/+2 +2")
    assert log_texts_ja(state, 0) == [
        "P3が黄の2を出した。",
        "P0が黄の2△を出した。",
        "P1が緑の5を出した。",
        "P2が黄の6を出した。",
        "P2が黄の6でトリック1を取った(合計値10)。自分の2トリック目。これから泥酔判定。",
        "P2が肴カード -2/+2 を表にして+2を加えた。",
        "P2の2トリック目の泥酔判定: 調整後の合計値12は泥酔値12ちょうど(ジャストリミット)。"
        "3VP × (1 + 表にした肴カード1枚) = 6VP。",
    ]


def test_log_texts_ja_of_a_slide_hangover_and_the_bonus() -> None:
    """HO-E5 with `stop` (a slide), HO-E13 (Hangover! and the non-drinker bonus), HO-E15 (a non-drinker
    goes out; a face-down card named only to its owner)."""
    state = deal(4, {0: ["B5"], 1: ["B5^"], 2: ["B1"], 3: ["R6"]}, snacks={1: ["-1/-2"]}, voids={3: "B"})
    arrange_and_declare(state, {}, first={1: "-1/-2"})
    assert log_texts_ja(state, 2, "declare")[:1] == ["P0はパスした(ドリンカーのまま)。"]
    assert state.decision_ja() == "P0がトリック1をリードします"
    play(state, "play B5")
    assert state.decision_ja() == "P1がトリック1にカードを出します(リードは青の5)"
    play(state, "play B5^", "play B1", "play R6", "stop")
    assert log_texts_ja(state, 2)[-2:] == [
        "P1は肴カードを表にするのをやめた。",
        "P1の1トリック目の泥酔判定: 合計値11は泥酔値12未満。1VP × (1 + 表にした肴カード0枚) = 1VP。"
        "使わなかった1列目の肴カードは2列目へスライドする。",
    ]

    state = position(
        4,
        {1: ["Y2"], 2: ["Y6^"], 3: ["Y3"], 0: ["Y6"]},
        size=2,
        leader=1,
        status={0: "non_drinker"},
        tricks={2: 4},
        vp={0: 6, 2: 5},
    )
    play(state, "play Y2", "play Y6^", "play Y3", "play Y6")
    assert log_texts_ja(state, None, "trick") == [
        "P2が黄の6△でトリック1を取った(合計値17)。自分の5トリック目なのでハングオーバー! "
        "P2は脱落し、勝利できない。下戸のP0が1VPを得る。"
    ]

    state = position(
        5,
        {1: ["G3"], 2: ["G4"], 3: ["G6^"], 4: ["G1"], 0: ["R7"]},
        size=2,
        leader=1,
        voids={0: "G"},
        status={3: "hung_over", 0: "non_drinker", 2: "non_drinker"},
        tricks={3: 5},
    )
    play(state, "play G3", "play G4")
    assert state.decision_ja() == "P3がトリック1にカードを裏向きに出します(リードは緑の3)"
    play(state, "discard G6^", "play G1", "play R7")
    assert log_texts_ja(state, 3, "discard") == ["P3が緑の6△を裏向きに出した。"]
    for seat in (None, 0, 1, 2, 4):
        assert log_texts_ja(state, seat, "discard") == ["P3がカードを1枚裏向きに出した。"]
        assert not any("緑の6△" in line or "G6^" in line for line in log_texts_ja(state, seat))
    assert log_texts_ja(state, None, "trick") == [
        "P2が緑の4でトリック1を取った(合計値8)。下戸が初めてトリックを取ったので、P2は脱落"
        "(VPは確定、勝利の可能性は残る)。下戸のP0が1VPを得る。"
    ]


def test_log_text_ja_of_the_game_end() -> None:
    """HO-E16 in Japanese: why the game ended, every seat's VP and status, and the winner."""
    state = e16_state()
    play(state, "play R1", "play R3", "play R2", "play B2", "play B1", "any", "play Y1", "any", "any")
    assert state.is_terminal and state.decision_ja() == "ゲーム終了"
    assert log_texts_ja(state, 1, "game_end") == [
        "ゲーム終了(脱落していないプレイヤーがいなくなった。トリックを取った下戸と、ハングオーバーした人は"
        "脱落するため、残りの手札は出さずに終わります)。最終VP:\n"
        "  P0: 2VP(脱落した下戸)\n"
        "  P1: 0VP(脱落した下戸)\n"
        "  P2: 1VP(脱落した下戸)\n"
        "P0の勝利。"
    ]
    assert log_texts_ja(state, None, "declare") == [
        "P0が下戸宣言をした。",
        "P1が下戸宣言をした。",
        "P2が下戸宣言をした。",
    ]


def test_every_log_event_and_decision_has_its_japanese() -> None:
    """Random games: every event of every view carries a non-empty "text_ja" made from its own facts,
    another seat's face-down card or snack order is never named in it, and every decision has its
    Japanese."""
    from bodoge.games.hangover.text import event_text

    for players, seed in ((3, 0), (4, 1), (5, 2)):
        game = bodoge.make("hangover", players=players)
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            assert state.decision_ja() and state.decision_ja() != state.decision()
            state.apply(rng.choice(state.legal_actions()))
        assert state.decision_ja() == "ゲーム終了"
        for seat in (None, *range(players)):
            log = state.view(seat)["log"]
            assert log[-1]["type"] == "game_end" and log[-1]["text_ja"].startswith("ゲーム終了")
            for e in log:
                facts = {k: v for k, v in e.items() if k not in ("text", "text_ja")}
                assert e["text_ja"] and e["text_ja"] == event_text(game, facts, "ja") != e["type"]
                if e["type"] == "discard" and e["seat"] != seat:
                    assert e["text_ja"] == f"P{e['seat']}がカードを1枚裏向きに出した。"
                if e["type"] == "arrange" and e["seat"] != seat:
                    assert "/" not in e["text_ja"]
            # a face-down card is never shown later: no line of another seat names it
            lines = "\n".join(e["text_ja"] for e in log)
            for q in range(players):
                if q != seat:
                    for c in state.discards[q]:
                        assert not re.search(re.escape(drink_name(c, "ja")) + "(?!△)", lines)
