"""What a game of Hangover (draft 2) holds: the game's parameters (`HangoverGame`) and the state
(`HangoverState`), with its phases and the players' statuses (spec docs/rules/hangover.md).

Drink cards are indices into `cards.DRINK_CODES`; a snack card is the index of its code in
`HangoverGame.snack_codes`. The rules are the modules that import this one (`setup`, `play`,
`scoring`); `rules.py` binds them to these classes.
"""

from __future__ import annotations

from collections import Counter

from bodoge.core import Game, State

# phases
ARRANGE, DECLARING, TRICK, FLIPPING, OVER = range(5)
PHASE_NAMES = ("arrange", "declare", "trick", "flip", "over")

# player statuses (spec §4): the first two are active
DRINKER, NON_DRINKER, OUT_NON_DRINKER, HUNG_OVER = range(4)
STATUS_NAMES = ("drinker", "non_drinker", "out_non_drinker", "hung_over")


class HangoverGame(Game):
    """The parameters that `Hangover.prepare` (rules.py) makes of the options and the player count:
    the drunk limit of this player count, the snack codes and their values, and every arrangement
    into columns (HO-4.1)."""

    limit: int  # the drunk limit (HO-3.5)
    vp_under: int
    vp_just: int
    vp_over: int
    hangover_trick: int
    num_columns: int  # hangover_trick − 1
    hand_size: int
    snacks_per_player: int
    non_drinker: bool
    end_when_one_active: bool
    declaration: str  # options.IN_ORDER, SECRET or ANY_TRICK (HO-4.2, HO-D29)
    non_drinker_vp: int  # HO-4.4.5, HO-D30
    non_drinker_tricks: int  # tricks a non-drinker may win and stay active (HO-5.3.2, HO-D31)
    out_non_drinker_gains: bool  # HO-D6, HO-D32
    drink_cards: list[int]  # the drink cards in play, sorted
    # distinct snack codes in first-appearance order; a snack card is its index here
    snack_codes: list[str]
    snack_index: dict[str, int]
    snack_texts: list[tuple[str, str]]
    snack_value: list[tuple[int, int]]
    snack_deck: list[int]
    arrangements: list[tuple[int, ...]]  # positions of a sorted snack hand, in column order
    arrange0: int  # the first arrangement's action id


class HangoverState(State):
    game: HangoverGame
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
    declared: list[int]  # -1 not answered yet, 0 passed (so far), 1 declared (HO-4.2)

    leader: int
    phase: int
    judge_sum: int  # S of the trick being judged
    judge_flips: int  # f
    judge_added: int  # A

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
        assert all(t >= 0 for t in self.tricks)
        for s, t in zip(self.status, self.tricks, strict=True):
            if s == DRINKER:
                assert t < g.hangover_trick, "a drinker past the hangover trick"
            elif s == HUNG_OVER:
                assert t <= g.hangover_trick
            elif s == NON_DRINKER:  # HO-5.3.2, HO-D31: within the tricks a non-drinker may win
                assert t <= g.non_drinker_tricks, "an active non-drinker past the tricks allowed"
            else:
                assert t <= g.non_drinker_tricks + 1
        for s, d in zip(self.status, self.declared, strict=True):
            if s in (NON_DRINKER, OUT_NON_DRINKER):
                assert d == 1, "a non-drinker who never declared"
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
