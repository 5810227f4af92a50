"""Game-quality numbers of one game, from how its scores moved (issue #18): lead changes, whether the
winner came from behind, how early the game was settled, forced moves, and the time at a table.

`Trace` follows a game as it is played (`play_match` feeds it every move) and keeps only what these
numbers need: the moves at which the score leaders changed, the leaders at the midpoint, and the count
of forced decisions. Each number is defined in `DEFINITIONS`, which every report prints beside them.

The leaders are the seats with the highest `scores()`, the running score the rulebook counts
(DESIGN.md §2): Troika's chips, Tokkuri's balances, Tottarot's victory tokens, Hangover's VP. They
are not always the winners: a rule may break a tie (Troika: the last round's placement) or bar a
leader (Hangover: a hung-over player cannot win), which is itself worth knowing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

#: Seconds a person takes for a decision at a table, for the estimate of `minutes`: a real choice,
#: and a forced move (one legal action, which a person still has to make and see). A rough model for
#: relaxed play by people who know the rules; set your own with `table_minutes`.
SECONDS_PER_CHOICE = 6.0
SECONDS_PER_FORCED = 1.5

DEFINITIONS: dict[str, str] = {
    "lead_changes": "times the set of score leaders (the seats with the highest running score) changed "
    "after the first score (Ludii's lead changes; Browne 2008)",
    "comeback": "1 if a winner was not among the score leaders at the midpoint of the game (half its "
    "actions), else 0: the share of games won from behind (drama)",
    "decided_at": "the share of the game's actions after which the score leaders no longer changed: "
    "low means the game was settled early (decisiveness, after Browne 2008)",
    "leaders_won": "1 if the final score leaders are exactly the winners, else 0 (a tie-break or a rule "
    "barring a leader makes the difference)",
    "forced": "the share of decisions with only one legal action (dead decisions: forced moves are dull)",
    "decisions_per_person": "decisions a seat took, on average",
    "minutes": f"estimated time at a table: {SECONDS_PER_CHOICE:g} s per real choice and "
    f"{SECONDS_PER_FORCED:g} s per forced move, summed over every seat's decisions",
}


def leaders(scores: Sequence[float]) -> tuple[int, ...]:
    """The seats with the highest score."""
    top = max(scores)
    return tuple(p for p, s in enumerate(scores) if s == top)


@dataclass
class Trace:
    """A game's score leaders as it goes; `see(move, scores, legal_count)` after every move."""

    changes: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)  # (move, new leaders)
    first_scores: Sequence[float] | None = None
    last_scores: Sequence[float] | None = None
    decisions: int = 0
    forced: int = 0
    _scored: bool = False

    def decide(self, legal_count: int) -> None:
        """A decision is taken among `legal_count` legal actions."""
        self.decisions += 1
        if legal_count == 1:
            self.forced += 1

    def see(self, move: int, scores: Sequence[float]) -> None:
        """The running scores after `move` actions (from 0: the start); called after every move, so
        an unchanged score returns at once."""
        if scores == self.last_scores:
            return
        now = scores
        if self.last_scores is None:
            self.first_scores = now
        self.last_scores = now
        if not self._scored and now == self.first_scores:
            return
        self._scored = True
        current = leaders(now)
        if not self.changes or self.changes[-1][1] != current:
            self.changes.append((move, current))

    def leaders_at(self, move: int) -> tuple[int, ...]:
        """The score leaders after `move` actions (before any score: every seat)."""
        found: tuple[int, ...] | None = None
        for at, group in self.changes:
            if at > move:
                break
            found = group
        if found is None:
            return tuple(range(len(self.first_scores or ())))
        return found

    def numbers(self, length: int, winners: Sequence[int], players: int) -> dict[str, float]:
        """The numbers of `DEFINITIONS` for a game of `length` actions won by `winners`."""
        out: dict[str, float] = {
            "lead_changes": float(max(0, len(self.changes) - 1)),
            "decided_at": (self.changes[-1][0] / length) if self.changes and length else 0.0,
            "forced": self.forced / self.decisions if self.decisions else 0.0,
            "decisions_per_person": self.decisions / players,
            "minutes": table_minutes(self.decisions - self.forced, self.forced),
        }
        if winners:
            half = self.leaders_at(length // 2)
            out["comeback"] = 0.0 if all(w in half for w in winners) else 1.0
        final = self.changes[-1][1] if self.changes else tuple(range(players))
        out["leaders_won"] = 1.0 if tuple(sorted(winners)) == final else 0.0
        return out


def table_minutes(choices: int, forced: int) -> float:
    """The estimated minutes at a table for these decisions (`DEFINITIONS["minutes"]`)."""
    return (choices * SECONDS_PER_CHOICE + forced * SECONDS_PER_FORCED) / 60.0
