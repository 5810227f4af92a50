"""Hangover (draft 2): the rules of shared/rules/hangover.md as a Game and a State.

The sections of the spec are the modules beside this one: `options` (§2), `setup` (§3), `play` (§4:
arranging, declaring, tricks, the judgement, with the action ids), `scoring` (§6); `information` (§7)
says what each seat sees.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any, ClassVar

from bodoge.core import Game, State
from bodoge.errors import BadOption, IllegalAction
from bodoge.games.hangover import play, scoring, setup
from bodoge.games.hangover.cards import drink_deck, snack_values
from bodoge.games.hangover.options import MAX_ARRANGEMENTS, MAX_SNACKS, OPTION_SPECS
from bodoge.games.hangover.play import (
    DRINKER,
    FLIP,
    HUNG_OVER,
    NON_DRINKER,
    OUT_NON_DRINKER,
    TRICK,
    _enumerate_arrangements,
)

# (snacks per player, columns, first arrangement id, sorted snack hand as indices) -> the legal
# arrangement ids and their columns; shared by every game with the same numbers, as it depends on
# nothing else
_ARRANGE_CACHE: dict[tuple[int, int, int, tuple[int, ...]], tuple[list[int], dict[Any, Any]]] = {}


class Hangover(Game):
    name = "hangover"
    title: ClassVar[dict[str, str]] = {"en": "Hangover (draft 2)", "ja": "ハングオーバー(草案2)"}
    rules_version = 1
    min_players = 3
    max_players = 5
    default_players = 4
    option_specs = OPTION_SPECS

    def prepare(self) -> None:
        """HO-3.1, HO-3.5, HO-3.6: the cards in play must deal out; the drunk limit of this player
        count; the snack codes, their values and every arrangement into columns (HO-4.1), whose
        number bounds one decision."""
        o = self.options
        n = self.num_players
        self.limit: int = o["drunk_limit"][n]
        self.vp_under: int = o["vp_under"]
        self.vp_just: int = o["vp_just"]
        self.vp_over: int = o["vp_over"]
        self.hangover_trick: int = o["hangover_trick"]
        self.num_columns: int = self.hangover_trick - 1
        self.hand_size: int = o["hand_size"]
        self.snacks_per_player: int = o["snacks_per_player"]
        self.non_drinker: bool = o["non_drinker"]
        self.end_when_one_active: bool = o["end_when_one_active"]
        self.drink_cards: list[int] = drink_deck(o["removed_numbers"][n])
        if self.hand_size * n > len(self.drink_cards):
            raise BadOption(
                "hand_size",
                self.hand_size,
                f"an integer from 1 to {len(self.drink_cards) // n} for {n} players with these "
                f"removed_numbers ({len(self.drink_cards)} drink cards in play)",
                f"out of range: at most {len(self.drink_cards) // n} ({n} × {self.hand_size} cards do not "
                f"fit in a deck of {len(self.drink_cards)})",
            )
        deck = o["snack_deck"]
        if self.snacks_per_player * n > len(deck):
            raise BadOption(
                "snacks_per_player",
                self.snacks_per_player,
                f"an integer from 0 to {len(deck) // n} for {n} players and a snack_deck of {len(deck)}",
                f"out of range: at most {len(deck) // n} ({n} × {self.snacks_per_player} cards do not fit "
                "in the snack deck)",
            )
        # distinct snack codes in first-appearance order; a snack card is its index here
        self.snack_codes: list[str] = list(dict.fromkeys(deck))
        self.snack_index: dict[str, int] = {code: d for d, code in enumerate(self.snack_codes)}
        self.snack_texts: list[tuple[str, str]] = [snack_values(c) for c in self.snack_codes]
        self.snack_value: list[tuple[int, int]] = [(int(a), int(b)) for a, b in self.snack_texts]
        self.snack_deck: list[int] = [self.snack_index[c] for c in deck]
        m, cols = self.snacks_per_player, self.num_columns
        sizes = [len(range(j, m, cols)) for j in range(cols)]
        count = math.factorial(m) // math.prod(math.factorial(s) for s in sizes)
        if count > MAX_ARRANGEMENTS:
            raise BadOption(
                "snacks_per_player",
                m,
                f"an integer from 0 to {MAX_SNACKS} whose arrangements into {cols} columns are at most "
                f"{MAX_ARRANGEMENTS} (up to 6 cards; 7 with 4 columns or fewer, 8 with 3, 11 with 2, any with 1)",
                f"{count} arrangements would be one decision",
            )
        self.arrangements: list[tuple[int, ...]] = _enumerate_arrangements(m, cols) if m else [()]
        self.arrange0: int = FLIP + 2 * len(self.snack_codes)
        self.num_actions = self.arrange0 + len(self.arrangements)

    def max_game_length(self) -> int:
        n = self.num_players
        return (
            (n if self.snacks_per_player else 0)
            + (n if self.non_drinker else 0)
            + self.hand_size * n
            + self.snacks_per_player * n
            + self.hand_size
        )

    # -- arrangements (HO-4.1) --------------------------------------------------------------------

    def columns_of(self, hand: tuple[int, ...] | list[int], index: int) -> list[list[int]]:
        """The columns (sorted snack indices) that arrangement `index` makes of the sorted `hand`."""
        cols: list[list[int]] = [[] for _ in range(self.num_columns)]
        for i, pos in enumerate(self.arrangements[index]):
            cols[i % self.num_columns].append(hand[pos])
        for col in cols:
            col.sort()
        return cols

    def _arrange_table(self, hand: tuple[int, ...]) -> tuple[list[int], dict[Any, Any]]:
        """For a sorted snack hand: the legal arrangement ids, and a map both from each outcome (the
        columns as sorted tuples) to its id and from each id to its columns."""
        cache_key = (self.snacks_per_player, self.num_columns, self.arrange0, hand)
        table = _ARRANGE_CACHE.get(cache_key)
        if table is None:
            lookup: dict[Any, Any] = {}
            ids = []
            for i in range(len(self.arrangements)):
                key = tuple(tuple(c) for c in self.columns_of(hand, i))
                if key not in lookup:
                    lookup[key] = self.arrange0 + i
                    lookup[self.arrange0 + i] = key
                    ids.append(self.arrange0 + i)
            table = _ARRANGE_CACHE[cache_key] = (ids, lookup)
        return table

    def arrangement_ids(self, hand: tuple[int, ...]) -> list[int]:
        """The legal arrangement actions for a sorted snack hand: one per distinct outcome, so that
        swapping two copies of one code is not a second choice (HO-4.1)."""
        return self._arrange_table(hand)[0]

    def arrangement_for(self, hand: tuple[int, ...], columns: list[list[int]]) -> int | None:
        """The legal arrangement action that puts `hand` into exactly these columns (None: no such)."""
        return self._arrange_table(hand)[1].get(tuple(tuple(sorted(c)) for c in columns))

    def columns_of_order(self, order: list[int]) -> list[list[int]]:
        """HO-4.1/HO-D22: the i-th card of an ordering goes into column (i mod C) + 1."""
        cols: list[list[int]] = [[] for _ in range(self.num_columns)]
        for i, d in enumerate(order):
            cols[i % self.num_columns].append(d)
        return cols


class HangoverState(State):
    game: Hangover
    num_players: int
    hands: list[list[int]]
    discards: list[list[int]]
    aside: list[int]
    trick: list[int]
    past: list[tuple[int, tuple[int, ...], int]]
    snack_hands: list[list[int]]
    columns: list[list[list[int]]]
    flipped: list[list[tuple[int, int, int]]]
    snack_aside: list[int]
    status: list[int]
    tricks: list[int]
    vp: list[int]
    declared: list[int]

    leader: int
    phase: int
    judge_sum: int  # S of the trick being judged
    judge_flips: int  # f
    judge_added: int  # A

    def setup(self) -> None:
        setup.deal(self)

    _legal_actions = play.legal_actions
    _apply = play.apply
    action_text = play.action_text
    winners = scoring.winners

    def parse_action(self, action_text: str) -> int:
        """Also reads `snack +1/+2 as +2` for `flip +1/+2 +2`, and an `arrange` in any order that
        puts the cards into the same columns."""
        if isinstance(action_text, str):
            wanted = " ".join(action_text.split()).lower()
            alias = play.parse_alias(self, wanted)
            if alias is not None:
                if alias in self.legal_actions():
                    return alias
                raise IllegalAction(
                    action_text,
                    self.decision(),
                    "not a legal action now; legal: " + self._legal_list(self.legal_actions()),
                )
        return super().parse_action(action_text)

    def scores(self) -> list[int]:
        return list(self.vp)

    def check_invariants(self) -> None:
        g = self.game
        n = g.num_players
        drink: list[int] = [c for h in self.hands for c in h]
        drink += [c for d in self.discards for c in d]
        drink += self.aside
        drink += [c for c in self.trick if c >= 0]
        drink += [c for _, cards, _ in self.past for c in cards if c >= 0]
        assert sorted(drink) == g.drink_cards, "a drink card is missing or in two places"
        face_down = sum(1 for _, cards, _ in self.past for c in cards if c < 0)
        face_down += sum(1 for c in self.trick if c < 0)
        assert face_down == sum(len(d) for d in self.discards), "face-down cards do not match the discards"
        assert len({len(h) for h in self.hands}) <= 2, "hands differ by more than the current trick"
        assert len(self.aside) == len(g.drink_cards) - n * g.hand_size, "the set-aside drink pile changed"
        snacks: list[int] = [d for h in self.snack_hands for d in h]
        snacks += [d for cols in self.columns for col in cols for d in col]
        snacks += [d for fl in self.flipped for _, d, _ in fl]
        snacks += self.snack_aside
        assert Counter(snacks) == Counter(g.snack_deck), "a snack card is missing or in two places"
        assert all(len(cols) == g.num_columns for cols in self.columns)
        assert all(s in (DRINKER, NON_DRINKER, OUT_NON_DRINKER, HUNG_OVER) for s in self.status)
        assert all(0 <= t <= g.hangover_trick for t in self.tricks)
        if self.current_player is not None and self.phase == TRICK and not self.trick:
            assert self.status[self.current_player] < OUT_NON_DRINKER, "an eliminated player leads"

    def _copy_mutables(self, other: State) -> None:
        assert isinstance(other, HangoverState)
        other.hands = [h[:] for h in self.hands]
        other.discards = [d[:] for d in self.discards]
        other.aside = self.aside  # never changes after the deal
        other.trick = self.trick[:]
        other.past = self.past[:]
        other.snack_hands = [h[:] for h in self.snack_hands]
        other.columns = [[c[:] for c in cols] for cols in self.columns]
        other.flipped = [f[:] for f in self.flipped]
        other.snack_aside = self.snack_aside  # never changes after the deal
        other.status = self.status[:]
        other.tricks = self.tricks[:]
        other.vp = self.vp[:]
        other.declared = self.declared[:]


Hangover.state_class = HangoverState
