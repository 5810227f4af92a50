"""Tokkuri's observation tensor for learning (bodoge.rl): a flat float32 encoding of `view(seat)`.

Everything comes from the view (never the state), so a determinization with the same view encodes
the same. Seats are relative: slot 0 is the observer (seat 0 for a spectator, whose hand, captured
pile and own tokkuri are unknown, so empty), slot i the player i seats clockwise (slot 1 is the left
neighbour, who receives a pass-left card). A per-type count of cards is divided by that type's
copies in the `deck` option, so it is the fraction of those cards in that place. Slices, in order
(n players, K card types of the `deck` option, N cards in the deck, H = hand_size,
L = tokkuri_level, Q = rounds, or max_rounds when rounds is null, S = the most numbers on one card,
at least 1, R = H × max(1, penalty_points) a round-score scale, B = 2 × n × start_points a balance
scale, and M = n × H, or max_tokkuri when that is smaller, the tokkuri slots: a true bound, since
only cards that reach a hand are placed and a draw only replaces a card drunk or discarded, so at
most n × H tokkuri are placed in a round):

| slice | size | meaning |
|---|---|---|
| phase | 6 | one-hot: open, action, target, victim, give, over |
| progress | 10 | round / Q, the last possible round, the end (no one to move), a spectator's view, the observer is to move, deck count / N, discard size / N, tokkuri on the table / M, the table is at max_tokkuri, cards in hands / (n × H) |
| rules | 8 | L / 20, penalty_level / L, penalty_points / 5, H / 15, start_points / 50, max_tokkuri set, Q / 50, N / 64 (constant for a game) |
| types | K × 15 | per card type (constant for a game): kind one-hot (number, dummy, trouble), effect one-hot (none, discard, draw, pass, bonus), numbers / S, lowest number / L, highest number / L, sum of the lowest readings / (S × L), sum of the highest readings / (S × L), has a range, copies / most copies of a type |
| hand | K | own hand, count per type / copies |
| own_tokkuri | K | faces of the observer's tokkuri on the table (known to it), count per type / copies |
| my_captured | K | the observer's captured pile this round (`my_captured`), count per type / copies |
| others_captured | K | cards the observer saw captured by others this round (its own tokkuri emptied by another player, from the log), count per type / copies |
| bonus | K | every bonus pile this round (face up), count per type / copies |
| discard | K | this round's discard pile (face up), count per type / copies |
| unseen | K | copies not accounted for by the slices above, the card being drunk or the own pending card (other hands, the stock, others' tokkuri and captures) / copies |
| pending | K | one-hot: the card the observer chose to open with or to give left, hidden until all chose |
| drink | K + 2S + 2 | a drink waiting for targets: its card one-hot (K), its numbers in printed order / L (S), which numbers have a target (S), the number to place next / L, targets chosen / numbers |
| seats | n × 21 | per relative seat, below |
| last_round | 1 | a finished round's scores are shown (`last_round_scores`) |
| tokkuri | M × (6 + n + K) | per table slot, in the view's order (by owner, then placement), below |

Per relative seat:

| field | size | meaning |
|---|---|---|
| to_move | 1 | is `current_player` |
| active | 1 | whose turn it is (`active`; the start player during open) |
| start | 1 | started this round (`start_player`) |
| order | 1 | seats after the start player / (n − 1) |
| chosen | 1 | has already chosen its hidden card (open, give) |
| victim | 1 | may be chosen as the victim of a `9` |
| drinker | 1 | is drinking (target) |
| winner | 1 | among the winners (the end) |
| hand | 1 | cards in hand / H |
| captured | 1 | captured pile size / H |
| bonus | 1 | bonus pile size / H |
| round_score | 1 | the round's score as it stands / R |
| settle | 1 | its balance change were the round scored now (TK-6.2) / (R × (n − 1)) |
| last_score | 1 | last round's score / R |
| balance | 1 | balance / B (`scores`) |
| tokkuri | 1 | its tokkuri on the table / M |
| levels | 1 | sum of its tokkuri's levels / (H × L) |
| penalised | 1 | its tokkuri at penalty_level or more / H |
| lowest | 1 | its lowest tokkuri's level / L (0 with none) |
| highest | 1 | its highest tokkuri's level / L (0 with none) |
| placed | 1 | its highest placement number this round among its tokkuri on the table / (n × H) |

Per tokkuri slot (all 0 for an empty slot):

| field | size | meaning |
|---|---|---|
| present | 1 | a tokkuri is in this slot |
| owner | n | its owner, relative seat one-hot |
| level | 1 | level / L |
| penalised | 1 | level ≥ penalty_level |
| placement | 1 | its placement number k (id `T<owner>.<k>`) / (n × H) |
| target | 1 | chosen as a target of the drink in progress: (place in the targets + 1) / S |
| known | 1 | the observer knows its card (its own tokkuri) |
| card | K | its card's type one-hot, when known |

All values are clipped to [-1, 1].

The policy of a network (`bodoge.agents.nn`) reads the actions as the observation shows the table:
`policy_size` outputs, first the M tokkuri slots (a target is the slot its tokkuri has above), then the
`place` and `drink` actions as numbered, the n victims by relative seat, and the `give` actions.
"""

