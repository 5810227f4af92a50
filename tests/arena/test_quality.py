"""Game-quality numbers (issue #18) on hand-made score histories, each with the value its definition
gives."""

from __future__ import annotations

from typing import ClassVar

import pytest

import bodoge
from bodoge.agents import make as make_agent
from bodoge.arena.match import play_match
from bodoge.arena.quality import DEFINITIONS, SECONDS_PER_CHOICE, SECONDS_PER_FORCED, Trace, leaders


def traced(history: list[list[int]], forced: int = 0, decisions: int | None = None) -> Trace:
    """A trace of a game whose running scores were `history[m]` after m actions."""
    trace = Trace()
    for move, scores in enumerate(history):
        if move:
            trace.decide(1 if move <= forced else 2)
        trace.see(move, scores)
    return trace


def test_leaders_are_every_seat_with_the_top_score() -> None:
    assert leaders([1, 3, 3]) == (1, 2) and leaders([0, 0]) == (0, 1)


def test_lead_changes_and_when_the_game_was_decided() -> None:
    # P0 scores first, P1 overtakes, P0 takes the lead back at the last move and wins
    trace = traced([[0, 0], [0, 0], [1, 0], [1, 2], [3, 2]])
    found = trace.numbers(length=4, winners=[0], players=2)
    assert found["lead_changes"] == 2  # (P0) -> (P1) -> (P0)
    assert found["decided_at"] == 1.0  # the lead changed at the very last move
    assert found["comeback"] == 0.0  # P0 led at the midpoint (move 2)
    assert found["leaders_won"] == 1.0


def test_a_comeback_and_an_early_decision() -> None:
    # P1 leads from move 1 past the midpoint (move 3); P0 passes it at move 4: won from behind
    history = [[0, 0], [0, 1], [0, 1], [0, 1], [2, 1], [2, 2], [3, 2], [3, 2]]
    found = traced(history).numbers(length=7, winners=[0], players=2)
    assert found["comeback"] == 1.0
    assert found["lead_changes"] == 3  # (P1) -> (P0) -> (P0, P1) -> (P0)
    assert found["decided_at"] == pytest.approx(6 / 7)
    settled = traced([[0, 0], [5, 0], [5, 1], [5, 2], [6, 2]]).numbers(length=4, winners=[0], players=2)
    assert settled["decided_at"] == pytest.approx(1 / 4) and settled["lead_changes"] == 0


def test_a_game_without_scores_and_a_tie_break() -> None:
    still = traced([[0, 0, 0]] * 5).numbers(length=4, winners=[2], players=3)
    assert still["lead_changes"] == 0 and still["decided_at"] == 0.0
    assert still["comeback"] == 0.0  # before any score every seat leads
    assert still["leaders_won"] == 0.0  # a tie-break chose P2 among three leaders
    shared = traced([[0, 0], [1, 1]]).numbers(length=1, winners=[0, 1], players=2)
    assert shared["leaders_won"] == 1.0


def test_forced_moves_and_the_time_at_a_table() -> None:
    found = traced([[0, 0]] * 11, forced=4).numbers(length=10, winners=[0], players=2)
    assert found["forced"] == pytest.approx(0.4)
    assert found["decisions_per_person"] == 5.0
    assert found["minutes"] == pytest.approx((6 * SECONDS_PER_CHOICE + 4 * SECONDS_PER_FORCED) / 60)


@pytest.mark.parametrize("name", bodoge.games())
def test_every_match_reports_them(name: str) -> None:
    game = bodoge.make(name)
    result = play_match(game, [make_agent("random")] * game.num_players, seed=2)
    assert set(result.quality) == set(DEFINITIONS)
    assert 0.0 <= result.quality["decided_at"] <= 1.0 and 0.0 <= result.quality["forced"] <= 1.0
    assert result.quality["decisions_per_person"] * game.num_players == result.length


class _Config:
    """What `summarize` reads of a run's configuration."""

    game, players, agents, seed, rotate, duplicate = "troika", 2, ["random"], 1, True, True
    variants: ClassVar[list[dict[str, object]]] = [{}, {"rounds": 1}]

    def variant_label(self, v: int) -> str:
        return "default" if v == 0 else "rounds=1"


def _record(variant: int, index: int, deal: int, actions: list[int]) -> dict[str, object]:
    arena = {
        "variant": variant,
        "index": index,
        "deal": deal,
        "agents": ["random", "random"],
        "returns": [1.0, 0.0],
        "length": len(actions),
        "decisions": [1, 1],
        "seconds": [0.0, 0.0],
        "metrics": {},
    }
    return {"arena": arena, "actions": actions, "result": {"scores": [1, 0], "winners": [0]}}


def test_repeated_games_and_variants_that_change_nothing_are_flagged() -> None:
    """Issue #18: deterministic bots replay a deal at every rotation, and a variant the bots cannot
    tell apart plays the same games; a report says both before its intervals."""
    from bodoge.arena.summary import summarize

    games = [[1, 2, 3], [1, 2, 3], [4, 5], [4, 5]]  # two deals, each played twice the same way
    records = [_record(0, i, i // 2, a) for i, a in enumerate(games)]
    records += [_record(1, i, i // 2, a) for i, a in enumerate(games)]
    summary = summarize(records, _Config())
    assert summary["variants"][0]["distinct_games"] == 2
    (comparison,) = summary["comparisons"]
    assert comparison["identical_games"] == comparison["paired_games"] == 4
    said = " ".join(summary["warnings"])
    assert "2 of its 4 games repeat another game" in said
    assert "rounds=1 played exactly the same games as default" in said
    records[-1]["actions"] = [4, 6]  # one game differs: the variant did change something
    records[-1]["arena"]["length"] = 2
    summary = summarize(records, _Config())
    assert not any("played exactly the same games" in w for w in summary["warnings"])
