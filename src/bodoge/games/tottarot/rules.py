"""Tottarot (トッタロット): the rules of docs/rules/tottarot.md bound to the game (`Tottarot`)
and its state as the rules play it (`TottarotPlay`), the classes of `state.py`.

The sections of the spec are the modules beside this one: `options` (§2), `setup` (§3), `play` (§4
and the icons of §5), `scoring` (§6); `information` (§7) says what each seat sees. `state` holds what
the rules read and write: the game's parameters, the state's fields and its decisions (phases).
"""

from __future__ import annotations

import re
from typing import ClassVar

from bodoge.errors import BadOption, IllegalAction
from bodoge.games.tottarot import play, scoring, setup
from bodoge.games.tottarot.cards import EXPOSE, INVERT, SHARE, CardType
from bodoge.games.tottarot.options import OPTION_SPECS
from bodoge.games.tottarot.state import PH_BID, PH_STEAL, PHASES, TottarotGame, TottarotState


class TottarotPlay(TottarotState):
    """A game of Tottarot as its rules play it."""

    def setup(self) -> None:
        stacked: dict[int, list[int]] = {}
        if self.deck is not None:
            stacked[1] = setup.stacked_order(self.game, self.deck, self.rng)
        setup.begin(self, stacked)
        play.start_turn(self)

    _legal_actions = play.legal_actions
    _apply = play.apply
    winners = scoring.winners

    def action_text(self, action: int) -> str:
        return self.game.action_texts[action]

    _ALIAS = re.compile(r"(steal|share|peek|bid)\s*p?\s*(\d+)")

    def parse_action(self, text: str) -> int:
        """Besides the texts themselves: `steal 3` = `steal P3` (also share/peek), `p3` at a STEAL,
        SHARE or PEEK decision, and `none`/`pass`/`keep` for `steal none`."""
        try:
            return super().parse_action(text)
        except IllegalAction as exc:
            if not isinstance(text, str) or self.current_player is None:
                raise
            wanted = " ".join(text.split()).lower()
            alias = None
            m = self._ALIAS.fullmatch(wanted)
            if m:
                verb, num = m.groups()
                alias = f"bid {int(num)}" if verb == "bid" else f"{verb} p{int(num)}"
            elif wanted in ("none", "pass", "keep", "no steal", "take nothing") and self.phase == PH_STEAL:
                alias = "steal none"
            elif re.fullmatch(r"p\s*\d+", wanted) and self.phase != PH_BID:
                alias = f"{PHASES[self.phase]} p{int(wanted[1:])}"
            if alias is None or alias == wanted:
                raise
            try:
                return super().parse_action(alias)
            except IllegalAction:
                raise exc from None


class Tottarot(TottarotGame):
    name = "tottarot"
    title: ClassVar[dict[str, str]] = {"en": "Tottarot", "ja": "トッタロット"}
    rules_version = 1
    min_players = 2
    max_players = 6
    default_players = 4
    option_specs = OPTION_SPECS
    state_class = TottarotPlay

    def prepare(self) -> None:
        """TT-2.1, TT-D25, TT-D26: a round's draws must fit the deck and the will tokens must cover
        its turns; the cards' points and icons as tables of ints; the action ids."""
        n = self.num_players
        types: tuple[CardType, ...] = self.options["deck"]
        self.types = types
        self.codes = tuple(t.code for t in types)
        self.names_ja = {t.code: t.name_ja for t in types}
        self.code_index = {c: i for i, c in enumerate(self.codes)}
        self.points = tuple(t.points for t in types)
        self.icons = tuple(t.icon_id for t in types)
        self.icon_codes = tuple(t.icon for t in types)
        self.copies = tuple(t.copies for t in types)
        self.full_deck = [i for i, t in enumerate(types) for _ in range(t.copies)]
        self.deck_size = len(self.full_deck)
        self.drawn_per_round = self.num_players * self.options["turns_per_round"]
        self.n = n
        self.max_will = w = self.options["max_will"]
        self.turns = turns = self.options["turns_per_round"]
        self.target = self.options["target"]
        if w + 1 < turns:  # TT-D26
            raise BadOption(
                "max_will",
                w,
                f"an integer from {max(1, turns - 1)} to 9 when turns_per_round is {turns}",
                f"out of range: at least {turns - 1} ({w + 1} will tokens, 0 … {w}, cannot cover {turns} turns)",
            )
        if n * turns > self.deck_size:  # TT-2.1, TT-D25
            raise BadOption(
                "turns_per_round",
                turns,
                f"an integer from 1 to {self.deck_size // n} for {n} players and a deck of "
                f"{self.deck_size} cards (players × turns_per_round ≤ deck size)",
                f"out of range: at most {self.deck_size // n} ({n} × {turns} = {n * turns} cards would be "
                f"drawn from a deck of {self.deck_size})",
            )
        self.public_bit = 1 << n
        # Indexed by a type, or by −1 (no card): the last entry is False.
        self.next_icon = (*tuple(SHARE <= i <= EXPOSE for i in self.icons), False)
        self.is_invert = tuple(i == INVERT for i in self.icons)
        # Effective points of a row entry `type << 1 | inverted` (TT-1.5, TT-6.1).
        self.effective = tuple(p for t in self.points for p in (t, -t))
        self.all_mask = (1 << (n + 1)) - 1
        self.orders = [tuple((s + j) % n for j in range(n)) for s in range(n)]
        self.bid_lists = [[v for v in range(w + 1) if not m >> v & 1] for m in range(1 << (w + 1))]
        self.unused_sum = [sum(b) for b in self.bid_lists]
        self.steal0 = w + 1
        self.share0 = self.steal0 + n + 1
        self.peek0 = self.share0 + n
        self.num_actions = self.peek0 + n
        self.share_lists = [[self.share0 + s for s in range(n) if s != h] for h in range(n)]
        self.peek_lists = [[self.peek0 + s for s in range(n) if s != h] for h in range(n)]
        texts = [f"bid {v}" for v in range(w + 1)]
        texts += [f"steal P{s}" for s in range(n)] + ["steal none"]
        texts += [f"share P{s}" for s in range(n)] + [f"peek P{s}" for s in range(n)]
        self.action_texts = tuple(texts)
        self.num_chance_outcomes = len(types)  # with explicit chance: a draw's outcome is its card type

    def max_chance_events(self) -> int:
        """Every card drawn: at most n × (target − 1) + 1 rounds of n × turns_per_round draws."""
        return (self.n * (self.target - 1) + 1) * self.drawn_per_round

    def max_game_length(self) -> int:
        """TT-6.3: every round gives a token, so at most n × (target − 1) + 1 rounds; a turn has at
        most n icon decisions, n bids and n steals."""
        n = self.n
        rounds = n * (self.target - 1) + 1
        return rounds * self.turns * 3 * n