from __future__ import annotations

import sys
from bisect import bisect_left
from collections.abc import Mapping
from itertools import chain, repeat
from operator import getitem
from typing import TYPE_CHECKING, Any, Final

from bodoge.core import tensors
from bodoge.games.tokkuri.cards import DUMMY
from bodoge.games.tokkuri.scoring import settle
from bodoge.games.tokkuri.state import GIVE, OPEN, PHASES, TARGET, VICTIM, TokkuriGame

if TYPE_CHECKING:
    import numpy as np


KINDS = ("number", "dummy", "trouble")
EFFECTS = ("none", "discard", "draw", "pass", "bonus")
TYPE_WIDTH: Final = 15
SEAT_WIDTH: Final = 21


def slots(game: TokkuriGame) -> int:
    """M: the tokkuri slots, a true bound on the tokkuri on the table at once."""
    bound = game.num_players * game.options["hand_size"]
    cap = game.options["max_tokkuri"]
    return bound if cap is None else min(bound, cap)


def _numbers(game: TokkuriGame) -> int:
    return max(1, game.max_slots)


def shape(game: TokkuriGame) -> tuple[int]:
    n, k, s = game.num_players, game.ntypes, _numbers(game)
    fixed = 6 + 10 + 8 + 1
    cards = k * TYPE_WIDTH + k * 8 + (k + 2 * s + 2)
    return (fixed + cards + n * SEAT_WIDTH + slots(game) * (6 + n + k),)


def policy_size(game: TokkuriGame) -> int:
    return slots(game) + game.num_actions - game.a_place


def policy_indices(game: TokkuriGame, view: Mapping[str, Any], actions: list[int]) -> list[int]:
    """The policy outputs of `actions`, legal in `view` (see the module docstring)."""
    m = slots(game)
    shift = m - game.a_place
    victim, give = game.a_victim, game.a_give
    out = []
    slot_of: dict[str, int] | None = None
    for a in actions:
        if a < game.a_place:  # target T<owner>.<k>: a = owner × N + k − 1
            if slot_of is None:
                slot_of = {tk["id"]: j for j, tk in enumerate(view["tokkuri"])}
            owner, k = divmod(a, game.total)
            out.append(slot_of[f"T{owner}.{k + 1}"])
        elif victim <= a < give:
            out.append(victim + shift + (a - victim - view["seat"]) % game.num_players)
        else:
            out.append(a + shift)
    return out


def _placement(tokkuri_id: str) -> int:
    return int(tokkuri_id.rpartition(".")[2])


