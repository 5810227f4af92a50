"""Tottarot's Japanese texts: `event_text(game, seen, "ja")` (each log event's "text_ja") and `decision_ja`."""

from __future__ import annotations

import random
from typing import Any

import pytest

import bodoge
from bodoge.games.tottarot import DEFAULT_DECK
from bodoge.games.tottarot.state import TottarotState
from bodoge.games.tottarot.text import event_text

NAMES_JA = [t.name_ja for t in DEFAULT_DECK]
GAME = bodoge.make("tottarot", players=3)


def event_text_ja(seen: dict[str, Any]) -> str:
    return event_text(GAME, seen, "ja")


CODES = [t.code for t in DEFAULT_DECK]


def make(players: int, stacked: list[str] | None = None, seed: int = 0, **options: Any) -> TottarotState:
    state = bodoge.make("tottarot", players=players, **options).new_state(seed=seed, deck=stacked)
    assert isinstance(state, TottarotState)
    return state


def test_exact_lines() -> None:
    assert event_text_ja({"type": "round_start", "round": 1, "start_player": 0}) == (
        "ラウンド1開始。スタートプレイヤーはP0です。"
    )
    assert event_text_ja({"type": "turn_start", "round": 1, "turn": 2, "order": [1, 2, 0]}) == (
        "ターン2:運命の宣告。P1、P2、P0の順に山札から1枚ずつ引きます。"
    )
    assert event_text_ja({"type": "draw", "round": 1, "turn": 2, "seat": 1, "card": "WHEEL"}) == (
        "P1が山札から1枚引きました:運命の輪。"
    )
    assert event_text_ja({"type": "draw", "round": 1, "turn": 2, "seat": 2, "card": None}) == (
        "P2が山札から1枚引きました。"
    )
    assert event_text_ja({"type": "reveal", "bids": [1, 0, 3], "actors": [2]}) == (
        "意志の表明を公開:P0 1、P1 0、P2 3。運命の奪取を行うのはP2。"
    )
    assert event_text_ja({"type": "discard", "seat": 2, "card": "DEVIL"}) == (
        "P2が宣告された運命(悪魔)を捨て札にしました。"
    )
    assert event_text_ja({"type": "steal", "seat": 2, "target": 0, "card": None}) == (
        "P2がP0の宣告された運命を奪いました。"
    )
    assert event_text_ja({"type": "steal", "seat": 2, "target": 0, "card": "SUN"}) == (
        "P2がP0の宣告された運命を奪いました(太陽)。"
    )
    assert event_text_ja({"type": "decide", "cards": ["WORLD", None, "MOON"]}) == (
        "運命の決定:P0 世界、P1 なし、P2 月。"
    )
    assert event_text_ja({"type": "invert", "seat": 1, "card": "TOWER", "inverted": True}) == (
        "反転:P1の塔が上下逆さまになりました。"
    )
    assert event_text_ja({"type": "peek", "seat": 1, "target": 0, "card": "LOVERS"}) == (
        "覗き見:P1がP0の宣告された運命を見ました(恋人)。"
    )
    assert (
        event_text_ja({"type": "expose", "seat": 2, "card": "SUN"}) == "公開:P2の宣告された運命は太陽です。"
    )
    end = {
        "type": "round_end",
        "round": 2,
        "totals": [3, -5, 3],
        "unused_sums": [1, 2, 1],
        "gainers": [0, 2],
        "victory_tokens": [1, 0, 2],
    }
    assert event_text_ja(end) == (
        "ラウンド2終了:列の合計 P0 3、P1 -5、P2 3;未使用の意志トークンの合計 P0 1、P1 2、P2 1。"
        "勝利点トークンを得たのはP0、P2。勝利点トークン P0 1、P1 0、P2 2。"
    )
    end = {"type": "game_end", "winners": [2], "reason": "target_reached", "victory_tokens": [0, 1, 2]}
    assert event_text_ja(end) == (
        "ゲーム終了(勝利点トークン2個に到達):P2の勝ちです。勝利点トークン P0 0、P1 1、P2 2。"
    )


def test_custom_deck_names() -> None:
    deck = [
        {"code": "A", "name_ja": "星", "points": 2, "copies": 6},
        {"code": "B", "points": -2, "copies": 6},
    ]
    state = make(2, stacked=["A", "B"], deck=deck)
    # each seat draws in turn (P0 then P1), and sees its own card only, by its Japanese name
    p0, p1 = state.view(0)["log"][-2:]
    assert p0["type"] == "draw" and p0["seat"] == 0 and p0["text_ja"].endswith(":星。")
    assert p1["card"] is None and "B" not in p1["text_ja"]
    # name_ja defaults to the code
    assert state.view(1)["log"][-1]["text_ja"].endswith(":B。")


def test_decision_ja() -> None:
    state = make(3, ["TOWER", "WORLD", "MOON"])
    assert state.decision_ja() == "P0が意志トークンを出します(ラウンド1、ターン1)"
    for v in (0, 1, 3):
        state.apply(f"bid {v}")
    assert (
        state.decision_ja() == "P2が奪う宣告された運命を選ぶか、何も奪わないかを決めます(ラウンド1、ターン1)"
    )


def _random_game(players: int, seed: int) -> TottarotState:
    state = make(players, seed=seed)
    rng = random.Random(seed)
    while state.current_player is not None:
        ja = state.decision_ja()
        assert isinstance(ja, str) and ja.startswith(f"P{state.current_player}が")
        state.apply(rng.choice(state.legal_actions()))
    assert state.decision_ja() == "ゲーム終了"
    return state


@pytest.mark.parametrize(("players", "seed"), [(2, 0), (3, 1), (4, 2), (6, 3)])
def test_every_event_has_japanese_and_hidden_cards_stay_hidden(players: int, seed: int) -> None:
    state = _random_game(players, seed)
    logs = {q: state.log(q) for q in [None, *range(players)]}
    hidden = 0
    for q, log in logs.items():
        for i, e in enumerate(log):
            assert isinstance(e["text_ja"], str) and e["text_ja"], e
            if e["type"] in ("draw", "steal", "share", "peek") and e["card"] is None:
                # Not seen by this seat: no card is named in its line.
                hidden += 1
                for word in NAMES_JA + CODES:
                    assert word not in e["text_ja"], (q, e)
                # Some seat (the drawer, the taker, the one shown) does see it, and its line names it.
                seen = [logs[r][i] for r in range(players) if logs[r][i].get("card") is not None]
                assert seen, e
                for other in seen:
                    name = NAMES_JA[CODES.index(other["card"])]
                    assert name in other["text_ja"], other
    assert hidden > 0
