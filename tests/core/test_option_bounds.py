"""Every option of every game is bounded on both sides (issue #15: a server on the internet).

The bounds keep every score, count and view within what JSON and a browser carry exactly
(|n| ≤ 2**53 − 1) and keep setting up a game cheap. These tests walk each game's `option_specs`, so
an option added later is covered (or the tables below fail to cover it, which fails too).
"""

from __future__ import annotations

import random
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import bodoge
from bodoge.core import Game, Option
from bodoge.core import options as opts
from bodoge.core.game import MAX_SEED
from bodoge.core.registry import game_class
from bodoge.errors import BadOption

GAMES = bodoge.games()
SPECS = [(name, spec) for name in GAMES for spec in game_class(name).option_specs]
INTEGERS = [(name, spec) for name, spec in SPECS if spec.lo is not None]


def is_boolean(spec: Option) -> bool:
    return spec.convert is opts.as_bool


STRUCTURED = {(name, spec.name) for name, spec in SPECS if spec.lo is None and not is_boolean(spec)}


def ids(cases: list[tuple[str, Option]]) -> list[str]:
    return [f"{name}-{spec.name}" for name, spec in cases]


def number_card(code: str, slots: list[Any], copies: int = 1, **more: Any) -> dict[str, Any]:
    return {"code": code, "kind": "number", "slots": slots, "effect": "none", "copies": copies, **more}


def tarot(code: str, points: int = 1, copies: int = 1, **more: Any) -> dict[str, Any]:
    return {"code": code, "points": points, "copies": copies, **more}


#: Tokkuri's largest decks: 200 cards of 4 types, and 200 types of one card.
TOKKURI_200 = [number_card(str(v), [v], 50) for v in (1, 2, 3, 4)]
TOKKURI_200_TYPES = [number_card(f"n{i}", [i % 100 + 1]) for i in range(200)]
TROIKA_ALL = [20] * 15


def make(name: str, **options: Any) -> Game:
    players = options.pop("players", None)
    return bodoge.make(name, players=players, **options)


# -- integer options --------------------------------------------------------------------------------

#: Options set beside an integer option at one of its bounds, where the defaults would not fit it.
CONTEXT: dict[tuple[str, str, str], dict[str, Any]] = {
    ("tokkuri", "hand_size", "hi"): {"players": 2, "deck": TOKKURI_200},  # TK-2.3: 2 × 100 ≤ 200
    ("tokkuri", "rounds", "hi"): {"max_rounds": 100},  # rounds ≤ max_rounds
    ("tokkuri", "max_tokkuri", "lo"): {"players": 2},  # one tokkuri per player at least (TK-D20)
    ("tottarot", "max_will", "lo"): {"turns_per_round": 2},  # TT-D26
    ("tottarot", "turns_per_round", "hi"): {"players": 2, "max_will": 9},  # 2 × 10 ≤ 21 cards
    ("hangover", "hand_size", "hi"): {"players": 3, "removed_numbers": []},  # 3 × 18 ≤ 56
    ("hangover", "snacks_per_player", "hi"): {
        "players": 3,
        "hangover_trick": 2,
        "snack_deck": ["+1/+2"] * 60,
    },
    ("troika", "two_player_removed", "hi"): {"players": 2, "tile_counts": TROIKA_ALL},  # TR-2.3
}


def test_the_tables_name_real_options() -> None:
    names = {(name, spec.name) for name, spec in SPECS}
    assert {(g, o) for g, o, _ in CONTEXT} <= names
    assert set(PAST_BOUNDS) == STRUCTURED, "every structured option needs its cases past the bounds"
    assert set(AT_BOUNDS) == STRUCTURED and set(NESTED_SURROGATES) == STRUCTURED


@pytest.mark.parametrize(("name", "spec"), INTEGERS, ids=ids(INTEGERS))
def test_integer_options_name_both_bounds(name: str, spec: Option) -> None:
    assert spec.lo is not None and spec.hi is not None
    assert -opts.MAX_SAFE_INT <= spec.lo < spec.hi <= opts.MAX_SAFE_INT
    assert f"from {spec.lo} to {spec.hi}" in spec.allowed
    for value, bound in (
        (spec.lo - 1, f"at least {spec.lo}"),
        (spec.hi + 1, f"at most {spec.hi}"),
        (-(2**64), f"at least {spec.lo}"),
        (2**64, f"at most {spec.hi}"),
        (str(2**64), f"at most {spec.hi}"),
    ):
        with pytest.raises(BadOption) as exc:
            bodoge.make(name, **{spec.name: value})
        assert exc.value.option == spec.name
        assert exc.value.reason == f"out of range: {bound}"
        assert exc.value.allowed == spec.allowed


