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
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Final

from bodoge.core import tensors
from bodoge.games.troika.cards import N_NUMBERS
from bodoge.games.troika.scoring import (
    _segment_values,
    round_value,
    runs,
    score_counts,
    to_score,
    zero_waste_with_fuel,
)
from bodoge.games.troika.state import TroikaGame, TroikaState

if TYPE_CHECKING:
    import numpy as np

SCORE: Final = 20.0  # the score scale S
SEAT_WIDTH: Final = N_NUMBERS + 10
LAST_WIDTH: Final = 5


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
            round_score = p["round_score"]  # None: left behind (not `score`, an int above)
            vals[base] = 1.0 if round_score is None else 0.0
            vals[base + 1] = 0.0 if round_score is None else round_score / SCORE
            vals[base + 2] = p["chips"] / chip_scale
            vals[base + 3] = (p["placement"] - 1) / places
            vals[base + 4] = 1.0 if last["first_declarer"] == p["seat"] else 0.0
    at += 1 + n * LAST_WIDTH
    assert at == len(vals) == flat.shape[0]
    flat[:] = vals
    np.clip(flat, -1.0, 1.0, out=flat)


# -- the fast path: the same tensor straight from the state ----------------------------------------


@lru_cache(maxsize=1 << 16)
def score_and_fuel(counts: tuple[int, ...]) -> tuple[int, bool]:
    """`score_counts(counts)[:2]`: the best tile score and whether the tiles hold a fuel, from the
    per-run values that round scoring uses (`round_value`, `_segment_values`), without working out
    the partition itself: several times cheaper where the multiset is new, and the observation meets
    a new one at most steps (tests check the two agree)."""
    if max(counts) >= 3:
        value = round_value(counts)
        assert value is not None
        return value, True
    total = sum(_segment_values(i, counts[i:j])[1] for i, j in runs(counts))
    return to_score(total), False


class _Fixed(tensors.Kept):
    """What `encode_state` needs of a game, worked out once: its scales, the slices that are the
    same at every position (rules, copies) as float32 bytes, and each observer's seats in relative
    order."""

    def __init__(self, game: TroikaGame) -> None:
        n = game.num_players
        copies = game.tile_counts
        self.n = n
        self.troika_on = game.troika_on
        self.copies = list(copies)
        self.inv = [1.0 / k if k else 0.0 for k in copies]
        # values[i][k]: k tiles of number i + 1 as a share of its copies (k × inv, one float object each)
        self.values = [[k * v for k in range(game.total_tiles + 1)] for v in self.inv]
        self.total = max(1, game.total_tiles)
        most = max(1, *copies)
        constant = [
            1.0 if game.troika_on else 0.0,
            game.troika_bonus / SCORE,
            game.troika_min_container / 15,
            game.hand_limit / 15,
            *(copies[i] / most for i in range(N_NUMBERS)),
        ]
        self.constant = tensors.packer(len(constant))(*constant)
        self.rounds = max(1, game.rounds)
        self.chip_scale = max(1, *(abs(c) for c in game.chips))
        self.rounds_chips = self.rounds * self.chip_scale
        self.limit = max(1, game.hand_limit)
        self.least = game.troika_min_container
        self.places = max(1, n - 1)
        self.orders = [[(me + i) % n for i in range(n)] for me in range(n)]
        self.no_last = tensors.packer(1 + n * LAST_WIDTH)(*[0.0] * (1 + n * LAST_WIDTH))
        self.zeros = [0] * N_NUMBERS
        self.pack_counts = tensors.packer(8 + 4 * N_NUMBERS)  # progress, then mine … unseen
        self.pack_seat = tensors.packer(6)
        self.pack_last = tensors.packer(1 + n * LAST_WIDTH)
        self.shape = shape(game)
        # per events list (by identity): [the list, events read, its last round_end event or None]
        # — see `_last_round_end`
        self.round_ends: dict[int, list[Any]] = {}
        # the repeating blocks met so far (see `_container_block`, `_own_block`)
        self.blocks: dict[tuple[int, ...], tuple[bytes, bytes]] = {}
        self.owns: dict[tuple[int, ...], bytes] = {}


