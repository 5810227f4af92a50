"""Troika rules: options, setup, turns, declarations, round end, chips and the worked examples."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

import bodoge
from bodoge.errors import BadOption, IllegalAction
from bodoge.games.troika import game_winners, play, round_chips, round_placements, setup
from bodoge.games.troika.cards import DEFAULT_TILE_COUNTS, counts_of, tiles_of
from bodoge.games.troika.state import TroikaState


def untexted(event: dict[str, Any]) -> dict[str, Any]:
    """A log event without its readable line, to compare its facts."""
    assert isinstance(event.get("text"), str) and event["text"]
    assert isinstance(event.get("text_ja"), str) and event["text_ja"]
    return {k: v for k, v in event.items() if k not in ("text", "text_ja")}


DEFAULT_TILES = Counter({n: DEFAULT_TILE_COUNTS[n - 1] for n in range(1, 16)})


def make(players: int, **options: Any) -> Any:
    return bodoge.make("troika", players=players, **options)


def full_deck(front: list[int], back: list[int] = ()) -> list[int]:  # type: ignore[assignment]
    """All 49 tiles in an order: `front` first, `back` last, the rest sorted between."""
    middle = DEFAULT_TILES - Counter(front) - Counter(back)
    assert sum(Counter(front).values()) + sum(Counter(back).values()) + middle.total() == 49
    return [*front, *sorted(middle.elements()), *back]


def last_flip(s: TroikaState) -> int:
    return next(e[2] for e in reversed(s.events) if e[0] == "flip")


def take_flipped(s: TroikaState) -> None:
    s.apply(f"take {last_flip(s)}")


def texts(s: TroikaState) -> list[str]:
    return [s.action_text(a) for a in s.legal_actions()]


def round_end(s: TroikaState) -> dict[str, Any]:
    ends = [e for e in s.log(None) if e["type"] == "round_end"]
    return ends[-1]


# -- options (§2) -------------------------------------------------------------------------------------


def test_default_options_are_the_published_rules() -> None:
    game = make(4)
    o = game.options
    assert o["rounds"] == 3 and o["hand_limit"] == 3 and o["troika"] is True
    assert o["troika_bonus"] == 5 and o["troika_min_container"] == 5
    assert o["chips"] == (2, 1, -1) and o["two_player_removed"] == 10
    assert o["tile_counts"] == DEFAULT_TILE_COUNTS and sum(o["tile_counts"]) == 49
    assert game.num_actions == 47


def test_options_survive_json_and_accept_cli_text() -> None:
    game = make(3, chips="[3, 1, -2]", tile_counts='{"1": 3, "2": 3, "7": 4}', troika="off")
    as_json = json.loads(json.dumps(game.options_json()))
    again = make(3, **as_json)
    assert again.options == game.options
    assert game.options["chips"] == (3, 1, -2)
    assert game.options["tile_counts"][6] == 4 and sum(game.options["tile_counts"]) == 10
    assert game.options["troika"] is False
    assert make(3, chips="2,1,-1").options["chips"] == (2, 1, -1)
    assert make(3, tile_counts=[1] * 15).options["tile_counts"] == (1,) * 15


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("rounds", 0),
        ("hand_limit", 0),
        ("troika", "maybe"),
        ("troika_bonus", 1.5),
        ("troika_min_container", -1),
        ("chips", [2, 1]),
        ("chips", "two"),
        ("two_player_removed", -1),
        ("tile_counts", {"16": 3}),
        ("tile_counts", {"7": -1}),
        ("tile_counts", [3] * 14),
        ("tile_counts", "lots"),
    ],
)
def test_bad_option_values_are_refused(option: str, value: Any) -> None:
    with pytest.raises(BadOption, match=option) as err:
        make(3, **{option: value})
    assert err.value.allowed


def test_tr_2_3_enough_tiles_must_remain() -> None:
    """TR-2.3: after the 2-player removal at least n + 2 tiles must remain."""
    with pytest.raises(BadOption, match="two_player_removed") as err:
        make(2, two_player_removed=46)
    assert "0 to 45" in err.value.allowed
    make(2, two_player_removed=45)
    with pytest.raises(BadOption, match="tile_counts"):
        make(5, tile_counts={"1": 6})
    make(5, tile_counts={"1": 7})
    make(3, two_player_removed=100)  # ignored with 3+ players


# -- setup (§3) -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "removed", "pool"), [(2, 10, 36), (3, 0, 45), (4, 0, 44), (5, 0, 43)])
def test_tr_3_5_counts_after_setup(players: int, removed: int, pool: int) -> None:
    """TR-3.5: removed, in hands, face up, and the face-down pool at the first turn (before its flip)."""
    s = make(players).new_state(seed=players)
    v = s.view(0)
    assert v["removed"] == removed and sum(v["hand_sizes"]) == players
    assert v["pool_size"] + 1 == pool  # the first turn's flip has been made
    assert len(v["mine"]) == 2 and v["current_player"] == 0 and v["start_player"] == 0
    kinds = [e["type"] for e in v["log"]]
    assert kinds == ["round_start", *(["removed"] if removed else []), *["deal"] * players, "flip", "flip"]


def test_tr_3_1_start_player_passes_left_each_round() -> None:
    """TR-3.1 / TR-D17: round r starts with seat (r − 1) mod n; all tiles come back each round."""
    game = make(3, rounds=4)
    s = game.new_state(seed=2)
    rng = random.Random(2)
    starts = []
    while not s.is_terminal:
        if s.view(None)["round"] > len(starts):
            starts.append(s.start_player)
            assert s.current_player == s.start_player
            assert len(s.pool) + 1 == 45 and sum(s.container_sizes) == 0
        s.apply(rng.choice(s.legal_actions()))
    assert starts == [0, 1, 2, 0]


def test_tr_e15_setup_order_with_stacked_outcomes() -> None:
    """TR-E15: 3 players, round 2 (start P1), outcomes 12, 7, 3, 9, 15, …

    The stacked `deck` covers the first round (TR-3.4), so round 2 is set up with the state's own
    round-setup hook given that round's outcomes."""
    s = make(3).new_state(seed=0)
    setup.new_round(s, stacked=[12, 7, 3, 9, 15])
    play.start_turn(s)
    assert s.round == 2 and s.start_player == 1 and s.current_player == 1
    assert [tiles_of(h) for h in s.hands] == [[3], [12], [7]]
    setup_flip, turn_flip = [e for e in s.events if e[0] == "flip"][-2:]
    assert setup_flip == ("flip", None, 9) and turn_flip == ("flip", 1, 15)
    assert len(s.pool) + 1 == 45  # 45 before P1's flip
    assert tiles_of(s.mine) == [9, 15]
    assert texts(s) == ["take 9", "take 15", "draw", "return hand 12"]


