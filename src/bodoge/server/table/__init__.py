"""One table in play: its runtime (runtime.py) and the small parts it composes, one concern each
(DESIGN.md §6): the views it sends, the clock, presence and stand-ins, chat, the rematch, its bots."""
