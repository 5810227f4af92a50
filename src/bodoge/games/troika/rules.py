"""Troika (トロイカ) rules: setup, turns, declarations, round scoring, chips and views (spec troika.md).

Tiles of one number are interchangeable, so hands, containers and the face-up mine are counts per
number (lists of 15 ints, index n − 1 for tile n). The face-down pool is a list of tile numbers: a
random draw picks a random position (every physical tile equally likely, TR-D18).

Action ids (fixed, 47): `take n` = n − 1 (0–14), `draw` = 15, `return hand n` = 15 + n (16–30),
`return container n` = 30 + n (31–45), `troika` = 46.

Events are small tuples (see the E_* constants), turned into dicts only for views.

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
from collections.abc import Callable, Mapping, Sequence
from itertools import compress
from math import comb
from operator import add
from typing import Any, ClassVar

from bodoge.core import options as opts
from bodoge.core.game import Game, State
from bodoge.errors import BadOption, IllegalAction
from bodoge.games.troika.cards import (
    DEFAULT_CHIPS,
    DEFAULT_TILE_COUNTS,
    N_NUMBERS,
    NUMBERS,
    tiles_of,
)
from bodoge.games.troika.scoring import round_value, score_counts, zero_waste_with_fuel
from bodoge.games.troika.text import event_text, event_text_ja

# -- action ids -------------------------------------------------------------------------------------

TAKE = 0  # + (n − 1)
DRAW = 15
RETURN_HAND = 16  # + (n − 1)
RETURN_CONTAINER = 31  # + (n − 1)
TROIKA = 46
NUM_ACTIONS = 47

_TAKE_IDS = range(TAKE, TAKE + N_NUMBERS)
_HAND_IDS = range(RETURN_HAND, RETURN_HAND + N_NUMBERS)
_CONTAINER_IDS = range(RETURN_CONTAINER, RETURN_CONTAINER + N_NUMBERS)

# -- events -----------------------------------------------------------------------------------------

E_ROUND = 0  # (E_ROUND, round, start_player)
E_REMOVED = 1  # (E_REMOVED, count): 2-player tiles set aside unseen
E_DEAL = 2  # (E_DEAL, seat, tile): only the seat sees the tile
E_FLIP = 3  # (E_FLIP, seat or None, tile): turn-start flip (None: the setup flip); public
E_TAKE = 4  # (E_TAKE, seat, tile)
E_DRAW = 5  # (E_DRAW, seat, tile): only the seat sees the tile
E_RETURN_HAND = 6  # (E_RETURN_HAND, seat, tile): only the seat sees the tile
E_RETURN_CONTAINER = 7  # (E_RETURN_CONTAINER, seat, tile)
E_TROIKA = 8  # (E_TROIKA, seat, first)
E_ROUND_END = 9  # (E_ROUND_END, round, reason, hands, containers, round_scores, chips, placements,
#                  first_declarer, declared, chip_totals): all public (§7, round scoring)

REASONS = ("pool_empty", "declarations")
_KIND_NAMES = {
    E_ROUND: "round_start",
    E_REMOVED: "removed",
    E_DEAL: "deal",
    E_FLIP: "flip",
    E_TAKE: "take",
    E_DRAW: "draw",
    E_RETURN_HAND: "return_hand",
    E_RETURN_CONTAINER: "return_container",
    E_TROIKA: "troika",
    E_ROUND_END: "round_end",
}
_KINDS = {name: kind for kind, name in _KIND_NAMES.items()}
_PRIVATE = (E_DEAL, E_DRAW, E_RETURN_HAND)


# -- options ----------------------------------------------------------------------------------------


def _convert_chips(value: Any) -> tuple[int, int, int]:
    if isinstance(value, str):
        parsed = opts.parse_text(opts.valid_text(value))
        value = parsed if not isinstance(parsed, str) else [x for x in parsed.replace(",", " ").split()]
    if not isinstance(value, list | tuple) or len(value) != 3:
        raise ValueError("expected three integers (first place, second place, left behind)")
    a, b, c = (opts.bounded(opts.as_int(x), -MAX_POINTS, MAX_POINTS, "a chip") for x in value)
    return (a, b, c)


def _convert_tile_counts(value: Any) -> tuple[int, ...]:
    """A map number → copies (int or str keys; numbers not named have 0 copies), or 15 counts."""
    if isinstance(value, str):
        value = opts.parse_text(opts.valid_text(value))
    if isinstance(value, list | tuple):
        if len(value) != N_NUMBERS:
            raise ValueError("a list of counts must have 15 entries, for tiles 1 to 15")
        value = {n: k for n, k in zip(NUMBERS, value, strict=True)}
    if not isinstance(value, Mapping):
        raise ValueError("expected a map from tile numbers 1–15 to copies")
    counts: list[int | None] = [None] * N_NUMBERS
    for key, copies in value.items():
        if isinstance(key, str):
            opts.valid_text(key, "a tile number")
        try:
            n = opts.as_int(key)
        except ValueError:
            raise ValueError(f"{key!r} is not a tile number 1–15") from None
        if not 1 <= n <= N_NUMBERS:
            raise ValueError(f"{key!r} is not a tile number 1–15")
        if counts[n - 1] is not None:
            raise ValueError(f"tile {n} is given twice")
        counts[n - 1] = opts.bounded(opts.as_int(copies), 0, MAX_COPIES, f"copies of tile {n}")
    return tuple(k or 0 for k in counts)


def _tile_counts_json(value: Any) -> dict[str, int]:
    counts = _convert_tile_counts(value)
    return {str(n): counts[n - 1] for n in NUMBERS}


def _chips_json(value: Any) -> list[int]:
    return list(_convert_chips(value))


# Bounds (issue #15), beside each rule's own. A tile set holds at most 15 × MAX_COPIES = MAX_TILES
# tiles, so a round has fewer than MAX_TILES turns and the longest game 100 × 300 actions; a hand
# limit or a container minimum above MAX_TILES would mean nothing more. The bonus and each chip are at
# most MAX_POINTS in size, so 100 rounds of chips stay within 10**8, far below 2**53.
MAX_ROUNDS = 100
MAX_COPIES = 20  # of one number (the default: 3, and 7 of the 7)
MAX_TILES = N_NUMBERS * MAX_COPIES
MAX_POINTS = 10**6

OPTION_SPECS: tuple[opts.Option, ...] = (
    opts.integer("rounds", 3, "number of rounds (TR-6.5)", 1, MAX_ROUNDS),
    opts.integer("hand_limit", 3, "the most tiles a hand may hold; limits `draw` (TR-4.3)", 1, MAX_TILES),
    opts.boolean("troika", True, "whether Troika declarations exist; always off with 2 players"),
    opts.integer(
        "troika_bonus", 5, "bonus to the first declarer's round score (TR-6.2)", -MAX_POINTS, MAX_POINTS
    ),
    opts.integer("troika_min_container", 5, "the fewest container tiles a declaration needs", 0, MAX_TILES),
    opts.Option(
        "chips",
        DEFAULT_CHIPS,
        f"three integers [first, second, left behind], each from {-MAX_POINTS} to {MAX_POINTS}",
        "chips for first place, second place and being left behind (TR-6.3)",
        _convert_chips,
        _chips_json,
    ),
    # TR-2.3: 2 players need 4 tiles left after the removal
    opts.integer(
        "two_player_removed", 10, "tiles set aside unseen per round with 2 players", 0, MAX_TILES - 4
    ),
    opts.Option(
        "tile_counts",
        {n: DEFAULT_TILE_COUNTS[n - 1] for n in NUMBERS},
        f'a map of tile numbers 1–15 to copies from 0 to {MAX_COPIES} (e.g. {{"1": 3, …, "7": 7, …}}); '
        "numbers not named have 0 copies",
        "the tile set (§1.1)",
        _convert_tile_counts,
        _tile_counts_json,
    ),
)


# -- pure round and game results (TR-6.3, TR-6.4, TR-6.6) ---------------------------------------------


def round_chips(scores: Sequence[int | None], chips: Sequence[int] = DEFAULT_CHIPS) -> list[int]:
    """TR-6.3 / TR-D5: chips each player gets for a round; None = left behind."""
    ranked = [s for s in scores if s is not None]
    if not ranked:
        return [chips[2]] * len(scores)
    best = max(ranked)
    second = None
    if ranked.count(best) == 1:
        second = max((s for s in ranked if s < best), default=None)
    out = []
    for s in scores:
        if s is None:
            out.append(chips[2])
        elif s == best:
            out.append(chips[0])
        elif second is not None and s == second:
            out.append(chips[1])
        else:
            out.append(0)
    return out


def round_placements(scores: Sequence[int | None]) -> list[int]:
    """TR-6.4: 1 + (players not left behind with a strictly higher score); left behind all last."""
    ranked = [s for s in scores if s is not None]
    return [1 + len(ranked) if s is None else 1 + sum(1 for t in ranked if t > s) for s in scores]


def game_winners(totals: Sequence[int], last_placements: Sequence[int]) -> list[int]:
    """TR-6.6: the highest chip total; among ties, the better last-round placement; else shared."""
    top = max(totals)
    tied = [p for p, t in enumerate(totals) if t == top]
    best = min(last_placements[p] for p in tied)
    return [p for p in tied if last_placements[p] == best]


# -- the game ---------------------------------------------------------------------------------------


class Troika(Game):
    name = "troika"
    title: ClassVar[dict[str, str]] = {"en": "Troika", "ja": "トロイカ"}
    rules_version = 1
    min_players = 2
    max_players = 5
    default_players = 4
    option_specs = OPTION_SPECS

    def prepare(self) -> None:
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

    def sample_state(self, view: Mapping[str, Any], rng: random.Random) -> TroikaState:
        return self.sampler(view)(rng)

    def sampler(self, view: Mapping[str, Any]) -> Callable[[random.Random], TroikaState]:
        """`sample_state` for many samples of one view, read once (`sampling.Sampler`)."""
        from bodoge.games.troika.sampling import Sampler

        return Sampler(self, view)

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
        s._new_round()
        return s


class TroikaState(State):
    game: Troika

    # -- setup (§3) --------------------------------------------------------------------------------

    def setup(self) -> None:
        g = self.game
        self._stack: list[int] | None = None
        self._stack_pos = 0
        if self.deck is not None:
            self.deck = self._checked_deck(self.deck)
            self._stack = self.deck or None
        n = g.num_players
        self.chips = [0] * n
        self.round = 0
        self.last_placements: list[int] | None = None
        self._next_outcomes: list[int] | None = None  # see `play_stacked`
        self._new_round()

    def _checked_deck(self, deck: Any) -> list[int]:
        """TR-3.4: the first round's chance outcomes, checked up front as far as possible."""
        g = self.game
        allowed = "a list of tile numbers 1–15 (the first round's chance outcomes in order, TR-3.4)"
        if isinstance(deck, str):
            deck = opts.parse_text(deck)
            if isinstance(deck, str):
                deck = deck.replace(",", " ").split()
        if not isinstance(deck, list | tuple):
            raise BadOption("deck", deck, allowed)
        out: list[int] = []
        for x in deck:
            try:
                t = opts.as_int(x)
            except ValueError:
                raise BadOption("deck", deck, allowed, f"{x!r} is not a tile number") from None
            if not 1 <= t <= N_NUMBERS or g.tile_counts[t - 1] == 0:
                raise BadOption("deck", deck, allowed, f"there is no tile {x!r} in this game's tile set")
            out.append(t)
        # The setup events (removals, deal, flip) take from the full pool: check them now.
        left = list(g.tile_counts)
        setup_events = g.removed_per_round + g.num_players + 1
        for j, t in enumerate(out[:setup_events]):
            if left[t - 1] == 0:
                raise BadOption(
                    "deck", deck, allowed, f"outcome {j + 1} is a {t}, but no {t} is left face down then"
                )
            left[t - 1] -= 1
        return out

    def _new_round(self, stacked: list[int] | None = None) -> None:
        """Set up the next round (§3). The first round uses the stacked deck, if any (TR-3.4); a
        later round uses the RNG, unless its outcomes are passed as `stacked` or queued by
        `play_stacked`."""
        g = self.game
        n = g.num_players
        self.round += 1
        if self.round > 1:
            if stacked is None:
                stacked, self._next_outcomes = self._next_outcomes, None
            self._stack = stacked or None
            self._stack_pos = 0
        self.start_player = (self.round - 1) % n  # TR-3.1 / TR-D17
        self.pool = list(g.pool_start)
        self.removed = [0] * N_NUMBERS
        self.removed_size = 0
        self.mine = [0] * N_NUMBERS
        self.hands = [[0] * N_NUMBERS for _ in range(n)]
        self.hand_sizes = [0] * n
        self.containers = [[0] * N_NUMBERS for _ in range(n)]
        self.container_sizes = [0] * n
        self.known = [[0] * N_NUMBERS for _ in range(n)]
        self.known_sizes = [0] * n
        self.known_total = 0
        self.declared = [False] * n
        self.n_declared = 0
        self.first_declarer: int | None = None
        events = self.events
        events.append((E_ROUND, self.round, self.start_player))
        # TR-3.3, in this order: 2-player removal, one tile to each hand from the start player, a flip.
        k = g.removed_per_round
        if k:
            for _ in range(k):
                t = self._take_from_pool()
                self.removed[t - 1] += 1
            self.removed_size = k
            events.append((E_REMOVED, k))
        for i in range(n):
            q = (self.start_player + i) % n
            t = self._take_from_pool()
            self.hands[q][t - 1] += 1
            self.hand_sizes[q] = 1
            events.append((E_DEAL, q, t))
        t = self._take_from_pool()
        self.mine[t - 1] += 1
        events.append((E_FLIP, None, t))
        self.current_player = self.start_player  # TR-3.6
        self._start_turn()

    # -- chance ------------------------------------------------------------------------------------

    def _take_from_pool(self) -> int:
        """One tile uniformly at random from the face-down pool (or the stacked outcome, TR-3.4)."""
        pool = self.pool
        stack = self._stack
        if stack is not None and self._stack_pos < len(stack):
            t = stack[self._stack_pos]
            try:
                i = pool.index(t)
            except ValueError:
                raise BadOption(
                    "deck",
                    stack,
                    "tile numbers each present face down when used (TR-3.4)",
                    f"outcome {self._stack_pos + 1} is a {t}, but no {t} is face down then",
                ) from None
            self._stack_pos += 1
            if self._stack_pos == len(stack):
                self._stack = None  # used up: the RNG from here on
        else:
            # rng.randrange(len(pool)), inlined (the same draws): the hot path's chance event.
            n = len(pool)
            bits = self.rng.getrandbits
            k = n.bit_length()
            i = bits(k)
            while i >= n:
                i = bits(k)
            t = pool[i]
        pool[i] = pool[-1]
        pool.pop()
        return t

    def _start_turn(self) -> None:
        """TR-4.2: the mandatory turn-start flip."""
        t = self._take_from_pool()
        self.mine[t - 1] += 1
        self.events.append((E_FLIP, self.current_player, t))
        if self.known_total:
            self._pool_exit(t, None)

    def _pool_exit(self, t: int, drawer: int | None) -> None:
        """Update each seat's known returned tiles after tile t left the pool (flipped: drawer None)."""
        known = self.known
        sizes = self.known_sizes
        pool_size = len(self.pool)
        for q in range(self.game.num_players):
            if not sizes[q]:
                continue
            if (drawer is None or drawer == q) and known[q][t - 1]:
                known[q][t - 1] -= 1  # seen leaving: counted as the returned one
                sizes[q] -= 1
                self.known_total -= 1
                continue
            if sizes[q] > pool_size:
                # The pool held only q's known tiles and one of them left unseen or against
                # expectation: keep only what is still certain.
                kq = known[q]
                for i in range(N_NUMBERS):
                    if kq[i]:
                        kq[i] -= 1
                        sizes[q] -= 1
                        self.known_total -= 1

    # -- decisions ---------------------------------------------------------------------------------

    def _legal_actions(self) -> list[int]:
        p = self.current_player
        assert p is not None
        g = self.game
        legal = list(compress(_TAKE_IDS, self.mine))
        hs = self.hand_sizes[p]
        if hs < g.hand_limit and self.pool:
            legal.append(DRAW)
        if hs:
            legal.extend(compress(_HAND_IDS, self.hands[p]))
        cs = self.container_sizes[p]
        if cs:
            legal.extend(compress(_CONTAINER_IDS, self.containers[p]))
        if g.troika_on and cs >= g.troika_min_container and (cs + hs) % 3 == 0 and self._may_declare(p):
            legal.append(TROIKA)
        return legal

    def _may_declare(self, p: int) -> bool:
        """TR-5.5.1 (declarations on and 3+ players are checked by the caller)."""
        cs = self.container_sizes[p]
        if cs < self.game.troika_min_container or (cs + self.hand_sizes[p]) % 3:
            return False
        return zero_waste_with_fuel(tuple(map(add, self.hands[p], self.containers[p])))

    def _apply(self, action: int) -> None:
        if self._stack is not None:
            backup = self.clone()
            try:
                self._act(action)
            except BadOption:
                self.__dict__.update(backup.__dict__)
                self.history.pop()
                raise
        else:
            self._act(action)

    def play_stacked(self, actions: Sequence[int], next_round: Sequence[int] | None = None) -> None:
        """Apply `actions` through the rules to a state of `Troika.stacked_state`, each checked
        (IllegalAction if not legal). `next_round` stacks the chance outcomes of the round that the
        last action starts by ending this one (TR-3.4); BadOption if a stacked outcome is not face
        down when used. Unlike `apply`, a refusal leaves the state part-played: `sample_state`, its
        user, throws such a state away."""
        self._next_outcomes = None if next_round is None else list(next_round)
        for a in actions:
            if self.current_player is None or a not in self._legal_actions():
                raise IllegalAction(a, self.decision(), "not legal in the history being rebuilt")
            self._legal = None
            self.history.append(a)
            self._act(a)  # not `_apply`: no backup copy per action for a stacked deck
        if self._next_outcomes is not None:
            self._next_outcomes = None
            raise IllegalAction(actions[-1] if actions else None, self.decision(), "the round did not end")

    def _act(self, a: int) -> None:
        p = self.current_player
        assert p is not None
        events = self.events
        if a < DRAW:  # take n
            self.mine[a] -= 1
            self.containers[p][a] += 1
            self.container_sizes[p] += 1
            events.append((E_TAKE, p, a + 1))
        elif a == DRAW:  # TR-4.4
            t = self._take_from_pool()
            self.hands[p][t - 1] += 1
            self.hand_sizes[p] += 1
            events.append((E_DRAW, p, t))
            if self.known_total:
                self._pool_exit(t, p)
        elif a < RETURN_CONTAINER:  # return hand n: face down, only p knows it (TR-D9)
            i = a - RETURN_HAND
            self.hands[p][i] -= 1
            self.hand_sizes[p] -= 1
            self.pool.append(i + 1)
            self.known[p][i] += 1
            self.known_sizes[p] += 1
            self.known_total += 1
            events.append((E_RETURN_HAND, p, i + 1))
        elif a < TROIKA:  # return container n: face up into the mine
            i = a - RETURN_CONTAINER
            self.containers[p][i] -= 1
            self.container_sizes[p] -= 1
            self.mine[i] += 1
            events.append((E_RETURN_CONTAINER, p, i + 1))
        else:  # TR-5.5
            first = self.first_declarer is None
            if first:
                self.first_declarer = p
            self.declared[p] = True
            self.n_declared += 1
            events.append((E_TROIKA, p, first))
        # TR-4.5: the end-of-turn check.
        n = self.game.num_players
        pool = self.pool
        if not pool:
            self._end_round(0)
        elif self.n_declared == n - 1:
            self._end_round(1)
        else:
            q = p + 1  # TR-4.1: the next seat clockwise that has not declared
            if q == n:
                q = 0
            if self.n_declared:
                while self.declared[q]:
                    q = (q + 1) % n
            self.current_player = q
            if self._stack is not None:
                self._start_turn()
                return
            # TR-4.2, the turn-start flip (`_start_turn` inlined for the unstacked hot path)
            m = len(pool)
            bits = self.rng.getrandbits
            k = m.bit_length()
            i = bits(k)
            while i >= m:
                i = bits(k)
            t = pool[i]
            pool[i] = pool[-1]
            pool.pop()
            self.mine[t - 1] += 1
            events.append((E_FLIP, q, t))
            if self.known_total:
                self._pool_exit(t, None)

    # -- round end (TR-4.6, TR-6) --------------------------------------------------------------------

    def _end_round(self, reason: int) -> None:
        g = self.game
        n = g.num_players
        scores: list[int | None] = []
        for q in range(n):
            v = round_value(tuple(map(add, self.hands[q], self.containers[q])))
            if v is not None and q == self.first_declarer:
                v += g.troika_bonus  # TR-6.2 / TR-D24
            scores.append(v)
        gained = round_chips(scores, g.chips)
        placements = round_placements(scores)
        for q in range(n):
            self.chips[q] += gained[q]
        self.last_placements = placements
        self.events.append(
            (
                E_ROUND_END,
                self.round,
                reason,
                tuple(tuple(tiles_of(h)) for h in self.hands),
                tuple(tuple(tiles_of(c)) for c in self.containers),
                tuple(scores),
                tuple(gained),
                tuple(placements),
                self.first_declarer,
                tuple(self.declared),
                tuple(self.chips),
            )
        )
        if self.round >= g.rounds:
            self.current_player = None  # TR-6.5
        else:
            self._new_round()

    # -- results -----------------------------------------------------------------------------------

    def scores(self) -> list[int]:
        return list(self.chips)  # TR-6.7

    def winners(self) -> list[int]:
        if self.current_player is not None or self.last_placements is None:
            return []
        return game_winners(self.chips, self.last_placements)

    # -- texts ---------------------------------------------------------------------------------------

    def action_text(self, action: int) -> str:
        from bodoge.games.troika.text import action_text

        return action_text(action)

    def decision(self) -> str:
        p = self.current_player
        if p is None:
            return "the end of the game"
        what = "take a face-up tile, draw, or return a tile"
        if self.game.troika_on:
            what += ", or declare Troika"
        return f"P{p}'s turn in round {self.round}: {what}"

    def decision_ja(self) -> str:
        """`decision()` in Japanese."""
        p = self.current_player
        if p is None:
            return "ゲーム終了"
        if self.game.troika_on:
            what = "表向きのタイルを取る、引く、タイルを戻す、またはトロイカ宣言する"
        else:
            what = "表向きのタイルを取る、引く、またはタイルを戻す"
        return f"ラウンド{self.round}、P{p}の手番:{what}"

    def render(self, seat: int | None = None) -> str:
        from bodoge.games.troika.text import render

        return render(self, self.game.check_seat(seat))

    # -- views (§7) ----------------------------------------------------------------------------------

    def _view(self, seat: int | None) -> dict[str, Any]:
        g = self.game
        last = None
        for e in reversed(self.events):
            if e[0] == E_ROUND_END:
                last = event_view(e, seat, g)
                break
        return {
            "round": self.round,
            "rounds": g.rounds,
            "start_player": self.start_player,
            "mine": tiles_of(self.mine),
            "pool_size": len(self.pool),
            "removed": self.removed_size,
            "containers": [tiles_of(c) for c in self.containers],
            "hand_sizes": list(self.hand_sizes),
            "hand": None if seat is None else tiles_of(self.hands[seat]),
            "returned_in_pool": None if seat is None else tiles_of(self.known[seat]),
            "declared": list(self.declared),
            "first_declarer": self.first_declarer,
            "chips": list(self.chips),
            "last_round": last,
        }

    def _event_view(self, event: tuple[Any, ...], seat: int | None) -> dict[str, Any] | None:
        return event_view(event, seat, self.game)

    # -- checks and copies ---------------------------------------------------------------------------

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


