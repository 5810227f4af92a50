"""Hangover (draft 2): the rules of /work/shared/rules/hangover.md as a Game and a State.

Action ids (fixed for a game and its options; see `Hangover.prepare`):

- `PLAY + c` (0…55): `play <card>`, a drink card played face up (lead or follow);
- `DISCARD + c` (56…111): `discard <card>`, an eliminated player's face-down card (HO-4.3.2);
- `DECLARE`, `PASS` (112, 113): the non-drinker declaration (HO-4.2);
- `STOP` (114): stop flipping snacks (HO-4.5);
- `FLIP + 2·d + v`: flip a snack card of code `snack_codes[d]`, choosing its value `v` (0 or 1);
- `arrange0 + i`: the i-th arrangement of one's snack cards into columns (HO-4.1), as positions in the
  sorted snack hand (`Hangover.arrangements`).
"""

from __future__ import annotations

import itertools
import math
import random
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from bodoge.core import Game, State
from bodoge.core import options as opts
from bodoge.errors import BadOption, IllegalAction
from bodoge.games.hangover import text
from bodoge.games.hangover.cards import (
    DEFAULT_SNACK_DECK,
    DRINK_CODES,
    DRINK_INDEX,
    KEY,
    NUM_DRINK,
    NUMBER,
    NUMBERS,
    SUIT,
    drink_deck,
    normalize_snack,
    snack_values,
)

PLAY = 0
DISCARD = 56
DECLARE = 112
PASS = 113
STOP = 114
FLIP = 115

# phases
ARRANGE, DECLARING, TRICK, FLIPPING, OVER = range(5)
PHASE_NAMES = ("arrange", "declare", "trick", "flip", "over")

# player statuses (spec §4): the first two are active
DRINKER, NON_DRINKER, OUT_NON_DRINKER, HUNG_OVER = range(4)
STATUS_NAMES = ("drinker", "non_drinker", "out_non_drinker", "hung_over")

# trick outcomes (HO-4.4.6)
JUDGED, HANGOVER, OUT = range(3)
OUTCOME_NAMES = ("judged", "hangover", "out")

# events: small tuples, turned into dicts only by `_event_view`
EV_ARRANGE = "arrange"  # (seat, action id, the ordering as snack indices)
EV_DECLARE = "declare"  # (seat, declared: bool)
EV_PLAY = "play"  # (seat, card)
EV_DISCARD = "discard"  # (seat, card) — the card is seen by its owner only
EV_TRICK = "trick"  # (winner, S, outcome, k, bonus seats)
EV_FLIP = "flip"  # (seat, snack index d, value index v)
EV_STOP = "stop"  # (seat,)
EV_JUDGE = "judge"  # (seat, k, S', base, f, VP gained, slid: bool)
EV_END = "end"  # ()

SUPPORTED_COUNTS = (3, 4, 5)
#: 6!: one decision never offers more arrangements than this (each is a legal action with its text
#: in the view: about 50 kB at most, and a few milliseconds to enumerate)
MAX_ARRANGEMENTS = 720

# Bounds of the options (issue #15), beside each rule's own.
MAX_HAND = NUM_DRINK // SUPPORTED_COUNTS[0]  # 18: HO-3.5 deals hand_size × n ≤ 56 cards
#: A player takes at most MAX_HAND tricks, so a larger hangover_trick means the same as this one:
#: no Hangover ever (HO-4.4.6). It also keeps the snack columns (hangover_trick − 1) few.
MAX_HANGOVER_TRICK = MAX_HAND + 1
MAX_SNACK_DECK = 60  # three times draft 2's 20 cards
MAX_SNACKS = MAX_SNACK_DECK // SUPPORTED_COUNTS[0]  # 20: HO-3.6 deals snacks_per_player × n cards
#: A trick's adjusted sum is at most 5 × 7 + 20 × 9 = 215 (HO-4.6.1): a higher limit means the same.
MAX_DRUNK_LIMIT = 1000
#: Base VP (HO-4.6.1). A trick gains at most base × (1 + 20) (HO-4.6.2) and a player wins at most 18
#: tricks, so VP totals stay below 4 × 10**8.
MAX_VP = 10**6

