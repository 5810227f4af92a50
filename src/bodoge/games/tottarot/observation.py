"""Tottarot's observation tensor for learning (bodoge.rl): a flat float32 encoding of `view(seat)`.

Everything comes from the view (never the state), so a determinization with the same view encodes
the same. Seats are relative: slot 0 is the observer (seat 0 for a spectator), slot i the player i
seats after it. Slices, in order (n players, K card types of the `deck` option, W = max_will + 1 will
tokens, T = turns_per_round, P = the largest |points| of a card type, at least 1):

| slice | size | meaning |
|---|---|---|
| phase | 5 | one-hot: share, peek, bid, steal, over |
| progress | 5 | round / most rounds (n × (target − 1) + 1), turn / T, deck count / deck size, bids revealed, actors done / n |
| types | K × 6 | per card type (constant for a game): points / P, icon one-hot (SHARE, PEEK, EXPOSE, INVERT), copies / most copies of a type |
| discard | K | this round's discard (face up), count per type / copies |
| unseen | K | copies per type not accounted for by the discard, the rows or a declared card the observer knows / copies |
| seats | n × (16 + n + K + 2W + T(K + 2)) | per relative seat, below |

Per relative seat (its declared card, bid, will tokens and row):

| field | size | meaning |
|---|---|---|
| to_move | 1 | is `current_player` |
| start | 1 | holds the start marker this round |
| order | 1 | place in this round's priority order (from the start player) / (n − 1) |
| holds | 1 | holds a declared card now |
| card | K | its declared card's type one-hot, when the observer knows it |
| known_by | n | which relative seats know its declared card |
| exposed | 1 | its declared card is face up to everyone |
| has_bid | 1 | has chosen a will token this turn |
| bid | W | this turn's bid one-hot (own bid before the reveal; everyone's after it) |
| used | W | will tokens revealed as used this round |
| unused_sum | 1 | sum of its unused will tokens / (0 + 1 + … + max_will): the tie-break (TT-D21) |
| row | T × (K + 2) | per row position (order of decision): type one-hot, inverted, effective points / P |
| row_total | 1 | the row's total / (T × P) |
| row_size | 1 | cards in the row / T |
| actor | 1 | acts (seizes) this turn: bid the highest token |
| actor_done | 1 | an actor already handled (discarded and stole, or skipped) |
| actor_order | 1 | place in the actors' queue / n (0 when not an actor) |
| pending_icon | 3 | one-hot SHARE, PEEK, EXPOSE: an icon decision still to come this turn |
| tokens | 1 | victory tokens / target |

All values are clipped to [-1, 1].

The policy of a network (`bodoge.agents.nn`) reads the actions as the observation shows the seats:
one output an action, but `steal`, `share` and `peek` name the seat relative to the observer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bodoge.core import tensors
from bodoge.games.tottarot.cards import ICONS
from bodoge.games.tottarot.state import PH_PEEK, PH_SHARE, TottarotGame

if TYPE_CHECKING:
    import numpy as np


PHASES = ("share", "peek", "bid", "steal", "over")
PENDING = ("SHARE", "PEEK", "EXPOSE")


def policy_indices(game: TottarotGame, view: Mapping[str, Any], actions: list[int]) -> list[int]:
    """The policy outputs of `actions`, legal in `view` (see the module docstring)."""
    n, seat = game.n, view["seat"]
    out = []
    for a in actions:
        for first in (game.peek0, game.share0, game.steal0):
            if a >= first:
                if a - first < n:  # (not `steal none`, the last steal)
                    a = first + (a - first - seat) % n
                break
        out.append(a)
    return out


def _seat_width(game: TottarotGame) -> int:
    n, k, w, t = game.n, len(game.codes), game.max_will + 1, game.turns
    return 16 + n + k + 2 * w + t * (k + 2)


def shape(game: TottarotGame) -> tuple[int]:
    k = len(game.codes)
    return (5 + 5 + k * 6 + k + k + game.n * _seat_width(game),)


def encode(game: TottarotGame, view: Mapping[str, Any], out: np.ndarray) -> None:
    import numpy as np

    n, k, w, turns = game.n, len(game.codes), game.max_will + 1, game.turns
    index = game.code_index
    copies = game.copies
    scale = float(max(1, *(abs(p) for p in game.points)))
    seat = view["seat"] or 0
    flat = out.reshape(-1)
    at = 0

    flat[at + PHASES.index(view["phase"])] = 1.0
    at += 5

    revealed = bool(view["bids_revealed"])
    actors: list[int] = view["actors"]
    done = view["actor_index"] if revealed else 0
    flat[at] = view["round"] / (n * (game.target - 1) + 1)
    flat[at + 1] = view["turn"] / turns
    flat[at + 2] = view["deck_count"] / max(1, game.deck_size)
    flat[at + 3] = 1.0 if revealed else 0.0
    flat[at + 4] = done / n
    at += 5

    most = max(copies)
    for i in range(k):
        base = at + i * 6
        flat[base] = game.points[i] / scale
        icon = game.icon_codes[i]
        if icon is not None:
            flat[base + 1 + ICONS.index(icon)] = 1.0
        flat[base + 5] = copies[i] / most
    at += k * 6

    left = list(copies)
    for code in view["discard"]:
        i = index[code]
        flat[at + i] += 1.0 / copies[i]
        left[i] -= 1
    at += k
    for row in view["rows"]:
        for entry in row:
            left[index[entry["card"]]] -= 1
    for d in view["declared"]:
        if d["card"] is not None:
            left[index[d["card"]]] -= 1
    for i in range(k):
        flat[at + i] = left[i] / copies[i]
    at += k

    width = _seat_width(game)
    start = view["start_player"]
    current = view["current_player"]
    pending = {e["seat"]: e["icon"] for e in view["pending_icons"]}
    will_sum = max(1, w * (w - 1) // 2)
    for q in range(n):
        base = at + ((q - seat) % n) * width
        d = view["declared"][q]
        flat[base] = 1.0 if current == q else 0.0
        flat[base + 1] = 1.0 if start == q else 0.0
        flat[base + 2] = ((q - start) % n) / max(1, n - 1)
        flat[base + 3] = 1.0 if d["holds"] else 0.0
        b = base + 4
        if d["card"] is not None:
            flat[b + index[d["card"]]] = 1.0
        b += k
        for r in d["known_by"]:
            flat[b + (r - seat) % n] = 1.0
        b += n
        flat[b] = 1.0 if d["exposed"] else 0.0
        flat[b + 1] = 1.0 if view["has_bid"][q] else 0.0
        b += 2
        bid = view["bids"][q]
        if bid is not None:
            flat[b + bid] = 1.0
        b += w
        for v in view["used_tokens"][q]:
            flat[b + v] = 1.0
        b += w
        flat[b] = sum(view["unused_tokens"][q]) / will_sum
        b += 1
        row = view["rows"][q]
        for j, entry in enumerate(row[:turns]):
            slot = b + j * (k + 2)
            flat[slot + index[entry["card"]]] = 1.0
            flat[slot + k] = 1.0 if entry["inverted"] else 0.0
            flat[slot + k + 1] = entry["points"] / scale
        b += turns * (k + 2)
        flat[b] = view["totals"][q] / (turns * scale)
        flat[b + 1] = len(row) / turns
        b += 2
        if q in actors:
            place = actors.index(q)
            flat[b] = 1.0
            flat[b + 1] = 1.0 if place < done else 0.0
            flat[b + 2] = place / n
        b += 3
        icon = pending.get(q)
        if icon in PENDING:
            flat[b + PENDING.index(icon)] = 1.0
        b += 3
        flat[b] = view["victory_tokens"][q] / game.target
        b += 1
        assert b == base + width
    at += n * width
    assert at == flat.shape[0]
    np.clip(flat, -1.0, 1.0, out=flat)


# -- the fast path: the same tensor straight from the state ----------------------------------------


class _Fixed:
    """What `encode_state` needs of a game, worked out once: its scales, the tensor as a list with
    the card types' slice (the same at every position) and zeros elsewhere, and `discard[i][c]`: the
    value of c discarded cards of type i, added one by one into the float32 tensor as `encode` does."""

    def __init__(self, game: TottarotGame) -> None:
        import numpy as np

        n, k, w, turns = game.n, len(game.codes), game.max_will + 1, game.turns
        self.k, self.w = k, w
        self.canon = [game.code_index[code] for code in game.codes]
        self.scale = float(max(1, *(abs(p) for p in game.points)))
        self.rounds = n * (game.target - 1) + 1
        self.deck = max(1, game.deck_size)
        self.width = _seat_width(game)
        self.will_sum = max(1, w * (w - 1) // 2)
        self.order_scale = max(1, n - 1)
        self.row_scale = turns * self.scale
        self.points = [p / self.scale for p in game.effective]
        self.orders = [[(me + i) % n for i in range(n)] for me in range(n)]
        self.known_by = [
            [[(r - me) % n for r in range(n) if mask >> r & 1] for mask in range(1 << (n + 1))]
            for me in range(n)
        ]
        self.bits = [[v for v in range(w) if mask >> v & 1] for mask in range(1 << w)]
        self.unused = [sum(b) / self.will_sum for b in game.bid_lists]
        copies = game.copies
        cell = np.zeros(1, dtype=np.float32)
        self.discard = []
        for i in range(k):
            sums = [0.0]
            cell[0] = 0.0
            for _ in range(copies[i]):
                cell[0] += 1.0 / copies[i]
                sums.append(float(cell[0]))
            self.discard.append(sums)
        self.inv = [1.0 / c for c in copies]
        vals = [0.0] * shape(game)[0]
        at = 10
        most = max(copies)
        for i in range(k):
            base = at + i * 6
            vals[base] = game.points[i] / self.scale
            icon = game.icon_codes[i]
            if icon is not None:
                vals[base + 1 + ICONS.index(icon)] = 1.0
            vals[base + 5] = copies[i] / most
        self.template = vals
        # a pending icon holder's icon, by its last decided card as the view reads it (icon_codes[−1]
        # where it decided none, as the view's index does)
        self.pending = [PENDING.index(c) if c in PENDING else -1 for c in game.icon_codes]


def encode_state(game: TottarotGame, state: Any, seat: int | None, out: np.ndarray) -> None:
    """`encode(game, state.view(seat), out)` without building the view: the same values, bit for bit,
    read from the state's fields (only those the view shows). `out` need not be zeroed. The tensor
    is built as a list (cheaper than writes into the array), then copied once."""
    import numpy as np

    fixed: _Fixed = game.__dict__.get("_observation_fixed") or tensors.fixed(game, _Fixed)
    n, k, w, turns = game.n, fixed.k, fixed.w, game.turns
    canon = fixed.canon
    me = seat or 0
    bit = game.public_bit if seat is None else 1 << seat
    vals = fixed.template.copy()
    phase = state.phase
    vals[phase] = 1.0

    revealed = state.nbid == n
    actors = state.actors if revealed else ()
    done = state.qi if revealed else 0
    vals[5] = state.round / fixed.rounds
    vals[6] = state.turn / turns
    vals[7] = len(state.pile) / fixed.deck
    vals[8] = 1.0 if revealed else 0.0
    vals[9] = done / n
    at = 10 + k * 6

    left = list(game.copies)
    discard = state.discard
    if discard:
        counts = [0] * k
        for c in discard:
            counts[canon[c]] += 1
        table = fixed.discard
        for i in range(k):
            if counts[i]:
                vals[at + i] = table[i][counts[i]]
                left[i] -= counts[i]
    at += k
    rows = state.rows
    for row in rows:
        for x in row:
            left[canon[x >> 1]] -= 1
    declared = state.declared
    knows = state.knows
    for p in range(n):
        c = declared[p]
        if c >= 0 and knows[p] & bit:
            left[canon[c]] -= 1
    vals[at : at + k] = [a / b for a, b in zip(left, game.copies, strict=True)]
    at += k

    width = fixed.width
    start = state.start
    current = state.current_player
    if phase in (PH_SHARE, PH_PEEK):
        pending = {h: fixed.pending[state.last_dec[h]] for h in state.icon_queue[state.iq :]}
    else:
        pending = {}
    bids = state.bids
    used = state.used
    effective = fixed.points
    public = game.public_bit
    for q in range(n):
        base = at + ((q - me) % n) * width
        d = declared[q]
        kq = knows[q]
        vals[base] = 1.0 if current == q else 0.0
        vals[base + 1] = 1.0 if start == q else 0.0
        vals[base + 2] = ((q - start) % n) / fixed.order_scale
        vals[base + 3] = 1.0 if d >= 0 else 0.0
        b = base + 4
        if d >= 0 and kq & bit:
            vals[b + canon[d]] = 1.0
        b += k
        for r in fixed.known_by[me][kq]:
            vals[b + r] = 1.0
        b += n
        vals[b] = 1.0 if kq & public else 0.0
        v = bids[q]
        vals[b + 1] = 1.0 if v >= 0 else 0.0
        b += 2
        if v >= 0 and (revealed or q == seat):
            vals[b + v] = 1.0
        b += w
        for v in fixed.bits[used[q]]:
            vals[b + v] = 1.0
        b += w
        vals[b] = fixed.unused[used[q]]
        b += 1
        row = rows[q]
        total = 0
        slot = b
        for x in row[:turns]:
            vals[slot + canon[x >> 1]] = 1.0
            vals[slot + k] = 1.0 if x & 1 else 0.0
            vals[slot + k + 1] = effective[x]
            slot += k + 2
        for x in row:
            total += game.effective[x]
        b += turns * (k + 2)
        vals[b] = total / fixed.row_scale
        vals[b + 1] = len(row) / turns
        b += 2
        if q in actors:
            place = actors.index(q)
            vals[b] = 1.0
            vals[b + 1] = 1.0 if place < done else 0.0
            vals[b + 2] = place / n
        b += 3
        icon = pending.get(q, -1)
        if icon >= 0:
            vals[b + icon] = 1.0
        b += 3
        vals[b] = state.tokens[q] / game.target
    flat = out.reshape(-1)
    flat[:] = vals
    np.minimum(flat, 1.0, out=flat)
    np.maximum(flat, -1.0, out=flat)
