"""Tokkuri views (perfect recall, TK-7) and `sample_state`, the heuristic bot."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bodoge
from bodoge.games.tokkuri import heuristic, sampling
from bodoge.games.tokkuri.state import TokkuriState


@pytest.fixture(autouse=True)
def checked_replay() -> Iterator[None]:
    """Every action `sample_state` replays must be legal."""
    sampling.CHECK_REPLAY = True
    yield
    sampling.CHECK_REPLAY = False


def roundtrip(value: Any) -> Any:
    return json.loads(json.dumps(value))


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize(
    "options", [{}, {"max_tokkuri": "players+1"}, {"max_tokkuri": "players", "rounds": 2}]
)
def test_sample_state_keeps_every_view_exactly(players: int, options: dict[str, Any]) -> None:
    opts = {
        k: (players + 1 if v == "players+1" else players if v == "players" else v) for k, v in options.items()
    }
    game = bodoge.make("tokkuri", players=players, **opts)
    sampler = random.Random(players)
    for seed in range(2):
        s = game.new_state(seed=seed)
        rng = random.Random(seed)
        step = 0
        while not s.is_terminal and step < 400:
            if step % 7 == 0:  # every 7th position (test_sample_state_over_many_seeds samples others)
                for p in [None, *range(players)]:
                    view = roundtrip(s.view(p))
                    s2 = game.sample_state(view, sampler)
                    assert s2.view(p) == view, f"P{p} at step {step}"
                    s2.check_invariants()
                    for q in range(players):
                        roundtrip(s2.view(q))
                    if sampler.random() < 0.1:
                        while not s2.is_terminal:
                            s2.apply(sampler.choice(s2.legal_actions()))
            s.apply(rng.choice(s.legal_actions()))
            step += 1


def given_seven() -> TokkuriState:
    """2 players: P0 passes the only `7` to P1, who then places a tokkuri."""
    game = bodoge.make("tokkuri", players=2)
    p0 = ["1+1+1", "7", "2", "3", "4", "5", "6"]
    p1 = ["8", "9", "9+4", "8+5", "7+6", "6+4", "dummy"]
    dealt = [c for pair in zip(p0, p1, strict=True) for c in pair]
    rest = [game.codes[t] for t in game.all_cards]
    for c in dealt:
        rest.remove(c)
    s = game.new_state(seed=1, deck=dealt + rest)
    assert isinstance(s, TokkuriState)
    for action in [
        "place 2",
        "place 8",
        "place 3",
        "place 9",
        "drink 1+1+1",
        "target T0.1",
        "target T0.2",
        "target T1.1",
        "give 7",
        "give dummy",
        "place 7",
    ]:
        s.apply(action)
    return s


def test_what_you_passed_is_remembered() -> None:
    """TK-7: P0 knows P1 got the 7, so in every sample it is in P1's hand or is P1's new tokkuri."""
    s = given_seven()
    game = s.game
    seven = game.code_index["7"]
    view = roundtrip(s.view(0))
    assert [e.get("card") for e in view["log"] if e["type"] == "gave"] == ["7", "dummy"]
    assert view["hand"].count("dummy") == 1
    where = set()
    sampler = random.Random(0)
    for _ in range(60):
        s2 = game.sample_state(view, sampler)
        assert isinstance(s2, TokkuriState)
        assert s2.view(0) == view
        t13 = s2.faces[s2.table.index(1 * game.total + 2)]
        assert seven in s2.hands[1] or t13 == seven
        assert seven not in s2.stock
        where.add("placed" if t13 == seven else "hand")
    assert where == {"placed", "hand"}
    # P1 saw the 7 arrive, and knows it placed it.
    p1 = roundtrip(s.view(1))
    assert {"id": "T1.3", "owner": 1, "level": 10, "card": "7"} in p1["tokkuri"]
    assert [e.get("card") for e in p1["log"] if e["type"] == "gave"] == ["7", "dummy"]


def test_views_hide_what_a_seat_has_not_seen() -> None:
    game = bodoge.make("tokkuri", players=3)
    s = game.new_state(seed=8)
    rng = random.Random(8)
    while not s.is_terminal:
        for p in [None, 0, 1, 2]:
            v = s.view(p)
            for tk in v["tokkuri"]:
                assert (tk["card"] is not None) == (tk["owner"] == p)
            assert (v["hand"] is None) == (p is None)
            if p is None:
                for e in v["log"]:
                    if e["type"] == "deal":
                        assert e["cards"] is None
                    if e["type"] in ("draw", "give", "place", "open", "gave"):
                        assert e["card"] is None
        s.apply(rng.choice(s.legal_actions()))


@pytest.mark.parametrize(("players", "options"), [(2, {}), (3, {"rounds": 2}), (4, {"max_tokkuri": 4})])
def test_log_entries_have_the_same_keys_for_every_viewer(players: int, options: dict[str, Any]) -> None:
    """The event vocabulary (issue #34): a card a viewer did not see is None, never a missing key; the
    log ends with one game_end, exactly at the end, naming the winners; rounds open with round_start
    and close with round_end; `seat` is who acts (the drinker of a 9 picks and steals from `target`)."""
    game = bodoge.make("tokkuri", players=players, **options)
    s = game.new_state(seed=players)
    rng = random.Random(players)
    viewers = [None, *range(players)]
    while True:
        logs = {p: s.view(p)["log"] for p in viewers}
        spectator = logs[None]
        for p in viewers:
            assert len(logs[p]) == len(spectator)
            for mine, public in zip(logs[p], spectator, strict=True):
                assert mine.keys() == public.keys()
                assert mine["type"] == public["type"]
        ends = [e for e in spectator if e["type"] == "game_end"]
        if s.is_terminal:
            break
        assert ends == []
        s.apply(rng.choice(s.legal_actions()))
    assert len(ends) == 1 and spectator[-1] is ends[0]
    assert ends[0]["winners"] == s.winners() and ends[0]["balances"] == s.scores()
    assert ends[0]["reason"] in ("bankruptcy", "rounds_played", "max_rounds")
    assert spectator[-2]["type"] == "round_end"
    types = [e["type"] for e in spectator]
    assert not {"round", "score", "end"} & set(types)
    starts = [e["round"] for e in spectator if e["type"] == "round_start"]
    closes = [e["round"] for e in spectator if e["type"] == "round_end"]
    assert starts == closes == list(range(1, len(starts) + 1))
    for e in spectator:
        assert "player" not in e and "game_over" not in e
        if e["type"] == "deal":
            assert e["cards"] is None
        if e["type"] in ("open", "place", "draw", "give", "gave"):
            assert e["card"] is None
    for p in range(players):
        # a seat sees its own deal, and the victim of a steal is the target, never the thief's key
        dealt = [e for e in logs[p] if e["type"] == "deal"]
        assert all((e["cards"] is not None) == (e["seat"] == p) for e in dealt)
    picks = [e for e in spectator if e["type"] == "victim"]
    steals = [e for e in spectator if e["type"] == "steal"]
    assert [(e["seat"], e["target"]) for e in picks] == [(e["seat"], e["target"]) for e in steals]
    assert all(e["card"] is not None for e in steals)


def test_hidden_keys_are_present_as_none() -> None:
    """A seat's view of another's deal names no card, but keeps the key (issue #34)."""
    s = bodoge.make("tokkuri", players=2).new_state(seed=0)
    other = s.log(1)[1]
    assert other["type"] == "deal" and other["seat"] == 0
    assert "cards" in other and other["cards"] is None
    assert s.log(0)[1]["cards"] is not None and s.log(0)[1].keys() == other.keys()


def test_log_texts_say_only_what_the_seat_saw() -> None:
    """Every log entry carries its line, made from the entry's own facts; a card the seat did not see
    (a deal, placement, opening, draw, gift or captured face of another) is never named."""
    from bodoge.games.tokkuri.text import event_text

    def text_of(facts: dict[str, Any]) -> str:
        return event_text(game, facts, "en")

    game = bodoge.make("tokkuri", players=3, rounds=2)
    s = game.new_state(seed=5)
    rng = random.Random(5)
    while not s.is_terminal:
        s.apply(rng.choice(s.legal_actions()))
    hidden = {
        "open": "P{seat} chooses a card to open with, face down.",
        "place": "P{seat} places a tokkuri face down ({tokkuri}).",
        "draw": "P{seat} draws a card.",
        "give": "P{seat} chooses a card to pass left, face down.",
        "gave": "P{seat} passes a card to P{to}.",
        "deal": "P{seat} is dealt {count} cards.",
    }
    unseen = 0
    for p in [None, 0, 1, 2]:
        log = s.view(p)["log"]
        assert log[-1]["type"] == "game_end" and "Game over" in log[-1]["text"]
        for e in log:
            facts = {k: v for k, v in e.items() if k not in ("text", "text_ja")}
            assert e["text"] == text_of(facts) and e["text"] != e["type"]
            if e["type"] in hidden and e.get("card") is None and e.get("cards") is None:
                assert e["text"] == hidden[e["type"]].format(**facts)
                unseen += 1
            if e["type"] == "empty" and e["card"] is None:
                assert e["text"].endswith("captures it face down (+1).")
    assert unseen > 0


def test_log_texts_ja_say_only_what_the_seat_saw() -> None:
    """Every log entry carries a non-empty Japanese line made from the entry's own facts; a card the
    seat did not see is never named in it; every decision has its Japanese."""
    from bodoge.games.tokkuri.text import event_text

    hidden = {
        "open": "P{seat}が最初のトックリにするカードを裏向きで選んだ。",
        "place": "P{seat}がトックリを裏向きに出した（{tokkuri}）。",
        "draw": "P{seat}が山札からカードを1枚引いた。",
        "give": "P{seat}が左隣に渡すカードを裏向きで選んだ。",
        "gave": "P{seat}がP{to}にカードを1枚渡した。",
        "deal": "P{seat}に手札が{count}枚配られた。",
        "empty": "P{seat}が{tokkuri}を空け、裏向きのまま獲得した（+1）。",
    }
    for players, seed in ((2, 1), (3, 5), (4, 7)):
        game = bodoge.make("tokkuri", players=players, rounds=2)
        s = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal:
            assert s.decision_ja() and s.decision_ja() != s.decision()
            s.apply(rng.choice(s.legal_actions()))
        assert s.decision_ja() == "ゲーム終了"
        unseen = 0
        for p in [None, *range(players)]:
            log = s.view(p)["log"]
            assert "ゲーム終了" in log[-1]["text_ja"]
            for e in log:
                facts = {k: v for k, v in e.items() if k not in ("text", "text_ja")}
                assert e["text_ja"] and e["text_ja"] == event_text(game, facts, "ja") != e["type"]
                if e["type"] in hidden and e.get("card") is None and e.get("cards") is None:
                    assert e["text_ja"] == hidden[e["type"]].format(**facts)
                    unseen += 1
        assert unseen > 0


def test_heuristic_plays_legally_and_beats_random() -> None:
    won = 0.0
    games = 24
    for i in range(games):
        players = 2 + i % 3
        game = bodoge.make("tokkuri", players=players, rounds=3)
        seat = i % players
        s = game.new_state(seed=i)
        rng = random.Random(i)
        while not s.is_terminal:
            p = s.current_player
            if p == seat:
                a = heuristic.act(game, s.view(p), rng)
                assert a in s.legal_actions()
            else:
                a = rng.choice(s.legal_actions())
            s.apply(a)
        if seat in s.winners():
            won += 1 / len(s.winners())
    fair = sum(1 / (2 + i % 3) for i in range(games))
    assert won > 1.8 * fair


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    players=st.integers(min_value=2, max_value=4),
    steps=st.integers(min_value=0, max_value=300),
    capped=st.booleans(),
)
def test_sample_state_over_many_seeds(seed: int, players: int, steps: int, capped: bool) -> None:
    """At a random point of a random game, every seat's view survives `sample_state` exactly."""
    sampling.CHECK_REPLAY = True
    game = bodoge.make("tokkuri", players=players, max_tokkuri=players + 1 if capped else None)
    s = game.new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if s.is_terminal:
            break
        s.apply(rng.choice(s.legal_actions()))
    for p in [None, *range(players)]:
        view = roundtrip(s.view(p))
        s2 = game.sample_state(view, rng)
        assert s2.view(p) == view
        s2.check_invariants()


def test_log_entries_are_read_only_and_copies_are_plain() -> None:
    import copy
    import pickle

    game = bodoge.make("tokkuri", players=2)
    s = game.new_state(seed=3)
    entry = s.view(0)["log"][0]
    with pytest.raises(TypeError, match="read-only"):
        entry["event"] = "x"
    with pytest.raises(TypeError, match="read-only"):
        entry["text"] = "x"
    with pytest.raises(TypeError, match="read-only"):
        entry["text_ja"] = "x"
    assert entry["text"] == "Round 1 begins; P0 is the start player."
    assert entry["text_ja"] == "第1ラウンド開始。スタートプレイヤーはP0。"
    assert type(copy.deepcopy(entry)) is dict and pickle.loads(pickle.dumps(entry)) == entry
    before = s.view(1)
    clone = s.clone()
    clone.apply(clone.legal_actions()[0])
    assert s.view(1) == before and clone.view(1) != before
