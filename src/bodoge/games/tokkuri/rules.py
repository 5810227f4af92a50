"""Tokkuri (トックリ): the rules (spec shared/rules/tokkuri.md, rule ids TK-…).

Cards are ints: the index of their type in option `deck` (the `Tokkuri.codes` list). A hand is a
list of type indices; the draw deck (`stock`) is a list with its top card at the end. A tokkuri on
the table is a `tid` = owner × N + (k − 1) for id `T<owner>.<k>` (N = cards in the deck: nobody can
place more than N tokkuri in one round); the on-table tokkuri are three parallel lists `table`
(tids in increasing order: by owner, then placement), `levels` and `faces`.

The sections of the spec are the modules beside this one: `options` (§2), `setup` (§3), `play` (§4
and the cards' effects of §5, with the action ids), `scoring` (§6); `information` (§7) says what each
seat sees.

Decisions (TK-4): OPEN (every player in turn, hidden until all chose), ACTION (place or drink),
TARGET (one per number of the drunk card), VICTIM (the `9`), GIVE (pass-left, hidden until all
chose). Action ids, in this order: `target T<s>.<k>` (its id is the tid), `place <code>` (OPEN and
ACTION), `drink <code>[=<values>]`, `victim P<s>`, `give <code>`.
"""

from __future__ import annotations

import itertools
from typing import ClassVar

from bodoge.core.game import Game, State
from bodoge.errors import BadOption
from bodoge.games.tokkuri import cards as C
from bodoge.games.tokkuri import play, scoring, setup
from bodoge.games.tokkuri.cards import (
    DUMMY,
    EFFECTS_INDEX,
    KINDS_INDEX,
    NUMBER,
    TROUBLE,
)
from bodoge.games.tokkuri.options import OPTION_SPECS
from bodoge.games.tokkuri.play import ACTION, GIVE, OPEN, TARGET