# (snacks per player, columns, first arrangement id, sorted snack hand as indices) -> the legal
# arrangement ids and their columns; shared by every game with the same numbers, as it depends on
# nothing else
_ARRANGE_CACHE: dict[tuple[int, int, int, tuple[int, ...]], tuple[list[int], dict[Any, Any]]] = {}


# -- pure functions (the issue asks for these by name) -------------------------------------------


def trick_winner(cards: list[str | None] | tuple[str | None, ...]) -> int:
    """The index of the winning card of a trick (HO-4.4.1, HO-4.4.2).

    `cards` are codes in play order, the lead first; `None` is a face-down card. Only face-up cards of
    the lead suit (the lead included) take part; the highest rank key (2 × number, +1 for △) wins.
    """
    if not cards or cards[0] is None:
        raise ValueError("a trick starts with a face-up lead card")
    try:
        idx = [None if c is None else DRINK_INDEX[c] for c in cards]
    except KeyError as exc:
        raise ValueError(f"not a drink card code: {exc.args[0]!r}") from None
    lead = idx[0]
    assert lead is not None
    suit = SUIT[lead]
    best, best_key = 0, KEY[lead]
    for i, c in enumerate(idx):
        if c is not None and SUIT[c] == suit and KEY[c] > best_key:
            best, best_key = i, KEY[c]
    return best


def drunk_vp(total: int, limit: int, under: int = 1, just: int = 3, over: int = 0) -> int:
    """The base VP of a judged trick (HO-4.6.1): `under` below the limit, `just` at it, `over` above."""
    if total < limit:
        return under
    if total == limit:
        return just
    return over


def shuffle(rng: random.Random, cards: list[int]) -> None:
    """The engine's seeded shuffle (HO-3.3), in place: sort by one `rng.random()` key per card.

    Uniform like Fisher–Yates, and several times cheaper than `random.shuffle`, which draws bits in
    Python for every card."""
    rand = rng.random
    keys = [rand() for _ in cards]
    order = sorted(range(len(cards)), key=keys.__getitem__)  # float keys: the fast sort path
    cards[:] = [cards[i] for i in order]


# -- options ---------------------------------------------------------------------------------------