def test_tr_e15_two_players_removed_then_hands_then_flip() -> None:
    """TR-E15: with 2 players the first 10 outcomes are set aside, the 11th and 12th go to the hands,
    and the 13th is turned face up."""
    removed = [1, 1, 1, 2, 2, 2, 3, 3, 3, 4]
    s = make(2).new_state(seed=0, deck=[*removed, 14, 15, 9, 8])
    assert tiles_of(s.removed) == removed and s.removed_size == 10
    assert tiles_of(s.hands[0]) == [14] and tiles_of(s.hands[1]) == [15]
    assert tiles_of(s.mine) == [8, 9] and len(s.pool) == 35
    # nobody sees the set-aside tiles, not even in the log
    assert all("tile" not in e or e["type"] != "removed" for e in s.view(0)["log"])
    assert s.view(0)["removed"] == 10 and "4" not in json.dumps(s.view(1)["log"][1], ensure_ascii=False)


def test_stacked_deck_is_checked() -> None:
    """TR-3.4: each outcome must be present face down when used: BadOption('deck')."""
    game = make(3)
    for bad in ([0], [16], ["x"], 7, [1, 1, 1, 1]):
        with pytest.raises(BadOption, match="deck"):
            game.new_state(seed=0, deck=bad)
    with pytest.raises(BadOption, match="deck"):
        make(3, tile_counts={"1": 3, "2": 3}).new_state(seed=0, deck=[1, 2, 3])
    with pytest.raises(BadOption, match="deck"):  # the first turn's flip is a fifth 1
        game.new_state(seed=0, deck=[1, 1, 1, 2, 1])
    # a bad outcome later in play: the action that reaches it fails and changes nothing
    s = game.new_state(seed=0, deck=[1, 2, 3, 4, 5, 5, 5, 5])
    take_flipped(s)
    take_flipped(s)
    before = [s.view(p) for p in (None, 0, 1, 2)]
    history = list(s.history)
    with pytest.raises(BadOption, match="deck"):
        take_flipped(s)  # P0's next flip would be a fourth 5
    assert [s.view(p) for p in (None, 0, 1, 2)] == before and s.history == history
    s.check_invariants()
    # after the stacked outcomes run out, the RNG takes over
    s = game.new_state(seed=0, deck=["1", "2", "3", "4", 5])
    take_flipped(s)
    assert s._stack is None
    assert bodoge.replay(json.loads(json.dumps(s.to_record()))).view(0) == s.view(0)


