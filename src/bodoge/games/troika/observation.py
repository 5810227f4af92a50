"""Troika's observation tensor for learning (bodoge.rl): a flat float32 encoding of `view(seat)`.

Everything comes from the view (never the state), so a determinization with the same view encodes
the same. Seats are relative: slot 0 is the observer (seat 0 for a spectator, whose hand and
returned tiles are empty), slot i the player i seats clockwise. A per-number count of tiles is
divided by that number's copies in the `tile_counts` option (0 for a number with no copies), so it
is the fraction of those tiles in that place. Slices, in order (n players, 15 tile numbers, T the
game's tiles, S = 20 a score scale, C the largest absolute chip value of the `chips` option, at
least 1, and X = rounds × C):

| slice | size | meaning |
|---|---|---|
| progress | 8 | round / rounds, the final round, the end (no one to move), pool size / T, 2-player tiles set aside / T, face-up mine size / T, unseen tiles / T, own returned tiles in the pool / T |
| rules | 4 | declarations on, troika_bonus / S, troika_min_container / 15, hand_limit / 15 |
| copies | 15 | copies of each number / the most copies of a number (constant for a game) |
| mine | 15 | face-up mine, count per number / copies |
| hand | 15 | own hand, count per number / copies |
| returned | 15 | own tiles returned face down that are still in the pool (`returned_in_pool`), per number / copies |
| unseen | 15 | tiles whose place the observer does not know (other hands, the rest of the pool, set aside): copies − mine − own hand − containers − returned, per number / copies |
| own | 4 | own hand plus container: best tile score / S (`score_tiles`), has a fuel, ready to declare (declarations on, container ≥ troika_min_container, no waste with a fuel), tiles short of a multiple of 3 / 2 |
| seats | n × 25 | per relative seat, below |
| last_round | 1 + n × 5 | a round result is shown (`last_round`), then per relative seat: left behind, round score (with bonus) / S, chips gained / C, (placement − 1) / (n − 1), first declarer |

Per relative seat:

| field | size | meaning |
|---|---|---|
| container | 15 | its container, count per number / copies |
| container_size | 1 | tiles in its container / 15 |
| hand_size | 1 | tiles in its hand / hand_limit |
| to_move | 1 | is `current_player` |
| start | 1 | started this round (`start_player`) |
| declared | 1 | has declared Troika this round |
| first | 1 | the first declarer this round (gets the bonus) |
| chips | 1 | chip total / X |
| container_score | 1 | its container's best tile score / S |
| container_fuel | 1 | its container holds a fuel |
| container_min | 1 | its container has at least troika_min_container tiles |

All values are clipped to [-1, 1].
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bodoge.games.troika.cards import N_NUMBERS
from bodoge.games.troika.scoring import score_counts, zero_waste_with_fuel
from bodoge.games.troika.state import TroikaGame

if TYPE_CHECKING:
    import numpy as np

SCORE = 20.0  # the score scale S
SEAT_WIDTH = N_NUMBERS + 10
LAST_WIDTH = 5


def shape(game: TroikaGame) -> tuple[int]:
    n = game.num_players
    return (8 + 4 + N_NUMBERS * 5 + 4 + n * SEAT_WIDTH + 1 + n * LAST_WIDTH,)


def _counts(tiles: Sequence[int] | None) -> list[int]:
    c = [0] * N_NUMBERS
    for t in tiles or ():
        c[t - 1] += 1
    return c


def encode(game: TroikaGame, view: Mapping[str, Any], out: np.ndarray) -> None:
    import numpy as np

    n = game.num_players
    copies = game.tile_counts
    inv = [1.0 / k if k else 0.0 for k in copies]
    total = max(1, game.total_tiles)
    chip_scale = max(1, *(abs(c) for c in game.chips))
    seat = view["seat"] or 0
    flat = out.reshape(-1)
    vals = [0.0] * flat.shape[0]  # filled as a list (cheaper than scalar writes), then copied once
    at = 0

    mine = _counts(view["mine"])
    hand = _counts(view["hand"])
    returned = _counts(view["returned_in_pool"])
    containers = [_counts(c) for c in view["containers"]]
    unseen = list(copies)
    for place in (mine, hand, returned, *containers):
        for i in range(N_NUMBERS):
            unseen[i] -= place[i]

    rounds = max(1, view["rounds"])
    vals[at] = view["round"] / rounds
    vals[at + 1] = 1.0 if view["round"] >= rounds else 0.0
    vals[at + 2] = 1.0 if view["current_player"] is None else 0.0
    vals[at + 3] = view["pool_size"] / total
    vals[at + 4] = view["removed"] / total
    vals[at + 5] = sum(mine) / total
    vals[at + 6] = sum(unseen) / total
    vals[at + 7] = sum(returned) / total
    at += 8

    vals[at] = 1.0 if game.troika_on else 0.0
    vals[at + 1] = game.troika_bonus / SCORE
    vals[at + 2] = game.troika_min_container / 15
    vals[at + 3] = game.hand_limit / 15
    at += 4

    most = max(1, *copies)
    for i in range(N_NUMBERS):
        vals[at + i] = copies[i] / most
    at += N_NUMBERS
    for counts in (mine, hand, returned, unseen):
        for i in range(N_NUMBERS):
            if counts[i]:
                vals[at + i] = counts[i] * inv[i]
        at += N_NUMBERS

    own_container = containers[seat] if view["hand"] is not None else [0] * N_NUMBERS
    both = tuple(h + c for h, c in zip(hand, own_container, strict=True))
    size = sum(both)
    if size:
        score, fuel, _, _ = score_counts(both)
        vals[at] = score / SCORE
        vals[at + 1] = 1.0 if fuel else 0.0
        ready = (
            game.troika_on and sum(own_container) >= game.troika_min_container and zero_waste_with_fuel(both)
        )
        vals[at + 2] = 1.0 if ready else 0.0
    vals[at + 3] = ((-size) % 3) / 2
    at += 4

    current = view["current_player"]
    start = view["start_player"]
    first = view["first_declarer"]
    limit = max(1, game.hand_limit)
    rounds_chips = rounds * chip_scale
    for q in range(n):
        base = at + ((q - seat) % n) * SEAT_WIDTH
        container = containers[q]
        for i in range(N_NUMBERS):
            if container[i]:
                vals[base + i] = container[i] * inv[i]
        b = base + N_NUMBERS
        csize = sum(container)
        vals[b] = csize / 15
        vals[b + 1] = view["hand_sizes"][q] / limit
        vals[b + 2] = 1.0 if current == q else 0.0
        vals[b + 3] = 1.0 if start == q else 0.0
        vals[b + 4] = 1.0 if view["declared"][q] else 0.0
        vals[b + 5] = 1.0 if first == q else 0.0
        vals[b + 6] = view["chips"][q] / rounds_chips
        if csize:
            score, fuel, _, _ = score_counts(tuple(container))
            vals[b + 7] = score / SCORE
            vals[b + 8] = 1.0 if fuel else 0.0
        vals[b + 9] = 1.0 if csize >= game.troika_min_container else 0.0
    at += n * SEAT_WIDTH

    last = view["last_round"]
    if last is not None:
        vals[at] = 1.0
        places = max(1, n - 1)
        for p in last["players"]:
            base = at + 1 + ((p["seat"] - seat) % n) * LAST_WIDTH
            score = p["round_score"]
            vals[base] = 1.0 if score is None else 0.0
            vals[base + 1] = 0.0 if score is None else score / SCORE
            vals[base + 2] = p["chips"] / chip_scale
            vals[base + 3] = (p["placement"] - 1) / places
            vals[base + 4] = 1.0 if last["first_declarer"] == p["seat"] else 0.0
    at += 1 + n * LAST_WIDTH
    assert at == len(vals) == flat.shape[0]
    flat[:] = vals
    np.clip(flat, -1.0, 1.0, out=flat)