@pytest.mark.parametrize(("name", "spec"), INTEGERS, ids=ids(INTEGERS))
@pytest.mark.parametrize("which", ["lo", "hi"])
def test_integer_options_accept_their_bounds(name: str, spec: Option, which: str) -> None:
    value = getattr(spec, which)
    game = make(name, **CONTEXT.get((name, spec.name, which), {}), **{spec.name: value})
    assert game.options[spec.name] == value
    check_views(game.new_state(seed=1))


@pytest.mark.parametrize(("name", "spec"), SPECS, ids=ids(SPECS))
def test_huge_and_surrogate_values_are_refused(name: str, spec: Option) -> None:
    for value in (2**64, -(2**64), "\ud800", "9" * 100_000):
        with pytest.raises(BadOption) as exc:
            bodoge.make(name, **{spec.name: value})
        assert exc.value.option == spec.name
    with pytest.raises(BadOption, match="valid Unicode text") as exc:
        bodoge.make(name, **{spec.name: "\ud800"})
    str(exc.value).encode()  # the message itself is valid text


# -- structured options -----------------------------------------------------------------------------

#: (value, words of the reason) just past each bound of a structured option.
PAST_BOUNDS: dict[tuple[str, str], list[tuple[Any, str]]] = {
    ("tokkuri", "deck"): [
        ([number_card(str(v), [v], 41) for v in range(1, 6)], "205 cards in all; at most 200"),
        ([number_card(f"n{i}", [1]) for i in range(201)], "201 card types; at most 200"),
        ([number_card("1", [1], 51)], "copies: out of range: at most 50"),
        ([number_card("1", [1], 0)], "copies: out of range: at least 1"),
        ([number_card("1", [1] * 7, 40)], "7 slots; at most 6"),
        ([number_card("1", [101], 40)], "slot 101: out of range: at most 100"),
        ([number_card("1", [0], 40)], "slot 0: out of range: at least 1"),
        ([number_card("1", ["2~101"], 40)], "out of range: at most 100"),
        ([number_card("1", ["0~3"], 40)], "out of range: at least 1"),
        ([number_card("1", ["1~25", "1~41"], 40)], "1025 drink choices; at most 1024"),
        ([number_card("x" * 17, [1], 40)], "17 characters long; at most 16"),
        ([number_card("1", [1], 40, name_en="x" * 65)], "65 characters long; at most 64"),
        ([number_card("1", [1], 40, name_ja="酒" * 65)], "65 characters long; at most 64"),
    ],
    ("tottarot", "deck"): [
        ([tarot(f"C{i}", copies=41) for i in range(5)], "205 cards in all; at most 200"),
        ([tarot(f"C{i}") for i in range(201)], "201 card types; at most 200"),
        ([tarot("A", copies=51)], "copies of A: out of range: at most 50"),
        ([tarot("A", copies=0)], "copies of A: out of range: at least 1"),
        ([tarot("A", points=10**6 + 1, copies=30)], "points of A: out of range: at most 1000000"),
        ([tarot("A", points=-(10**6) - 1, copies=30)], "points of A: out of range: at least -1000000"),
        ([tarot("A", points=2**64, copies=30)], "out of range: at most 1000000"),
        ([tarot("A" * 17, copies=30)], "17 characters long; at most 16"),
        ([tarot("A", copies=30, name_en="x" * 65)], "65 characters long; at most 64"),
    ],
    ("hangover", "drunk_limit"): [
        ({3: 0, 4: 12, 5: 16}, "out of range: at least 1"),
        ({3: 7, 4: 1001, 5: 16}, "out of range: at most 1000"),
        ({"3": 7, "4": 12, "5": 2**64}, "out of range: at most 1000"),
        (1001, "out of range: at most 1000"),
    ],
    ("hangover", "removed_numbers"): [
        ({3: [0], 4: [7], 5: []}, "1–7"),
        ({3: [8], 4: [7], 5: []}, "1–7"),
        ([1, 2, 3, 4, 5, 6, 7, 1], "8 numbers; at most 7"),
        ({3: [2**64], 4: [7], 5: []}, "1–7"),
    ],
    ("hangover", "snack_deck"): [
        (["+1/+2"] * 61, "61 snack cards; at most 60"),
        (["+10/+2"], "±a/±b"),
    ],
    ("hangover", "declaration"): [
        ("sometimes", "not one of in_order, secret, any_trick"),
        ("x" * 21, "21 characters long; at most 20"),
    ],
    ("troika", "chips"): [
        ([10**6 + 1, 1, -1], "out of range: at most 1000000"),
        ([2, 1, -(10**6) - 1], "out of range: at least -1000000"),
        ([2**64, 1, -1], "out of range: at most 1000000"),
    ],
    ("troika", "tile_counts"): [
        ({"7": 21}, "copies of tile 7: out of range: at most 20"),
        ({"7": -1}, "copies of tile 7: out of range: at least 0"),
        ({"7": 99999999999999999999999}, "copies of tile 7: out of range: at most 20"),
        ({"16": 3}, "not a tile number 1–15"),
        ({"1": 3, "01": 4}, "tile 1 is given twice"),
    ],
}