# -- turns (§4) --------------------------------------------------------------------------------------


def test_tr_e17_a_turn_and_the_container_return() -> None:
    """TR-E17: the flip shows 12 beside the 7; P0 takes 12; later P1 returns a container 5 face up."""
    s = make(3).new_state(seed=0, deck=[1, 2, 3, 7, 12, 5, 9, 10, 11])
    assert s.current_player == 0 and tiles_of(s.mine) == [7, 12]
    s.apply("take 12")
    assert tiles_of(s.containers[0]) == [12]
    assert tiles_of(s.mine) == [5, 7]  # the 7 stayed; P1's turn has flipped the 5
    s.apply("take 5")  # P1 (flipped 5)
    s.apply("take 9")  # P2
    s.apply("take 10")  # P0
    assert s.current_player == 1 and tiles_of(s.containers[1]) == [5]
    assert "return container 5" in texts(s)
    s.apply("return container 5")
    assert tiles_of(s.containers[1]) == [] and s.mine[5 - 1] == 1
    assert s.current_player == 2 and "take 5" in texts(s)
    assert untexted(s.view(0)["log"][-2]) == {"type": "return_container", "seat": 1, "tile": 5}


def test_tr_e16a_full_hand_cannot_draw() -> None:
    """TR-E16 (a) / TR-D8: P3's hand holds 3 tiles, so `draw` is not offered (take and return are)."""
    s = make(4).new_state(seed=5)
    while s.hand_sizes[3] < 3 or s.current_player != 3:
        if s.current_player == 3:
            s.apply("draw")
        else:
            take_flipped(s)
    assert "draw" not in texts(s)
    assert any(t.startswith("take ") for t in texts(s)) and any(t.startswith("return hand") for t in texts(s))


def _e16b_position() -> TroikaState:
    """4 players; P2 holds a 4; at the start of P2's turn one face-down tile (a 6) is left."""
    deck = full_deck([1, 2, 4, 3, 5], [6])
    s = make(4, rounds=1).new_state(seed=0, deck=deck)
    s.apply("draw")  # P0: one extra tile out of the pool
    while s.current_player != 2 or s.pool:
        take_flipped(s)
    return s


def test_tr_e16b_the_last_face_down_tile() -> None:
    """TR-E16 (b) / TR-D22: the flip empties the pool, so `draw` is illegal; `take 6` ends the round;
    `return hand 4` keeps it going and P3's flip must turn that 4."""
    s = _e16b_position()
    assert s.view(2)["pool_size"] == 0 and last_flip(s) == 6
    assert "draw" not in texts(s) and "take 6" in texts(s) and "return hand 4" in texts(s)

    ends = s.clone()
    ends.apply("take 6")
    assert ends.is_terminal and round_end(ends)["reason"] == "pool_empty"

    goes_on = s.clone()
    goes_on.apply("return hand 4")
    assert not goes_on.is_terminal and goes_on.current_player == 3
    assert untexted(goes_on.view(0)["log"][-2]) == {"type": "return_hand", "seat": 2, "tile": None}
    assert untexted(goes_on.view(0)["log"][-1]) == {"type": "flip", "seat": 3, "tile": 4}
    assert goes_on.view(2)["returned_in_pool"] == []  # flipped: now public
    assert goes_on.view(3)["pool_size"] == 0


