"""Hangover: the pure functions, the options, the stacked deck, the deals (HO-E1–E3) and views."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import bodoge
from bodoge.errors import BadOption, IllegalAction
from bodoge.games.hangover import drunk_vp, trick_winner
from bodoge.games.hangover.cards import DEFAULT_SNACK_DECK, DRINK_CODES, KEY, NUMBER, drink_deck
from bodoge.games.hangover.rules import Hangover
from bodoge.games.hangover.state import HangoverState

CODES = list(DRINK_CODES)


def canonical_deck(players: int) -> dict[str, list[str]]:
    removed = {3: [6, 7], 4: [7], 5: []}[players]
    return {"drink": [DRINK_CODES[c] for c in drink_deck(removed)], "snack": list(DEFAULT_SNACK_DECK)}


def hands(state: HangoverState) -> list[str]:
    return [" ".join(DRINK_CODES[c] for c in h) for h in state.hands]


def snacks(state: HangoverState) -> list[list[str]]:
    return [[state.game.snack_codes[d] for d in h] for h in state.snack_hands]


# -- components ----------------------------------------------------------------------------------


def test_components_and_rank_keys() -> None:
    """HO-1.1, HO-1.2: 56 drink cards, two per (suit, number); key = 2 × number + △."""
    assert len(CODES) == 56 and len(set(CODES)) == 56
    assert CODES[:4] == ["R1", "R1^", "R2", "R2^"] and CODES[-1] == "G7^"
    i = CODES.index
    assert KEY[i("R6^")] == 13 and KEY[i("R6")] == 12 and KEY[i("R5^")] == 11 and KEY[i("R5")] == 10
    assert NUMBER[i("Y4^")] == NUMBER[i("Y4")] == 4
    assert len(DEFAULT_SNACK_DECK) == 20 and len(set(DEFAULT_SNACK_DECK)) == 10


# -- pure functions --------------------------------------------------------------------------------


def test_trick_winner_examples() -> None:
    """HO-E6, HO-E10, HO-E13, HO-E15 as bare tricks; HO-D1/HO-D2: the lead follows, others never win."""
    assert trick_winner(["Y5", "R5^", "B4"]) == 0  # HO-E6
    assert trick_winner(["B5", "B5^", "B1", "R6"]) == 1  # HO-E5
    assert trick_winner(["R6^", "R2", "R6", "B3"]) == 0  # HO-E10 (a): △ beats the plain copy
    assert trick_winner(["Y2", "Y6^", "Y3", "Y6"]) == 1  # HO-E13
    assert trick_winner(["G3", "G4", None, "G1", "R7"]) == 1  # HO-E15: a face-down G6^ cannot win
    assert trick_winner(["R1"]) == 0


def test_trick_winner_rejects_bad_input() -> None:
    with pytest.raises(ValueError):
        trick_winner([])
    with pytest.raises(ValueError):
        trick_winner([None, "R1"])
    with pytest.raises(ValueError):
        trick_winner(["R8", "R1"])


@given(st.lists(st.sampled_from([*CODES, None]), min_size=1, max_size=5, unique=True), st.sampled_from(CODES))
def test_trick_winner_properties(rest: list[str | None], lead: str) -> None:
    """The winner is a face-up card of the lead suit with the highest key among those."""
    cards = [lead, *[c for c in rest if c != lead]]
    w = trick_winner(cards)
    winner = cards[w]
    assert winner is not None and winner[0] == lead[0]
    keys = [KEY[CODES.index(c)] for c in cards if c is not None and c[0] == lead[0]]
    assert KEY[CODES.index(winner)] == max(keys)


def test_drunk_vp_bands() -> None:
    """HO-4.6.1 and HO-D24: under / just / over, a zero or negative sum is under."""
    assert drunk_vp(11, 12) == 1 and drunk_vp(12, 12) == 3 and drunk_vp(13, 12) == 0
    assert drunk_vp(0, 7) == 1 and drunk_vp(-3, 7) == 1
    assert drunk_vp(7, 7, under=2, just=5, over=-1) == 5
    assert drunk_vp(8, 7, under=2, just=5, over=-1) == -1


@given(st.integers(-20, 40), st.integers(1, 30), st.integers(-5, 5), st.integers(-5, 5), st.integers(-5, 5))
def test_drunk_vp_properties(total: int, limit: int, under: int, just: int, over: int) -> None:
    vp = drunk_vp(total, limit, under, just, over)
    assert vp == (under if total < limit else just if total == limit else over)


# -- options ---------------------------------------------------------------------------------------


def test_default_options_are_draft_2() -> None:
    game = bodoge.make("hangover", players=4)
    assert game.options_json() == {
        "drunk_limit": {"3": 7, "4": 12, "5": 16},
        "vp_under": 1,
        "vp_just": 3,
        "vp_over": 0,
        "hangover_trick": 5,
        "hand_size": 11,
        "snacks_per_player": 4,
        "removed_numbers": {"3": [6, 7], "4": [7], "5": []},
        "snack_deck": list(DEFAULT_SNACK_DECK),
        "non_drinker": True,
        "end_when_one_active": False,
    }
    again = bodoge.make("hangover", players=4, **json.loads(json.dumps(game.options_json())))
    assert again.options == game.options
    assert [bodoge.make("hangover", players=n).limit for n in (3, 4, 5)] == [7, 12, 16]


def test_options_accept_json_and_cli_forms() -> None:
    game = bodoge.make(
        "hangover",
        players=3,
        drunk_limit='{"3": 9, "4": 12, "5": 16}',
        removed_numbers={"3": [7], "4": [], "5": []},
        snack_deck=["+1/+2", "−2/+2", "-4/+4"],
        snacks_per_player="1",
        non_drinker="false",
    )
    assert game.limit == 9 and len(game.drink_cards) == 48
    assert game.options["snack_deck"] == ("+1/+2", "-2/+2", "-4/+4")


def test_one_value_stands_for_every_player_count() -> None:
    """`--set drunk_limit=11,12,13`: a plain value is the same at every count (the record keeps the map)."""
    game = bodoge.make("hangover", players=4, drunk_limit="11", removed_numbers=[6])
    assert game.limit == 11 and len(game.drink_cards) == 48
    assert game.options_json()["drunk_limit"] == {"3": 11, "4": 11, "5": 11}
    assert game.options_json()["removed_numbers"] == {"3": [6], "4": [6], "5": [6]}


@pytest.mark.parametrize(
    ("option", "value", "words"),
    [
        ("drunk_limit", {3: 7, 4: 12}, "3, 4, 5"),
        ("drunk_limit", {3: 0, 4: 12, 5: 16}, "from 1 to 1000"),
        ("drunk_limit", {3: 7, 4: 12, 5: 16, 6: 20}, "3, 4, 5"),
        ("drunk_limit", "lots", "map"),
        ("drunk_limit", 0, "from 1 to 1000"),
        ("vp_just", "lots", "an integer from -1000000 to 1000000"),
        ("hangover_trick", 1, "from 2 to 19"),
        ("hand_size", 0, "from 1 to 18"),
        ("snacks_per_player", -1, "from 0 to 20"),
        ("removed_numbers", {3: [8], 4: [7], 5: []}, "1–7"),
        ("removed_numbers", {3: [6, 6], 4: [7], 5: []}, "distinct"),
        ("snack_deck", ["+1/+2", "+10/+2"], "±a/±b"),
        ("snack_deck", ["1/2"], "±a/±b"),
        ("snack_deck", "+1/+2", "list"),
        ("non_drinker", "maybe", "true or false"),
        ("end_when_one_active", 2, "true or false"),
    ],
)
def test_bad_option_values_are_refused(option: str, value: object, words: str) -> None:
    """HO-2.4: each option outside its allowed values is a BadOption naming it and what is allowed."""
    with pytest.raises(BadOption) as exc:
        bodoge.make("hangover", players=3, **{option: value})
    assert exc.value.option == option
    assert words in exc.value.allowed


def test_cross_option_checks() -> None:
    """HO-2.3: hand_size × n ≤ drink cards in play; snacks_per_player × n ≤ the snack deck."""
    with pytest.raises(BadOption, match="hand_size") as exc:
        bodoge.make("hangover", players=3, hand_size=14)  # 40 cards in play for 3 players
    assert "1 to 13" in exc.value.allowed
    bodoge.make("hangover", players=3, hand_size=13)
    with pytest.raises(BadOption, match="hand_size"):
        bodoge.make("hangover", players=5, removed_numbers={3: [], 4: [], 5: [1, 2, 3, 4, 5, 6, 7]})
    with pytest.raises(BadOption, match="snacks_per_player") as exc:
        bodoge.make("hangover", players=5, snacks_per_player=5)
    assert "0 to 4" in exc.value.allowed
    with pytest.raises(BadOption, match="snacks_per_player"):  # 9! orderings in one decision
        bodoge.make("hangover", players=3, snacks_per_player=9, hangover_trick=10, snack_deck=["+1/+2"] * 27)


def test_non_default_options_play_to_the_end() -> None:
    """Odd designs still make whole games: wrapping columns (HO-D22), no snacks, one column."""
    variants = [
        {"snacks_per_player": 6, "hangover_trick": 3},
        {"snacks_per_player": 0, "non_drinker": False},
        {"hangover_trick": 2, "snacks_per_player": 4, "end_when_one_active": True},
        {"hand_size": 3, "vp_over": -2, "snack_deck": ["+0/-0", "+1/+1", "-9/+9"] * 5},
    ]
    for options in variants:
        game = bodoge.make("hangover", players=3, **options)
        for seed in range(15):
            state = game.new_state(seed=seed)
            rng = random.Random(seed)
            while not state.is_terminal:
                legal = state.legal_actions()
                texts = [state.action_text(a) for a in legal]
                assert len(set(texts)) == len(texts)
                state.apply(rng.choice(legal))
                state.check_invariants()
                if rng.random() < 0.05:
                    p = rng.randrange(3)
                    s2 = game.sample_state(state.view(p), rng)
                    assert s2.view(p) == state.view(p)
            assert len(state.history) <= game.max_game_length()


def test_wrapped_arrangement_counts_outcomes_once() -> None:
    """HO-D22: with 6 snacks and 2 columns, orderings that fill the columns alike are one choice."""
    game = bodoge.make("hangover", players=3, snacks_per_player=6, hangover_trick=3)
    state = game.new_state(seed=3)
    legal = state.legal_actions()
    assert len(legal) <= 20  # C(6, 3) ways to split six cards into two columns of three
    if len(set(state.snack_hands[0])) == 6:
        assert len(legal) == 20
    codes = state.action_text(legal[-1]).split()[1:]
    # cards 1, 3, 5 go to column 1 and cards 2, 4, 6 to column 2: reorder within the columns
    reordered = [codes[4], codes[3], codes[0], codes[1], codes[2], codes[5]]
    assert state.parse_action("arrange " + " ".join(reordered)) == legal[-1]
    state.apply("arrange " + " ".join(reordered))
    assert sorted(state.view(0)["you"]["columns"][0]) == sorted(codes[0::2])


# -- stacked deck and deals ----------------------------------------------------------------------


def test_ho_e1_three_player_deal() -> None:
    """HO-E1: 3 players, canonical order; 6s and 7s removed; L = 7."""
    game = bodoge.make("hangover", players=3)
    state = game.new_state(seed=0, deck=canonical_deck(3))
    assert hands(state) == [
        "R1 R2^ R4 R5^ B2 B3^ B5 Y1^ Y3 Y4^ G1",
        "R1^ R3 R4^ B1 B2^ B4 B5^ Y2 Y3^ Y5 G1^",
        "R2 R3^ R5 B1^ B3 B4^ Y1 Y2^ Y4 Y5^ G2",
    ]
    assert [DRINK_CODES[c] for c in state.aside] == ["G2^", "G3", "G3^", "G4", "G4^", "G5", "G5^"]
    assert snacks(state) == [
        ["+1/+2", "-1/-2", "-2/-3", "+1/+3"],
        ["+1/+2", "+2/+3", "-2/-3", "-1/-3"],
        ["-1/-2", "+2/+3", "+1/+3", "-1/-3"],
    ]
    assert [game.snack_codes[d] for d in state.snack_aside] == (
        ["-1/+1", "-1/+1", "-2/+2", "-2/+2", "-3/+3", "-3/+3", "-4/+4", "-4/+4"]
    )
    assert state.view(0)["drunk_limit"] == 7


def test_ho_e2_four_player_deal() -> None:
    """HO-E2: 4 players, canonical order; 7s removed; L = 12."""
    state = bodoge.make("hangover", players=4).new_state(seed=0, deck=canonical_deck(4))
    assert hands(state) == [
        "R1 R3 R5 B1 B3 B5 Y1 Y3 Y5 G1 G3",
        "R1^ R3^ R5^ B1^ B3^ B5^ Y1^ Y3^ Y5^ G1^ G3^",
        "R2 R4 R6 B2 B4 B6 Y2 Y4 Y6 G2 G4",
        "R2^ R4^ R6^ B2^ B4^ B6^ Y2^ Y4^ Y6^ G2^ G4^",
    ]
    assert [DRINK_CODES[c] for c in state.aside] == ["G5", "G5^", "G6", "G6^"]
    assert snacks(state) == [
        ["+1/+2", "+2/+3", "+1/+3", "-1/+1"],
        ["+1/+2", "+2/+3", "+1/+3", "-1/+1"],
        ["-1/-2", "-2/-3", "-1/-3", "-2/+2"],
        ["-1/-2", "-2/-3", "-1/-3", "-2/+2"],
    ]
    assert [state.game.snack_codes[d] for d in state.snack_aside] == ["-3/+3", "-3/+3", "-4/+4", "-4/+4"]
    assert state.game.limit == 12


def test_ho_e3_five_player_deal() -> None:
    """HO-E3: 5 players, all 56 cards; one set aside; all 20 snacks dealt; L = 16."""
    state = bodoge.make("hangover", players=5).new_state(seed=0, deck=canonical_deck(5))
    assert hands(state) == [
        "R1 R3^ R6 B1^ B4 B6^ Y2 Y4^ Y7 G2^ G5",
        "R1^ R4 R6^ B2 B4^ B7 Y2^ Y5 Y7^ G3 G5^",
        "R2 R4^ R7 B2^ B5 B7^ Y3 Y5^ G1 G3^ G6",
        "R2^ R5 R7^ B3 B5^ Y1 Y3^ Y6 G1^ G4 G6^",
        "R3 R5^ B1 B3^ B6 Y1^ Y4 Y6^ G2 G4^ G7",
    ]
    assert [DRINK_CODES[c] for c in state.aside] == ["G7^"]
    assert snacks(state) == [
        ["+1/+2", "+2/+3", "-1/-3", "-2/+2"],
        ["+1/+2", "-2/-3", "-1/-3", "-3/+3"],
        ["-1/-2", "-2/-3", "-1/+1", "-3/+3"],
        ["-1/-2", "+1/+3", "-1/+1", "-4/+4"],
        ["+2/+3", "+1/+3", "-2/+2", "-4/+4"],
    ]
    assert state.snack_aside == [] and state.game.limit == 16


@pytest.mark.parametrize(
    "deck",
    [
        [1, 2, 3],
        {"drink": []},
        {"drink": "R1", "snack": []},
        {"drink": ["R1"], "snack": list(DEFAULT_SNACK_DECK)},
        {"drink": ["R9", *canonical_deck(3)["drink"][1:]], "snack": list(DEFAULT_SNACK_DECK)},
        {"drink": ["R7", *canonical_deck(3)["drink"][1:]], "snack": list(DEFAULT_SNACK_DECK)},
        {"drink": canonical_deck(3)["drink"], "snack": list(DEFAULT_SNACK_DECK)[1:]},
        {"drink": canonical_deck(3)["drink"], "snack": ["+5/+6", *DEFAULT_SNACK_DECK[1:]]},
        {"drink": canonical_deck(3)["drink"], "snack": ["x", *DEFAULT_SNACK_DECK[1:]]},
    ],
)
def test_bad_stacked_decks_are_refused(deck: object) -> None:
    """HO-3.3: the stacked deck is {"drink": [...], "snack": [...]}, each a reordering of the cards."""
    with pytest.raises(BadOption) as exc:
        bodoge.make("hangover", players=3).new_state(seed=0, deck=deck)
    assert exc.value.option == "deck" and '"drink"' in exc.value.allowed


def test_stacked_deck_is_recorded_and_replayed() -> None:
    game = bodoge.make("hangover", players=3)
    deck = canonical_deck(3)
    deck["drink"].reverse()
    state = game.new_state(seed=4, deck=deck)
    rng = random.Random(4)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    record = json.loads(json.dumps(state.to_record()))
    assert record["deck"] == deck
    assert bodoge.replay(record).view(1) == state.view(1)


def test_seeded_deals_differ_and_repeat() -> None:
    game = bodoge.make("hangover", players=4)
    assert game.new_state(seed=1).hands == game.new_state(seed=1).hands
    assert game.new_state(seed=1).hands != game.new_state(seed=2).hands


# -- decisions, texts, views ---------------------------------------------------------------------


def test_setup_decisions_and_texts() -> None:
    """HO-4.1, HO-4.2: arrangements in seat order, then declarations in seat order, then P0 leads."""
    game = bodoge.make("hangover", players=3)
    state = game.new_state(seed=0, deck=canonical_deck(3))
    assert state.current_player == 0 and "arranges" in state.decision()
    legal = state.legal_actions()
    assert len(legal) == 24  # four different codes
    state.apply("arrange -2/-3 +1/+2 +1/+3 -1/-2")
    assert [[game.snack_codes[d] for d in c] for c in state.columns[0]] == [
        ["-2/-3"],
        ["+1/+2"],
        ["+1/+3"],
        ["-1/-2"],
    ]
    assert state.view(1)["seats"][0]["columns"] == [1, 1, 1, 1]
    assert "you" in state.view(0) and state.view(0)["you"]["columns"][0] == ["-2/-3"]
    assert state.view(1)["log"] == [
        {
            "type": "arrange",
            "seat": 0,
            "order": None,
            "text": "P0 arranges their snack cards face down into columns.",
            "text_ja": "P0が肴カードを伏せて列に並べた。",
        }
    ]
    assert state.view(0)["log"] == [
        {
            "type": "arrange",
            "seat": 0,
            "order": ["-2/-3", "+1/+2", "+1/+3", "-1/-2"],
            "text": "P0 arranges their snack cards face down into columns (order -2/-3 +1/+2 +1/+3 -1/-2).",
            "text_ja": "P0が肴カードを伏せて列に並べた(順に -2/-3 +1/+2 +1/+3 -1/-2)。",
        }
    ]
    state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])
    assert state.current_player == 0 and "declares" in state.decision()
    assert [state.action_text(a) for a in state.legal_actions()] == ["declare", "pass"]
    state.apply("declare")
    state.apply("pass")
    state.apply("PASS")
    assert state.view(None)["seats"][0]["status"] == "non_drinker"
    assert [p["declared"] for p in state.view(None)["seats"]] == [True, False, False]
    assert state.decision() == "P0 leads trick 1"
    assert [state.action_text(a) for a in state.legal_actions()][:2] == ["play R1", "play R2^"]


def test_duplicate_snack_copies_are_one_choice() -> None:
    """HO-4.1: orderings that differ only by swapping two copies of one code are one choice."""
    deck = canonical_deck(4)  # P0 holds +1/+2 +2/+3 +1/+3 -1/+1; put a second +1/+2 in it
    snack = deck["snack"]
    snack[4], snack[1] = snack[1], snack[4]
    state = bodoge.make("hangover", players=4).new_state(seed=0, deck=deck)
    assert sorted(snacks(state)[0]) == sorted(["+1/+2", "+1/+2", "+1/+3", "-1/+1"])
    assert len(state.legal_actions()) == 12


def test_illegal_texts_say_why() -> None:
    state = bodoge.make("hangover", players=3).new_state(seed=0, deck=canonical_deck(3))
    with pytest.raises(IllegalAction, match="legal"):
        state.apply("arrange +1/+2 +1/+2 -2/-3 +1/+3")
    with pytest.raises(IllegalAction):
        state.apply("snack +1/+2 as +2")
    with pytest.raises(IllegalAction):
        state.apply("play R1")


def test_views_hide_hands_snacks_and_face_down_cards() -> None:
    """§7: own hand and columns; others' counts only; face-down discards seen by the owner only."""
    game = bodoge.make("hangover", players=3)
    for seed in range(6):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
            for seat in (None, 0, 1, 2):
                view = state.view(seat)
                for q, player in enumerate(view["seats"]):
                    assert player["face_down"] == len(state.discards[q])
                    assert player["columns"] == [len(c) for c in state.columns[q]]
                for event in view["log"]:
                    if event["type"] == "discard":
                        assert (event["card"] is not None) == (event["seat"] == seat)
                    if event["type"] == "arrange":
                        assert (event["order"] is not None) == (event["seat"] == seat)
                assert ("you" in view) == (seat is not None)
                if seat is not None:
                    assert view["you"]["hand"] == [DRINK_CODES[c] for c in state.hands[seat]]
                    assert view["you"]["face_down"] == [DRINK_CODES[c] for c in state.discards[seat]]
                for entry in view["trick"]:
                    assert entry["card"] is None or entry["card"] in DRINK_CODES


