"""Every record ever written replays (issue #34, docs/protocol.md, Records): each rules version of each
game that a released bodoge wrote replays, by that version's rules, to the same game.

The fixtures (`tests/fixtures/records/versions/`) were written by the commits that played those
versions, not by today's tree (`write_versions.py`): Tokkuri's version 1 by 52b8deb and 569ea00, the
first and last commits that dealt by its factorial shuffle, before 74be900 made the shuffle linear
as version 2. Each case holds the record and a trace of the game as that commit played it: whose
turn and which actions were legal at every position, and every Tokkuri round's deal."""

from __future__ import annotations

import copy
import gzip
import importlib.util
import json
import random
import re
from pathlib import Path
from typing import Any, ClassVar

import pytest

import bodoge
from bodoge.core import registry
from bodoge.core.game import Game
from bodoge.core.registry import game_class
from bodoge.errors import BadOption, BadRecord
from bodoge.games.tokkuri.setup import shuffled, shuffled_v1

VERSIONS = Path(__file__).parent.parent / "fixtures" / "records" / "versions"
_writer_spec = importlib.util.spec_from_file_location(
    "versions_writer", VERSIONS.parent / "write_versions.py"
)
assert _writer_spec is not None and _writer_spec.loader is not None
_writer = importlib.util.module_from_spec(_writer_spec)
_writer_spec.loader.exec_module(_writer)
Trace = _writer.Trace


def load() -> dict[tuple[str, int], list[dict[str, Any]]]:
    out: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for path in sorted(VERSIONS.glob("*-v*.json.gz")):
        name, _, version = path.name.removesuffix(".json.gz").rpartition("-v")
        out[name, int(version)] = json.loads(gzip.decompress(path.read_bytes()))
    return out


FIXTURES = load()
CASES = [(key, i, case) for key, cases in FIXTURES.items() for i, case in enumerate(cases)]


def declared() -> set[tuple[str, int]]:
    return {(name, v) for name in registry.declared() for v in game_class(name).replays_versions}


def test_every_rules_version_of_every_game_has_a_fixture() -> None:
    """A game that bumps its rules_version keeps the old one in replays_versions, and a fixture of
    each: written by the commit that played it (write_versions.py)."""
    assert set(FIXTURES) == declared()
    for (name, version), cases in FIXTURES.items():
        assert cases, (name, version)
        assert {(c["record"]["game"], c["record"]["rules_version"]) for c in cases} == {(name, version)}
        assert all(c["record"]["result"] is not None for c in cases)  # finished games


def test_tokkuri_replays_both_of_its_versions_and_plays_the_newest() -> None:
    cls = game_class("tokkuri")
    assert cls.rules_version == 2 and cls.replays_versions == (1, 2)
    # version 1's fixture holds the first and the last commit that wrote it
    assert {c["commit"] for c in FIXTURES["tokkuri", 1]} == {"52b8deb", "569ea00"}
    assert bodoge.make("tokkuri").new_state(seed=1).to_record()["rules_version"] == 2


@pytest.mark.parametrize(
    ("key", "index", "case"), CASES, ids=[f"{n}-v{v}-{c['commit']}-{i}" for (n, v), i, c in CASES]
)
def test_a_record_replays_as_its_version_played_it(
    key: tuple[str, int], index: int, case: dict[str, Any]
) -> None:
    record = case["record"]
    state = bodoge.replay(copy.deepcopy(record))  # checks the result, the scores and winners too
    assert state.is_terminal and state.rules_version == record["rules_version"]
    assert state.to_record() == record  # written again, it is the same record, of the same version
    assert state.view(None)["rules_version"] == record["rules_version"]
    # move by move, the same turns and legal actions, and Tokkuri's same deals, as the commit saw
    game = state.game
    again = game.new_state(seed=record["seed"], deck=record["deck"], rules_version=record["rules_version"])
    trace = Trace(again)
    for action in record["actions"]:
        again.apply(action)
        trace.see(again)
    assert trace.digest() == case["trace"]