#: Values at the bounds of structured options, with what they need beside them.
AT_BOUNDS: dict[tuple[str, str], list[dict[str, Any]]] = {
    ("tokkuri", "deck"): [
        {"players": 2, "hand_size": 100, "deck": TOKKURI_200},
        {"players": 4, "hand_size": 50, "deck": TOKKURI_200_TYPES},
        {"deck": [number_card("x" * 16, [100] * 6, 50, name_en="e" * 64, name_ja="酒" * 64)]},
        {"deck": [number_card("r", ["1~32", "1~32"], 40)]},  # 1024 drink choices
        {"deck": [number_card("1", ["1~100"], 50)]},
    ],
    ("tottarot", "deck"): [
        {
            "players": 6,
            "turns_per_round": 10,
            "max_will": 9,
            "deck": [tarot(f"C{i}", copies=50) for i in range(4)],
        },
        {"deck": [tarot(f"C{i}", points=(-1) ** i * 10**6) for i in range(200)]},
        {"deck": [tarot("A" * 16, copies=50, name_en="e" * 64, name_ja="運" * 64)]},
    ],
    ("hangover", "drunk_limit"): [{"drunk_limit": 1}, {"drunk_limit": {"3": 1000, "4": 1, "5": 1000}}],
    ("hangover", "removed_numbers"): [
        {"players": 5, "hand_size": 1, "removed_numbers": [1, 2, 3, 4, 5, 6]},
        {"removed_numbers": []},
    ],
    ("hangover", "snack_deck"): [
        {"snack_deck": [], "snacks_per_player": 0},
        {"snack_deck": ["-9/+9"] * 60, "players": 3, "snacks_per_player": 20, "hangover_trick": 2},
    ],
    ("hangover", "declaration"): [{"declaration": "secret"}, {"declaration": "any_trick"}],
    ("troika", "chips"): [{"chips": [10**6, -(10**6), -(10**6)]}],
    ("troika", "tile_counts"): [
        {"tile_counts": TROIKA_ALL, "players": 5},
        {"tile_counts": {"1": 3, "2": 3}, "players": 4},  # n + 2 tiles (TR-2.3)
    ],
}

#: Structured values with a lone surrogate somewhere inside.
NESTED_SURROGATES: dict[tuple[str, str], list[Any]] = {
    ("tokkuri", "deck"): [
        [number_card("\ud800", [1], 40)],
        [number_card("1", [1], 40, name_en="sake\ud800")],
        [number_card("1", [1], 40, name_ja="\udfff")],
        [number_card("1", ["1~\ud800"], 40)],
        [number_card("1", [1], 40, kind="\ud800")],
        '[{"code": "\\ud800", "slots": [1], "copies": 40}]',
    ],
    ("tottarot", "deck"): [
        [tarot("\ud800", copies=30)],
        [tarot("A", copies=30, name_ja="\ud800")],
        [tarot("A", copies=30, icon="\ud800")],
        [tarot("A", points="\ud800", copies=30)],
    ],
    ("hangover", "drunk_limit"): [{"3": "\ud800", "4": 12, "5": 16}, {"\ud800": 7}],
    ("hangover", "removed_numbers"): [{3: ["\ud800"], 4: [7], 5: []}],
    ("hangover", "snack_deck"): [["+1/+2", "\ud800"], '["+1/+2\\ud800"]'],
    ("hangover", "declaration"): ["secret\ud800"],
    ("troika", "chips"): [["\ud800", 1, -1], "2 1 \ud800"],
    ("troika", "tile_counts"): [{"\ud800": 3}, {"7": "\ud800"}],
}