@pytest.mark.parametrize(("players", "options"), [(3, {}), (4, {}), (5, {"end_when_one_active": True})])
def test_log_entries_have_the_same_keys_for_every_viewer(players: int, options: dict[str, object]) -> None:
    """The event vocabulary (issue #34): a face-down discard or a snack order another seat did not see
    is None, never a missing key; a flipped snack is a `card`; the log ends with one game_end, exactly
    at the end, with the winners; a view's flipped snack is a `card` too."""
    game = bodoge.make("hangover", players=players, **options)
    for seed in range(3):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        viewers = [None, *range(players)]
        while True:
            logs = {seat: state.view(seat)["log"] for seat in viewers}
            spectator = logs[None]
            for seat in viewers:
                assert [e.keys() for e in logs[seat]] == [e.keys() for e in spectator]
            ends = [e for e in spectator if e["type"] == "game_end"]
            if state.is_terminal:
                break
            assert ends == []
            state.apply(rng.choice(state.legal_actions()))
        assert len(ends) == 1 and spectator[-1] is ends[0]
        assert ends[0]["winners"] == state.winners()
        assert ends[0]["reason"] in ("hands_empty", "no_active_player", "one_active_player")
        assert ends[0]["vp"] == list(state.vp)
        for e in spectator:
            assert "player" not in e and "snack" not in e and e["type"] != "end"
            if e["type"] == "discard":
                assert e["card"] is None
            if e["type"] == "arrange":
                assert e["order"] is None
            if e["type"] == "flip":
                assert e["card"] in DEFAULT_SNACK_DECK
        for q, player in enumerate(state.view(None)["seats"]):
            assert [f["card"] for f in player["flipped"]] == [
                e["card"] for e in spectator if e["type"] == "flip" and e["seat"] == q
            ]


