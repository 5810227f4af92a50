"""What a game of Tottarot holds: the game's parameters (`TottarotGame`) and the state
(`TottarotState`), with the decisions (phases) a state can be at (spec docs/rules/tottarot.md).

Cards are *type indices* (0 … K−1 in the order of the `deck` option); copies of a type cannot be told
apart (TT-1.4). Places (TT-1.5): `pile` (the draw deck, top card last so `pop()` draws it),
`declared[p]` (−1: none), `discard`, and `rows[p]` whose entries are `type << 1 | inverted`.

Knowledge of a declared card (TT-7) is a bit mask per holder, `knows[p]`: bit q for seat q, and bit n
for "everyone" (EXPOSE), which is what a spectator sees. The mask travels with the card when it is
stolen (TT-D11). Who knows what is itself public (draws, SHARE/PEEK targets, EXPOSE and steals are all
seen by everyone); only the faces are private.

The rules are the modules that import this one (`setup`, `play`, `scoring`); `rules.py` binds them
to these classes.
"""

from __future__ import annotations

from bodoge.core.game import Game, State
from bodoge.games.tottarot.cards import CardType

# Phases: what `current_player` decides.
PH_SHARE = 0
PH_PEEK = 1
PH_BID = 2
PH_STEAL = 3
PH_OVER = 4
PHASES = ("share", "peek", "bid", "steal", "over")


class TottarotGame(Game):
    """The parameters that `Tottarot.prepare` (rules.py) makes of the options and the player count:
    the cards' points and icons as tables of ints, and the action ids.

    Action ids: `bid v` = v (0 … max_will); `steal P<s>` = steal0 + s; `steal none` = steal0 + n;
    `share P<s>` = share0 + s; `peek P<s>` = peek0 + s."""

    types: tuple[CardType, ...]
    codes: tuple[str, ...]
    names_ja: dict[str, str]
    code_index: dict[str, int]
    points: tuple[int, ...]
    icons: tuple[int, ...]
    icon_codes: tuple[str | None, ...]
    copies: tuple[int, ...]
    full_deck: list[int]
    deck_size: int
    drawn_per_round: int
    n: int  # players
    max_will: int
    turns: int  # turns per round
    target: int  # victory tokens that end the game
    public_bit: int  # the bit of "everyone" in a `knows` mask
    next_icon: tuple[bool, ...]  # indexed by a type, or by −1 (no card): the last entry is False
    is_invert: tuple[bool, ...]
    effective: tuple[int, ...]  # effective points of a row entry `type << 1 | inverted` (TT-1.5, TT-6.1)
    all_mask: int
    orders: list[tuple[int, ...]]  # orders[s]: the seats from s round
    bid_lists: list[list[int]]  # by the mask of used will tokens: the bids left
    unused_sum: list[int]
    steal0: int
    share0: int
    peek0: int
    share_lists: list[list[int]]
    peek_lists: list[list[int]]
    action_texts: tuple[str, ...]


class TottarotState(State):
    game: TottarotGame
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