# -- event views (shared with sampling, which parses them back) -------------------------------------


def round_end_view(event: tuple[Any, ...], game: Troika) -> dict[str, Any]:
    """The public result of a round (§7: at round scoring everything about the players is public)."""
    (_, rnd, reason, hands, containers, scores, gained, placements, first, declared, totals) = event
    players = []
    for q in range(game.num_players):
        tile_score, has_fuel, sets, waste = score_counts(
            tuple(map(add, _counts(hands[q]), _counts(containers[q])))
        )
        players.append(
            {
                "seat": q,
                "hand": list(hands[q]),
                "container": list(containers[q]),
                "sets": [list(s) for s in sets],
                "waste": list(waste),
                "has_fuel": has_fuel,
                "left_behind": scores[q] is None,
                "tile_score": tile_score,
                "declared": declared[q],
                "bonus": game.troika_bonus if first == q else 0,
                "round_score": scores[q],
                "chips": gained[q],
                "placement": placements[q],
                "chip_total": totals[q],
            }
        )
    return {
        "type": "round_end",
        "round": rnd,
        "reason": REASONS[reason],
        "first_declarer": first,
        "players": players,
    }


def _counts(tiles: Sequence[int]) -> list[int]:
    c = [0] * N_NUMBERS
    for t in tiles:
        c[t - 1] += 1
    return c