def test_version_one_records_really_need_version_one() -> None:
    """Replayed by today's deal instead, a version-1 record is another game: its actions soon turn
    illegal or its result differs. That is why the old deal is kept, not the records rewritten."""
    for case in FIXTURES["tokkuri", 1]:
        as_v2 = dict(case["record"], rules_version=2)
        with pytest.raises(BadRecord, match=r"illegal|differs|do not finish"):
            bodoge.replay(as_v2)


@pytest.mark.parametrize("name", bodoge.games())
@pytest.mark.parametrize("version", [0, -1, "1", 1.0, True, None, [1], "x" * 1000, 10**30])
def test_a_version_the_game_does_not_know_is_a_clear_bad_record(name: str, version: Any) -> None:
    cases = FIXTURES[name, game_class(name).rules_version]
    record = dict(cases[0]["record"], rules_version=version)
    with pytest.raises(BadRecord) as info:
        bodoge.replay(record)
    said = str(info.value)
    known = ", ".join(map(str, game_class(name).replays_versions))
    assert f"{name} rules version" in said and f"replays {name} versions {known}" in said, said
    assert len(said) < 300, said


@pytest.mark.parametrize("name", bodoge.games())
def test_the_next_version_is_unknown_until_a_game_declares_it(name: str) -> None:
    record = FIXTURES[name, game_class(name).rules_version][0]["record"]
    with pytest.raises(BadRecord, match="rules version"):
        bodoge.replay(dict(record, rules_version=max(game_class(name).replays_versions) + 1))


def test_new_state_plays_any_version_the_game_replays_and_refuses_others() -> None:
    game = bodoge.make("tokkuri", players=3)
    assert game.new_state(seed=9).rules_version == 2
    v1 = game.new_state(seed=9, rules_version=1)
    assert v1.rules_version == 1 and v1.to_record()["rules_version"] == 1
    assert v1.clone().rules_version == 1
    for bad in (3, 0, "1", True, 1.5):
        with pytest.raises(BadOption, match=re.escape("one of the rules versions tokkuri replays (1, 2)")):
            game.new_state(seed=9, rules_version=bad)
    with pytest.raises(BadOption, match=re.escape("one of the rules versions troika replays (1)")):
        bodoge.make("troika").new_state(seed=9, rules_version=2)


def test_version_one_deals_by_the_factorial_shuffle() -> None:
    """The two deals from one seed: version 1's mixed-radix draw below N! (setup.shuffled_v1), version
    2's random.shuffle. Both are uniform; they differ, so a version's records need its own."""
    game = bodoge.make("tokkuri", players=2)
    cards = game.all_cards
    by_v1 = shuffled_v1(cards, random.Random(4))
    assert sorted(by_v1) == cards and by_v1 != shuffled(cards, random.Random(4))
    for version, deal in ((1, by_v1), (2, shuffled(cards, random.Random(4)))):
        state = game.new_state(seed=4, rules_version=version)
        assert state.hands == [sorted(deal[0:14:2]), sorted(deal[1:14:2])]  # TK-3.3, P0 first
        assert state.stock == deal[14:][::-1]  # top card last


def test_version_one_stays_fast_with_the_largest_deck() -> None:
    """Version 2 made the shuffle linear because N! grew with an unbounded deck. Within today's
    bounds (200 cards) version 1's draw is a 1246-bit number: a deal of it stays quick."""
    deck = [{"code": str(v), "kind": "number", "slots": [v], "copies": 50} for v in (1, 2, 3, 4)]
    game = bodoge.make("tokkuri", players=2, hand_size=100, deck=deck)
    state = game.new_state(seed=3, rules_version=1)
    assert sorted(state.hands[0] + state.hands[1]) == game.all_cards
    assert state.hands != game.new_state(seed=3).hands


class _Versioned(Game):
    name = "versioned-toy"
    rules_version = 3


def test_a_game_that_bumps_its_version_replays_only_it_unless_it_keeps_the_old_ones() -> None:
    assert _Versioned.replays_versions == (3,)

    class Keeps(_Versioned):
        rules_version = 4
        replays_versions: ClassVar[tuple[int, ...]] = (3, 4)

    assert Keeps.replays_versions == (3, 4)
    with pytest.raises(TypeError, match="must hold its rules_version 5"):

        class Forgets(_Versioned):
            rules_version = 5
            replays_versions: ClassVar[tuple[int, ...]] = (3, 4)
