"""Three Tricks, the smallest complete game package (docs/adding-a-game.md), for the conformance suite.

Each of 2 to 4 players is dealt `hand` cards from the cards 1 to 4 × players; the rest is set aside
unseen. The tricks follow one another: the leader plays a card, then each player in turn; the highest
card wins the trick and leads the next. Whoever wins the most tricks wins (ties share the win).

Written only through the documented extension points: a Game and a State in `rules.py`, and the parts
core reaches by name (`information`, `text` with its tables, `sampling`, `heuristic`, `observation`).
The conformance tests register it for their run (`registry.register`).
"""

from toygame.rules import ThreeTricks, ThreeTricksState

__all__ = ["ThreeTricks", "ThreeTricksState"]