def event_view(event: tuple[Any, ...], seat: int | None, game: Troika) -> dict[str, Any]:
    seen = _event_dict(event, seat, game)
    seen["text"] = event_text(seen)
    seen["text_ja"] = event_text_ja(seen)
    return seen


def _event_dict(event: tuple[Any, ...], seat: int | None, game: Troika) -> dict[str, Any]:
    kind = event[0]
    if kind == E_ROUND_END:
        return round_end_view(event, game)
    if kind == E_ROUND:
        return {"type": "round_start", "round": event[1], "start_player": event[2]}
    if kind == E_REMOVED:
        return {"type": "removed", "count": event[1]}
    if kind == E_TROIKA:
        return {"type": "troika", "seat": event[1], "first": event[2]}
    q, t = event[1], event[2]
    if kind in _PRIVATE and q != seat:
        t = None
    return {"type": _KIND_NAMES[kind], "seat": q, "tile": t}


def parse_event(d: Mapping[str, Any]) -> list[Any]:
    """The event of a log entry, as a list (hidden tiles None); the inverse of `event_view`."""
    kind = _KINDS[d["type"]]
    if kind == E_ROUND:
        return [kind, d["round"], d["start_player"]]
    if kind == E_REMOVED:
        return [kind, d["count"]]
    if kind == E_TROIKA:
        return [kind, d["seat"], d["first"]]
    if kind == E_ROUND_END:
        ps = d["players"]
        return [
            kind,
            d["round"],
            REASONS.index(d["reason"]),
            tuple(tuple(p["hand"]) for p in ps),
            tuple(tuple(p["container"]) for p in ps),
            tuple(p["round_score"] for p in ps),
            tuple(p["chips"] for p in ps),
            tuple(p["placement"] for p in ps),
            d["first_declarer"],
            tuple(p["declared"] for p in ps),
            tuple(p["chip_total"] for p in ps),
        ]
    return [kind, d["seat"], d["tile"]]


def weighted_hands(counts: Sequence[int], size: int) -> list[tuple[tuple[int, ...], int]]:
    """Every multiset of `size` tiles drawn from `counts`, with its number of physical ways."""
    out: list[tuple[tuple[int, ...], int]] = []
    pick = [0] * N_NUMBERS

    def rec(i: int, left: int, ways: int) -> None:
        if left == 0:
            out.append((tuple(pick), ways))
            return
        if i == N_NUMBERS:
            return
        for k in range(min(left, counts[i]), -1, -1):
            pick[i] = k
            rec(i + 1, left - k, ways * comb(counts[i], k))
        pick[i] = 0

    rec(0, size, 1)
    return out
