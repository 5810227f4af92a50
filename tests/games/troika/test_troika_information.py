"""Troika information states: perfect recall of hand returns, `sample_state`, and the bot."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import bodoge
from bodoge.errors import BadOption
from bodoge.games.troika import play
from bodoge.games.troika.cards import N_NUMBERS, tiles_of
from bodoge.games.troika.heuristic import act
from bodoge.games.troika.play import DRAW, RETURN_CONTAINER, RETURN_HAND, TAKE, TROIKA
from bodoge.games.troika.sampling import _legal_hands, weighted_hands
from bodoge.games.troika.scoring import zero_waste_with_fuel
from bodoge.games.troika.state import TroikaState


def untexted(event: dict[str, Any]) -> dict[str, Any]:
    """A log event without its readable line, to compare its facts."""
    assert isinstance(event.get("text"), str) and event["text"]
    assert isinstance(event.get("text_ja"), str) and event["text_ja"]
    return {k: v for k, v in event.items() if k not in ("text", "text_ja")}


def make(players: int, **options: Any) -> Any:
    return bodoge.make("troika", players=players, **options)


def history_is_consistent(s: TroikaState) -> None:
    """The whole game, hidden tiles included, replays through the rules to this very state: each deal,
    draw and flip took a tile that was face down, each return a tile the player held, each declaration
    was legal, and each round ended with the hands it showed. (The rules keep only the round in play's
    2-player set-aside tiles; for an earlier round any that fit its events will do, TR-3.3.)"""
    game = s.game
    ev = s.events
    starts = [i for i, e in enumerate(ev) if e[0] == "round_start"]
    played: list[tuple[list[int], list[int]]] = []
    for a, b in zip(starts, [*starts[1:], len(ev)], strict=True):
        chance: list[int] = []
        actions: list[int] = []
        net = [0] * N_NUMBERS  # tiles of each number out of the pool so far, and the most ever
        most = [0] * N_NUMBERS
        for e in ev[a:b]:
            kind, t = e[0], e[2] if len(e) > 2 else None
            if kind in ("deal", "draw", "flip", "return_hand"):
                assert isinstance(t, int), f"a hidden tile left unknown in {e}"
                net[t - 1] += -1 if kind == "return_hand" else 1
                most[t - 1] = max(most[t - 1], net[t - 1])
            if kind in ("deal", "draw", "flip"):
                chance.append(t)
            if kind == "draw":
                actions.append(DRAW)
            elif kind == "take":
                actions.append(TAKE + t - 1)
            elif kind == "return_hand":
                actions.append(RETURN_HAND + t - 1)
            elif kind == "return_container":
                actions.append(RETURN_CONTAINER + t - 1)
            elif kind == "troika":
                actions.append(TROIKA)
        if b == len(ev):
            removed = tiles_of(s.removed)
        else:  # set aside what the pool never needed, number by number
            removed = []
            room = [game.tile_counts[i] - most[i] for i in range(N_NUMBERS)]
            for i in range(N_NUMBERS):
                take = min(room[i], game.removed_per_round - len(removed))
                removed += [i + 1] * take
        played.append((removed + chance, actions))
    t = play.stacked_state(game, played[0][0], random.Random(0))
    for i, (_, actions) in enumerate(played):
        play.play_stacked(t, actions, next_round=played[i + 1][0] if i + 1 < len(played) else None)
    assert t.events == ev and t.history == s.history and t.chips == s.chips
    assert t.hands == s.hands and sorted(t.pool) == sorted(s.pool) and t.removed == s.removed
    assert t.known == s.known and t.mine == s.mine and t.containers == s.containers
    assert t.current_player == s.current_player and t.declared == s.declared


def samples_agree(s: TroikaState, seat: int | None, seeds: int, rng: random.Random | None = None) -> None:
    """sample_state(view) keeps the view, rebuilds a possible history, and play goes on legally."""
    v = s.view(seat)
    for k in range(seeds):
        s2 = s.game.sample_state(v, rng or random.Random(k))
        assert s2.view(seat) == v
        s2.check_invariants()
        history_is_consistent(s2)
        if not s2.is_terminal:
            s2.apply(s2.legal_actions()[-1])


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
                                assert play.may_declare(s2, q)
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
        assert s2.view(2) == v  # its returned tiles too (`returned_in_pool`: the rules' count)
        assert tiles_of(s2.hands[2]) == v["hand"]
        assert [tiles_of(c) for c in s2.containers] == v["containers"]
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
    for p in (0, 1, 2, None):
        samples_agree(s, p, seeds=25)
    # P0 returned a 6 and P1 drew it unseen: P1's only legal hand is that 6 (container 3 3 3 4 5),
    # the other 6s are in sight, and yet P0 still counts its 6 as face down.
    v = s.view(0)
    assert v["returned_in_pool"] == [6] and s.hands[1][6 - 1] == 1
    for k in range(25):
        s2 = s.game.sample_state(v, random.Random(k))
        assert tiles_of(s2.hands[1]) == [6] and 6 not in s2.pool


def test_a_returned_tile_drawn_back_out_unseen() -> None:
    """P2 returns its only 8; P0 draws it unseen, and with the pool empty puts it back; P1 flips it.
    From P2's view the 8 that P0 returned must be the one P0 drew: every sample's history of the round
    in play says so."""
    counts = {"1": 3, "2": 3, "3": 4, "8": 1}
    deck = [1, 1, 8, 2, 2, 1, 2, 3, 8, 3, 3, 3, 8]
    s = make(3, rounds=2, tile_counts=counts).new_state(seed=0, deck=deck)
    for step in ["take 2", "take 1", "return hand 8", "draw", "take 3", "take 3", "return hand 8"]:
        s.apply(step)
    assert s.current_player == 1 and s.events[-1] == ("flip", 1, 8)  # P1 flipped the 8
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
            # An earlier round is rebuilt through the rules too, so the same holds after it.
            assert p0_log[:2] == [("draw", 8), ("return_hand", 8)]


def test_samples_follow_the_chance_model() -> None:
    """`sample_state` draws the hidden tiles with their probability given the view (TR-D18), not just
    some consistent tiles: P0 returns the only 8, and P1's later unseen draw takes it with the chance
    the pool gave it, while P2, dealt before the return, never holds it. Checked against an exact
    enumeration of the chance events."""
    counts = {"1": 3, "2": 3, "3": 3, "8": 1}
    deck = [8, 1, 2, 3, 1, 2, 3, 3]  # deals P0 P1 P2, setup flip, P0's flip, P1's flip and draw, P2's flip
    s = make(3, tile_counts=counts).new_state(seed=0, deck=deck)
    s.apply("return hand 8")
    s.apply("draw")
    assert s.current_player == 2 and s.view(0)["returned_in_pool"] == [8]

    # Exact: each chance event takes a tile uniformly from the pool; P0 sees its deal and the flips.
    exact: dict[tuple[tuple[int, ...], tuple[int, ...]], float] = {}
    pool = {1: 3, 2: 3, 3: 3, 8: 1}

    def go(i: int, w: float, hands: tuple[tuple[int, ...], tuple[int, ...]]) -> None:
        script = ["see 8", "P1", "P2", "see 3", "see 1", "return 8", "see 2", "P1", "see 3"]
        if i == len(script):
            key = (tuple(sorted(hands[0])), tuple(sorted(hands[1])))
            exact[key] = exact.get(key, 0.0) + w
            return
        step = script[i]
        size = sum(pool.values())
        if step == "return 8":
            pool[8] += 1
            go(i + 1, w, hands)
            pool[8] -= 1
            return
        for v in [int(step[4:])] if step.startswith("see") else list(pool):
            if pool[v]:
                pool[v] -= 1
                if step == "P1":
                    grown = (hands[0] + (v,), hands[1])
                elif step == "P2":
                    grown = (hands[0], hands[1] + (v,))
                else:
                    grown = hands
                go(i + 1, w * (pool[v] + 1) / size, grown)
                pool[v] += 1

    go(0, 1.0, ((), ()))
    total = sum(exact.values())
    rng = random.Random(17)
    v = s.view(0)
    got: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
    runs = 4000
    for _ in range(runs):
        s2 = s.game.sample_state(v, rng)
        key = (tuple(tiles_of(s2.hands[1])), tuple(tiles_of(s2.hands[2])))
        got[key] = got.get(key, 0) + 1
    assert set(got) <= set(exact)
    p1_has_8 = sum(w for (h1, _), w in exact.items() if 8 in h1) / total
    assert 0.1 < p1_has_8 < 0.3  # 1 in 5 but for what the later flip says
    assert sum(n for (h1, _), n in got.items() if 8 in h1) / runs == pytest.approx(p1_has_8, abs=0.03)
    assert not any(8 in h2 for _, h2 in got)
    tv = 0.5 * sum(abs(exact.get(k, 0.0) / total - got.get(k, 0) / runs) for k in set(exact) | set(got))
    assert tv < 0.05


def test_a_sampler_reads_the_view_once() -> None:
    """`Troika.sampler(view)` (what a search uses) gives the same kind of samples as `sample_state`,
    for players and spectators, in every round."""
    game = make(4, rounds=2)
    s = game.new_state(seed=8)
    rng = random.Random(8)
    while not s.is_terminal:
        s.apply(
            act(game, s.view(s.current_player), rng) if rng.random() < 0.7 else rng.choice(s.legal_actions())
        )
        if rng.random() < 0.1:
            for p in (None, 0, 1, 2, 3):
                v = s.view(p)
                sample = game.sampler(v)
                for _ in range(3):
                    s2 = sample(rng)
                    assert s2.view(p) == v
                    history_is_consistent(s2)


def test_legal_declarer_hands_are_all_found() -> None:
    """The hands the sampler gives a declarer (TR-7.1) are exactly those with which hand plus
    container split into sets with no waste and a fuel (TR-5.5.1), checked against every hand."""
    rng = random.Random(4)
    for _ in range(400):
        avail = [0, *(rng.choice([0, 0, 1, 2, 3, 4]) for _ in range(N_NUMBERS))]
        base = [0, *(rng.choice([0, 0, 0, 1, 2, 3]) for _ in range(N_NUMBERS))]
        size = rng.randint(0, 4)
        want = {
            (0, *h)
            for h, _ in weighted_hands(avail[1:], size)
            if zero_waste_with_fuel(tuple(a + b for a, b in zip(h, base[1:], strict=True)))
        }
        assert set(_legal_hands(avail, size, base)) == want


def test_an_impossible_view_is_refused() -> None:
    """A view no game can produce (here: four flips of tile 1, which has three copies) is a
    BadOption, not a crash or a wrong sample."""
    s = make(3).new_state(seed=2)
    while sum(1 for e in s.events if e[0] == "flip") < 4:
        s.apply(s.legal_actions()[0])
    v = json.loads(json.dumps(s.view(0)))
    for e in v["log"]:
        if e["type"] == "flip":
            e["tile"] = 1
    with pytest.raises(BadOption, match="view"):
        s.game.sample_state(v, random.Random(0))
