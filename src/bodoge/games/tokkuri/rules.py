"""Tokkuri (トックリ): the rules (spec docs/rules/tokkuri.md, rule ids TK-…) bound to the game
(`Tokkuri`) and its state as the rules play it (`TokkuriPlay`), the classes of `state.py`.

The sections of the spec are the modules beside this one: `options` (§2), `setup` (§3), `play` (§4
and the cards' effects of §5, with the action ids), `scoring` (§6); `information` (§7) says what each
seat sees. `state` holds what the rules read and write: the game's parameters, the state's fields
and its decisions (phases).

Action ids, in this order: `target T<s>.<k>` (its id is the tid), `place <code>` (OPEN and ACTION),
`drink <code>[=<values>]`, `victim P<s>`, `give <code>`.
"""

from __future__ import annotations

import itertools
from typing import ClassVar

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
from bodoge.games.tokkuri.state import TokkuriGame, TokkuriState


class TokkuriPlay(TokkuriState):
    """A game of Tokkuri as its rules play it."""

    def setup(self) -> None:
        forced: dict[int, list[int]] = {}
        if self.deck is not None:
            forced[1] = setup.stacked(self, self.deck)
        setup.begin_game(self, forced, None)
        play.begin_round(self)

    # (methods that call the rules' functions, not the functions as attributes: a function that
    # bodoge.compiled builds with mypyc does not bind as a method)
    def _legal_actions(self) -> list[int]:
        return play.legal_actions(self)

    def _apply(self, action: int) -> None:
        play.apply(self, action)

    def winners(self) -> list[int]:
        return scoring.winners(self)

    def action_text(self, action: int) -> str:
        return play.action_text(self.game, action)


class Tokkuri(TokkuriGame):
    name = "tokkuri"
    title: ClassVar[dict[str, str]] = {"en": "Tokkuri", "ja": "トックリ"}
    rules_version = 2  # 2: the round shuffle is random.shuffle (deals differ from version 1)
    replays_versions = (1, 2)  # version 1's records deal by setup.shuffled_v1
    min_players = 2
    max_players = 4
    default_players = 4
    option_specs = OPTION_SPECS
    state_class = TokkuriPlay

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
        self.num_chance_outcomes = T  # with explicit chance: a card dealt, drawn or stolen, by its type
        #: after[p]: the seats from p's left neighbour round to p itself (TK-4.7).
        self.after = [tuple((p + i) % n for i in range(1, n + 1)) for p in range(n)]
        self.trouble = next((t for t in range(T) if self.kind[t] == TROUBLE), -1)
        self.max_slots = max((len(ct.slots) for ct in types), default=0)
        # Drink variants (TK-D31): see TokkuriGame.
        self.var_type = []
        self.var_values = []
        self.var_desc = []
        self.var_rest = []
        self.var_text = []
        self.type_vars = [[] for _ in range(T)]
        self.var_index = {}
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
        self.drink_checks = [
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

    def max_chance_events(self) -> int:
        # Per round: each card is dealt or drawn at most once, and stolen (TK-5.2) at most once.
        o = self.options
        rounds = o["rounds"] if o["rounds"] is not None else o["max_rounds"]
        return rounds * 2 * self.total