def test_no_pass_and_take_is_always_legal() -> None:
    """TR-D23 / TR-D7: every decision offers a take, including the tile just flipped."""
    for players in (2, 3, 4, 5):
        s = make(players).new_state(seed=players)
        rng = random.Random(players)
        while not s.is_terminal:
            assert f"take {last_flip(s)}" in texts(s)
            s.apply(rng.choice(s.legal_actions()))


def test_action_texts() -> None:
    s = make(3).new_state(seed=0)
    assert [s.action_text(a) for a in (0, 6, 14, 15, 16, 22, 30, 31, 37, 45, 46)] == [
        "take 1",
        "take 7",
        "take 15",
        "draw",
        "return hand 1",
        "return hand 7",
        "return hand 15",
        "return container 1",
        "return container 7",
        "return container 15",
        "troika",
    ]
    p = s.current_player
    hand_tile = tiles_of(s.hands[p])[0]
    assert s.parse_action(f"RETURN  hand {hand_tile}") == 15 + hand_tile
    with pytest.raises(IllegalAction):
        s.apply("troika")


# -- declarations and round end (§5.5, TR-4.5, §6) ---------------------------------------------------


def _play_stacked(s: TroikaState, plan: list[str]) -> None:
    for step in plan:
        if step == "take":
            take_flipped(s)
        else:
            s.apply(step)


def test_tr_e10_declarer_scored_on_a_partition_with_waste() -> None:
    """TR-E10: P0 declares first with {1,1,1,7,7,7,8,9,10} and no hand: 6 + 5 = 11."""
    turns = [
        [6, 11, 12],
        [1, 11, 12],
        [1, 11, 13],
        [1, 13, 13],
        [7, 14, 14],
        [7, 14, 15],
        [7, 15, 15],
        [8, 3, 3],
        [9, 4, 4],
        [10],
    ]
    deck = [2, 3, 4, 5] + [t for cycle in turns for t in cycle]
    s = make(3, rounds=1).new_state(seed=1, deck=deck)
    _play_stacked(s, ["return hand 2"] + ["take"] * 27)
    assert tiles_of(s.containers[0]) == [1, 1, 1, 7, 7, 7, 8, 9, 10] and s.hand_sizes[0] == 0
    take_flipped(s)  # P1
    take_flipped(s)  # P2
    assert s.current_player == 0 and "troika" in texts(s)
    s.apply("troika")
    assert s.first_declarer == 0
    while not s.is_terminal:
        assert s.current_player != 0  # TR-5.5.3: no more turns
        take_flipped(s)
    p0 = round_end(s)["players"][0]
    assert p0["sets"] == [[1, 1, 1], [7, 8, 9]] and p0["waste"] == [7, 7, 10]
    assert p0["tile_score"] == 6 and p0["bonus"] == 5 and p0["round_score"] == 11
    assert round_end(s)["reason"] == "pool_empty"


E11_DECK = [1, 13, 6, 3, 4, 2, 5, 4, 2, 5, 4, 2, 5, 7, 10, 8, 8, 11, 9, 9, 12, 10, 3, 3, 14, 7, 7, 7, 15, 7]


def test_tr_e11_end_by_declarations_bonus_and_chips() -> None:
    """TR-E11: P0 declares first, P2 later: 2 of 3 declared ends the round after P2's turn.
    P0 9 + 5 = 14, P1 2 + 5 = 7, P2 0 → chips +2, +1, 0."""
    s = make(3).new_state(seed=0, deck=E11_DECK)
    _play_stacked(s, ["take"] * 18 + ["return hand 1", "draw", "return hand 6", "troika", "draw"])
    assert s.declared == [True, False, False] and s.first_declarer == 0
    assert s.current_player == 2 and "troika" in texts(s)
    s.apply("troika")
    assert s.round == 2  # the round ended at the end of P2's turn; P1 got no more turns
    end = round_end(s)
    assert end["reason"] == "declarations" and end["first_declarer"] == 0
    p0, p1, p2 = end["players"]
    assert (p0["container"], p0["hand"]) == ([4, 4, 4, 7, 8, 9], [])
    assert (p1["container"], p1["hand"]) == ([2, 2, 2, 10, 11, 12], [13, 14, 15])
    assert (p2["container"], p2["hand"]) == ([5, 5, 5, 8, 9, 10], [])
    assert [p["round_score"] for p in end["players"]] == [14, 7, 0]
    assert [p["bonus"] for p in end["players"]] == [5, 0, 0]
    assert [p["chips"] for p in end["players"]] == [2, 1, 0]
    assert [p["placement"] for p in end["players"]] == [1, 2, 3]
    assert s.scores() == [2, 1, 0]
    # TR-7.1 / §7: until scoring, a declarer's hand stayed hidden; at scoring everything is public
    assert end in [e for e in s.view(1)["log"] if e["type"] == "round_end"]
    assert s.view(2)["last_round"] == end