@pytest.mark.parametrize("case", sorted(STRUCTURED), ids=lambda c: f"{c[0]}-{c[1]}")
def test_structured_options_refuse_values_past_their_bounds(case: tuple[str, str]) -> None:
    name, option = case
    for value, words in PAST_BOUNDS[case]:
        with pytest.raises(BadOption) as exc:
            bodoge.make(name, **{option: value})
        assert exc.value.option == option
        assert words in exc.value.reason, (value, exc.value.reason)


@pytest.mark.parametrize("case", sorted(STRUCTURED), ids=lambda c: f"{c[0]}-{c[1]}")
def test_structured_options_accept_their_bounds(case: tuple[str, str]) -> None:
    for options in AT_BOUNDS[case]:
        check_views(make(case[0], **options).new_state(seed=2))


@pytest.mark.parametrize("case", sorted(STRUCTURED), ids=lambda c: f"{c[0]}-{c[1]}")
def test_structured_options_refuse_lone_surrogates_inside(case: tuple[str, str]) -> None:
    name, option = case
    for value in NESTED_SURROGATES[case]:
        with pytest.raises(BadOption, match="valid Unicode text") as exc:
            bodoge.make(name, **{option: value})
        assert exc.value.option == option


@pytest.mark.parametrize("case", sorted(STRUCTURED), ids=lambda c: f"{c[0]}-{c[1]}")
def test_structured_options_name_their_bounds(case: tuple[str, str]) -> None:
    name, option = case
    allowed = next(spec.allowed for spec in game_class(name).option_specs if spec.name == option)
    bounds = {
        ("tokkuri", "deck"): [
            "at most 200 card types",
            "copies 1 to 50",
            "1 to 6 numbers",
            "from 1 to 100",
            "to 200 cards",
        ],
        ("tottarot", "deck"): ["from 1 to 50", "from -1000000 to 1000000", "to 200 cards"],
        ("hangover", "drunk_limit"): ["from 1 to 1000"],
        ("hangover", "removed_numbers"): ["numbers 1–7"],
        ("hangover", "snack_deck"): ["0 to 60 snack codes"],
        ("hangover", "declaration"): ["in_order, secret, any_trick"],
        ("troika", "chips"): ["from -1000000 to 1000000"],
        ("troika", "tile_counts"): ["from 0 to 20"],
    }[case]
    for words in bounds:
        assert words in allowed


# -- the rest of the protocol's inputs --------------------------------------------------------------


def test_seed_is_a_signed_64_bit_integer() -> None:
    game = bodoge.make("troika")
    assert game.new_state(seed=MAX_SEED).seed == MAX_SEED
    assert game.new_state(seed=0).seed == 0
    for seed, bound in (
        (MAX_SEED + 1, f"at most {MAX_SEED}"),
        (2**64, f"at most {MAX_SEED}"),
        (-1, "at least 0"),
    ):
        with pytest.raises(BadOption) as exc:
            game.new_state(seed=seed)
        assert exc.value.option == "seed" and exc.value.reason == f"out of range: {bound}"
        assert exc.value.allowed == f"an integer from 0 to {MAX_SEED}"
    for seed in ("1" * 100_000, "\ud800", 1.5):
        with pytest.raises(BadOption, match="seed"):
            game.new_state(seed=seed)


def test_an_option_called_name_is_an_unknown_option() -> None:
    with pytest.raises(BadOption, match="no such option") as exc:
        bodoge.make("troika", name="x")
    assert exc.value.option == "name"
    with pytest.raises(BadOption, match="no such option"):
        bodoge.make("troika", self=1)
    assert bodoge.make("troika", players=4, rounds=3).num_players == 4


