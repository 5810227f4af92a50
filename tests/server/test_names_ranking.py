"""The server's side of issue #56's names, ranking and words (the browser's side is
test_names_ranking_browser.py): the places at the end follow each game's winner rule, the view at
the end carries them, the lobby's options come with words, /api/health tells the away grace, and no
two seats of a new table are given one name.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the server extra is not installed (pip install -e '.[server]')")

from server_helpers import ThreadServer, make_config

from bodoge.core.game import State
from bodoge.core.registry import make
from bodoge.server.app import game_info
from bodoge.server.guard import Limits
from bodoge.server.table.views import _view_text, places

GAMES = ("hangover", "tokkuri", "tottarot", "troika")


def played(game: str, players: int, seed: int, **options: Any) -> State:
    """A game played to its end by random legal moves (seeded)."""
    state = make(game, players, **options).new_state(seed=seed)
    rng = random.Random(seed)
    while state.current_player is not None:
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_a_hung_over_player_is_ranked_below_the_winner_whatever_their_vp() -> None:
    # Seed 0, three players: P2 wins with 2 VP; P0 (8 VP) and P1 (5 VP) are hung over (HO-6.4).
    state = played("hangover", 3, 0)
    assert state.winners() == [2] and state.scores() == [8, 5, 2]
    assert places(state) == [2, 3, 1]


@pytest.mark.parametrize("game", GAMES)
def test_the_winners_are_first_and_the_places_follow_the_scores(game: str) -> None:
    options = {"tottarot": {"target": 1}, "hangover": {}}.get(game, {"rounds": 1})
    for seed in range(6):
        state = played(game, 3, seed, **options)
        got = places(state)
        won = state.winners()
        assert all(got[p] == 1 for p in won)
        assert all(got[p] > 1 for p in range(3) if p not in won) or not won
        if game != "hangover":  # elsewhere the others are ranked by score alone
            others = [p for p in range(3) if p not in won]
            for a in others:
                for b in others:
                    if state.scores()[a] > state.scores()[b]:
                        assert got[a] < got[b]


def test_the_view_message_at_the_end_carries_the_places() -> None:
    state = played("hangover", 3, 0)
    text, _ = _view_text("t", state, None, 0)
    assert json.loads(text)["places"] == [2, 3, 1]
    unfinished = make("hangover", 3).new_state(seed=0)
    assert "places" not in json.loads(_view_text("t", unfinished, None, 0)[0])


@pytest.mark.parametrize("game", GAMES)
def test_the_lobby_offers_options_in_words(game: str) -> None:
    offered = [o for o in game_info(game)["options"] if o.get("kind")]
    assert offered, "the lobby offers no option of this game"
    for option in offered:
        assert option["kind"] in ("integer", "boolean", "choice")
        for lang in ("en", "ja"):
            label = option["label"][lang]
            assert label and "_" not in label and label != option["name"]
            if option.get("none"):
                assert option["none"][lang]
            for choice in option.get("choices", []):
                assert choice["words"][lang] and choice["words"][lang] != choice["value"]
    if game == "tokkuri":
        rounds = next(o for o in offered if o["name"] == "rounds")
        assert rounds["label"] == {"en": "Rounds", "ja": "ラウンド数"} and rounds["none"]


@pytest.fixture
def graced(tmp_path: Path) -> Iterator[ThreadServer]:
    config = make_config(f"sqlite:///{tmp_path / 'names.db'}", limits=Limits(away_grace=90.0))
    with ThreadServer(config) as server:
        yield server


def test_health_tells_the_away_grace_and_a_table_refuses_one_name_twice(graced: ThreadServer) -> None:
    with graced.http() as http:
        assert http.get("/api/health").json()["away_grace"] == 90.0
        seats = [{"kind": "human", "name": "Aki"}, {"kind": "human", "name": "ａｋｉ "}, {"kind": "human"}]
        refused = http.post("/api/tables", json={"game": "tokkuri", "players": 3, "seats": seats})
        assert refused.status_code == 400 and "seat 0" in refused.text
        bots = [{"kind": "human", "name": "Aki"}] + [{"kind": "bot", "spec": "random"}] * 2
        made = http.post("/api/tables", json={"game": "tokkuri", "players": 3, "seats": bots})
        assert made.status_code == 201, made.text  # bots named by their kind are not names given twice
