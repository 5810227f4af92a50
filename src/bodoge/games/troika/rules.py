"""Troika (トロイカ) rules: setup, turns, declarations, round scoring, chips and views (spec troika.md).

Tiles of one number are interchangeable, so hands, containers and the face-up mine are counts per
number (lists of 15 ints, index n − 1 for tile n). The face-down pool is a list of tile numbers: a
random draw picks a random position (every physical tile equally likely, TR-D18).

The sections of the spec are the modules beside this one: `options` (§2), `setup` (§3), `play` (§4
and the declaration of §5, with the action ids), `scoring` (§6); `information` (§7) says what each
seat sees. Events are small tuples whose first item is their type (`("flip", seat, tile)`).

Perfect recall of hand returns (TR-D9, §7): each seat keeps `known[seat]`, the tiles it returned face
down that it still counts as in the pool. One leaves that count when a tile of its number is flipped
or when the seat itself draws one (then it is public, or the seat holds it). Another player's draw is
unseen, so it does not change the count, except when the pool becomes smaller than the count: then
the pool held only known tiles and one of them was certainly drawn, and the count drops to what is
still certain (one less of each number in it). The count is what the seat may rely on, not a fact
about the pool: another player's unseen draw may have taken such a tile, so `sample_state` (in
`sampling.py`) treats it as a tile of known number whose place is uncertain.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from bodoge.core.game import Game, State
from bodoge.errors import BadOption
from bodoge.games.troika import play, scoring, setup
from bodoge.games.troika.cards import N_NUMBERS, NUMBERS
from bodoge.games.troika.options import MAX_TILES, OPTION_SPECS
from bodoge.games.troika.play import DRAW, NUM_ACTIONS, RETURN_CONTAINER, RETURN_HAND, TAKE, TROIKA


class Troika(Game):
    name = "troika"
    title: ClassVar[dict[str, str]] = {"en": "Troika", "ja": "トロイカ"}
    rules_version = 1
    min_players = 2
    max_players = 5
    default_players = 4
    option_specs = OPTION_SPECS

    def prepare(self) -> None:
        """TR-2.3: the tile set must leave each player a tile, a flip and one more; with 2 players,
        after the tiles set aside. Declarations never exist with 2 players (TR-2.2)."""
        o = self.options
        n = self.num_players
        self.tile_counts: tuple[int, ...] = o["tile_counts"]
        self.total_tiles = sum(self.tile_counts)
        self.removed_per_round: int = o["two_player_removed"] if n == 2 else 0
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
        self.troika_on: bool = bool(o["troika"]) and n >= 3  # TR-2.2: never with 2 players
        self.hand_limit: int = o["hand_limit"]
        self.troika_bonus: int = o["troika_bonus"]
        self.troika_min_container: int = o["troika_min_container"]
        self.chips: tuple[int, int, int] = o["chips"]
        self.rounds: int = o["rounds"]
        self.pool_start: list[int] = [n for n in NUMBERS for _ in range(self.tile_counts[n - 1])]

    def max_game_length(self) -> int:
        # Each turn is one action and flips one pool tile; only hand tiles (dealt or drawn) go back
        # face down, so a round has at most (tiles − removed − 1) turns (see TR-4.5).
        return self.rounds * self.total_tiles

    def stacked_state(self, outcomes: Sequence[int], rng: random.Random) -> TroikaState:
        """The start of a game whose first round takes its chance outcomes from `outcomes` (TR-3.4),
        with no seed and its own future chance from `rng`: what `sample_state` builds on, playing
        on with `TroikaState.play_stacked`. BadOption if an outcome is not face down when used."""
        s = self.blank_state(rng)
        assert isinstance(s, TroikaState)
        s._stack = list(outcomes) or None
        s._stack_pos = 0
        s.chips = [0] * self.num_players
        s.round = 0
        s.last_placements = None
        s._next_outcomes = None
        setup.new_round(s)
        play.start_turn(s)
        return s


class TroikaState(State):
    game: Troika
    # Tiles of one number are interchangeable: every place but the pool is a count per number.
    round: int
    start_player: int
    pool: list[int]  # the face-down tiles, by number
    removed: list[int]  # 2 players: set aside unseen this round (TR-2.3)
    removed_size: int
    mine: list[int]  # face up
    hands: list[list[int]]
    hand_sizes: list[int]
    containers: list[list[int]]
    container_sizes: list[int]
    known: list[list[int]]  # per seat: its returned tiles it still counts in the pool (TR-D9)
    known_sizes: list[int]
    known_total: int
    declared: list[bool]
    n_declared: int
    first_declarer: int | None
    chips: list[int]
    last_placements: list[int] | None
    _stack: list[int] | None  # stacked chance outcomes of this round (TR-3.4), None: the RNG
    _stack_pos: int
    _next_outcomes: list[int] | None  # see `play_stacked`

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
        self._next_outcomes = None  # see `play_stacked`
        setup.new_round(self)
        play.start_turn(self)

    _legal_actions = play.legal_actions
    _apply = play.apply
    play_stacked = play.play_stacked
    winners = scoring.winners

    def scores(self) -> list[int]:
        return list(self.chips)  # TR-6.7

    def action_text(self, action: int) -> str:
        """`take 7`, `draw`, `return hand 7`, `return container 7`, `troika`."""
        if TAKE <= action < DRAW:
            return f"take {action - TAKE + 1}"
        if action == DRAW:
            return "draw"
        if RETURN_HAND <= action < RETURN_CONTAINER:
            return f"return hand {action - RETURN_HAND + 1}"
        if RETURN_CONTAINER <= action < TROIKA:
            return f"return container {action - RETURN_CONTAINER + 1}"
        if action == TROIKA:
            return "troika"
        return f"action {action}"

    def check_invariants(self) -> None:
        g = self.game
        n = g.num_players
        total = [0] * N_NUMBERS
        for t in self.pool:
            total[t - 1] += 1
        places = [self.removed, self.mine, *self.hands, *self.containers]
        for place in places:
            assert len(place) == N_NUMBERS and min(place) >= 0, f"bad counts {place}"
            for i in range(N_NUMBERS):
                total[i] += place[i]
        assert tuple(total) == g.tile_counts, f"tiles not conserved: {total} != {g.tile_counts}"
        assert self.hand_sizes == [sum(h) for h in self.hands]
        assert self.container_sizes == [sum(c) for c in self.containers]
        assert self.removed_size == sum(self.removed) == g.removed_per_round
        assert self.known_sizes == [sum(k) for k in self.known]
        assert self.known_total == sum(self.known_sizes)
        for q in range(n):
            assert self.known_sizes[q] <= len(self.pool), "a seat counts more known tiles than the pool has"
        assert self.n_declared == sum(self.declared)
        assert (self.first_declarer is None) == (self.n_declared == 0)
        assert all(s <= max(g.hand_limit, 1) for s in self.hand_sizes), "a hand over the limit"
        if self.current_player is not None:
            assert not self.declared[self.current_player]
            assert sum(self.mine) > 0, "a turn without a face-up tile to take (TR-4.3)"

    def _copy_mutables(self, other: State) -> None:
        assert isinstance(other, TroikaState)
        other.pool = self.pool.copy()
        other.removed = self.removed.copy()
        other.mine = self.mine.copy()
        other.hands = [h.copy() for h in self.hands]
        other.hand_sizes = self.hand_sizes.copy()
        other.containers = [c.copy() for c in self.containers]
        other.container_sizes = self.container_sizes.copy()
        other.known = [k.copy() for k in self.known]
        other.known_sizes = self.known_sizes.copy()
        other.declared = self.declared.copy()
        other.chips = self.chips.copy()


Troika.state_class = TroikaState
