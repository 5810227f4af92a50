"""What a game of Troika holds: the game's parameters (`TroikaGame`) and the state (`TroikaState`).

Tiles of one number are interchangeable, so hands, containers and the face-up mine are counts per
number (lists of 15 ints, index n − 1 for tile n). The face-down pool is a list of tile numbers: a
random draw picks a random position (every physical tile equally likely, TR-D18). Events are small
tuples whose first item is their type (`("flip", seat, tile)`).

Perfect recall of hand returns (TR-D9, §7): each seat keeps `known[seat]`, the tiles it returned face
down that it still counts as in the pool. One leaves that count when a tile of its number is flipped
or when the seat itself draws one (then it is public, or the seat holds it). Another player's draw is
unseen, so it does not change the count, except when the pool becomes smaller than the count: then
the pool held only known tiles and one of them was certainly drawn, and the count drops to what is
still certain (one less of each number in it). The count is what the seat may rely on, not a fact
about the pool: another player's unseen draw may have taken such a tile, so `sample_state` (in
`sampling.py`) treats it as a tile of known number whose place is uncertain.

The rules are the modules that import this one (`setup`, `play`, `scoring`); `rules.py` binds them
to these classes.
"""

from __future__ import annotations

from bodoge.core.game import Game, State
from bodoge.games.troika.cards import N_NUMBERS


class TroikaGame(Game):
    """The parameters that `Troika.prepare` (rules.py) makes of the options and the player count."""

    tile_counts: tuple[int, ...]  # the tile set: copies of each number
    total_tiles: int
    removed_per_round: int  # 2 players: tiles set aside unseen each round (TR-2.3)
    troika_on: bool  # declarations exist (TR-2.2: never with 2 players)
    hand_limit: int
    troika_bonus: int
    troika_min_container: int
    chips: tuple[int, int, int]
    rounds: int
    pool_start: list[int]  # every tile of the set, by number


class TroikaState(State):
    game: TroikaGame
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
    _next_outcomes: list[int] | None  # see `play.play_stacked`

    def scores(self) -> list[int]:
        return list(self.chips)  # TR-6.7

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