def _rules_block(game: TokkuriGame, vals: list[float], at: int) -> int:
    """The table's rules, the same all game: its options, then every card type's kind, effect,
    numbers and copies, written into `vals` from `at`; where the block ends."""
    o = game.options
    s, k, level = _numbers(game), game.ntypes, o["tokkuri_level"]
    rounds = o["rounds"] if o["rounds"] is not None else o["max_rounds"]
    vals[at] = level / 20
    vals[at + 1] = o["penalty_level"] / level
    vals[at + 2] = o["penalty_points"] / 5
    vals[at + 3] = o["hand_size"] / 15
    vals[at + 4] = o["start_points"] / 50
    vals[at + 5] = 1.0 if o["max_tokkuri"] is not None else 0.0
    vals[at + 6] = rounds / 50
    vals[at + 7] = game.total / 64
    at += 8
    copies = game.copies
    most = max(copies)
    number_scale = s * level
    for t, ct in enumerate(game.types):
        base = at + t * TYPE_WIDTH
        vals[base + KINDS.index(ct.kind)] = 1.0
        vals[base + 3 + EFFECTS.index(ct.effect)] = 1.0
        b = base + 8
        if ct.slots:
            vals[b] = len(ct.slots) / s
            vals[b + 1] = min(lo for lo, _ in ct.slots) / level
            vals[b + 2] = max(hi for _, hi in ct.slots) / level
            vals[b + 3] = sum(lo for lo, _ in ct.slots) / number_scale
            vals[b + 4] = sum(hi for _, hi in ct.slots) / number_scale
            vals[b + 5] = 1.0 if any(lo != hi for lo, hi in ct.slots) else 0.0
        vals[b + 6] = copies[t] / most
    return at + k * TYPE_WIDTH


