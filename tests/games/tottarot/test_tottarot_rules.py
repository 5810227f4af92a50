"""Tottarot: options, stacked decks, action texts, views and secrecy, determinization, properties."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bodoge
from bodoge.errors import BadOption, IllegalAction
from bodoge.games.tottarot import DEFAULT_DECK, CardType, Tottarot, convert_deck, deck_to_json
from bodoge.games.tottarot.state import PH_BID, PH_STEAL, TottarotState
from bodoge.games.tottarot.text import parse_text


def make(players: int, stacked: list[str] | None = None, seed: int = 0, **options: Any) -> TottarotState:
    state = bodoge.make("tottarot", players=players, **options).new_state(seed=seed, deck=stacked)
    assert isinstance(state, TottarotState)
    return state


def bids(state: TottarotState, by_seat: list[int]) -> None:
    for _ in range(state.game.n):
        p = state.current_player
        assert p is not None
        state.apply(f"bid {by_seat[p]}")


# -- components and options (TT-1, TT-2) ---------------------------------------------------------


def test_default_deck_is_the_proposed_list() -> None:
    """TT-1.1: 7 types × 3, points sum 0, SUN +3 and DEVIL −5 from the seed, one icon per type."""
    assert [t.code for t in DEFAULT_DECK] == ["WORLD", "SUN", "LOVERS", "WHEEL", "MOON", "TOWER", "DEVIL"]
    assert sum(t.copies for t in DEFAULT_DECK) == 21
    assert sum(t.points * t.copies for t in DEFAULT_DECK) == 0
    by_code = {t.code: t for t in DEFAULT_DECK}
    assert by_code["SUN"].points == 3 and by_code["DEVIL"].points == -5
    assert sorted(t.icon for t in DEFAULT_DECK if t.icon) == ["EXPOSE", "INVERT", "PEEK", "SHARE"]


def test_options_defaults_and_json_round_trip() -> None:
    game = bodoge.make("tottarot")
    assert game.num_players == 4
    opts = game.options_json()
    assert opts["max_will"] == 3 and opts["turns_per_round"] == 3 and opts["target"] == 2
    assert json.loads(json.dumps(opts)) == opts
    again = bodoge.make("tottarot", **opts)
    assert again.options == game.options
    # A deck typed on a command line as JSON text.
    assert bodoge.make("tottarot", deck=json.dumps(opts["deck"])).options["deck"] == DEFAULT_DECK
    assert convert_deck(list(DEFAULT_DECK)) == DEFAULT_DECK
    assert convert_deck(deck_to_json(DEFAULT_DECK)) == DEFAULT_DECK


def test_custom_deck_defaults_names_and_normalizes_icons() -> None:
    deck = convert_deck(
        [{"code": "A", "points": 1, "copies": 9, "icon": "peek"}, {"code": "B", "points": -1, "copies": 9}]
    )
    assert deck == (CardType("A", "A", "A", 1, "PEEK", 9), CardType("B", "B", "B", -1, None, 9))
    game: Any = bodoge.make("tottarot", players=6, deck=deck_to_json(deck))
    assert game.deck_size == 18
    state = game.new_state(seed=3)
    rng = random.Random(3)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
        state.check_invariants()


@pytest.mark.parametrize(
    ("deck", "reason"),
    [
        ([], "non-empty"),
        ("not json", "JSON"),
        ({"code": "A"}, "list"),
        ([{"code": "A", "points": 1}], "copies"),
        ([{"code": "A", "points": 1, "copies": 0}], "at least 1"),
        ([{"code": "A", "points": "x", "copies": 30}], "integer"),
        ([{"code": "A", "points": 1, "copies": 30, "icon": "FLY"}], "icon"),
        ([{"code": "A B", "points": 1, "copies": 30}], "ASCII"),
        ([{"code": "A", "points": 1, "copies": 20}, {"code": "A", "points": 2, "copies": 1}], "unique"),
        ([{"code": "A", "points": 1, "copies": 30, "colour": "red"}], "unknown key"),
        ([{"code": "A", "points": True, "copies": 30}], "boolean"),
    ],
)
def test_bad_decks_are_refused(deck: Any, reason: str) -> None:
    with pytest.raises(BadOption, match="deck") as exc:
        bodoge.make("tottarot", deck=deck)
    assert reason in str(exc.value)
    assert "card types" in exc.value.allowed


def test_small_deck_is_refused_for_many_players() -> None:
    """TT-2.1: players × turns_per_round ≤ deck size."""
    deck = [{"code": "A", "points": 1, "copies": 5}, {"code": "B", "points": 0, "copies": 4}]
    game: Any = bodoge.make("tottarot", players=3, deck=deck)
    assert game.deck_size == 9
    with pytest.raises(BadOption, match="turns_per_round") as exc:
        bodoge.make("tottarot", players=4, deck=deck)
    assert "1 to 2" in exc.value.allowed


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("max_will", 0),
        ("max_will", 10),
        ("max_will", "x"),
        ("turns_per_round", 0),
        ("target", 0),
        ("target", 1.5),
    ],
)
def test_bad_numbers_are_refused(option: str, value: Any) -> None:
    with pytest.raises(BadOption, match=option):
        bodoge.make("tottarot", **{option: value})


def test_variants_are_accepted() -> None:
    """TT-2.3: the seed's 0–4 variant, other turn counts, another target."""
    game = bodoge.make("tottarot", players=5, max_will=4, turns_per_round=4, target=3)
    assert game.num_actions == 5 + 6 + 5 + 5
    state = game.new_state(seed=1)
    assert [state.action_text(a) for a in state.legal_actions()] == [f"bid {v}" for v in range(5)]
    one = bodoge.make("tottarot", players=2, turns_per_round=1, max_will=1, target=1).new_state(seed=2)
    rng = random.Random(0)
    while not one.is_terminal:
        one.apply(rng.choice(one.legal_actions()))
        one.check_invariants()
    assert max(one.scores()) == 1 and one.winners()