def test_declarer_hands_stay_hidden_until_scoring() -> None:
    """TR-D3 / §7: declaring reveals only that the tiles pass TR-5.5.1."""
    s = make(3).new_state(seed=0, deck=E11_DECK)
    _play_stacked(s, ["take"] * 18 + ["return hand 1", "draw", "return hand 6", "troika"])
    v = s.view(2)
    assert v["declared"] == [True, False, False] and v["first_declarer"] == 0
    declaration = dict(v["log"][-2])
    assert declaration.pop("text") == "P0 declares Troika! (first: bonus)"
    assert declaration.pop("text_ja") == "P0がトロイカ宣言!(最初の宣言:ボーナスあり)"
    assert declaration == {"type": "troika", "seat": 0, "first": True}
    assert v["hand"] == [] and v["hand_sizes"][1] == 2
    assert "13" not in json.dumps(
        [e for e in v["log"] if e.get("seat") == 1 and e["type"] == "draw"], ensure_ascii=False
    )


def test_troika_is_never_offered_with_two_players() -> None:
    """TR-E14 / TR-E9: with 2 players `troika` is never legal, even with declarable tiles."""
    s = make(2).new_state(seed=0)
    p = s.current_player
    s.containers[p] = counts_of([3, 3, 3, 4, 5])
    s.container_sizes[p] = 5
    s.hands[p] = counts_of([6])
    s.hand_sizes[p] = 1
    assert 46 not in s._legal_actions()
    s3 = make(3).new_state(seed=0)
    s3.containers[0], s3.container_sizes[0] = counts_of([3, 3, 3, 4, 5]), 5
    s3.hands[0], s3.hand_sizes[0] = counts_of([6]), 1
    assert 46 in s3._legal_actions()
    off = make(3, troika=False).new_state(seed=0)
    off.containers[0], off.container_sizes[0] = counts_of([3, 3, 3, 4, 5]), 5
    off.hands[0], off.hand_sizes[0] = counts_of([6]), 1
    assert 46 not in off._legal_actions()


def test_tr_e14_two_players() -> None:
    """TR-E14: 49 − 10 = 39; 2 dealt; 1 flipped → 36 before P0's flip, 35 after with 2 face up."""
    s = make(2).new_state(seed=4)
    assert len(s.pool) == 35 and sum(s.mine) == 2 and s.removed_size == 10
    assert round_chips([3, -2]) == [2, 1]
    assert round_chips([3, None]) == [2, -1]
    assert round_chips([4, 4]) == [2, 2]
    rng = random.Random(4)
    while not s.is_terminal:
        assert "troika" not in texts(s)
        s.apply(rng.choice(s.legal_actions()))


def test_tr_e12_chip_ties() -> None:
    """TR-E12 (a)–(d)."""
    assert round_chips([6, 6, 3, None]) == [2, 2, 0, -1]
    assert round_chips([9, 4, 4, 1]) == [2, 1, 1, 0]
    assert round_chips([None, None, -3]) == [-1, -1, 2]
    assert round_chips([None, None, None]) == [-1, -1, -1]
    assert round_chips([9, 4, 4, 1], (5, 3, -4)) == [5, 3, 3, 0]


def test_tr_6_4_placements() -> None:
    assert round_placements([6, 6, 3, None]) == [1, 1, 3, 4]
    assert round_placements([9, 4, 4, 1]) == [1, 2, 2, 4]
    assert round_placements([None, None, -3]) == [2, 2, 1]
    assert round_placements([None, None, None]) == [1, 1, 1]