def test_player_counts_are_named_plainly() -> None:
    with pytest.raises(BadOption, match="troika is for 2 to 5 players"):
        bodoge.make("troika", players=6)


def test_int_text_is_read_only_when_short() -> None:
    assert opts.as_int(" 12 ") == 12
    with pytest.raises(ValueError, match="at most 30 characters"):
        opts.as_int("1" * 31)
    with pytest.raises(ValueError, match="valid Unicode"):
        opts.as_int("1\ud800")


# -- options anywhere within their bounds -----------------------------------------------------------

#: Structured values for the property below: the defaults and values at the bounds.
EXTREMES: dict[tuple[str, str], list[Any]] = {
    ("tokkuri", "deck"): [
        TOKKURI_200,
        TOKKURI_200_TYPES,
        [number_card("a", [100, 1, 1, 1, 1, 1], 50), number_card("b", ["1~32", "1~32"], 50)],
        [number_card("1", [1], 10), {"code": "t", "kind": "trouble", "copies": 1}],
    ],
    ("tottarot", "deck"): [
        [tarot(f"C{i}", points=(-1) ** i * 10**6, copies=50) for i in range(4)],
        [
            tarot(f"C{i}", points=10**6, icon=icon, copies=50)
            for i, icon in enumerate(("SHARE", "PEEK", "EXPOSE", "INVERT"))
        ],
    ],
    ("hangover", "drunk_limit"): [1, 1000],
    ("hangover", "removed_numbers"): [[], [1, 2, 3]],
    ("hangover", "snack_deck"): [[], ["-9/+9", "+9/-9", "-9/-9"] * 20],
    ("hangover", "declaration"): ["secret", "any_trick"],
    ("troika", "chips"): [[10**6, -(10**6), -(10**6)], [-(10**6), 10**6, 10**6]],
    ("troika", "tile_counts"): [TROIKA_ALL, {"1": 3, "2": 3, "3": 3}, {"7": 20, "8": 20, "9": 20}],
}


def option_values(name: str) -> st.SearchStrategy[dict[str, Any]]:
    """Every option of game `name` drawn within its bounds, mostly at a bound (or its default)."""
    parts: dict[str, st.SearchStrategy[Any]] = {}
    for spec in game_class(name).option_specs:
        if spec.lo is not None and spec.hi is not None:
            parts[spec.name] = st.one_of(
                st.sampled_from([spec.lo, spec.hi, spec.default]), st.integers(spec.lo, spec.hi)
            )
        elif is_boolean(spec):
            parts[spec.name] = st.booleans()
        else:
            parts[spec.name] = st.sampled_from([spec.default, *EXTREMES[(name, spec.name)]])
    return st.fixed_dictionaries({}, optional=parts)


def ints_in(value: Any) -> list[int]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, dict):
        return [n for item in value.values() for n in ints_in(item)]
    if isinstance(value, list | tuple):
        return [n for item in value for n in ints_in(item)]
    return []


def check_views(state: bodoge.core.State) -> None:
    """Every seat's view encodes as JSON, holds no int beyond ±(2**53 − 1), and stays small."""
    for seat in [None, *range(state.game.num_players)]:
        view = state.view(seat)
        encoded = orjson.dumps(view)
        assert len(encoded) < 400_000, f"a view of {len(encoded)} bytes"
        assert all(abs(n) <= opts.MAX_SAFE_INT for n in ints_in(view))


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_options_within_bounds_play_safely(name: str, data: st.DataObject) -> None:
    """Options anywhere within their bounds: either a BadOption (they do not fit each other), or a
    game that sets up, plays and shows views within JSON's exact integers."""
    cls = game_class(name)
    players = data.draw(st.integers(cls.min_players, cls.max_players), label="players")
    options = data.draw(option_values(name), label="options")
    try:
        game = bodoge.make(name, players=players, **options)
    except BadOption as exc:
        event(f"refused: {exc.option}")
        return
    event("played")
    assert game.max_game_length() <= 10**6 and game.num_actions <= 10**4
    seed = data.draw(st.integers(0, MAX_SEED), label="seed")
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    for step in range(300):
        if step % 100 == 0 or state.is_terminal:
            check_views(state)
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    check_views(state)
    assert all(abs(s) <= opts.MAX_SAFE_INT for s in state.scores())