# -- stacked decks (spec §3) ----------------------------------------------------------------------


def test_stacked_deck_prefix_and_full() -> None:
    full = [t.code for t in DEFAULT_DECK for _ in range(3)]
    state = make(2, full)
    assert state.view(0)["declared"][0]["card"] == "WORLD"
    assert state.view(1)["declared"][1]["card"] == "WORLD"
    assert state.to_record()["deck"] == full
    replayed = bodoge.replay(json.loads(json.dumps(state.to_record())))
    assert replayed.view(0) == state.view(0)


@pytest.mark.parametrize(
    ("deck", "reason"),
    [
        ("WORLD", "list"),
        (["WORLD", "PLUTO"], "unknown"),
        (["SUN"] * 4, "more than 3"),
        (["SUN"] * 22, "22 cards"),
        ([3], "unknown"),
    ],
)
def test_bad_stacked_decks_are_refused(deck: Any, reason: str) -> None:
    game = bodoge.make("tottarot", players=3)
    with pytest.raises(BadOption, match="deck") as exc:
        game.new_state(seed=0, deck=deck)
    assert reason in str(exc.value)


# -- action texts ---------------------------------------------------------------------------------


def test_action_texts_and_aliases() -> None:
    state = make(3, ["TOWER", "WORLD", "MOON"])
    assert state.parse_action("bid 2") == 2
    assert state.parse_action("BID  3") == 3
    bids(state, [1, 0, 3])
    assert state.phase == PH_STEAL
    none = state.parse_action("steal none")
    assert state.parse_action("keep") == none and state.parse_action("none") == none
    assert state.parse_action("steal 1") == state.parse_action("steal P1") == state.parse_action("p1")
    with pytest.raises(IllegalAction):
        state.parse_action("steal 2")  # oneself
    with pytest.raises(IllegalAction):
        state.parse_action("bid 1")  # not a bid decision
    assert parse_text("steal P3") == ("steal", 3)
    assert parse_text("steal none") == ("steal", None)
    assert parse_text("bid 2") == ("bid", 2)
    assert parse_text("peek P1") == ("peek", 1)
    assert parse_text("dance") is None
    game = state.game
    assert {state.action_text(a) for a in range(game.num_actions)} >= {
        "bid 0",
        "steal none",
        "share P2",
        "peek P0",
    }


def test_peek_alias() -> None:
    # P1 decides MOON in turn 1 (P0 acts alone and takes nothing): PEEK in turn 2.
    state = make(3, ["TOWER", "MOON", "DEVIL"])
    bids(state, [3, 0, 1])
    state.apply("steal none")
    assert state.decision().startswith("P1 chooses a player to PEEK")
    assert state.parse_action("peek 2") == state.parse_action("peek P2")
    state.apply("peek 2")
    assert state.phase == PH_BID


