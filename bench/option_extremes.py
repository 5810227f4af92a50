"""Setup cost and view size of every game at its options' extremes (issue #15: bounded options).

    python bench/option_extremes.py

For each case: the time of `make()` + `new_state()` (best of a few), the largest view (any seat,
JSON bytes) over a random playout of up to 2,000 actions, and `max_game_length()`. Prints a table;
the tests only check that these cases work (no timed assertions there).
"""

from __future__ import annotations

import random
import time
from typing import Any

import orjson

import bodoge


def tokkuri_deck(types: int, copies: int, **card: Any) -> list[dict[str, Any]]:
    return [
        {"code": f"n{i}", "kind": "number", "slots": [i % 100 + 1], "copies": copies, **card}
        for i in range(types)
    ]


CASES: list[tuple[str, str, dict[str, Any]]] = [
    ("tokkuri", "defaults", {}),
    (
        "tokkuri",
        "200 cards of 4 types, 2 × 100 dealt",
        {"players": 2, "hand_size": 100, "deck": tokkuri_deck(4, 50)},
    ),
    (
        "tokkuri",
        "200 types of 1 card, 4 × 50 dealt",
        {"players": 4, "hand_size": 50, "deck": tokkuri_deck(200, 1)},
    ),
    (
        "tokkuri",
        "995 drink choices, 2 × 100 dealt",
        {
            "players": 2,
            "hand_size": 100,
            "deck": [*tokkuri_deck(1, 50, slots=["1~32", "1~31"]), *tokkuri_deck(4, 50)[1:]],
        },
    ),
    ("tottarot", "defaults", {}),
    (
        "tottarot",
        "200 cards, 6 × 10 a round, target 20",
        {
            "players": 6,
            "turns_per_round": 10,
            "max_will": 9,
            "target": 20,
            "deck": [{"code": f"C{i}", "points": (-1) ** i * 10**6, "copies": 50} for i in range(4)],
        },
    ),
    ("hangover", "defaults", {}),
    (
        "hangover",
        "6 snacks in 18 columns (720 arrangements)",
        {"players": 3, "snacks_per_player": 6, "hangover_trick": 19},
    ),
    (
        "hangover",
        "60 snacks, 20 each in 1 column, 18 cards each",
        {
            "players": 3,
            "hand_size": 18,
            "removed_numbers": [],
            "snacks_per_player": 20,
            "hangover_trick": 2,
            "snack_deck": ["-9/+9"] * 60,
        },
    ),
    ("troika", "defaults", {}),
    ("troika", "300 tiles, 100 rounds, 5 players", {"players": 5, "rounds": 100, "tile_counts": [20] * 15}),
]


def setup_ms(name: str, options: dict[str, Any], repeat: int = 5) -> float:
    best = float("inf")
    for seed in range(repeat):
        start = time.perf_counter()
        bodoge.make(name, **options).new_state(seed=seed)
        best = min(best, time.perf_counter() - start)
    return best * 1000


def largest_view(game: bodoge.core.Game, actions: int = 2000) -> int:
    state = game.new_state(seed=1)
    rng = random.Random(1)
    largest = 0
    for step in range(actions):
        if step % 50 == 0 or state.is_terminal:
            for seat in [None, *range(game.num_players)]:
                largest = max(largest, len(orjson.dumps(state.view(seat))))
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    return largest


def main() -> None:
    print(f"{'game':9} {'case':48} {'setup ms':>9} {'view kB':>8} {'max length':>11}")
    for name, label, options in CASES:
        options = dict(options)
        ms = setup_ms(name, options)
        game = bodoge.make(name, **options)
        kb = largest_view(game) / 1000
        print(f"{name:9} {label:48} {ms:9.2f} {kb:8.1f} {game.max_game_length():11,}")


if __name__ == "__main__":
    main()
