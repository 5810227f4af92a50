"""The protocol every game implements; it knows no game by name."""

from bodoge.core.game import RECORD_FORMAT, Game, State
from bodoge.core.options import Option

__all__ = ["RECORD_FORMAT", "Game", "Option", "State"]