# -- views and secrecy (TT-7) ---------------------------------------------------------------------


def test_declared_cards_and_bids_are_hidden() -> None:
    state = make(3, ["TOWER", "WORLD", "MOON"])
    for p in range(3):
        view = state.view(p)
        assert [d["card"] for d in view["declared"]] == [
            ["TOWER", None, None],
            [None, "WORLD", None],
            [None, None, "MOON"],
        ][p]
    assert all(d["card"] is None for d in state.view(None)["declared"])
    state.apply("bid 1")
    assert state.view(0)["bids"] == [1, None, None]
    assert state.view(1)["bids"] == [None, None, None]
    assert state.view(1)["has_bid"] == [True, False, False]
    last = state.view(1)["log"][-1]
    assert last == {
        "type": "bid",
        "round": 1,
        "turn": 1,
        "seat": 0,
        "value": None,
        "text": "P0 bids (hidden).",
        "text_ja": "P0が意志トークンを裏向きで出しました。",
    }
    assert state.view(0)["log"][-1]["text"] == "P0 bids 1."
    assert state.view(0)["log"][-1]["text_ja"] == "P0が意志トークン1を出しました。"
    state.apply("bid 0")
    state.apply("bid 3")
    for seat in (None, 0, 1, 2):
        view = state.view(seat)
        assert view["bids"] == [1, 0, 3] and view["bids_revealed"]
        reveal = next(e for e in view["log"] if e["type"] == "reveal")
        assert reveal["bids"] == [1, 0, 3] and reveal["actors"] == [2]
        assert view["used_tokens"] == [[1], [0], [3]]
    text = state.render(0)
    assert "TOWER" in text and "WORLD" not in text and "[hidden]" in text


def test_views_never_contain_unseen_cards() -> None:
    """Over random games: every card code in view(p) is one p has seen (own draw, icon, steal, public)."""
    game: Any = bodoge.make("tottarot", players=4)
    rng = random.Random(7)
    codes = game.codes
    for seed in range(5):
        state = game.new_state(seed=seed)
        assert isinstance(state, TottarotState)
        while not state.is_terminal:
            for p in range(4):
                view = state.view(p)
                for q, d in enumerate(view["declared"]):
                    if d["card"] is not None:
                        assert state.knows[q] >> p & 1
                        assert d["card"] == codes[state.declared[q]]
                    elif d["holds"]:
                        assert not state.knows[q] >> p & 1
            state.apply(rng.choice(state.legal_actions()))


def test_stolen_card_knowledge_follows_the_card() -> None:
    """TT-D11: the taker and the robbed player know the card; others do not; a later thief learns it."""
    state = make(4, ["DEVIL", "TOWER", "MOON", "SUN"])
    bids(state, [2, 2, 2, 0])
    state.apply("steal P3")
    assert state.view(0)["declared"][0]["card"] == "SUN"
    assert state.view(3)["declared"][0]["card"] == "SUN"
    assert state.view(1)["declared"][0]["card"] is None
    assert state.view(None)["declared"][0]["known_by"] == [0, 3]


def test_max_game_length_is_a_true_bound() -> None:
    """TT-6.3: at most n × (target − 1) + 1 rounds, each turn at most 3n decisions."""
    for n in range(2, 7):
        game = bodoge.make("tottarot", players=n, target=2)
        assert game.max_game_length() == (n + 1) * 3 * 3 * n
        rng = random.Random(n)
        for seed in range(30):
            state = game.new_state(seed=seed)
            assert isinstance(state, TottarotState)
            while not state.is_terminal:
                state.apply(rng.choice(state.legal_actions()))
            assert len(state.history) <= game.max_game_length()
            assert state.round <= n + 1


# -- determinization -------------------------------------------------------------------------------


def sample_cards(state: TottarotState, p: int, samples: int = 40) -> list[list[str | None]]:
    view = json.loads(json.dumps(state.view(p)))
    rng = random.Random(5)
    out = []
    for _ in range(samples):
        s2 = state.game.sample_state(view, rng)
        assert s2.view(p) == view
        assert isinstance(s2, TottarotState)
        out.append([state.game.codes[c] if c >= 0 else None for c in s2.declared])
    return out


