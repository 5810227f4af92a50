"""The one event vocabulary (docs/protocol.md, "Events: one vocabulary"), checked over random games of
every game at every player count, the toy game package `toygame/` and the agents' test game
`bodoge_tinygame` (tests/agents/):

- every log ends with exactly one `game_end`, its last entry, present exactly when the state is
  terminal, with `winners == state.winners()` and a string `reason`;
- no entry has a retired type (`round`, `score`, `end`, `declaration`): `round_start`, `round_end`,
  `game_end`, `draw` say these;
- no view and no log entry has a key `player`: a seat is a `seat` (or a role: `target`, `winner`, ...);
- the same log entry has the same keys for every viewer (every seat and the spectator): what a viewer
  may not see is `null`, never a missing key;
- `round_end` of round r comes after `round_start` of round r, once, and each `round_start` names the
  round and its `start_player`.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conformance_games import CASES

import bodoge
from bodoge.core import Game, State

AGENTS_TESTS = str(Path(__file__).resolve().parent.parent / "agents")
if AGENTS_TESTS not in sys.path:
    sys.path.insert(0, AGENTS_TESTS)

from bodoge_tinygame import TinyGame  # noqa: E402  (beside the agent tests)

RETIRED_TYPES = {"round", "score", "end", "declaration"}
SEEDS = (11, 12)


def _case(name: str, players: int, make: Callable[[], Game]) -> Any:
    return pytest.param(make, id=f"{name}-{players}p")


def _maker(name: str, players: int) -> Callable[[], Game]:
    return lambda: bodoge.make(name, players=players)


GAME_CASES = [_case(name, n, _maker(name, n)) for name, n in CASES] + [
    _case("tiny", n, lambda n=n: TinyGame(n)) for n in range(TinyGame.min_players, TinyGame.max_players + 1)
]


def keys_named(value: Any, key: str, path: str = "") -> Iterator[str]:
    """Where `key` is a dict key anywhere in `value` (nested dicts and lists), as paths."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k == key:
                yield f"{path}.{k}"
            yield from keys_named(v, key, f"{path}.{k}")
    elif isinstance(value, list | tuple):
        for i, v in enumerate(value):
            yield from keys_named(v, key, f"{path}[{i}]")


def check_views(state: State) -> None:
    """No view names a seat `player` (its log included)."""
    for p in [None, *range(state.game.num_players)]:
        found = list(keys_named(state.view(p), "player"))
        assert not found, f"the view of {p} has keys 'player' at {found[:3]}: a seat is a 'seat'"


def check_final_logs(state: State) -> None:
    n = state.game.num_players
    logs = {p: [dict(e) for e in state.log(p)] for p in [None, *range(n)]}
    spectator = logs[None]
    for p, log in logs.items():
        assert len(log) == len(spectator), (
            f"the log of {p} has {len(log)} entries, the spectator's {len(spectator)}"
        )
        ends = [i for i, e in enumerate(log) if e["type"] == "game_end"]
        assert ends == [len(log) - 1], f"the log of {p} must end with exactly one game_end, not at {ends}"
        end = log[-1]
        assert end["winners"] == state.winners(), f"game_end of {p} names {end['winners']}"
        assert isinstance(end["reason"], str) and end["reason"], f"game_end of {p} has no reason: {end}"
        retired = sorted({e["type"] for e in log} & RETIRED_TYPES)
        assert not retired, f"the log of {p} has entries of retired types {retired}"
        for i, e in enumerate(log):
            assert e.keys() == spectator[i].keys(), (
                f"entry {i} ({e['type']}) has keys {sorted(e.keys())} for {p}, "
                f"{sorted(spectator[i].keys())} for the spectator: hide a part as null, never leave it out"
            )
            assert e["type"] == spectator[i]["type"], (
                f"entry {i} is {e['type']} for {p}, {spectator[i]['type']}"
            )
    started: set[int] = set()
    ended: set[int] = set()
    for i, e in enumerate(spectator):
        if e["type"] == "round_start":
            assert isinstance(e["round"], int) and "start_player" in e, f"entry {i}: {e}"
            assert e["round"] not in started, f"entry {i}: round {e['round']} starts twice"
            started.add(e["round"])
        elif e["type"] == "round_end":
            r = e["round"]
            assert r in started, f"entry {i}: round {r} ends before its round_start"
            assert r not in ended, f"entry {i}: round {r} ends twice"
            ended.add(r)


@pytest.mark.parametrize("make", GAME_CASES)
@pytest.mark.parametrize("seed", SEEDS)
def test_logs_and_views_speak_the_one_vocabulary(make: Callable[[], Game], seed: int) -> None:
    game = make()
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    step = 0
    while not state.is_terminal:
        log = state.log(None)
        # logs only grow: with the final check (one game_end, the last entry) this finds any early one
        assert not log or log[-1]["type"] != "game_end", f"game_end before the end, at {state.decision()}"
        if step % 25 == 0:
            check_views(state)
        state.apply(rng.choice(state.legal_actions()))
        step += 1
    check_views(state)
    check_final_logs(state)


def test_the_check_finds_what_it_looks_for() -> None:
    """The recursive key search reaches into lists of dicts (a round_end's per-seat entries)."""
    view = {"seat": 0, "log": [{"type": "round_end", "players": [{"seat": 1}, {"player": 2}]}]}
    assert list(keys_named(view, "player")) == [".log[0].players[1].player"]
    assert list(keys_named({"players": 3}, "player")) == []
