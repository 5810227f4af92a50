"""Troika information states: perfect recall of hand returns, `sample_state`, and the bot."""

from __future__ import annotations

import json
import random
from typing import Any

import bodoge
from bodoge.games.troika.cards import tiles_of
from bodoge.games.troika.heuristic import act
from bodoge.games.troika.rules import E_DEAL, E_DRAW, E_RETURN_HAND, E_ROUND, TroikaState
from bodoge.games.troika.sampling import _play_round


def untexted(event: dict[str, Any]) -> dict[str, Any]:
    """A log event without its readable line, to compare its facts."""
    assert isinstance(event.get("text"), str) and event["text"]
    assert isinstance(event.get("text_ja"), str) and event["text_ja"]
    return {k: v for k, v in event.items() if k not in ("text", "text_ja")}


def make(players: int, **options: Any) -> Any:
    return bodoge.make("troika", players=players, **options)


def history_is_consistent(s: TroikaState) -> None:
    """The round in play, hidden tiles included, replays through the rules to the state now: each
    draw and flip took a tile that was face down, each return a tile the player held. (Earlier rounds
    keep the tiles the seat did not see unknown: nothing in them bears on play, TR-D10.)"""
    ev = s.events
    start = max(i for i, e in enumerate(ev) if e[0] == E_ROUND)
    assert all(e[2] is not None for e in ev[start:] if e[0] in (E_DEAL, E_DRAW, E_RETURN_HAND))
    t = _play_round(s.game, ev[:start], [list(e) for e in ev[start:]], s.removed, random.Random(0))
    assert t.events == ev and t.hands == s.hands and sorted(t.pool) == sorted(s.pool)
    assert t.known == s.known and t.mine == s.mine and t.containers == s.containers
    assert t.current_player == s.current_player and t.chips == s.chips


def test_returned_tile_is_remembered_until_flipped() -> None:
    """TR-D9 / §7: only the returner knows the number; it stays known until flipped or drawn."""
    s = make(3).new_state(seed=0, deck=[1, 2, 3, 4, 5, 6, 7, 1])
    s.apply("return hand 1")  # P0 puts the 1 back face down
    assert s.view(0)["returned_in_pool"] == [1]
    assert s.view(1)["returned_in_pool"] == [] and s.view(None)["returned_in_pool"] is None
    assert untexted(s.view(1)["log"][-2]) == {"type": "return_hand", "seat": 0, "tile": None}
    assert untexted(s.view(0)["log"][-2]) == {"type": "return_hand", "seat": 0, "tile": 1}
    game = s.game
    rng = random.Random(0)
    for _ in range(30):  # every determinization keeps the 1 in the pool
        s2 = game.sample_state(s.view(0), rng)
        assert 1 in s2.pool
    s.apply("take 6")  # P1
    assert s.view(0)["returned_in_pool"] == [1]
    s.apply("take 7")  # P2; P0's turn flips a 1 (stacked): now public
    assert s.events[-1][2] == 1 and s.view(0)["returned_in_pool"] == []


def test_drawn_by_another_when_only_known_tiles_were_left() -> None:
    """When the pool holds only the seat's returned tiles and another player draws, the seat knows
    one of them went; a later flip can tell which, and every sample agrees."""
    counts = {"1": 1, "2": 1, "3": 4, "4": 4, "5": 4}
    deck = [1, 3, 3, 4, 4, 2, 3, 3, 5, 4, 4, 5, 5, 5, 2, 1]
    s = make(3, rounds=1, tile_counts=counts).new_state(seed=0, deck=deck)
    plan = ["draw", "take 3", "draw", "return hand 1", "take 4", "take 5", "return hand 2", "take 5"]
    for step in plan[:-1]:
        s.apply(step)
    assert s.current_player == 1 and s.view(0)["returned_in_pool"] == [1, 2]
    game = s.game
    rng = random.Random(1)
    for _ in range(20):  # the pool is exactly P0's two returned tiles
        assert sorted(game.sample_state(s.view(0), rng).pool) == [1, 2]
    s.apply("draw")  # P1 draws the 2 (stacked): P0 saw only that a tile went
    assert s.view(0)["returned_in_pool"] == []  # 1 or 2 left: nothing certain
    assert s.current_player == 2 and s.events[-1][2] == 1  # P2's flip shows the 1
    v = s.view(0)
    for _ in range(20):
        s2 = game.sample_state(v, rng)
        assert s2.view(0) == v
        assert s2.hands[1][2 - 1] == 1, "P1 must hold the 2: the 1 was still face down"
        history_is_consistent(s2)


def test_sample_state_respects_declarations_and_histories() -> None:
    """Determinizations give every declarer a hand that makes the declaration legal (TR-7.1), and
    every seat's log in them is a possible history."""
    rng = random.Random(5)
    seen_declarers = 0
    for players in (3, 4, 5):
        game = make(players)
        for seed in range(4):
            s = game.new_state(seed=seed)
            while not s.is_terminal:
                if rng.random() < 0.15:
                    history_is_consistent(s)
                    for p in range(players):
                        v = s.view(p)
                        s2 = game.sample_state(json.loads(json.dumps(v)), rng)
                        assert s2.view(p) == v
                        s2.check_invariants()
                        history_is_consistent(s2)
                        for q in range(players):
                            if s2.declared[q] and q != p:
                                seen_declarers += 1
                                assert s2._may_declare(q)
                p = s.current_player
                a = act(game, s.view(p), rng) if rng.random() < 0.9 else rng.choice(s.legal_actions())
                s.apply(a)
    assert seen_declarers > 0