def encode(game: TokkuriGame, view: Mapping[str, Any], out: np.ndarray) -> None:
    import numpy as np

    o = game.options
    n, k, s = game.num_players, game.ntypes, _numbers(game)
    m = slots(game)
    copies = game.copies
    inv = [1.0 / c for c in copies]
    index = game.code_index
    total = game.total
    hand_size = o["hand_size"]
    level = o["tokkuri_level"]
    penalty_level = o["penalty_level"]
    rounds = o["rounds"] if o["rounds"] is not None else o["max_rounds"]
    score_scale = hand_size * max(1, o["penalty_points"])
    balance_scale = 2 * n * o["start_points"]
    dealt = n * hand_size

    seat_or_none = view["seat"]
    seat = seat_or_none or 0
    me = seat_or_none if seat_or_none is not None else -1
    flat = out.reshape(-1)
    vals = [0.0] * flat.shape[0]  # filled as a list (cheaper than scalar writes), then copied once
    at = 0

    phase = view["phase"]
    vals[at + PHASES.index(phase)] = 1.0
    at += 6

    table: list[Mapping[str, Any]] = view["tokkuri"]
    current = view["current_player"]
    cap = o["max_tokkuri"]
    vals[at] = view["round"] / rounds
    vals[at + 1] = 1.0 if view["round"] >= rounds else 0.0
    vals[at + 2] = 1.0 if current is None else 0.0
    vals[at + 3] = 1.0 if seat_or_none is None else 0.0
    vals[at + 4] = 1.0 if current is not None and current == seat_or_none else 0.0
    vals[at + 5] = view["deck_count"] / total
    vals[at + 6] = len(view["discard"]) / total
    vals[at + 7] = len(table) / m
    vals[at + 8] = 1.0 if cap is not None and len(table) >= cap else 0.0
    vals[at + 9] = sum(view["hand_counts"]) / dealt
    at += 10

    at = _rules_block(game, vals, at)

    unseen = list(copies)

    def counts(codes: Any, at: int) -> None:
        for code in codes:
            t = index[code.lower()]
            vals[at + t] += inv[t]
            unseen[t] -= 1

    counts(view["hand"] or (), at)
    at += k
    counts((tk["card"] for tk in table if tk["card"] is not None), at)
    at += k
    counts(view["my_captured"] or (), at)
    at += k
    # The observer's own tokkuri emptied by another player this round: the log shows their faces.
    seen_captured = []
    if seat_or_none is not None:
        for entry in reversed(view.get("log") or ()):
            event = entry["type"]
            if event == "round_start":
                break
            if event == "empty" and entry["seat"] != me and not entry["dummy"] and entry["card"] is not None:
                seen_captured.append(entry["card"])
    counts(seen_captured, at)
    at += k
    for pile in view["bonus"]:
        counts(pile, at)
    at += k
    counts(view["discard"], at)
    at += k
    unseen_at = at
    at += k

    pending = view["pending"]
    if pending is not None:
        t = index[pending.lower()]
        vals[at + t] = 1.0
        unseen[t] -= 1
    at += k

    drink = view["drink"]
    targets: dict[str, int] = {}
    if drink is not None:
        t = index[drink["card"].lower()]
        vals[at + t] = 1.0
        unseen[t] -= 1
        values = drink["values"]
        chosen = drink["targets"]
        for i, value in enumerate(values[:s]):
            vals[at + k + i] = value / level
            if i < len(chosen):
                vals[at + k + s + i] = 1.0
        if len(chosen) < len(values):
            vals[at + k + 2 * s] = values[len(chosen)] / level
        vals[at + k + 2 * s + 1] = len(chosen) / max(1, len(values))
        targets = {tid: i for i, tid in enumerate(chosen)}
    at += k + 2 * s + 2

    for t in range(k):
        if unseen[t]:
            vals[unseen_at + t] = unseen[t] * inv[t]

    start = view["start_player"]
    active = view["active"]
    chosen_seats = set(view["chosen"])
    victims = set(view.get("victims") or ())
    winners = set(view.get("winners") or ())
    drinker = drink["seat"] if drink is not None else -1
    round_scores = view["round_scores"]
    deltas = settle(round_scores)
    last = view["last_round_scores"]
    per_owner: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for tk in table:
        per_owner[tk["owner"]].append((tk["level"], _placement(tk["id"])))
    order_scale = max(1, n - 1)
    settle_scale = score_scale * order_scale
    for q in range(n):
        base = at + ((q - seat) % n) * SEAT_WIDTH
        vals[base] = 1.0 if current == q else 0.0
        vals[base + 1] = 1.0 if active == q and current is not None else 0.0
        vals[base + 2] = 1.0 if start == q else 0.0
        vals[base + 3] = ((q - start) % n) / order_scale
        vals[base + 4] = 1.0 if q in chosen_seats else 0.0
        vals[base + 5] = 1.0 if q in victims else 0.0
        vals[base + 6] = 1.0 if drinker == q else 0.0
        vals[base + 7] = 1.0 if q in winners else 0.0
        vals[base + 8] = view["hand_counts"][q] / hand_size
        vals[base + 9] = view["captured_counts"][q] / hand_size
        vals[base + 10] = len(view["bonus"][q]) / hand_size
        vals[base + 11] = round_scores[q] / score_scale
        vals[base + 12] = deltas[q] / settle_scale
        if last is not None:
            vals[base + 13] = last[q] / score_scale
        vals[base + 14] = view["scores"][q] / balance_scale
        own = per_owner[q]
        if own:
            levels = [lv for lv, _ in own]
            vals[base + 15] = len(own) / m
            vals[base + 16] = sum(levels) / (hand_size * level)
            vals[base + 17] = sum(1 for lv in levels if lv >= penalty_level) / hand_size
            vals[base + 18] = min(levels) / level
            vals[base + 19] = max(levels) / level
            vals[base + 20] = max(p for _, p in own) / dealt
    at += n * SEAT_WIDTH

    vals[at] = 1.0 if last is not None else 0.0
    at += 1

    width = 6 + n + k
    for j, tk in enumerate(table[:m]):
        base = at + j * width
        vals[base] = 1.0
        vals[base + 1 + (tk["owner"] - seat) % n] = 1.0
        b = base + 1 + n
        lv = tk["level"]
        vals[b] = lv / level
        vals[b + 1] = 1.0 if lv >= penalty_level else 0.0
        vals[b + 2] = _placement(tk["id"]) / dealt
        place = targets.get(tk["id"])
        if place is not None:
            vals[b + 3] = (place + 1) / s
        card = tk["card"]
        if card is not None:
            vals[b + 4] = 1.0
            vals[b + 5 + index[card.lower()]] = 1.0
    at += m * width
    assert at == len(vals) == flat.shape[0]
    flat[:] = vals
    np.clip(flat, -1.0, 1.0, out=flat)


# -- the fast path: the same tensor straight from the state ----------------------------------------
#
# `encode_state` writes the tensor as float32 bytes into the array's memory (`tensors.as_bytes`):
# the constant template first, then the dense slices each packed in one call, a count as the 4 bytes
# of its value, and each tokkuri slot as the bytes of its row, kept by what the row shows (a few
# thousand rows at most, met again and again). A seat's tokkuri are one run of the table (ids in
# order, by owner), found by bisection. Tables keyed by what is met at random (a pile's cards, a
# seat's whole run) cost more than they save: most entries are never met again.

_CACHE_LIMIT: Final = 1 << 15  # entries per table; a full table starts again (it fills again at once)


