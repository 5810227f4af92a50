"""Hangover (ハングオーバー), the designer's draft 2: a trick-taking game about drinking just enough.

Spec: shared/rules/hangover.md. `GAME` is the Game class; `trick_winner` and `drunk_vp` are the pure
functions of the trick and the judgement.
"""

from bodoge.games.hangover.rules import Hangover, HangoverState, drunk_vp, trick_winner
from bodoge.games.hangover.text import NAMES, RULES

GAME = Hangover

__all__ = ["GAME", "NAMES", "RULES", "Hangover", "HangoverState", "drunk_vp", "trick_winner"]
