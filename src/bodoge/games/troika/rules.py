"""Troika (トロイカ) rules: the game (`Troika`) and its state as the rules play it (`TroikaPlay`),
binding the rules to the classes of `state.py` (spec troika.md).

The sections of the spec are the modules beside this one: `options` (§2), `setup` (§3), `play` (§4
and the declaration of §5, with the action ids), `scoring` (§6); `information` (§7) says what each
seat sees. `state` holds what the rules read and write: the game's parameters and the state's fields.
"""

from __future__ import annotations

from typing import ClassVar

from bodoge.errors import BadOption
from bodoge.games.troika import play, scoring, setup
from bodoge.games.troika.cards import N_NUMBERS, NUMBERS
from bodoge.games.troika.options import MAX_TILES, OPTION_SPECS
from bodoge.games.troika.play import NUM_ACTIONS
from bodoge.games.troika.state import TroikaGame, TroikaState


class TroikaPlay(TroikaState):
    """A game of Troika as its rules play it."""

    def setup(self) -> None:
        g = self.game
        self._stack = None
        self._stack_pos = 0
        if self.deck is not None:
            self.deck = setup.checked_deck(self, self.deck)
            self._stack = self.deck or None
        n = g.num_players
        self.chips = [0] * n
        self.round = 0
        self.last_placements = None
        self._next_outcomes = None  # see `play.play_stacked`
        setup.new_round(self)
        play.start_turn(self)

    # (methods that call the rules' functions, not the functions as attributes: a function that
    # bodoge.compiled builds with mypyc does not bind as a method)
    def _legal_actions(self) -> list[int]:
        return play.legal_actions(self)

    def _apply(self, action: int) -> None:
        play.apply(self, action)

    def action_text(self, action: int) -> str:
        return play.action_text(self, action)

    def winners(self) -> list[int]:
        return scoring.winners(self)


class Troika(TroikaGame):
    name = "troika"
    title: ClassVar[dict[str, str]] = {"en": "Troika", "ja": "トロイカ"}
    rules_version = 1
    min_players = 2
    max_players = 5
    default_players = 4
    option_specs = OPTION_SPECS
    state_class = TroikaPlay

    def prepare(self) -> None:
        """TR-2.3: the tile set must leave each player a tile, a flip and one more; with 2 players,
        after the tiles set aside. Declarations never exist with 2 players (TR-2.2)."""
        o = self.options
        n = self.num_players
        self.tile_counts = o["tile_counts"]
        self.total_tiles = sum(self.tile_counts)
        self.removed_per_round = o["two_player_removed"] if n == 2 else 0
        need = n + 2
        if self.total_tiles - self.removed_per_round < need:
            if self.total_tiles < need:
                raise BadOption(
                    "tile_counts",
                    o["tile_counts"],
                    f"a tile set of {need} to {MAX_TILES} tiles for {n} players (TR-2.3)",
                    f"out of range: at least {need} tiles (it has {self.total_tiles})",
                )
            raise BadOption(
                "two_player_removed",
                o["two_player_removed"],
                f"an integer from 0 to {self.total_tiles - need}, so that {need} tiles remain (TR-2.3)",
                f"out of range: at most {self.total_tiles - need} (only "
                f"{self.total_tiles - self.removed_per_round} tiles would remain)",
            )
        self.num_actions = NUM_ACTIONS
        self.num_chance_outcomes = N_NUMBERS  # with explicit chance: a draw's outcome is its number − 1
        self.troika_on = bool(o["troika"]) and n >= 3  # TR-2.2: never with 2 players
        self.hand_limit = o["hand_limit"]
        self.troika_bonus = o["troika_bonus"]
        self.troika_min_container = o["troika_min_container"]
        self.chips = o["chips"]
        self.rounds = o["rounds"]
        self.pool_start = [n for n in NUMBERS for _ in range(self.tile_counts[n - 1])]

    def max_game_length(self) -> int:
        # Each turn is one action and flips one pool tile; only hand tiles (dealt or drawn) go back
        # face down, so a round has at most (tiles − removed − 1) turns (see TR-4.5).
        return self.rounds * self.total_tiles

    def max_chance_events(self) -> int:
        # A round's setup takes removed + players + 1 tiles from the pool; each turn flips one and
        # may draw one.
        return self.rounds * (self.removed_per_round + self.num_players + 1 + 2 * self.total_tiles)