def test_sample_state_keeps_what_was_seen() -> None:
    """A card a seat saw stays where it saw it (TT-E13 position); unseen cards vary."""
    state = make(4, ["LOVERS", "MOON", "SUN", "DEVIL", "TOWER", "WORLD", "DEVIL", "TOWER"])
    bids(state, [0, 1, 2, 3])
    state.apply("steal none")
    state.apply("share P2")
    state.apply("peek P0")
    p1 = sample_cards(state, 1)
    assert all(cards[:3] == ["TOWER", "WORLD", "DEVIL"] for cards in p1)
    assert len({cards[3] for cards in p1}) > 1
    p0 = sample_cards(state, 0)
    assert all(cards[0] == "TOWER" and cards[2] == "DEVIL" for cards in p0)
    assert len({cards[1] for cards in p0}) > 1
    spectator = sample_cards(state, None)  # type: ignore[arg-type]
    assert all(cards[2] == "DEVIL" for cards in spectator)
    # After P0 steals P1's WORLD, P1 still knows where it is.
    bids(state, [3, 0, 1, 0])
    state.apply("steal P1")
    assert state.turn == 3


def test_sample_state_mid_seizing_and_hidden_bids() -> None:
    state = make(4, ["DEVIL", "TOWER", "MOON", "SUN"])
    state.apply("bid 2")
    state.apply("bid 1")
    view = state.view(0)
    rng = random.Random(1)
    seen = set()
    for _ in range(30):
        s2 = state.game.sample_state(view, rng)
        assert isinstance(s2, TottarotState)
        assert s2.view(0) == view
        assert s2.bids[0] == 2
        seen.add(s2.bids[1])
    assert seen == {0, 1, 2, 3}
    state.apply("bid 2")
    state.apply("bid 0")  # actors P0, P2
    state.apply("steal P3")  # P0 takes P3's SUN; P2 has not acted yet
    assert state.current_player == 2 and state.phase == PH_STEAL
    for cards in sample_cards(state, 3):
        assert cards[0] == "SUN" and cards[3] is None  # P3's card, now P0's
    for cards in sample_cards(state, 0):
        assert cards[0] == "SUN"


# -- properties -----------------------------------------------------------------------------------


@st.composite
def configs(draw: st.DrawFn) -> dict[str, Any]:
    players = draw(st.integers(2, 6))
    kinds = draw(st.integers(1, 5))
    icons = [None, "SHARE", "PEEK", "EXPOSE", "INVERT"]
    deck: list[dict[str, Any]] = [
        {
            "code": f"C{i}",
            "points": draw(st.integers(-6, 6)),
            "icon": draw(st.sampled_from(icons)),
            "copies": draw(st.integers(1, 5)),
        }
        for i in range(kinds)
    ]
    size = sum(d["copies"] for d in deck)
    if size < players:
        deck[0]["copies"] += players - size
        size = sum(d["copies"] for d in deck)
    turns = draw(st.integers(1, min(4, size // players)))
    max_will = draw(st.integers(max(1, turns - 1), 4))
    return {
        "players": players,
        "deck": deck,
        "turns_per_round": turns,
        "max_will": max_will,
        "target": draw(st.integers(1, 3)),
    }


@given(config=configs(), seed=st.integers(0, 2**32))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_configs_play_legally_and_sample_consistently(config: dict[str, Any], seed: int) -> None:
    game = bodoge.make("tottarot", **config)
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    step = 0
    while not state.is_terminal:
        assert state.legal_actions()
        if step % 5 == 0:
            p = rng.randrange(game.num_players)
            view = json.loads(json.dumps(state.view(p)))
            s2 = game.sample_state(view, rng)
            assert s2.view(p) == view
            s2.check_invariants()
        state.apply(rng.choice(state.legal_actions()))
        state.check_invariants()
        step += 1
        assert len(state.history) <= game.max_game_length()
    winners = state.winners()
    assert winners and all(state.scores()[w] == config["target"] for w in winners)


def test_rules_summary_length() -> None:
    for lang in ("en", "ja"):
        lines = Tottarot.rules_summary(lang).strip().splitlines()
        assert 30 <= len(lines) <= 60, (lang, len(lines))


def test_render_spectator_and_end() -> None:
    state = make(2, seed=4)
    rng = random.Random(4)
    while not state.is_terminal:
        assert state.render(state.current_player).count("\n") >= 3
        state.apply(rng.choice(state.legal_actions()))
    assert "winners" in state.render(None)
    assert state.phase not in (PH_BID, PH_STEAL)
