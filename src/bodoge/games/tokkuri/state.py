"""What a game of Tokkuri holds: the game's parameters (`TokkuriGame`) and the state (`TokkuriState`),
with the decisions (phases) a state can be at (spec docs/rules/tokkuri.md, rule ids TK-…).

Cards are ints: the index of their type in option `deck` (the `TokkuriGame.codes` list). A hand is a
list of type indices; the draw deck (`stock`) is a list with its top card at the end. A tokkuri on
the table is a `tid` = owner × N + (k − 1) for id `T<owner>.<k>` (N = cards in the deck: nobody can
place more than N tokkuri in one round); the on-table tokkuri are three parallel lists `table`
(tids in increasing order: by owner, then placement), `levels` and `faces`.

Decisions (TK-4): OPEN (every player in turn, hidden until all chose), ACTION (place or drink),
TARGET (one per number of the drunk card), VICTIM (the `9`), GIVE (pass-left, hidden until all
chose).

The rules are the modules that import this one (`setup`, `play`, `scoring`); `rules.py` binds them
to these classes.
"""

from __future__ import annotations

from typing import Final

from bodoge.core.game import Game, State
from bodoge.games.tokkuri import cards as C

OPEN: Final = 0
ACTION: Final = 1
TARGET: Final = 2
VICTIM: Final = 3
GIVE: Final = 4
OVER: Final = 5
PHASES = ("open", "action", "target", "victim", "give", "over")


class TokkuriGame(Game):
    """The parameters that `Tokkuri.prepare` (rules.py) makes of the options and the player count:
    each card type's numbers, effect and drink variants as tables of ints, and the action ids."""

    types: tuple[C.CardType, ...]
    codes: list[str]
    code_index: dict[str, int]  # lower-case code -> type
    kind: list[int]  # per type: its index in cards.KINDS
    effect: list[int]  # per type: its index in cards.EFFECTS
    copies: list[int]
    ntypes: int
    total: int  # cards in the deck
    all_cards: list[int]  # every card of the deck, by type
    after: list[tuple[int, ...]]  # after[p]: the seats from p's left neighbour round to p itself (TK-4.7)
    trouble: int  # the trouble card's type (−1: none)
    max_slots: int
    # Drink variants: one per number type and choice of values for its range slots (TK-D31).
    var_type: list[int]
    var_values: list[tuple[int, ...]]
    var_desc: list[tuple[int, ...]]
    var_rest: list[list[tuple[int, ...]]]  # per slot i: values after i, descending
    var_text: list[str]
    type_vars: list[list[int]]
    var_index: dict[tuple[int, tuple[int, ...]], int]
    var_slots: list[int]
    # Action ids: `target` first, so that a tokkuri's tid is its target id.
    a_target: int
    a_place: int
    a_drink: int
    a_victim: int
    a_give: int
    cap: int | None  # option max_tokkuri
    level: int  # option tokkuri_level
    # single_value[t]: the number of a card with one number and one reading; 0: not a number card;
    # -1: any other number card.
    single_value: list[int]
    single_action: list[int]
    place_action: list[int]
    slot_info: list[list[tuple[int, tuple[int, ...]]]]
    drink_checks: list[list[tuple[int, tuple[tuple[int, int], ...]]]]
    dummy_mask: int
    all_mask: int
    tokkuri_ids: dict[str, tuple[int, int]]


class TokkuriState(State):
    game: TokkuriGame
    _forced_decks: dict[int, list[int]]  # stacked deals of some rounds (TK-3.3)
    _forced_steals: list[int] | None  # stacked random steals (TK-5.2), for sampled states
    balances: list[int]
    round_no: int
    last_round_scores: list[int] | None
    hands: list[list[int]]  # sorted: the legal actions come out in order
    stock: list[int]  # the draw deck, top card last
    table: list[int]  # the tokkuri on the table, by tid, in increasing order
    levels: list[int]  # parallel to `table`
    faces: list[int]  # parallel to `table`: the card each tokkuri was made of
    sorted_levels: list[int]  # the levels on the table, low to high
    placed: list[int]  # tokkuri each seat placed this round
    captured: list[list[int]]
    bonus: list[list[int]]
    discard: list[int]
    start: int
    active: int  # whose turn it is (the current player may be another, at GIVE)
    pending: list[int]  # OPEN / GIVE choices not yet revealed (−1: none)
    ask: list[int]  # the seats an OPEN or GIVE asks, in order
    ask_i: int
    d_var: int  # the drunk card's variant (−1: none)
    d_targets: list[int]
    victims: list[int]
    phase: int

    def scores(self) -> list[int]:
        return list(self.balances)

    def _copy_mutables(self, other: State) -> None:
        assert isinstance(other, TokkuriState)
        other.balances = self.balances.copy()
        other.hands = [h.copy() for h in self.hands]
        other.stock = self.stock.copy()
        other.table = self.table.copy()
        other.levels = self.levels.copy()
        other.sorted_levels = self.sorted_levels.copy()
        other.faces = self.faces.copy()
        other.placed = self.placed.copy()
        other.captured = [c.copy() for c in self.captured]
        other.bonus = [b.copy() for b in self.bonus]
        other.discard = self.discard.copy()
        other.pending = self.pending.copy()
        other.ask = self.ask.copy()
        other.d_targets = self.d_targets.copy()
        other.victims = self.victims.copy()
        if self._forced_steals:
            other._forced_steals = self._forced_steals.copy()

    def check_invariants(self) -> None:
        g = self.game
        places: list[int] = []
        for h in self.hands:
            places += h
        places += self.stock + self.faces + self.discard
        for c in self.captured:
            places += c
        for b in self.bonus:
            places += b
        places += [t for t in self.pending if t >= 0]
        if self.phase == TARGET:
            places.append(g.var_type[self.d_var])
        assert sorted(places) == g.all_cards, "a card is missing or in two places"
        assert len(self.table) == len(self.levels) == len(self.faces)
        assert self.sorted_levels == sorted(self.levels), "sorted_levels is out of step"
        assert all(h == sorted(h) for h in self.hands), "a hand is not sorted"
        assert self.table == sorted(set(self.table)), "the table is not in id order"
        assert all(lv >= 1 for lv in self.levels), "a tokkuri at level 0 is still on the table"
        N = g.total
        for tid in self.table:
            assert tid % N < self.placed[tid // N], "a tokkuri id was not placed"
        cap = g.options["max_tokkuri"]
        assert cap is None or len(self.table) <= cap
        if self.current_player is not None and self.phase in (OPEN, ACTION, GIVE):
            assert self.hands[self.current_player], "a player without cards is asked to act"
