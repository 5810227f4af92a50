"""Troika's Japanese texts: `event_text(game, seen, "ja")` (each log event's "text_ja") and `decision_ja`."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import bodoge
from bodoge.games.troika.state import TroikaState
from bodoge.games.troika.text import event_text

_PRIVATE = ("deal", "draw", "return_hand")


GAME = bodoge.make("troika", players=4)


def event_text_ja(seen: dict[str, Any]) -> str:
    return event_text(GAME, seen, "ja")


def test_exact_lines() -> None:
    assert event_text_ja({"type": "round_start", "round": 2, "start_player": 1}) == (
        "ラウンド2開始。始まりの冒険者はP1です。"
    )
    assert (
        event_text_ja({"type": "removed", "count": 10}) == "このラウンドは鉱石タイル10枚を見ずに除外します。"
    )
    assert event_text_ja({"type": "deal", "seat": 2, "tile": 7}) == "P2にタイル7が配られました。"
    assert event_text_ja({"type": "deal", "seat": 2, "tile": None}) == "P2に鉱石タイルが1枚配られました。"
    assert event_text_ja({"type": "flip", "seat": None, "tile": 9}) == "準備:タイル9を表向きにしました。"
    assert event_text_ja({"type": "flip", "seat": 0, "tile": 15}) == "P0がタイル15を表向きにしました。"
    assert (
        event_text_ja({"type": "take", "seat": 1, "tile": 3}) == "P1が表向きのタイル3をコンテナに入れました。"
    )
    assert event_text_ja({"type": "draw", "seat": 3, "tile": None}) == (
        "P3が裏向きの山からタイルを1枚手札に引きました。"
    )
    assert (
        event_text_ja({"type": "return_hand", "seat": 0, "tile": 11})
        == "P0が手札のタイル11を裏向きで戻しました。"
    )
    assert event_text_ja({"type": "return_container", "seat": 1, "tile": 4}) == (
        "P1がコンテナのタイル4を表向きで採掘場に戻しました。"
    )
    assert event_text_ja({"type": "troika", "seat": 2, "first": False}) == "P2がトロイカ宣言!"


def test_round_end_line() -> None:
    players: list[dict[str, Any]] = [
        {
            "seat": 0,
            "sets": [[7, 7, 7], [7, 8, 9]],
            "waste": [],
            "left_behind": False,
            "tile_score": 9,
            "bonus": 5,
            "round_score": 14,
            "placement": 1,
            "chips": 2,
            "chip_total": 2,
        },
        {
            "seat": 1,
            "sets": [[1, 2, 3]],
            "waste": [5, 12],
            "left_behind": True,
            "tile_score": 1,
            "bonus": 0,
            "round_score": None,
            "placement": 2,
            "chips": -1,
            "chip_total": -1,
        },
    ]
    e = {"type": "round_end", "round": 1, "reason": "declarations", "first_declarer": 0, "players": players}
    assert event_text_ja(e) == (
        "ラウンド1終了(1人を除く全員が宣言しました)。\n"
        "  P0: 燃料 7-7-7、宝石 7-8-9;ゴミ -;得点 9 + ボーナス5 = 14、1位;チップ +2 → 2\n"
        "  P1: 宝石 1-2-3;ゴミ 5 12;オキザリ(燃料なし);チップ -1 → -1"
    )


def test_game_end_line() -> None:
    e = {
        "type": "game_end",
        "winners": [2],
        "reason": "rounds_played",
        "chips": [1, 0, 4],
        "placements": [2, 3, 1],
    }
    assert event_text_ja(e) == "ゲーム終了(3ラウンド終了):P2の勝ちです。チップ P0 1、P1 0、P2 4。"
    shared = {**e, "winners": [0, 2], "chips": [4, 0, 4], "placements": [1, 3, 1]}
    assert (
        event_text_ja(shared) == "ゲーム終了(3ラウンド終了):P0、P2の勝ちです(同点)。チップ P0 4、P1 0、P2 4。"
    )


def test_decision_ja() -> None:
    s = bodoge.make("troika", players=3).new_state(seed=1)
    assert (
        s.decision_ja()
        == "ラウンド1、P0の手番:表向きのタイルを取る、引く、タイルを戻す、またはトロイカ宣言する"
    )
    s2 = bodoge.make("troika", players=2).new_state(seed=1)
    assert s2.decision_ja() == "ラウンド1、P0の手番:表向きのタイルを取る、引く、またはタイルを戻す"


def _random_game(players: int, seed: int) -> TroikaState:
    s = bodoge.make("troika", players=players).new_state(seed=seed)
    assert isinstance(s, TroikaState)
    rng = random.Random(seed)
    while s.current_player is not None:
        ja = s.decision_ja()
        assert isinstance(ja, str) and ja and f"P{s.current_player}の手番" in ja
        s.apply(rng.choice(s.legal_actions()))
    assert s.decision_ja() == "ゲーム終了"
    return s


@pytest.mark.parametrize(("players", "seed"), [(2, 0), (3, 1), (4, 2), (5, 3)])
def test_every_event_has_japanese_and_hidden_tiles_stay_hidden(players: int, seed: int) -> None:
    s = _random_game(players, seed)
    logs = {q: s.log(q) for q in [None, *range(players)]}
    for log in logs.values():
        for e in log:
            assert isinstance(e["text_ja"], str) and e["text_ja"], e
            assert e["text_ja"] == event_text_ja({k: v for k, v in e.items() if k not in ("text", "text_ja")})
    view = s.view(0)
    assert view["last_round"]["text_ja"].startswith("ラウンド3終了")
    for i, e in enumerate(logs[None]):
        if e["type"] not in _PRIVATE:
            continue
        actor = e["seat"]
        tile = logs[actor][i]["tile"]
        assert tile is not None and f"タイル{tile}" in logs[actor][i]["text_ja"]
        for q, log in logs.items():
            if q == actor:
                continue
            seen = log[i]
            assert seen["tile"] is None
            # The only numbers in another seat's line are the actor's seat and "1枚" (one tile).
            assert not re.search(r"\d", re.sub(r"P\d|1枚", "", seen["text_ja"])), seen["text_ja"]
