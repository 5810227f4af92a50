"""Hangover (draft 2): a trick-taking game about drinking just enough (docs/rules/hangover.md).

The package has the shape of docs/adding-a-game.md. `trick_winner` and `drunk_vp` are the rules'
own functions (the engine plays with them).
"""

from bodoge.games.hangover.play import drunk_vp, trick_winner
from bodoge.games.hangover.rules import Hangover
from bodoge.games.hangover.state import HangoverState

__all__ = ["Hangover", "HangoverState", "drunk_vp", "trick_winner"]