def _game_end(rounds: list[list[int | None]]) -> list[int]:
    totals = [0] * len(rounds[0])
    for scores in rounds:
        for p, c in enumerate(round_chips(scores)):
            totals[p] += c
    return game_winners(totals, round_placements(rounds[-1]))


def test_tr_e13_game_end_ties() -> None:
    """TR-E13: (a) 3/3/3, P2 got +2 in round 3 → P2; (b) P0, P1 tied, neither +2 in round 3 → the
    better round-3 placement, P0; (c) tied and both left behind in round 3 → shared."""
    # round scores chosen to give exactly the example's chips
    assert _game_end([[5, 3, 1], [1, 5, 3], [3, 1, 5]]) == [2]
    assert _game_end([[5, 3, None], [1, 5, 3], [3, 1, 5]]) == [0]
    assert _game_end([[5, 5, 1], [5, 5, 1], [None, None, 4]]) == [0, 1]
    assert game_winners([3, 3, 3], [2, 3, 1]) == [2]


def test_round_end_makes_everything_public() -> None:
    """§7: at round scoring every hand, container, partition, score, chips and placement is public."""
    game = make(4, rounds=1)
    s = game.new_state(seed=9)
    rng = random.Random(9)
    while not s.is_terminal:
        s.apply(rng.choice(s.legal_actions()))
    hands = [tiles_of(h) for h in s.hands]  # the final position stays on the table
    containers = [tiles_of(c) for c in s.containers]
    end = s.view(None)["last_round"]
    assert end == round_end(s) and end["round"] == 1
    assert [p["hand"] for p in end["players"]] == hands
    assert [p["container"] for p in end["players"]] == containers
    for p in end["players"]:
        assert set(p) >= {"sets", "waste", "round_score", "chips", "placement", "left_behind", "chip_total"}
    for seat in (0, 1, 2, 3):
        assert s.view(seat)["last_round"] == end
    assert s.scores() == [p["chip_total"] for p in end["players"]]


def test_views_hide_other_hands_and_the_pool() -> None:
    s = make(3).new_state(seed=3)
    rng = random.Random(3)
    for _ in range(40):
        s.apply(rng.choice(s.legal_actions()))
    for seat in (None, 0, 1, 2):
        v = s.view(seat)
        for e in v["log"]:
            if e["type"] in ("deal", "draw", "return_hand") and e["seat"] != seat:
                assert e["tile"] is None
        assert "pool" not in v and "hands" not in v
        assert v["hand"] == (None if seat is None else tiles_of(s.hands[seat]))
    assert s.view(None)["returned_in_pool"] is None


def test_game_ends_after_the_rounds_and_winners_follow_tr_6_6() -> None:
    for players in (2, 3, 4, 5):
        game = make(players)
        s = game.new_state(seed=10 + players)
        rng = random.Random(players)
        while not s.is_terminal:
            s.apply(rng.choice(s.legal_actions()))
            assert len(s.history) <= game.max_game_length()
        ends = [e for e in s.events if e[0] == "round_end"]
        assert len(ends) == 3
        assert s.winners() == game_winners(s.chips, list(ends[-1][7]))
        text = s.render(0)
        assert "game over" in text
        # the log ends with the game's end: who won, why (TR-6.5) and the chips that decided it
        for seat in (None, *range(players)):
            last = dict(s.log(seat)[-1])
            assert last.pop("text").startswith("Game over (3 rounds played): ")
            assert last.pop("text_ja").startswith("ゲーム終了(3ラウンド終了)")
            assert last == {
                "type": "game_end",
                "winners": s.winners(),
                "reason": "rounds_played",
                "chips": s.chips,
                "placements": list(ends[-1][7]),
            }


def test_render_shows_own_hand_only() -> None:
    s = make(3).new_state(seed=1)
    own = " ".join(str(t) for t in tiles_of(s.hands[0]))
    board = s.render(0)
    assert f"hand: {own}" in board and "hidden" in board and "your turn" in board
    assert "P0 to play" in s.render(1)
