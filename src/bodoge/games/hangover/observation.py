"""Hangover's observation tensor for learning (bodoge.rl): a flat float32 encoding of `view(seat)`.

Everything comes from the view, so a determinization with the same view encodes the same. Seats are
relative: slot 0 is the observer, slot i the player i seats clockwise. Slices, in order (n players,
C snack columns, D distinct snack codes):

| slice | size | meaning |
|---|---|---|
| phase | 5 | one-hot: arrange, declare, trick, flip, over |
| hand | 56 | own drink cards (by canonical index) |
| face_down | 56 | own face-down discards |
| played | 56 | every card played face up, finished tricks and the current one |
| trick | n × 57 | per relative seat: its face-up card in the current trick (56) or a face-down flag |
| lead_suit | 4 | one-hot, zero before the lead |
| seats | n × (11 + C) | per relative seat: status one-hot (4), declared, to move, leader, tricks won / hangover_trick, VP / 30, hand size / hand_size, face-down count / hand_size, face-down snack count per column / 4 |
| flipped | n × 2 | per relative seat: flips / 4 and the sum of values flipped / 9 |
| snacks | D | own unarranged snack cards, count / 2 |
| columns | C × D | own face-down snacks per column, count / 2 |
| judging | 5 | a judgement in progress: sum / 2L, adjusted sum / 2L, flips / 4, column / C, own |
| limit | 1 | drunk limit / 30 |

All values are clipped to [-1, 1].

The declare phase is every declaration moment (HO-4.2): before trick 1, and under `declaration` =
`any_trick` before a later trick too (HO-D29), which the tricks played tell apart. "declared" is 1 only
for an answer the observer has seen: under `secret` another seat's answer reads 0 until all are in
(the view hides it), so two histories that differ only there encode the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bodoge.core import tensors
from bodoge.games.hangover.cards import DRINK_CODES, DRINK_INDEX, SUIT
from bodoge.games.hangover.options import SECRET
from bodoge.games.hangover.state import DECLARING, FLIPPING, TRICK, HangoverGame

if TYPE_CHECKING:
    import numpy as np


PHASES = ("arrange", "declare", "trick", "flip", "over")
STATUSES = ("drinker", "non_drinker", "out_non_drinker", "hung_over")


def shape(game: HangoverGame) -> tuple[int]:
    n, c, d = game.num_players, game.num_columns, len(game.snack_codes)
    return (5 + 56 * 3 + n * 57 + 4 + n * (11 + c) + n * 2 + d + c * d + 5 + 1,)


def encode(game: HangoverGame, view: Mapping[str, Any], out: np.ndarray) -> None:
    import numpy as np

    n, cols, d = game.num_players, game.num_columns, len(game.snack_codes)
    seat = view["seat"] or 0
    flat = out.reshape(-1)
    at = 0
    flat[at + PHASES.index(view["phase"])] = 1.0
    at += 5
    you = view.get("you") or {"hand": [], "face_down": [], "snacks": [], "columns": [[]] * cols}
    for code in you["hand"]:
        flat[at + DRINK_INDEX[code]] = 1.0
    at += 56
    for code in you["face_down"]:
        flat[at + DRINK_INDEX[code]] = 1.0
    at += 56
    for trick in [*(t["cards"] for t in view["tricks_played"]), view["trick"]]:
        for entry in trick:
            if entry["card"] is not None:
                flat[at + DRINK_INDEX[entry["card"]]] = 1.0
    at += 56
    for entry in view["trick"]:
        rel = (entry["seat"] - seat) % n
        if entry["card"] is None:
            flat[at + rel * 57 + 56] = 1.0
        else:
            flat[at + rel * 57 + DRINK_INDEX[entry["card"]]] = 1.0
    at += n * 57
    if view["lead_suit"] is not None:
        flat[at + "RBYG".index(view["lead_suit"])] = 1.0
    at += 4
    size = max(1, game.hand_size)
    width = 11 + cols
    for q, player in enumerate(view["seats"]):
        base = at + ((q - seat) % n) * width
        flat[base + STATUSES.index(player["status"])] = 1.0
        flat[base + 4] = 1.0 if player["declared"] else 0.0
        flat[base + 5] = 1.0 if view["current_player"] == q else 0.0
        flat[base + 6] = 1.0 if view["leader"] == q and view["phase"] == "trick" else 0.0
        flat[base + 7] = player["tricks"] / game.hangover_trick
        flat[base + 8] = player["vp"] / 30
        flat[base + 9] = player["hand"] / size
        flat[base + 10] = player["face_down"] / size
        for k, count in enumerate(player["columns"]):
            flat[base + 11 + k] = count / 4
    at += n * width
    for q, player in enumerate(view["seats"]):
        base = at + ((q - seat) % n) * 2
        flat[base] = len(player["flipped"]) / 4
        flat[base + 1] = sum(f["value"] for f in player["flipped"]) / 9
    at += n * 2
    for code in you["snacks"]:
        flat[at + game.snack_index[code]] += 0.5
    at += d
    for k, column in enumerate(you["columns"]):
        for code in column:
            flat[at + k * d + game.snack_index[code]] += 0.5
    at += cols * d
    judging = view["judging"]
    if judging is not None:
        limit2 = 2 * max(1, game.limit)
        flat[at] = judging["sum"] / limit2
        flat[at + 1] = judging["adjusted_sum"] / limit2
        flat[at + 2] = judging["flipped"] / 4
        flat[at + 3] = judging["column"] / cols
        flat[at + 4] = 1.0 if judging["seat"] == view["seat"] else 0.0
    at += 5
    flat[at] = game.limit / 30
    at += 1
    assert at == flat.shape[0]
    np.clip(flat, -1.0, 1.0, out=flat)


# -- the fast path: the same tensor straight from the state ----------------------------------------


class _Fixed:
    """What `encode_state` needs of a game, worked out once: its scales and offsets, and the tensor
    as a list with the drunk limit (the same at every position) and zeros elsewhere."""

    def __init__(self, game: HangoverGame) -> None:
        n, cols, d = game.num_players, game.num_columns, len(game.snack_codes)
        self.n, self.cols, self.d = n, cols, d
        self.card = [DRINK_INDEX[code] for code in DRINK_CODES]  # a card's slot, as `encode` reads its code
        self.snack = [game.snack_index[code] for code in game.snack_codes]
        self.width = 11 + cols
        self.size = max(1, game.hand_size)
        self.limit2 = 2 * max(1, game.limit)
        self.trick_at = 5 + 56 * 3
        self.seats_at = self.trick_at + n * 57 + 4
        self.flipped_at = self.seats_at + n * self.width
        self.snacks_at = self.flipped_at + n * 2
        self.judging_at = self.snacks_at + d + cols * d
        self.orders = [[(me + i) % n for i in range(n)] for me in range(n)]
        vals = [0.0] * shape(game)[0]
        vals[-1] = game.limit / 30
        self.template = vals


def encode_state(game: HangoverGame, state: Any, seat: int | None, out: np.ndarray) -> None:
    """`encode(game, state.view(seat), out)` without building the view: the same values, bit for bit,
    read from the state's fields (only those the view shows). `out` need not be zeroed. The tensor
    is built as a list (cheaper than writes into the array), then copied once."""
    import numpy as np

    fixed: _Fixed = game.__dict__.get("_observation_fixed") or tensors.fixed(game, _Fixed)
    n, cols, d = fixed.n, fixed.cols, fixed.d
    card = fixed.card
    me = seat or 0
    phase = state.phase
    vals = fixed.template.copy()
    vals[phase] = 1.0
    if seat is not None:
        for c in state.hands[seat]:
            vals[5 + card[c]] = 1.0
        for c in state.discards[seat]:
            vals[61 + card[c]] = 1.0
    trick = state.trick
    for _, cards, _ in state.past:
        for c in cards:
            if c >= 0:
                vals[117 + card[c]] = 1.0
    for c in trick:
        if c >= 0:
            vals[117 + card[c]] = 1.0
    at = fixed.trick_at
    leader = state.leader
    for i, c in enumerate(trick):
        rel = (leader + i - me) % n  # the seat of the i-th card, relative to the observer
        vals[at + rel * 57 + (56 if c < 0 else card[c])] = 1.0
    at += n * 57
    if trick:
        vals[at + SUIT[trick[0]]] = 1.0
    at += 4

    width = fixed.width
    size = fixed.size
    current = state.current_player
    # HO-D29: during a secret round, another seat's answer is unseen (its status waits for the reveal)
    hidden = game.declaration == SECRET and phase == DECLARING
    status = state.status
    declared = state.declared
    tricks = state.tricks
    vp = state.vp
    hands = state.hands
    discards = state.discards
    columns = state.columns
    leads = phase == TRICK
    for q in range(n):
        base = at + ((q - me) % n) * width
        vals[base + status[q]] = 1.0
        vals[base + 4] = 1.0 if declared[q] > 0 and not (hidden and q != seat) else 0.0
        vals[base + 5] = 1.0 if current == q else 0.0
        vals[base + 6] = 1.0 if leader == q and leads else 0.0
        vals[base + 7] = tricks[q] / game.hangover_trick
        vals[base + 8] = vp[q] / 30
        vals[base + 9] = len(hands[q]) / size
        vals[base + 10] = len(discards[q]) / size
        k = base + 11
        for col in columns[q]:
            vals[k] = len(col) / 4
            k += 1
    at += n * width
    values = game.snack_value
    for q in range(n):
        flipped = state.flipped[q]
        if flipped:
            base = at + ((q - me) % n) * 2
            vals[base] = len(flipped) / 4
            vals[base + 1] = sum(values[s][v] for _, s, v in flipped) / 9
    at += n * 2
    if seat is not None:
        snack = fixed.snack
        for s in state.snack_hands[seat]:
            vals[at + snack[s]] += 0.5
        at += d
        for column in columns[seat]:
            for s in column:
                vals[at + snack[s]] += 0.5
            at += d
    if phase == FLIPPING:
        at = fixed.judging_at
        limit2 = fixed.limit2
        total = state.judge_sum
        vals[at] = total / limit2
        vals[at + 1] = (total + state.judge_added) / limit2
        vals[at + 2] = state.judge_flips / 4
        vals[at + 3] = tricks[current] / cols
        vals[at + 4] = 1.0 if current == seat else 0.0
    flat = out.reshape(-1)
    flat[:] = vals
    np.minimum(flat, 1.0, out=flat)
    np.maximum(flat, -1.0, out=flat)
