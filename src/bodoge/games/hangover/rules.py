"""Hangover (draft 2): the rules of docs/rules/hangover.md bound to the game (`Hangover`) and its
state as the rules play it (`HangoverPlay`), the classes of `state.py`.

The sections of the spec are the modules beside this one: `options` (§2), `setup` (§3), `play` (§4:
arranging, declaring, tricks, the judgement, with the action ids), `scoring` (§6); `information` (§7)
says what each seat sees. `state` holds what the rules read and write: the game's parameters, the
state's fields, its phases and the players' statuses.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

from bodoge.errors import BadOption, IllegalAction
from bodoge.games.hangover import play, scoring, setup
from bodoge.games.hangover.cards import NUM_DRINK, drink_deck, snack_values
from bodoge.games.hangover.options import (
    ANY_TRICK,
    LATER_OPTIONS,
    MAX_ARRANGEMENTS,
    MAX_SNACKS,
    OPTION_SPECS,
)
from bodoge.games.hangover.play import FLIP, _enumerate_arrangements
from bodoge.games.hangover.state import HangoverGame, HangoverState


class HangoverPlay(HangoverState):
    """A game of Hangover as its rules play it."""

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


class Hangover(HangoverGame):
    name = "hangover"
    title: ClassVar[dict[str, str]] = {"en": "Hangover (draft 2)", "ja": "ハングオーバー(草案2)"}
    rules_version = 1
    min_players = 3
    max_players = 5
    default_players = 4
    option_specs = OPTION_SPECS
    state_class = HangoverPlay

    def prepare(self) -> None:
        """HO-3.1, HO-3.5, HO-3.6: the cards in play must deal out; the drunk limit of this player
        count; the snack codes, their values and every arrangement into columns (HO-4.1), whose
        number bounds one decision."""
        o = self.options
        n = self.num_players
        self.limit = o["drunk_limit"][n]
        self.vp_under = o["vp_under"]
        self.vp_just = o["vp_just"]
        self.vp_over = o["vp_over"]
        self.hangover_trick = o["hangover_trick"]
        self.num_columns = self.hangover_trick - 1
        self.hand_size = o["hand_size"]
        self.snacks_per_player = o["snacks_per_player"]
        self.non_drinker = o["non_drinker"]
        self.end_when_one_active = o["end_when_one_active"]
        self.declaration = o["declaration"]
        self.non_drinker_vp = o["non_drinker_vp"]
        self.non_drinker_tricks = o["non_drinker_tricks"]
        self.out_non_drinker_gains = o["out_non_drinker_gains"]
        self.drink_cards = drink_deck(o["removed_numbers"][n])
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
        self.snack_codes = list(dict.fromkeys(deck))
        self.snack_index = {code: d for d, code in enumerate(self.snack_codes)}
        self.snack_texts = [snack_values(c) for c in self.snack_codes]
        self.snack_value = [(int(a), int(b)) for a, b in self.snack_texts]
        self.snack_deck = [self.snack_index[c] for c in deck]
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
        self.arrangements = _enumerate_arrangements(m, cols) if m else [()]
        self.arrange0 = FLIP + 2 * len(self.snack_codes)
        self.num_actions = self.arrange0 + len(self.arrangements)
        # with explicit chance: a card dealt, the drink card itself or NUM_DRINK + its snack type
        self.num_chance_outcomes = NUM_DRINK + len(self.snack_codes)

    def max_chance_events(self) -> int:
        # The deal is the only chance (HO-3.3): every card dealt.
        return self.num_players * (self.hand_size + self.snacks_per_player)

    def options_json(self) -> dict[str, Any]:
        """The options as JSON, each option of the non-drinker variants (HO-D29–HO-D32) only where it
        is not at its default: a default game's record and views are word for word what they were
        before these options existed, and an old record, which lacks them, replays with the defaults."""
        out = super().options_json()
        for spec in OPTION_SPECS:
            if spec.name in LATER_OPTIONS and out.get(spec.name) == spec.default:
                del out[spec.name]
        return out

    def max_game_length(self) -> int:
        n = self.num_players
        # HO-4.2: one answer a seat before trick 1; under any_trick (HO-D29) before every later trick too
        rounds = self.hand_size if self.declaration == ANY_TRICK else 1
        return (
            (n if self.snacks_per_player else 0)
            + (n * rounds if self.non_drinker else 0)
            + self.hand_size * n
            + self.snacks_per_player * n
            + self.hand_size
        )