def test_render_and_rules_summary() -> None:
    state = bodoge.make("hangover", players=5).new_state(seed=2)
    board = state.render(0)
    assert "Your hand:" in board and "drunk limit 16" in board
    assert "Your hand:" not in state.render(None)
    for lang in ("en", "ja"):
        assert 30 <= len(Hangover.rules_summary(lang).strip().splitlines()) <= 60
    assert isinstance(Hangover.title["ja"], str)


def shown_voids(state: HangoverState) -> dict[int, set[int]]:
    """The suits each player showed they lack: a face-up card off the lead suit."""
    n = state.game.num_players
    voids: dict[int, set[int]] = {q: set() for q in range(n)}
    tricks = [(lead, list(cards)) for lead, cards, _ in state.past] + [(state.leader, state.trick)]
    for lead, cards in tricks:
        for i, c in enumerate(cards[1:], start=1):
            if c >= 0 and c // 14 != cards[0] // 14:
                voids[(lead + i) % n].add(cards[0] // 14)
    return voids


def test_sample_state_for_spectators_and_known_voids() -> None:
    """sample_state keeps what a view shows: a spectator's view too, and no player is dealt a suit they
    showed they lack (nobody draws, so a void stays a void)."""
    game = bodoge.make("hangover", players=4)
    rng = random.Random(5)
    checked = 0
    for seed in range(12):
        state = game.new_state(seed=seed)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
            if state.is_terminal or rng.random() < 0.7:
                continue
            voids = shown_voids(state)
            for seat in (None, 0):
                view = state.view(seat)
                s2 = game.sample_state(view, rng)
                assert isinstance(s2, HangoverState)
                assert s2.view(seat) == view
                for q in range(4):
                    if q != seat:
                        assert not any(c // 14 in voids[q] for c in s2.hands[q] + s2.discards[q])
                        checked += len(voids[q])
    assert checked > 0