def test_sample_state_varies_hidden_tiles_and_keeps_known_ones() -> None:
    game = make(4)
    s = game.new_state(seed=12)
    rng = random.Random(12)
    for _ in range(25):
        s.apply(rng.choice(s.legal_actions()))
    v = s.view(2)
    others = set()
    for _ in range(20):
        s2 = game.sample_state(v, rng)
        assert tiles_of(s2.hands[2]) == v["hand"]
        assert [tiles_of(c) for c in s2.containers] == v["containers"]
        for n in v["returned_in_pool"]:
            assert s2.pool.count(n) >= v["returned_in_pool"].count(n)
        others.add(json.dumps([tiles_of(s2.hands[q]) for q in (0, 1, 3)]))
    assert len(others) > 1


def test_terminal_views_sample_too() -> None:
    for players in (2, 3):
        game = make(players, rounds=2)
        s = game.new_state(seed=3)
        rng = random.Random(3)
        while not s.is_terminal:
            s.apply(rng.choice(s.legal_actions()))
        for p in (None, *range(players)):
            v = s.view(p)
            s2 = game.sample_state(v, rng)
            assert s2.view(p) == v and s2.is_terminal
            history_is_consistent(s2)


def test_heuristic_beats_random() -> None:
    """The rule-of-thumb bot wins clearly more than its fair share against random players."""
    wins = 0.0
    games = 30
    for g in range(games):
        game = make(3)
        seat = g % 3
        s = game.new_state(seed=500 + g)
        rng = random.Random(g)
        while not s.is_terminal:
            p = s.current_player
            s.apply(act(game, s.view(p), rng) if p == seat else rng.choice(s.legal_actions()))
        w = s.winners()
        wins += (1 / len(w)) if seat in w else 0.0
    assert wins / games > 0.6


def test_sample_state_on_a_crowded_tile_set() -> None:
    """With few numbers, hidden draws often take the seat's own returned tiles back out of the
    pool; the rebuilt histories must still be possible ones, played through the rules."""
    rng = random.Random(7)
    for players in (2, 3, 4):
        game = make(players, tile_counts={"7": 12, "8": 2, "9": 2}, two_player_removed=2)
        for seed in range(6):
            s = game.new_state(seed=seed)
            while not s.is_terminal:
                if rng.random() < 0.3:
                    for p in range(players):
                        v = s.view(p)
                        s2 = game.sample_state(v, rng)
                        assert s2.view(p) == v
                        history_is_consistent(s2)
                q = s.current_player
                s.apply(act(game, s.view(q), rng) if rng.random() < 0.6 else rng.choice(s.legal_actions()))


def test_the_position_that_crashed_under_strong_play() -> None:
    """Issue #17's repro: a seat returns a tile face down, P1 later draws that very tile unseen and
    declares Troika with it. Every other copy is in sight, so the only consistent hands hold the
    returned tile: the sampler must not keep it in the pool (it was there only when returned, TR-D9)."""
    deck = [6, 12, 14, 6, 3, 6, 3, 4, 5, 3, 9, 10, 11, 12, 13, 14, 15, 1, 2, 1, 1, 2, 2, 7, 7, 6, 7, 7, 8, 8]
    s = make(3).new_state(seed=0, deck=deck)
    for a in [15, 2, 5, 21, 2, 8, 9, 2, 11, 12, 3, 14, 0, 4, 0, 0, 27, 1, 6, 15, 6, 6, 46]:
        s.apply(a)
    assert s.view(0)["declared"] == [False, True, False]
    for p in range(3):
        v = s.view(p)
        for k in range(25):
            s2 = s.game.sample_state(v, random.Random(k))
            assert s2.view(p) == v
            history_is_consistent(s2)
            s2.check_invariants()
            s2.apply(s2.legal_actions()[-1])  # play goes on legally


def test_a_returned_tile_drawn_back_out_unseen() -> None:
    """P2 returns its only 8; P0 draws it unseen, and with the pool empty puts it back; P1 flips it.
    From P2's view the 8 that P0 returned must be the one P0 drew: every sample's history of the round
    in play says so."""
    counts = {"1": 3, "2": 3, "3": 4, "8": 1}
    deck = [1, 1, 8, 2, 2, 1, 2, 3, 8, 3, 3, 3, 8]
    s = make(3, rounds=2, tile_counts=counts).new_state(seed=0, deck=deck)
    for step in ["take 2", "take 1", "return hand 8", "draw", "take 3", "take 3", "return hand 8"]:
        s.apply(step)
    assert s.current_player == 1 and s.events[-1] == (3, 1, 8)  # P1 flipped the 8
    game = s.game
    rng = random.Random(3)
    for when in ("during the round", "after it"):
        if when == "after it":
            s.apply("take 8")  # the pool is empty: round 1 ends
            assert s.round == 2
        v = s.view(2)
        for _ in range(10):
            s2 = game.sample_state(v, rng)
            assert s2.view(2) == v
            history_is_consistent(s2)
            p0_log = [
                (e["type"], e["tile"])
                for e in s2.view(0)["log"]
                if e["type"] in ("draw", "return_hand") and e["seat"] == 0
            ]
            if when == "during the round":
                assert p0_log[:2] == [("draw", 8), ("return_hand", 8)]
            else:  # an earlier round's hidden tiles stay unknown: they bear on nothing now (TR-D10)
                assert p0_log[:2] == [("draw", None), ("return_hand", None)]