# The blocks of values that repeat from step to step, by what they are made of: a container stays
# for several steps, and its seat's block shows it the same way. They are float32 bytes, joined with
# the rest into the tensor, kept in the game's `_Fixed` tables, keyed by tuples of ints only: such a
# key (and its value of bytes) is no object the garbage collector keeps following, where a key
# holding the `_Fixed` itself (as an `lru_cache` on both would) stays tracked, and thousands of
# them made the collector's full passes cost more than the tables saved. A full table starts again.

TABLE_LIMIT: Final = 1 << 14  # entries per table


def _container_block(fixed: _Fixed, container: tuple[int, ...]) -> tuple[bytes, bytes]:
    """What a seat's block shows of its container, as `encode` writes it: its counts and size (the
    block's first values) and its score, fuel and size check (the last ones)."""
    values = fixed.values
    csize = 0
    head: list[float] = []
    for i in range(N_NUMBERS):
        k = container[i]
        csize += k
        head.append(values[i][k])
    head.append(csize / 15)
    if csize:
        score, fuel = score_and_fuel(container)
        tail = (score / SCORE, 1.0 if fuel else 0.0, 1.0 if csize >= fixed.least else 0.0)
    else:
        tail = (0.0, 0.0, 1.0 if csize >= fixed.least else 0.0)
    block = tensors.packer(len(head))(*head), tensors.packer(3)(*tail)
    blocks = fixed.blocks
    if len(blocks) >= TABLE_LIMIT:
        blocks.clear()
    blocks[container] = block
    return block


def _own_block(fixed: _Fixed, key: tuple[int, ...]) -> bytes:
    """The observer's `own` values from `key`: its hand plus container (15 counts), then its
    container's size."""
    both = key[:N_NUMBERS]
    size = sum(both)
    if not size:
        block = tensors.packer(4)(0.0, 0.0, 0.0, 0.0)
    else:
        score, fuel = score_and_fuel(both)
        ready = fixed.troika_on and key[N_NUMBERS] >= fixed.least and zero_waste_with_fuel(both)
        block = tensors.packer(4)(
            score / SCORE, 1.0 if fuel else 0.0, 1.0 if ready else 0.0, ((-size) % 3) / 2
        )
    owns = fixed.owns
    if len(owns) >= TABLE_LIMIT:
        owns.clear()
    owns[key] = block
    return block


def _last_round_end(fixed: _Fixed, events: list[tuple[Any, ...]]) -> tuple[Any, ...] | None:
    """The last round_end event of `events` (what the view's `last_round` shows), read on from where
    the last call stopped: a state's events are only appended to (a copy is another list, another
    entry), so only the new ones need a look."""
    kept = fixed.round_ends.get(id(events))
    if kept is None or kept[0] is not events or kept[1] > len(events):
        if len(fixed.round_ends) >= 64:
            fixed.round_ends.clear()  # finished games' lists; the live ones are read again once
        kept = fixed.round_ends[id(events)] = [events, 0, None]
    for i in range(kept[1], len(events)):
        if events[i][0] == "round_end":
            kept[2] = events[i]
    kept[1] = len(events)
    found: tuple[Any, ...] | None = kept[2]
    return found