def _maybe_json(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return opts.load_json(value)
        except ValueError as exc:
            raise ValueError(f"expected a JSON value ({exc})") from None
    return value


def _count_map(value: Any, convert_one: Any) -> dict[int, Any]:
    """A per-player-count option: a map from each count to a value, or one value for every count
    (`--set drunk_limit=11,12,13` compares three limits at whatever count is played)."""
    value = _maybe_json(value)
    if not isinstance(value, Mapping):
        try:
            one = convert_one(value)
        except ValueError as exc:
            raise ValueError(f"expected a map from player count to value, or one value: {exc}") from None
        return dict.fromkeys(SUPPORTED_COUNTS, one)
    out: dict[int, Any] = {}
    for key, item in value.items():
        n = opts.as_int(key)
        if n not in SUPPORTED_COUNTS:
            raise ValueError(f"{key!r} is not a player count of Hangover (3, 4, 5)")
        if n in out:
            raise ValueError(f"player count {n} is given twice")
        out[n] = convert_one(item)
    missing = [n for n in SUPPORTED_COUNTS if n not in out]
    if missing:
        raise ValueError(f"no value for player count {', '.join(map(str, missing))}")
    return dict(sorted(out.items()))


def _limit(item: Any) -> int:
    return opts.bounded(opts.as_int(item), 1, MAX_DRUNK_LIMIT, "a drunk limit")


def _numbers(item: Any) -> tuple[int, ...]:
    if not isinstance(item, list | tuple):
        raise ValueError(f"expected a list of numbers 1–7, not {item!r}")
    if len(item) > len(NUMBERS):
        raise ValueError(f"{len(item)} numbers; at most {len(NUMBERS)}, each once")
    nums = [opts.as_int(x) for x in item]
    for x in nums:
        if not 1 <= x <= 7:
            raise ValueError(f"{x} is not a drink card number (1–7)")
    if len(set(nums)) != len(nums):
        raise ValueError("a number is listed twice")
    return tuple(sorted(nums))


def _convert_drunk_limit(value: Any) -> dict[int, int]:
    return _count_map(value, _limit)


def _convert_removed(value: Any) -> dict[int, tuple[int, ...]]:
    return _count_map(value, _numbers)


def _convert_snack_deck(value: Any) -> tuple[str, ...]:
    value = _maybe_json(value)
    if not isinstance(value, list | tuple):
        raise ValueError("expected a list of snack codes")
    if len(value) > MAX_SNACK_DECK:
        raise ValueError(f"{len(value)} snack cards; at most {MAX_SNACK_DECK}")
    return tuple(normalize_snack(code) for code in value)


def _map_json(value: dict[int, Any]) -> dict[str, Any]:
    return {str(k): list(v) if isinstance(v, tuple) else v for k, v in value.items()}


OPTION_SPECS = (
    opts.Option(
        "drunk_limit",
        {3: 7, 4: 12, 5: 16},
        f"a map from each player count 3, 4, 5 to an integer from 1 to {MAX_DRUNK_LIMIT}, or one such "
        "integer for every count",
        "the drunk limit L per player count (HO-4.6)",
        _convert_drunk_limit,
        _map_json,
    ),
    opts.integer(
        "vp_under", 1, "base VP when the adjusted sum is under the drunk limit (HO-4.6)", -MAX_VP, MAX_VP
    ),
    opts.integer(
        "vp_just", 3, "base VP when the adjusted sum equals the drunk limit (HO-4.6)", -MAX_VP, MAX_VP
    ),
    opts.integer(
        "vp_over", 0, "base VP when the adjusted sum is over the drunk limit (HO-4.6)", -MAX_VP, MAX_VP
    ),
    opts.integer(
        "hangover_trick",
        5,
        "the own-trick count that causes Hangover; snack columns = this − 1",
        2,
        MAX_HANGOVER_TRICK,
    ),
    opts.integer("hand_size", 11, "drink cards dealt to each player (HO-3.5)", 1, MAX_HAND),
    opts.integer("snacks_per_player", 4, "snack cards dealt to each player (HO-3.6)", 0, MAX_SNACKS),
    opts.Option(
        "removed_numbers",
        {3: (6, 7), 4: (7,), 5: ()},
        "a map from each player count 3, 4, 5 to a list of distinct numbers 1–7, or one list for every count",
        "drink card numbers removed per player count (HO-3.1)",
        _convert_removed,
        _map_json,
    ),
    opts.Option(
        "snack_deck",
        DEFAULT_SNACK_DECK,
        f"a list of 0 to {MAX_SNACK_DECK} snack codes of the form ±a/±b (values −9…+9), e.g. "
        "['+1/+2', '-4/+4']",
        "the snack cards in canonical order (HO-3.2)",
        _convert_snack_deck,
        list,
    ),
    opts.boolean("non_drinker", True, "whether players may declare non-drinker (HO-4.2)"),
    opts.boolean(
        "end_when_one_active", False, "end the game as soon as at most one player is active (HO-4.8)"
    ),
)


def _enumerate_arrangements(m: int, columns: int) -> list[tuple[int, ...]]:
    """Every distinct way to put the m positions of a snack hand into the columns (HO-4.1, HO-D22).

    Card i of an ordering goes to column i mod C, so only which positions share a column matters; each
    outcome is given by its canonical ordering (positions ascending within a column).
    """
    sizes = [len(range(j, m, columns)) for j in range(columns)]
    out: list[tuple[int, ...]] = []

    def rec(j: int, remaining: tuple[int, ...], chosen: list[tuple[int, ...]]) -> None:
        if j == columns or not remaining:
            perm = [chosen[i % columns][i // columns] for i in range(m)]
            out.append(tuple(perm))
            return
        for comb in itertools.combinations(remaining, sizes[j]):
            rest = tuple(x for x in remaining if x not in comb)
            rec(j + 1, rest, [*chosen, comb])

    rec(0, tuple(range(m)), [])
    return out


class Hangover(Game):
    name = "hangover"
    title: ClassVar[dict[str, str]] = {"en": "Hangover (draft 2)", "ja": "ハングオーバー(草案2)"}
    rules_version = 1
    min_players = 3
    max_players = 5
    default_players = 4
    option_specs = OPTION_SPECS

    def prepare(self) -> None:
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

    # -- determinization --------------------------------------------------------------------------

    def sample_state(self, view: Mapping[str, Any], rng: random.Random) -> State:
        from bodoge.games.hangover.sampling import sample_state

        return sample_state(self, view, rng)

    def sampler(self, view: Mapping[str, Any]) -> Callable[[random.Random], State]:
        from bodoge.games.hangover.sampling import Reading

        return Reading(self, view).sample


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

    # -- setup (HO-3) -----------------------------------------------------------------------------

    def setup(self) -> None:
        g = self.game
        if self.deck is None:
            drink = list(g.drink_cards)
            shuffle(self.rng, drink)  # HO-3.3: drink deck first, then the snack deck
            snack = list(g.snack_deck)
            shuffle(self.rng, snack)
        else:
            drink, snack = self._stacked(self.deck)
        n = g.num_players
        hands = [drink[p : n * g.hand_size : n] for p in range(n)]
        snack_hands = [snack[p : n * g.snacks_per_player : n] for p in range(n)]
        self.start(hands, drink[n * g.hand_size :], snack_hands, snack[n * g.snacks_per_player :])

    def _stacked(self, deck: Any) -> tuple[list[int], list[int]]:
        g = self.game
        allowed = (
            'a JSON object {"drink": [...], "snack": [...]}: the drink deck in play and the snack deck, '
            "each a reordering of the game's cards, top first (HO-3.3)"
        )
        if not isinstance(deck, Mapping) or set(deck) != {"drink", "snack"}:
            raise BadOption("deck", deck, allowed, 'expected exactly the keys "drink" and "snack"')
        raw_drink, raw_snack = deck["drink"], deck["snack"]
        if not isinstance(raw_drink, list) or not isinstance(raw_snack, list):
            raise BadOption("deck", deck, allowed, "each part must be a list of codes")
        drink: list[int] = []
        for code in raw_drink:
            if not isinstance(code, str) or code.strip() not in DRINK_INDEX:
                raise BadOption("deck", deck, allowed, f"{code!r} is not a drink card code like 'R5^'")
            drink.append(DRINK_INDEX[code.strip()])
        if sorted(drink) != g.drink_cards:
            extra = Counter(drink) - Counter(g.drink_cards)
            lack = Counter(g.drink_cards) - Counter(drink)
            why = "the drink list must hold each card in play exactly once"
            if extra:
                why += "; not in play or repeated: " + " ".join(DRINK_CODES[c] for c in sorted(extra))
            if lack:
                why += "; missing: " + " ".join(DRINK_CODES[c] for c in sorted(lack))
            raise BadOption("deck", deck, allowed, why)
        snack: list[int] = []
        for code in raw_snack:
            try:
                norm = normalize_snack(code)
            except ValueError as exc:
                raise BadOption("deck", deck, allowed, str(exc)) from None
            if norm not in g.snack_index:
                raise BadOption("deck", deck, allowed, f"{norm} is not in the snack_deck option")
            snack.append(g.snack_index[norm])
        if Counter(snack) != Counter(g.snack_deck):
            raise BadOption(
                "deck", deck, allowed, "the snack list must hold exactly the cards of the snack_deck option"
            )
        return drink, snack

    def start(
        self,
        hands: list[list[int]],
        aside: list[int],
        snack_hands: list[list[int]],
        snack_aside: list[int],
    ) -> None:
        """Put the dealt cards in place (HO-3.5–3.7) and open the first decision (HO-3.8)."""
        g = self.game
        n = self.num_players = g.num_players
        self.hands = [sorted(h) for h in hands]
        self.discards = [[] for _ in range(n)]
        self.aside = list(aside)
        self.trick = []
        self.past = []
        self.snack_hands = [sorted(h) for h in snack_hands]
        self.columns = [[[] for _ in range(g.num_columns)] for _ in range(n)]
        self.flipped = [[] for _ in range(n)]
        self.snack_aside = list(snack_aside)
        self.status = [DRINKER] * n
        self.tricks = [0] * n
        self.vp = [0] * n
        self.declared = [-1] * n
        self.leader = 0
        self.judge_sum = 0  # S of the trick being judged
        self.judge_flips = 0  # f
        self.judge_added = 0  # A
        self.current_player = 0
        if g.snacks_per_player:
            self.phase = ARRANGE
        elif g.non_drinker:
            self.phase = DECLARING
        else:
            self.phase = TRICK

    # -- decisions --------------------------------------------------------------------------------

    def _legal_actions(self) -> list[int]:
        p: int = self.current_player  # type: ignore[assignment]
        if self.phase == TRICK:
            hand = self.hands[p]
            if self.status[p] >= OUT_NON_DRINKER:  # HO-4.3.2: eliminated players discard any card
                return [c + DISCARD for c in hand]
            trick = self.trick
            if trick:  # HO-4.3.2: an active player must follow the lead suit if able
                lo = SUIT[trick[0]] * 14
                i = bisect_left(hand, lo)
                j = bisect_left(hand, lo + 14, i)
                if i < j:
                    return hand[i:j]
            return hand[:]
        phase = self.phase
        if phase == FLIPPING:  # HO-4.5
            g = self.game
            texts = g.snack_texts
            out = [STOP]
            last = -1
            for d in self.columns[p][self.tricks[p] - 1]:
                if d != last:
                    last = d
                    out.append(FLIP + 2 * d)
                    if texts[d][1] != texts[d][0]:
                        out.append(FLIP + 2 * d + 1)
            return out
        if phase == DECLARING:
            return [DECLARE, PASS]
        return list(self.game.arrangement_ids(tuple(self.snack_hands[p])))

    def _apply(self, a: int) -> None:
        p: int = self.current_player  # type: ignore[assignment]
        if a < DECLARE:  # a card to the trick
            trick = self.trick
            if a < DISCARD:
                self.hands[p].remove(a)
                trick.append(a)
                self.events.append((EV_PLAY, p, a))
            else:
                c = a - DISCARD
                self.hands[p].remove(c)
                self.discards[p].append(c)
                trick.append(-1)
                self.events.append((EV_DISCARD, p, c))
            n = self.num_players
            if len(trick) == n:
                self._resolve()
            else:
                self.current_player = p + 1 if p + 1 < n else 0
            return
        if a >= FLIP:
            g = self.game
            if a >= g.arrange0:
                self._arrange(p, a)
                return
            d, v = divmod(a - FLIP, 2)
            k = self.tricks[p]
            col = self.columns[p][k - 1]
            col.remove(d)
            self.flipped[p].append((k, d, v))
            self.judge_flips += 1
            self.judge_added += g.snack_value[d][v]
            self.events.append((EV_FLIP, p, d, v))
            if not col:  # HO-4.5: the column is empty, so flipping ends
                self._judge(p)
            return
        if a == STOP:
            self.events.append((EV_STOP, p))
            self._judge(p)
            return
        # HO-4.2: the non-drinker declaration
        declared = a == DECLARE
        self.declared[p] = 1 if declared else 0
        if declared:
            self.status[p] = NON_DRINKER
        self.events.append((EV_DECLARE, p, declared))
        if p + 1 < self.game.num_players:
            self.current_player = p + 1
        else:
            self.phase = TRICK
            self.leader = 0
            self.current_player = 0

    def _arrange(self, p: int, a: int) -> None:
        g = self.game
        hand = self.snack_hands[p]
        index = a - g.arrange0
        self.columns[p] = [list(col) for col in g._arrange_table(tuple(hand))[1][a]]
        self.events.append((EV_ARRANGE, p, a, tuple([hand[pos] for pos in g.arrangements[index]])))
        self.snack_hands[p] = []
        if p + 1 < g.num_players:
            self.current_player = p + 1
        elif g.non_drinker:
            self.phase = DECLARING
            self.current_player = 0
        else:
            self.phase = TRICK
            self.leader = 0
            self.current_player = 0

    def _resolve(self) -> None:
        """HO-4.4: the winner, the trick sum, the non-drinker bonus and the winner's outcome."""
        g = self.game
        n = g.num_players
        trick = self.trick
        lead = trick[0]
        lo = SUIT[lead] * 14
        best, best_key, total = 0, KEY[lead], NUMBER[lead]
        for i in range(1, n):
            c = trick[i]
            if lo <= c < lo + 14:  # a face-up card of the lead suit (face-down cards are -1)
                total += NUMBER[c]
                if KEY[c] > best_key:
                    best, best_key = i, KEY[c]
        w = (self.leader + best) % n
        self.past.append((self.leader, tuple(trick), w))
        self.trick = []
        self.tricks[w] += 1
        k = self.tricks[w]
        status = self.status
        bonus = []
        for q in range(n):  # HO-4.4.5, HO-D5, HO-D6
            if q != w and status[q] == NON_DRINKER:
                self.vp[q] += 1
                bonus.append(q)
        if status[w] == NON_DRINKER:
            status[w] = OUT_NON_DRINKER  # HO-5.3.2
            self.events.append((EV_TRICK, w, total, OUT, k, tuple(bonus)))
        elif k >= g.hangover_trick:
            status[w] = HUNG_OVER  # HO-5.4, HO-D23
            self.events.append((EV_TRICK, w, total, HANGOVER, k, tuple(bonus)))
        else:
            self.events.append((EV_TRICK, w, total, JUDGED, k, tuple(bonus)))
            self.judge_sum = total
            self.judge_flips = 0
            self.judge_added = 0
            if self.columns[w][k - 1]:
                self.phase = FLIPPING
                self.current_player = w
                return
            self._judge(w)
            return
        self._next_trick(w)

    def _judge(self, w: int) -> None:
        """HO-4.6: the band on S' = S + A, VP = base × (1 + f), and the slide of an unused column."""
        g = self.game
        k = self.tricks[w]
        total = self.judge_sum + self.judge_added
        f = self.judge_flips
        limit = g.limit
        base = g.vp_under if total < limit else g.vp_just if total == limit else g.vp_over
        gain = base * (1 + f)
        self.vp[w] += gain
        slid = False
        cols = self.columns[w]
        if f == 0 and k < g.num_columns and cols[k - 1]:  # HO-4.6.3, HO-D13
            cols[k] = sorted(cols[k] + cols[k - 1])
            cols[k - 1] = []
            slid = True
        self.events.append((EV_JUDGE, w, k, total, base, f, gain, slid))
        self._next_trick(w)

    def _next_trick(self, w: int) -> None:
        """HO-4.7 and HO-4.8: the end-of-trick check, then the next leader."""
        g = self.game
        status = self.status
        active = status.count(DRINKER) + status.count(NON_DRINKER)
        if active == 0 or (g.end_when_one_active and active <= 1) or not self.hands[0]:
            self.phase = OVER
            self.current_player = None
            self.events.append((EV_END,))
            return
        n = g.num_players
        leader = w
        while status[leader] >= OUT_NON_DRINKER:  # HO-D8: first active player clockwise
            leader = leader + 1 if leader + 1 < n else 0
        self.leader = leader
        self.phase = TRICK
        self.current_player = leader

    # -- texts ------------------------------------------------------------------------------------

    def action_text(self, action: int) -> str:
        return text.action_text(self, action)

    def parse_action(self, action_text: str) -> int:
        """Also reads `snack +1/+2 as +2` for `flip +1/+2 +2`, and an `arrange` in any order that
        puts the cards into the same columns."""
        if isinstance(action_text, str):
            wanted = " ".join(action_text.split()).lower()
            alias = text.parse_alias(self, wanted)
            if alias is not None:
                if alias in self.legal_actions():
                    return alias
                raise IllegalAction(
                    action_text,
                    self.decision(),
                    "not a legal action now; legal: " + self._legal_list(self.legal_actions()),
                )
        return super().parse_action(action_text)

    def decision(self) -> str:
        return text.decision(self)

    def decision_ja(self) -> str:
        return text.decision_ja(self)

    def render(self, seat: int | None = None) -> str:
        seat = self.game.check_seat(seat)
        return text.render(self, seat)

    # -- views ------------------------------------------------------------------------------------

    def _view(self, seat: int | None) -> dict[str, Any]:
        g = self.game
        codes = g.snack_codes
        n = g.num_players
        seats = []
        for q in range(n):
            seats.append(
                {
                    "status": STATUS_NAMES[self.status[q]],
                    "declared": None if self.declared[q] < 0 else bool(self.declared[q]),
                    "tricks": self.tricks[q],
                    "vp": self.vp[q],
                    "hand": len(self.hands[q]),
                    "face_down": len(self.discards[q]),
                    "snacks_in_hand": len(self.snack_hands[q]),
                    "columns": [len(col) for col in self.columns[q]],
                    "flipped": [
                        {"column": k, "snack": codes[d], "value": g.snack_value[d][v]}
                        for k, d, v in self.flipped[q]
                    ],
                }
            )
        v: dict[str, Any] = {
            "phase": PHASE_NAMES[self.phase],
            "drunk_limit": g.limit,
            "num_columns": g.num_columns,
            "trick_number": len(self.past) + (1 if self.phase == TRICK else 0),
            "leader": self.leader,
            "lead_suit": "RBYG"[SUIT[self.trick[0]]] if self.trick else None,
            "trick": self._trick_view(self.leader, self.trick),
            "tricks_played": [
                {"leader": lead, "cards": self._trick_view(lead, cards), "winner": w}
                for lead, cards, w in self.past
            ],
            "judging": None,
            "set_aside": {"drink": len(self.aside), "snack": len(self.snack_aside)},
            "seats": seats,
        }
        if self.phase == FLIPPING:
            w = self.current_player
            assert w is not None
            v["judging"] = {
                "seat": w,
                "column": self.tricks[w],
                "sum": self.judge_sum,
                "flipped": self.judge_flips,
                "added": self.judge_added,
                "adjusted_sum": self.judge_sum + self.judge_added,
            }
        if seat is not None:
            v["you"] = {
                "hand": [DRINK_CODES[c] for c in self.hands[seat]],
                "face_down": [DRINK_CODES[c] for c in self.discards[seat]],
                "snacks": [codes[d] for d in self.snack_hands[seat]],
                "columns": [[codes[d] for d in col] for col in self.columns[seat]],
            }
        return v

    def _trick_view(self, leader: int, cards: list[int] | tuple[int, ...]) -> list[dict[str, Any]]:
        n = self.game.num_players
        return [
            {"seat": (leader + i) % n, "card": None if c < 0 else DRINK_CODES[c]} for i, c in enumerate(cards)
        ]

    def log(self, seat: int | None = None) -> list[dict[str, Any]]:
        """The events as `seat` saw them, each with its line of text under "text"; built here only,
        never while playing. A trick event's number is counted along the way."""
        out = []
        number = 0
        for event in self.events:
            if event[0] == EV_TRICK:
                number += 1
            seen = self._event_dict(event, seat, number)
            seen["text"] = text.event_text(seen)
            seen["text_ja"] = text.event_text_ja(seen)
            out.append(seen)
        return out

    def _event_view(self, event: tuple[Any, ...], seat: int | None) -> dict[str, Any] | None:
        number = 0
        if event[0] == EV_TRICK:  # its trick number: the trick events up to this one
            for e in self.events:
                if e[0] == EV_TRICK:
                    number += 1
                    if e is event:
                        break
        seen = self._event_dict(event, seat, number)
        seen["text"] = text.event_text(seen)
        seen["text_ja"] = text.event_text_ja(seen)
        return seen

    def _event_dict(self, event: tuple[Any, ...], seat: int | None, number: int) -> dict[str, Any]:
        """The facts of one event as `seat` saw them; `number` is a trick event's trick number."""
        g = self.game
        kind = event[0]
        if kind == EV_PLAY:
            return {"type": "play", "seat": event[1], "card": DRINK_CODES[event[2]]}
        if kind == EV_DISCARD:
            out = {"type": "discard", "seat": event[1]}
            if seat == event[1]:
                out["card"] = DRINK_CODES[event[2]]
            return out
        if kind == EV_TRICK:
            _, w, total, outcome, k, bonus = event
            leader, cards, _ = self.past[number - 1]
            return {
                "type": "trick",
                "trick": number,
                "winner": w,
                "card": DRINK_CODES[cards[(w - leader) % g.num_players]],
                "sum": total,
                "own_trick": k,
                "outcome": OUTCOME_NAMES[outcome],
                "bonus": list(bonus),
            }
        if kind == EV_FLIP:
            _, p, d, v = event
            return {"type": "flip", "seat": p, "snack": g.snack_codes[d], "value": g.snack_value[d][v]}
        if kind == EV_STOP:
            return {"type": "stop", "seat": event[1]}
        if kind == EV_JUDGE:
            _, w, k, total, base, f, gain, slid = event
            return {
                "type": "judge",
                "seat": w,
                "own_trick": k,
                "adjusted_sum": total,
                "limit": g.limit,
                "base": base,
                "flipped": f,
                "vp": gain,
                "slid": slid,
            }
        if kind == EV_DECLARE:
            return {"type": "declare", "seat": event[1], "non_drinker": event[2]}
        if kind == EV_ARRANGE:
            out = {"type": "arrange", "seat": event[1]}
            if seat == event[1]:
                out["order"] = [g.snack_codes[d] for d in event[3]]
            return out
        # EV_END is the last event: the state is final, so its results are the game's
        return {
            "type": "end",
            "reason": self._end_reason(),
            "vp": list(self.vp),
            "status": [STATUS_NAMES[s] for s in self.status],
            "winners": self.winners(),
        }

    def _end_reason(self) -> str:
        """Why the game ended (HO-4.8), for the end event."""
        active = self.status.count(DRINKER) + self.status.count(NON_DRINKER)
        if active == 0:
            return "no_active_player"
        if self.game.end_when_one_active and active <= 1:
            return "one_active_player"
        return "hands_empty"

    # -- scoring (HO-6) ---------------------------------------------------------------------------

    def scores(self) -> list[int]:
        return list(self.vp)

    def winners(self) -> list[int]:
        eligible = [p for p, s in enumerate(self.status) if s != HUNG_OVER]  # HO-6.4
        if not eligible:
            return []
        best = max(self.vp[p] for p in eligible)
        return [p for p in eligible if self.vp[p] == best]  # HO-6.5: ties share the win

    # -- bookkeeping ------------------------------------------------------------------------------

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