class _Fixed(tensors.Kept):
    """What `encode_state` needs of a game, worked out once: its scales and offsets, the tensor with
    the slices that are the same at every position (rules, card types) and zeros elsewhere, and
    `acc[t][c]`: the value of c cards of type t in a count slice (added one by one, as `encode` does),
    with the tables of blocks met so far."""

    def __init__(self, game: TokkuriGame) -> None:
        import numpy as np

        o = game.options
        n, k, s = game.num_players, game.ntypes, _numbers(game)
        self.n, self.k, self.s = n, k, s
        self.m = slots(game)
        self.total = game.total
        self.hand_size = o["hand_size"]
        self.level = o["tokkuri_level"]
        self.penalty_level = o["penalty_level"]
        self.penalty_points = o["penalty_points"]
        self.settled: dict[tuple[int, ...], list[int]] = {}  # settle() of round scores met
        self.cap = o["max_tokkuri"]
        self.rounds = o["rounds"] if o["rounds"] is not None else o["max_rounds"]
        self.score_scale = self.hand_size * max(1, o["penalty_points"])
        self.balance_scale = 2 * n * o["start_points"]
        self.dealt = n * self.hand_size
        self.order_scale = max(1, n - 1)
        self.settle_scale = self.score_scale * self.order_scale
        self.levels_scale = self.hand_size * self.level
        self.copies = list(game.copies)
        inv = [1.0 / c for c in game.copies]
        self.inv = inv
        # a card's type as `encode` reads it back from its code
        self.canon = [game.code_index[code.lower()] for code in game.codes]
        acc = []
        for t in range(k):
            sums = [0.0]
            for _ in range(game.total):
                sums.append(sums[-1] + inv[t])
            acc.append(sums)
        self.acc = acc
        # the same values as float32 bytes, to join a slice from counts: acc_bytes[t][c] is acc[t][c],
        # unseen_bytes[t][u] is u × inv[t] (and, from the end, −u × inv[t]: an impossible negative
        # count would still show what `encode` shows)
        one = tensors.packer(1)
        self.acc_bytes = [[one(v) for v in sums] for sums in acc]
        self.unseen_bytes = [
            [one(u * inv[t]) for u in range(game.total + 1)]
            + [one(-u * inv[t]) for u in range(game.total, 0, -1)]
            for t in range(k)
        ]
        self.dummy = [kind == DUMMY for kind in game.kind]
        # where seat q's block starts, for each observer (seats are relative), and q's order value
        # for each start player
        self.seat_base = [[((q - me) % n) * SEAT_WIDTH for q in range(n)] for me in range(n)]
        self.order_values = [[((q - start) % n) / self.order_scale for q in range(n)] for start in range(n)]
        self.seats_zero = [0.0] * (n * SEAT_WIDTH + 1)
        self.owner_starts = [q * game.total for q in range(1, n)]  # the first tid of each seat but 0's
        self.width = 6 + n + k
        self.hand_at = 6 + 10 + 8 + k * TYPE_WIDTH
        self.pending_at = self.hand_at + 7 * k
        self.drink_at = self.pending_at + k
        self.seats_at = self.drink_at + k + 2 * s + 2
        self.slots_at = self.seats_at + n * SEAT_WIDTH + 1
        self.empty_seat = (0.0,) * 6
        self.pack_head = tensors.packer(16)
        self.pack_drink = tensors.packer(k + 2 * s + 2)
        self.pack_seats = tensors.packer(n * SEAT_WIDTH + 1)
        self.pack_row = tensors.packer(self.width)
        self.one = tensors.packer(1)(1.0)

        vals = [0.0] * shape(game)[0]
        _rules_block(game, vals, 16)
        template = np.array(vals, dtype=np.float32)
        np.clip(template, -1.0, 1.0, out=template)
        self.template = template
        self.template_bytes = template.tobytes()
        # per events list (by identity): [the list, events read, per seat the faces of its tokkuri
        # emptied by another player since the last round_start] — see `_others_captured`
        self.emptied: dict[int, list[Any]] = {}
        self.emptied_limit = 64
        # a seat's tokkuri figures: (the seat block's last 6 values, its tokkuri at penalty_level or
        # more), by their levels and the highest placement − 1
        self.figures: dict[tuple[tuple[int, ...], int], tuple[tuple[float, ...], int]] = {}
        # a tokkuri slot as bytes, by what it shows (see `row`)
        self.rows: dict[tuple[int, int, int, int, int | None], bytes] = {}
        # per observer and seat, its run as last shown: (tids, levels, faces shown or None, the
        # drink's targets or None, the run's bytes, its figures, its penalised count); a new look
        # at the same run takes it whole
        self.last_runs: list[list[tuple[Any, ...] | None]] = [[None] * n for _ in range(n)]

    def figure(self, key: tuple[tuple[int, ...], int]) -> tuple[tuple[float, ...], int]:
        """A seat's tokkuri figures as its block shows them, and how many are penalised."""
        levels, top = key
        penalised = sum(1 for lv in levels if lv >= self.penalty_level)
        figures = (
            len(levels) / self.m,
            sum(levels) / self.levels_scale,
            penalised / self.hand_size,
            min(levels) / self.level,
            max(levels) / self.level,
            (top + 1) / self.dealt,
        )
        if len(self.figures) >= _CACHE_LIMIT:
            self.figures.clear()
        made = self.figures[key] = (figures, penalised)
        return made

    def row(self, key: tuple[int, int, int, int, int | None]) -> bytes:
        """One tokkuri slot: (relative owner, tid, level, face shown or −1, place among the
        drink's targets or None)."""
        rel, tid, lv, face, place = key
        b = 1 + self.n
        vals = [0.0] * self.width
        vals[0] = 1.0
        vals[1 + rel] = 1.0
        vals[b] = lv / self.level
        vals[b + 1] = 1.0 if lv >= self.penalty_level else 0.0
        vals[b + 2] = (tid % self.total + 1) / self.dealt
        if place is not None:
            vals[b + 3] = (place + 1) / self.s
        if face >= 0:  # shown: the observer owns it
            vals[b + 4] = 1.0
            vals[b + 5 + self.canon[face]] = 1.0
        if len(self.rows) >= _CACHE_LIMIT:
            self.rows.clear()
        made = self.rows[key] = self.pack_row(*vals)
        return made


