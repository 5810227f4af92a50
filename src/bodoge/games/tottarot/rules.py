"""Tottarot (トッタロット): the rules of shared/rules/tottarot.md as a Game and a State.

Cards are *type indices* (0 … K−1 in the order of the `deck` option); copies of a type cannot be told
apart (TT-1.4). Places (TT-1.5): `pile` (the draw deck, top card last so `pop()` draws it),
`declared[p]` (−1: none), `discard`, and `rows[p]` whose entries are `type << 1 | inverted`.

Knowledge of a declared card (TT-7) is a bit mask per holder, `knows[p]`: bit q for seat q, and bit n
for "everyone" (EXPOSE), which is what a spectator sees. The mask travels with the card when it is
stolen (TT-D11). Who knows what is itself public (draws, SHARE/PEEK targets, EXPOSE and steals are all
seen by everyone); only the faces are private.

Action ids: `bid v` = v (0 … max_will); `steal P<s>` = steal0 + s; `steal none` = steal0 + n;
`share P<s>` = share0 + s; `peek P<s>` = peek0 + s.
"""

from __future__ import annotations

import random
import re
from typing import Any, ClassVar

from bodoge.core.game import Game, State
from bodoge.errors import BadOption, IllegalAction
from bodoge.games.tottarot import play, scoring, setup
from bodoge.games.tottarot.cards import EXPOSE, INVERT, SHARE, CardType
from bodoge.games.tottarot.options import OPTION_SPECS
from bodoge.games.tottarot.play import PH_BID, PH_OVER, PH_STEAL, PHASES


class TottarotState(State):
    game: Tottarot
    _stacked: dict[int, list[int]]  # full deck orders (top first) of stacked rounds
    round: int
    turn: int
    start: int  # this round's start player
    tokens: list[int]  # victory tokens
    pile: list[int]  # the deck, top card last
    declared: list[int]  # each seat's declared card (−1: none)
    knows: list[int]  # per declared card: who knows it (bit q: seat q, bit n: everyone)
    discard: list[int]
    rows: list[list[int]]  # entries `type << 1 | inverted`
    used: list[int]  # bit v: will token v revealed as used this round
    bids: list[int]  # this turn's bids (−1: not yet)
    nbid: int
    actors: list[int]  # the highest bidders in priority order (TT-4.5)
    qi: int  # the next actor
    icon_queue: list[int]
    iq: int  # the next icon holder
    last_dec: list[int]  # card decided in the previous turn (−1: none)
    phase: int

    def setup(self) -> None:
        stacked: dict[int, list[int]] = {}
        if self.deck is not None:
            stacked[1] = self.game.stacked_order(self.deck, self.rng)
        setup.begin(self, stacked)
        play.start_turn(self)

    _legal_actions = play.legal_actions
    _apply = play.apply
    row_total = scoring.row_total
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

    def scores(self) -> list[int]:
        return list(self.tokens)

    def check_invariants(self) -> None:
        g = self.game
        n = g.n
        counts = [0] * len(g.codes)
        for c in self.pile:
            counts[c] += 1
        for c in self.declared:
            if c >= 0:
                counts[c] += 1
        for c in self.discard:
            counts[c] += 1
        for row in self.rows:
            for x in row:
                counts[x >> 1] += 1
        assert counts == list(g.copies), f"cards not conserved: {counts} != {list(g.copies)}"
        assert len(self.pile) == g.deck_size - n * self.turn, "wrong number of cards drawn"
        for p in range(n):
            if self.declared[p] >= 0:
                assert self.knows[p] >> p & 1, f"P{p} does not know its own declared card"
            else:
                assert self.knows[p] == 0
        for p in range(n):
            k = bin(self.used[p]).count("1")
            assert k == self.turn - (0 if self.nbid == n else 1), f"P{p} used {k} tokens in turn {self.turn}"
        total = self.turn * n
        held = sum(1 for c in self.declared if c >= 0)
        assert len(self.discard) + sum(len(r) for r in self.rows) + held <= total
        if self.current_player is None:
            assert self.phase == PH_OVER and max(self.tokens) >= g.target
        else:
            assert max(self.tokens) < g.target

    def _copy_mutables(self, other: State) -> None:
        assert isinstance(other, TottarotState)
        other.tokens = self.tokens.copy()
        other.pile = self.pile.copy()
        other.declared = self.declared.copy()
        other.knows = self.knows.copy()
        other.discard = self.discard.copy()
        other.rows = [row.copy() for row in self.rows]
        other.used = self.used.copy()
        other.bids = self.bids.copy()
        other.actors = self.actors.copy()
        other.icon_queue = self.icon_queue.copy()
        other.last_dec = self.last_dec.copy()


class Tottarot(Game):
    name = "tottarot"
    title: ClassVar[dict[str, str]] = {"en": "Tottarot", "ja": "トッタロット"}
    rules_version = 1
    min_players = 2
    max_players = 6
    default_players = 4
    option_specs = OPTION_SPECS
    state_class = TottarotState

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

    def max_game_length(self) -> int:
        """TT-6.3: every round gives a token, so at most n × (target − 1) + 1 rounds; a turn has at
        most n icon decisions, n bids and n steals."""
        n = self.n
        rounds = n * (self.target - 1) + 1
        return rounds * self.turns * 3 * n

    def stacked_order(self, deck: Any, rng: random.Random) -> list[int]:
        """The first round's deck from `new_state(deck=[codes, top first])`: a prefix of the deck (the
        rest shuffled below it), each code at most its number of copies."""
        allowed = (
            f"a list of at most {self.deck_size} card codes ({', '.join(self.codes)}), top first, "
            "each code at most its number of copies"
        )
        if not isinstance(deck, list | tuple):
            raise BadOption("deck", deck, allowed, "a stacked deck is a list of card codes")
        if len(deck) > self.deck_size:
            raise BadOption("deck", deck, allowed, f"{len(deck)} cards, but the deck has {self.deck_size}")
        left = list(self.copies)
        top = []
        for code in deck:
            i = self.code_index.get(code) if isinstance(code, str) else None
            if i is None:
                raise BadOption("deck", deck, allowed, f"unknown card code {code!r}")
            left[i] -= 1
            if left[i] < 0:
                raise BadOption("deck", deck, allowed, f"more than {self.copies[i]} × {code}")
            top.append(i)
        rest = [i for i, k in enumerate(left) for _ in range(k)]
        rng.shuffle(rest)
        return top + rest