class Tokkuri(Game):
    name = "tokkuri"
    title: ClassVar[dict[str, str]] = {"en": "Tokkuri", "ja": "トックリ"}
    rules_version = 2  # 2: the round shuffle is random.shuffle (deals differ from version 1)
    replays_versions = (1, 2)  # version 1's records deal by setup.shuffled_v1
    min_players = 2
    max_players = 4
    default_players = 4
    option_specs = OPTION_SPECS

    def prepare(self) -> None:
        """TK-1.5, TK-3.3: the deck must deal a full hand to everyone; each card type's numbers,
        effect and drink variants as tables of ints; the action ids."""
        o = self.options
        n = self.num_players
        types: tuple[C.CardType, ...] = o["deck"]
        total = sum(ct.copies for ct in types)
        if n * o["hand_size"] > total:
            if n * 2 > total:
                raise BadOption(
                    "deck",
                    C.deck_to_json(types),
                    f"a deck of players × hand_size = {n * o['hand_size']} to {C.MAX_CARDS} cards",
                    f"out of range: at least {n * o['hand_size']} cards (it holds {total})",
                )
            raise BadOption(
                "hand_size",
                o["hand_size"],
                f"an integer from 2 to {total // n} (players × hand_size ≤ {total}, the cards in the deck)",
                f"out of range: at most {total // n} ({n} × {o['hand_size']} > {total})",
            )
        if o["rounds"] is not None and o["rounds"] > o["max_rounds"]:
            raise BadOption(
                "rounds",
                o["rounds"],
                f"null, or an integer from 1 to max_rounds = {o['max_rounds']}",
                f"out of range: at most max_rounds = {o['max_rounds']}",
            )
        if o["max_tokkuri"] is not None and o["max_tokkuri"] < n:
            raise BadOption(
                "max_tokkuri",
                o["max_tokkuri"],
                f"null, or an integer from the number of players ({n}) to {C.MAX_CARDS}",
                f"out of range: at least the number of players, {n}",
            )
        self.types = types
        self.codes = [ct.code for ct in types]
        self.code_index = {ct.code.lower(): i for i, ct in enumerate(types)}
        self.kind = [KINDS_INDEX[ct.kind] for ct in types]
        self.effect = [EFFECTS_INDEX[ct.effect] for ct in types]
        self.copies = [ct.copies for ct in types]
        self.ntypes = T = len(types)
        self.total = total
        self.all_cards = [t for t in range(T) for _ in range(types[t].copies)]
        #: after[p]: the seats from p's left neighbour round to p itself (TK-4.7).
        self.after = [tuple((p + i) % n for i in range(1, n + 1)) for p in range(n)]
        self.trouble = next((t for t in range(T) if self.kind[t] == TROUBLE), -1)
        self.max_slots = max((len(ct.slots) for ct in types), default=0)
        # Drink variants: one per number type and choice of values for its range slots (TK-D31).
        self.var_type: list[int] = []
        self.var_values: list[tuple[int, ...]] = []
        self.var_desc: list[tuple[int, ...]] = []
        self.var_rest: list[list[tuple[int, ...]]] = []  # per slot i: values after i, descending
        self.var_text: list[str] = []
        self.type_vars: list[list[int]] = [[] for _ in range(T)]
        self.var_index: dict[tuple[int, tuple[int, ...]], int] = {}
        for t, ct in enumerate(types):
            if ct.kind != "number":
                continue
            ranged = [i for i, (lo, hi) in enumerate(ct.slots) if lo != hi]
            for values in itertools.product(*(range(lo, hi + 1) for lo, hi in ct.slots)):
                v = len(self.var_type)
                self.var_type.append(t)
                self.var_values.append(values)
                self.var_desc.append(tuple(sorted(values, reverse=True)))
                self.var_rest.append(
                    [tuple(sorted(values[i + 1 :], reverse=True)) for i in range(len(values))]
                )
                text = f"drink {ct.code}"
                if ranged:
                    text += "=" + "+".join(str(values[i]) for i in ranged)
                self.var_text.append(text)
                self.type_vars[t].append(v)
                self.var_index[(t, values)] = v
        D = len(self.var_type)
        N = total
        # `target` ids first, so that a tokkuri's tid is its target id.
        self.a_target = 0
        self.a_place = n * N
        self.a_drink = self.a_place + T
        self.a_victim = self.a_drink + D
        self.a_give = self.a_victim + n
        self.num_actions = self.a_give + T
        self.cap = o["max_tokkuri"]
        self.level = o["tokkuri_level"]
        self.var_slots = [len(values) for values in self.var_values]
        # single_value[t]: the number of a card with one number and one reading; 0: not a
        # number card; -1: any other number card.
        self.single_value = [
            0
            if self.kind[t] != NUMBER
            else self.var_values[vs[0]][0]
            if len(vs) == 1 and len(self.var_values[vs[0]]) == 1
            else -1
            for t, vs in enumerate(self.type_vars)
        ]
        self.single_action = [self.a_drink + vs[0] if vs else -1 for vs in self.type_vars]
        self.place_action = [self.a_place + t for t in range(T)]
        self.slot_info = [
            [(values[i], self.var_rest[v][i]) for i in range(len(values))]
            for v, values in enumerate(self.var_values)
        ]
        self.drink_checks: list[list[tuple[int, tuple[tuple[int, int], ...]]]] = [
            [
                (
                    self.a_drink + v,
                    tuple(
                        (j, x)
                        for j, x in enumerate(self.var_desc[v])
                        if j + 1 == len(self.var_desc[v]) or self.var_desc[v][j + 1] != x
                    ),
                )
                for v in self.type_vars[t]
            ]
            for t in range(T)
        ]
        self.dummy_mask = sum(1 << t for t in range(T) if self.kind[t] == DUMMY)
        self.all_mask = (1 << T) - 1
        self.tokkuri_ids = {f"T{s}.{k}": (s, k) for s in range(n) for k in range(1, N + 1)}

    def max_game_length(self) -> int:
        # Per round: OPEN and ACTION take one card out of a hand each, and a card leaves the hands
        # at most once a round; a drunk card adds at most max_slots TARGETs, one VICTIM and one
        # GIVE per player.
        o = self.options
        rounds = o["rounds"] if o["rounds"] is not None else o["max_rounds"]
        return rounds * self.total * (2 + self.max_slots + self.num_players)


class TokkuriState(State):
    game: Tokkuri
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

    def setup(self) -> None:
        forced: dict[int, list[int]] = {}
        if self.deck is not None:
            forced[1] = setup.stacked(self, self.deck)
        setup.begin_game(self, forced, None)
        play.begin_round(self)

    _legal_actions = play.legal_actions
    _apply = play.apply
    winners = scoring.winners
    round_scores = scoring.round_scores

    def scores(self) -> list[int]:
        return list(self.balances)

    def action_text(self, action: int) -> str:
        return play.action_text(self.game, action)

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


Tokkuri.state_class = TokkuriState
