"""Matches between agents, many of them, and what they show (DESIGN.md §5)."""

from bodoge.arena.match import MatchResult, play_match

__all__ = ["MatchResult", "play_match"]
