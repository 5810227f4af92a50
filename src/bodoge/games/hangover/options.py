"""Hangover's players and options (spec §2), each with its bounds (issue #15) beside its rule."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bodoge.core import options as opts
from bodoge.games.hangover.cards import DEFAULT_SNACK_DECK, NUM_DRINK, NUMBERS, normalize_snack

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
#: When the non-drinkers declare (HO-4.2, HO-D29): draft 2's public round in seat order before trick 1,
#: the same round answered in secret, or that round and another before every later trick.
IN_ORDER, SECRET, ANY_TRICK = DECLARATIONS = ("in_order", "secret", "any_trick")
#: The options added after rules version 1's records: written to records and views only where they are
#: not at their default (`Hangover.options_json`), so that default games look as they always did.
LATER_OPTIONS = ("declaration", "non_drinker_vp", "non_drinker_tricks", "out_non_drinker_gains")


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


def _convert_declaration(value: Any) -> str:
    text = opts.as_text(value, "declaration", 20).strip().lower()
    if text not in DECLARATIONS:
        raise ValueError(f"{value!r} is not one of {', '.join(DECLARATIONS)}")
    return text


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
    opts.Option(
        "declaration",
        IN_ORDER,
        "one of in_order, secret, any_trick",
        "when non-drinkers declare: in_order (before trick 1, in seat order, each answer public), secret "
        "(before trick 1, answers hidden until all are in) or any_trick (also before every later trick, "
        "while one has won no trick) (HO-4.2, HO-D29)",
        _convert_declaration,
    ),
    opts.integer(
        "non_drinker_vp",
        1,
        "VP an active non-drinker gains each time another player wins a trick (HO-4.4.5, HO-5.3.1, HO-D30)",
        -MAX_VP,
        MAX_VP,
    ),
    opts.integer(
        "non_drinker_tricks",
        0,
        "tricks a non-drinker may win and stay active; one more eliminates them (HO-5.3.2, HO-D31)",
        0,
        MAX_HAND,
    ),
    opts.boolean(
        "out_non_drinker_gains",
        False,
        "whether an eliminated non-drinker keeps gaining non_drinker_vp when another player wins a trick "
        "(HO-4.4.5, HO-D6, HO-D32)",
    ),
)

#: The options in people's words, for the lobby's form (English and Japanese): each one's label, and
#: `choices`, the words of each named value. The drunk limits, removed numbers and snack deck are data
#: (tables per player count, card lists): the form keeps their defaults.
WORDS = {
    "vp_under": {"en": "Base VP under the drunk limit", "ja": "泥酔値未満のときの基本VP"},
    "vp_just": {"en": "Base VP at exactly the drunk limit", "ja": "泥酔値ちょうどのときの基本VP"},
    "vp_over": {"en": "Base VP over the drunk limit", "ja": "泥酔値を超えたときの基本VP"},
    "hangover_trick": {
        "en": "Own trick that brings the hangover",
        "ja": "ハングオーバーになる自分のトリック数",
    },
    "hand_size": {"en": "Drink cards per player", "ja": "各プレイヤーのドリンクカード"},
    "snacks_per_player": {"en": "Snack cards per player", "ja": "各プレイヤーの肴カード"},
    "non_drinker": {"en": "Players may declare non-drinker", "ja": "下戸宣言ができる"},
    "end_when_one_active": {
        "en": "End when at most one player is still in",
        "ja": "残りが1人以下になったら終了する",
    },
    "declaration": {
        "en": "When non-drinkers declare",
        "ja": "下戸宣言の時期",
        "choices": {
            IN_ORDER: {
                "en": "before trick 1, in seat order, answers seen",
                "ja": "第1トリックの前に席順で（答えは公開）",
            },
            SECRET: {"en": "before trick 1, in secret", "ja": "第1トリックの前に非公開で"},
            ANY_TRICK: {
                "en": "before any trick, while one has won none",
                "ja": "まだトリックを取っていなければ毎トリックの前に",
            },
        },
    },
    "non_drinker_vp": {
        "en": "VP a non-drinker gains when another wins a trick",
        "ja": "ほかの人がトリックを取るたびに下戸が得るVP",
    },
    "non_drinker_tricks": {
        "en": "Tricks a non-drinker may win and stay in",
        "ja": "下戸が脱落せずに取れるトリック数",
    },
    "out_non_drinker_gains": {
        "en": "An eliminated non-drinker keeps gaining VP",
        "ja": "脱落した下戸もVPを得続ける",
    },
}