def _others_captured(fixed: _Fixed, events: list[tuple[Any, ...]], seat: int) -> list[int]:
    """The faces of `seat`'s tokkuri that another player emptied this round (not dummies): what
    `encode` reads from the log. Kept per events list and read on from where it stopped, since a
    round's events only grow (a state's list is only appended to; a new list is another entry)."""
    emptied = fixed.emptied
    kept = emptied.get(id(events))
    if kept is None or kept[0] is not events or kept[1] > len(events):
        start = 0
        for i in range(len(events) - 1, -1, -1):
            if events[i][0] == "round_start":
                start = i
                break
        if len(emptied) >= fixed.emptied_limit:
            _forget_finished(fixed)
        kept = emptied[id(events)] = [events, start, [[] for _ in range(fixed.n)]]
    done = kept[1]
    if done < len(events):
        faces = kept[2]
        dummy = fixed.dummy
        for i in range(done, len(events)):
            e = events[i]
            tag = e[0]
            if tag == "round_start":
                faces = kept[2] = [[] for _ in range(fixed.n)]
            elif tag == "empty":
                _, p, owner, _, face = e
                if p != owner and not dummy[face]:
                    faces[owner].append(face)
        kept[1] = len(events)
    found: list[int] = kept[2][seat]
    return found


def _forget_finished(fixed: _Fixed) -> None:
    """Make room in `fixed.emptied`: drop the events lists no state holds any more (a finished game's:
    the entry's is then the only reference), or everything where that cannot be told; and let the
    table hold twice as many where what is left is still most of it (many games played at once)."""
    getrefcount = getattr(sys, "getrefcount", None)
    if getrefcount is None:
        fixed.emptied.clear()
        return
    for key, entry in list(fixed.emptied.items()):
        if getrefcount(entry[0]) <= 2:  # the entry's reference and the call's own
            del fixed.emptied[key]
    if len(fixed.emptied) > fixed.emptied_limit // 2:
        fixed.emptied_limit *= 2