def encode_state(game: TroikaGame, state: TroikaState, seat: int | None, out: np.ndarray) -> None:
    """`encode(game, state.view(seat), out)` without building the view: the same values, bit for bit,
    read from the state's fields (only those the view shows). `out` need not be zeroed. The tensor
    is float32 bytes joined in slice order and written once: the values that change at every step
    packed, the blocks that repeat (what it shows of a container, the own block) from tables.

    The counts are read number by number in typed loops: what mypyc (bodoge.compiled) turns into
    plain C, where `map`/`zip` over the lists would stay calls into the interpreter's objects."""
    fixed: _Fixed = game.__dict__.get("_observation_fixed") or tensors.fixed(game, _Fixed)
    values = fixed.values
    total = fixed.total
    mine = state.mine
    containers = state.containers
    hand: list[int]
    returned: list[int]
    own_container: list[int]
    if seat is None:
        me = 0
        hand = returned = own_container = fixed.zeros
    else:
        me = seat
        hand = state.hands[seat]
        returned = state.known[seat]
        own_container = containers[seat]
    copies = fixed.copies
    inv = fixed.inv
    # per number: the tiles whose place the observer does not know (never negative in a real state;
    # a negative count still shows as `encode` shows it), and the totals of the progress slice
    unseen: list[float] = []
    n_unseen = n_mine = n_returned = 0
    for i in range(N_NUMBERS):
        k = copies[i] - mine[i] - hand[i] - returned[i]
        for container in containers:
            k -= container[i]
        n_unseen += k
        n_mine += mine[i]
        n_returned += returned[i]
        unseen.append(values[i][k] if k >= 0 else k * inv[i])
    own_key: list[int] = []
    own_size = 0
    for i in range(N_NUMBERS):
        own_key.append(hand[i] + own_container[i])
        own_size += own_container[i]
    own_key.append(own_size)
    own = tuple(own_key)
    rnd = state.round
    rounds = fixed.rounds
    current = state.current_player
    counts = [
        rnd / rounds,
        1.0 if rnd >= rounds else 0.0,
        1.0 if current is None else 0.0,
        len(state.pool) / total,
        state.removed_size / total,
        n_mine / total,
        n_unseen / total,
        n_returned / total,
    ]
    for place in (mine, hand, returned):
        for i in range(N_NUMBERS):
            counts.append(values[i][place[i]])
    counts += unseen
    progress_and_counts = fixed.pack_counts(*counts)
    owns = fixed.owns
    parts = [
        progress_and_counts[:32],  # progress (8 values), then the rules and copies
        fixed.constant,
        progress_and_counts[32:],
        owns.get(own) or _own_block(fixed, own),
    ]

    start = state.start_player
    first = state.first_declarer
    hand_sizes = state.hand_sizes
    declared = state.declared
    chips = state.chips
    limit = fixed.limit
    rounds_chips = fixed.rounds_chips
    pack_seat = fixed.pack_seat
    blocks = fixed.blocks
    for q in fixed.orders[me]:
        held = tuple(containers[q])
        head, tail = blocks.get(held) or _container_block(fixed, held)
        parts.append(head)
        parts.append(
            pack_seat(
                hand_sizes[q] / limit,
                1.0 if current == q else 0.0,
                1.0 if start == q else 0.0,
                1.0 if declared[q] else 0.0,
                1.0 if first == q else 0.0,
                chips[q] / rounds_chips,
            )
        )
        parts.append(tail)

    # the view's `last_round`: the last round_end event, which sets last_placements (none before it)
    e = None if state.last_placements is None else _last_round_end(fixed, state.events)
    if e is not None:
        scores, gained, placements, first_declarer = e[5], e[6], e[7], e[8]
        chip_scale = fixed.chip_scale
        places = fixed.places
        last = [1.0]
        for q in fixed.orders[me]:
            score = scores[q]
            last.append(1.0 if score is None else 0.0)
            last.append(0.0 if score is None else score / SCORE)
            last.append(gained[q] / chip_scale)
            last.append((placements[q] - 1) / places)
            last.append(1.0 if first_declarer == q else 0.0)
        parts.append(fixed.pack_last(*last))
    else:
        parts.append(fixed.no_last)
    whole = b"".join(parts)
    mem = tensors.as_bytes(out)
    if mem is not None:
        mem[:] = whole
    else:  # a strided out: through an array of the bytes
        import numpy as np

        out[...] = np.frombuffer(whole, dtype=np.float32).reshape(fixed.shape)
    tensors.clip_unit(out)