def encode_state(game: TokkuriGame, state: Any, seat: int | None, out: np.ndarray) -> None:
    """`encode(game, state.view(seat), out)` without building the view (nor its log): the same
    values, bit for bit, read from the state's fields (only those the view shows). `out` need not
    be zeroed. The constant slices come from a template, the rest as packed float32 blocks (see
    above); a strided `out` gets a contiguous copy."""
    fixed: _Fixed = game.__dict__.get("_observation_fixed") or tensors.fixed(game, _Fixed)
    mem = tensors.as_bytes(out)
    if mem is None:
        import numpy as np

        whole = np.empty(out.shape, dtype=np.float32)
        encode_state(game, state, seat, whole)
        out[...] = whole
        return
    n, k, m = fixed.n, fixed.k, fixed.m
    N = fixed.total
    me = seat or 0
    phase = state.phase
    current = state.current_player
    hands = state.hands
    table = state.table
    levels = state.levels
    mem[:] = fixed.template_bytes

    rnd = state.round_no
    rounds = fixed.rounds
    cap = fixed.cap
    onehot = [0.0] * 6
    onehot[phase] = 1.0
    mem[:64] = fixed.pack_head(
        *onehot,
        rnd / rounds,
        1.0 if rnd >= rounds else 0.0,
        1.0 if current is None else 0.0,
        1.0 if seat is None else 0.0,
        1.0 if current is not None and current == seat else 0.0,
        len(state.stock) / N,
        len(state.discard) / N,
        len(table) / m,
        1.0 if cap is not None and len(table) >= cap else 0.0,
        sum(map(len, hands)) / fixed.dealt,
    )

    # Each seat's tokkuri: one run of the table (ids in order, by owner).
    cuts = [0, *map(bisect_left, repeat(table, n - 1), fixed.owner_starts), len(table)]

    # the count slices: each count as the bytes of its value
    unseen = fixed.copies.copy()
    bonus = state.bonus
    if seat is None:
        shown: tuple[Any, ...] = ((), (), (), (), tuple(chain.from_iterable(bonus)), state.discard)
    else:
        shown = (
            hands[seat],
            state.faces[cuts[seat] : cuts[seat + 1]],
            state.captured[seat],
            _others_captured(fixed, state.events, seat),
            tuple(chain.from_iterable(bonus)),
            state.discard,
        )
    step = 4 * k
    at = 4 * fixed.hand_at
    canon = fixed.canon
    acc_bytes = fixed.acc_bytes
    for cards in shown:
        if cards:
            # each card writes its type's count so far in this pile (the last write is the count)
            before = unseen.copy()
            for t in cards:
                t = canon[t]
                left = unseen[t] - 1
                unseen[t] = left
                o = at + 4 * t
                mem[o : o + 4] = acc_bytes[t][before[t] - left]
        at += step
    unseen_at = at
    if seat is not None and phase in (OPEN, GIVE) and state.pending[seat] >= 0:
        t = canon[state.pending[seat]]
        at = 4 * (fixed.pending_at + t)
        mem[at : at + 4] = fixed.one
        unseen[t] -= 1

    chosen: dict[int, int] | None = None  # the drink's targets: tid -> place
    drinker = -1
    if phase == TARGET:
        s = fixed.s
        level = fixed.level
        var = state.d_var
        drinker = state.active
        t = canon[game.var_type[var]]
        unseen[t] -= 1
        drink = [0.0] * (k + 2 * s + 2)
        drink[t] = 1.0
        values = game.var_values[var]
        targets = state.d_targets
        for i, value in enumerate(values[:s]):
            drink[k + i] = value / level
            if i < len(targets):
                drink[k + s + i] = 1.0
        if len(targets) < len(values):
            drink[k + 2 * s] = values[len(targets)] / level
        drink[k + 2 * s + 1] = len(targets) / max(1, len(values))
        at = 4 * fixed.drink_at
        mem[at : at + 4 * len(drink)] = fixed.pack_drink(*drink)
        if targets:
            chosen = {tid: i for i, tid in enumerate(targets)}
    mem[unseen_at : unseen_at + step] = b"".join(map(getitem, fixed.unseen_bytes, unseen))

    # per seat: its figures, and its run of tokkuri slots (by relative owner: the table's order)
    rows = fixed.rows
    figures = fixed.figures
    faces = state.faces
    shown_figures: list[tuple[float, ...]] = [fixed.empty_seat] * n
    penalised = [0] * n
    parts = []
    last_runs = fixed.last_runs[me]
    for q in range(n):
        lo, hi = cuts[q], cuts[q + 1]
        if lo == hi:
            continue
        # the same run as this observer's last look at this seat (most are: a step changes few)
        tids = table[lo:hi]
        own_levels = levels[lo:hi]
        shown_faces = faces[lo:hi] if q == seat else None
        kept = last_runs[q]
        if (
            kept is not None
            and kept[0] == tids
            and kept[1] == own_levels
            and kept[2] == shown_faces
            and kept[3] == chosen
        ):
            parts.append(kept[4])
            shown_figures[q] = kept[5]
            penalised[q] = kept[6]
            continue
        rel = (q - me) % n
        own = tuple(own_levels)
        key = (own, tids[-1] % N)  # (levels, the highest placement − 1: tids are in order)
        shown_figures[q], penalised[q] = figures.get(key) or fixed.figure(key)
        first = len(parts)
        # (parallel slices of one length: zip without `strict=`, whose keyword call costs more
        # than this loop's body)
        if q == seat:  # the observer's own: their cards shown
            for tid, lv, face in zip(table[lo:hi], own, faces[lo:hi]):  # noqa: B905
                row = (rel, tid, lv, face, chosen.get(tid) if chosen else None)
                parts.append(rows.get(row) or fixed.row(row))
        else:
            for tid, lv in zip(table[lo:hi], own):  # noqa: B905
                row = (rel, tid, lv, -1, chosen.get(tid) if chosen else None)
                parts.append(rows.get(row) or fixed.row(row))
        run = b"".join(parts[first:])
        del parts[first:]
        parts.append(run)
        last_runs[q] = (tids, own_levels, shown_faces, chosen, run, shown_figures[q], penalised[q])

    start = state.start
    active = state.active if current is not None else -1
    chosen_seats = state.ask[: state.ask_i] if phase in (OPEN, GIVE) else ()
    victims = state.victims if phase == VICTIM else ()
    winners = state.winners() if current is None else ()
    last = state.last_round_scores
    balances = state.balances
    captured = state.captured
    # the round's scores as they stand (TK-6.1, as `round_scores`) and their settlement
    points = fixed.penalty_points
    round_now = [len(captured[q]) + len(bonus[q]) - points * penalised[q] for q in range(n)]
    scores_key = tuple(round_now)
    deltas = fixed.settled.get(scores_key)
    if deltas is None:
        deltas = fixed.settled[scores_key] = settle(round_now)
    hand_size = fixed.hand_size
    score_scale = fixed.score_scale
    settle_scale = fixed.settle_scale
    balance_scale = fixed.balance_scale
    # the seat blocks (relative seats): the flags set where they hold, then each seat's numbers
    base = fixed.seat_base[me]
    vals = fixed.seats_zero.copy()
    if current is not None:
        vals[base[current]] = 1.0
    if active >= 0:
        vals[base[active] + 1] = 1.0
    vals[base[start] + 2] = 1.0
    for q in chosen_seats:
        vals[base[q] + 4] = 1.0
    for q in victims:
        vals[base[q] + 5] = 1.0
    if drinker >= 0:
        vals[base[drinker] + 6] = 1.0
    for q in winners:
        vals[base[q] + 7] = 1.0
    order = fixed.order_values[start]
    for q in range(n):
        b = base[q]
        vals[b + 3] = order[q]
        vals[b + 8 : b + 21] = (
            len(hands[q]) / hand_size,
            len(captured[q]) / hand_size,
            len(bonus[q]) / hand_size,
            round_now[q] / score_scale,
            deltas[q] / settle_scale,
            0.0 if last is None else last[q] / score_scale,
            balances[q] / balance_scale,
            *shown_figures[q],
        )
    vals[-1] = 1.0 if last is not None else 0.0
    at = 4 * fixed.seats_at
    mem[at : 4 * fixed.slots_at] = fixed.pack_seats(*vals)

    at = 4 * fixed.slots_at
    slots_shown = b"".join(parts)[: 4 * m * fixed.width]  # at most m (a true bound: see `slots`)
    mem[at : at + len(slots_shown)] = slots_shown
    tensors.clip_unit(out)
