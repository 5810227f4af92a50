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
from collections.abc import Mapping
from operator import mul
from typing import TYPE_CHECKING, Any

from bodoge.core import tensors
from bodoge.games.tokkuri.cards import DUMMY
from bodoge.games.tokkuri.scoring import settle
from bodoge.games.tokkuri.state import GIVE, OPEN, PHASES, TARGET, VICTIM, TokkuriGame

if TYPE_CHECKING:
    import numpy as np


KINDS = ("number", "dummy", "trouble")
EFFECTS = ("none", "discard", "draw", "pass", "bonus")
TYPE_WIDTH = 15
SEAT_WIDTH = 21


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

    vals[at] = level / 20
    vals[at + 1] = penalty_level / level
    vals[at + 2] = o["penalty_points"] / 5
    vals[at + 3] = hand_size / 15
    vals[at + 4] = o["start_points"] / 50
    vals[at + 5] = 1.0 if cap is not None else 0.0
    vals[at + 6] = rounds / 50
    vals[at + 7] = total / 64
    at += 8

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
    at += k * TYPE_WIDTH

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


class _Fixed:
    """What `encode_state` needs of a game, worked out once: its scales and offsets, the tensor with
    the slices that are the same at every position (rules, card types) and zeros elsewhere, and
    `acc[t][c]`: the value of c cards of type t in a count slice (added one by one, as `encode` does)."""

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
        self.dummy = [kind == DUMMY for kind in game.kind]
        self.orders = [[(me + i) % n for i in range(n)] for me in range(n)]
        self.width = 6 + n + k
        self.hand_at = 6 + 10 + 8 + k * TYPE_WIDTH
        self.slots_at = self.hand_at + 9 * k + 2 * s + 2 + n * SEAT_WIDTH + 1
        self.no_drink = [0.0] * (k + 2 * s + 2)
        self.no_pending = [0.0] * k
        self.empty_seat = [0.0] * 6

        vals = [0.0] * shape(game)[0]
        at = 16
        level = self.level
        vals[at] = level / 20
        vals[at + 1] = self.penalty_level / level
        vals[at + 2] = o["penalty_points"] / 5
        vals[at + 3] = self.hand_size / 15
        vals[at + 4] = o["start_points"] / 50
        vals[at + 5] = 1.0 if self.cap is not None else 0.0
        vals[at + 6] = self.rounds / 50
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
        template = np.array(vals, dtype=np.float32)
        np.clip(template, -1.0, 1.0, out=template)
        self.template = template
        # per events list (by identity): [the list, events read, per seat the faces of its tokkuri
        # emptied by another player since the last round_start] — see `_others_captured`
        self.emptied: dict[int, list[Any]] = {}
        self.emptied_limit = 64
        self._unseen_idx = list(range(self.hand_at + 6 * k, self.hand_at + 7 * k))
        # a tokkuri slot's (indices, values), by (slot, tid, level, observer, face shown, target place)
        self.rows: dict[tuple[Any, ...], tuple[list[int], list[float]]] = {}

    def unseen_idx(self, at: int) -> list[int]:
        assert at == self._unseen_idx[0]
        return self._unseen_idx

    def row(self, key: tuple[Any, ...]) -> tuple[list[int], list[float]]:
        """The nonzero entries of a tokkuri slot, as `encode` writes them."""
        j, tid, lv, seat, face, place = key
        n, N = self.n, self.total
        owner = tid // N
        base = self.slots_at + j * self.width
        b = base + 1 + n
        idx = [base, base + 1 + (owner - (seat or 0)) % n, b]
        val = [1.0, 1.0, lv / self.level]
        if lv >= self.penalty_level:
            idx.append(b + 1)
            val.append(1.0)
        idx.append(b + 2)
        val.append((tid % N + 1) / self.dealt)
        if place is not None:
            idx.append(b + 3)
            val.append((place + 1) / self.s)
        if face >= 0:  # shown: the observer owns it
            idx += (b + 4, b + 5 + self.canon[face])
            val += (1.0, 1.0)
        if len(self.rows) >= 1 << 16:
            self.rows.clear()
        self.rows[key] = (idx, val)
        return idx, val


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
    be zeroed. The constant slices come from a template; the mostly-zero ones (card counts, the
    tokkuri slots) are written as (index, value) pairs, the dense ones as lists."""
    fixed: _Fixed = game.__dict__.get("_observation_fixed") or tensors.fixed(game, _Fixed)
    n, k, s, m = fixed.n, fixed.k, fixed.s, fixed.m
    hand_size = fixed.hand_size
    level = fixed.level
    penalty_level = fixed.penalty_level
    dealt = fixed.dealt
    canon = fixed.canon
    acc = fixed.acc
    N = fixed.total
    me = seat or 0
    phase = state.phase
    current = state.current_player
    hands = state.hands
    table = state.table
    levels = state.levels
    faces = state.faces
    flat = out.reshape(-1)
    flat[:] = fixed.template

    rnd = state.round_no
    rounds = fixed.rounds
    cap = fixed.cap
    head = [0.0] * 16
    head[phase] = 1.0
    head[6] = rnd / rounds
    head[7] = 1.0 if rnd >= rounds else 0.0
    head[8] = 1.0 if current is None else 0.0
    head[9] = 1.0 if seat is None else 0.0
    head[10] = 1.0 if current is not None and current == seat else 0.0
    head[11] = len(state.stock) / N
    head[12] = len(state.discard) / N
    head[13] = len(table) / m
    head[14] = 1.0 if cap is not None and len(table) >= cap else 0.0
    head[15] = sum(map(len, hands)) / dealt
    flat[:16] = head

    # the count slices, sparse: (index, value) pairs written at the end in one go
    idx: list[int] = []
    val: list[float] = []
    unseen = fixed.copies.copy()
    if seat is None:
        piles: tuple[Any, ...] = ((), (), (), ())
    else:
        piles = (
            hands[seat],
            [f for tid, f in zip(table, faces, strict=True) if tid // N == seat],
            state.captured[seat],
            _others_captured(fixed, state.events, seat),
        )
    bonus = state.bonus
    at = fixed.hand_at
    for cards in (*piles, [t for pile in bonus for t in pile], state.discard):
        if cards:
            counts: dict[int, int] = {}
            for t in cards:
                t = canon[t]
                counts[t] = counts.get(t, 0) + 1
            for t, c in counts.items():
                idx.append(at + t)
                val.append(acc[t][c])
                unseen[t] -= c
        at += k
    unseen_at = at
    at += k
    if seat is not None and phase in (OPEN, GIVE) and state.pending[seat] >= 0:
        t = canon[state.pending[seat]]
        idx.append(at + t)
        val.append(1.0)
        unseen[t] -= 1
    at += k

    targets: dict[int, int] = {}
    drinker = -1
    if phase == TARGET:
        var = state.d_var
        drinker = state.active
        t = canon[game.var_type[var]]
        idx.append(at + t)
        val.append(1.0)
        unseen[t] -= 1
        values = game.var_values[var]
        chosen = state.d_targets
        for i, value in enumerate(values[:s]):
            idx.append(at + k + i)
            val.append(value / level)
            if i < len(chosen):
                idx.append(at + k + s + i)
                val.append(1.0)
        if len(chosen) < len(values):
            idx.append(at + k + 2 * s)
            val.append(values[len(chosen)] / level)
        idx.append(at + k + 2 * s + 1)
        val.append(len(chosen) / max(1, len(values)))
        targets = {tid: i for i, tid in enumerate(chosen)}
    at += k + 2 * s + 2
    idx += fixed.unseen_idx(unseen_at)
    val += map(mul, unseen, fixed.inv)

    start = state.start
    active = state.active if current is not None else -1
    chosen_seats = state.ask[: state.ask_i] if phase in (OPEN, GIVE) else ()
    victims = state.victims if phase == VICTIM else ()
    winners = state.winners() if current is None else ()
    last = state.last_round_scores
    balances = state.balances
    captured = state.captured
    per_owner: list[list[int]] = [[] for _ in range(n)]
    placed = [0] * n
    penalised = [0] * n
    for tid, lv in zip(table, levels, strict=True):
        owner = tid // N
        per_owner[owner].append(lv)
        placed[owner] = max(placed[owner], tid % N + 1)
        if lv >= penalty_level:
            penalised[owner] += 1
    # the round's scores as they stand (TK-6.1, as `round_scores`) and their settlement
    points = fixed.penalty_points
    round_now = [len(captured[q]) + len(bonus[q]) - points * penalised[q] for q in range(n)]
    scores_key = tuple(round_now)
    deltas = fixed.settled.get(scores_key)
    if deltas is None:
        deltas = fixed.settled[scores_key] = settle(round_now)
    order_scale = fixed.order_scale
    score_scale = fixed.score_scale
    settle_scale = fixed.settle_scale
    balance_scale = fixed.balance_scale
    vals: list[float] = []
    for q in fixed.orders[me]:
        vals += (
            1.0 if current == q else 0.0,
            1.0 if active == q else 0.0,
            1.0 if start == q else 0.0,
            ((q - start) % n) / order_scale,
            1.0 if q in chosen_seats else 0.0,
            1.0 if q in victims else 0.0,
            1.0 if drinker == q else 0.0,
            1.0 if q in winners else 0.0,
            len(hands[q]) / hand_size,
            len(captured[q]) / hand_size,
            len(bonus[q]) / hand_size,
            round_now[q] / score_scale,
            deltas[q] / settle_scale,
            0.0 if last is None else last[q] / score_scale,
            balances[q] / balance_scale,
        )
        own = per_owner[q]
        if own:
            vals += (
                len(own) / m,
                sum(own) / fixed.levels_scale,
                sum(1 for lv in own if lv >= penalty_level) / hand_size,
                min(own) / level,
                max(own) / level,
                placed[q] / dealt,
            )
        else:
            vals += fixed.empty_seat
    vals.append(1.0 if last is not None else 0.0)
    flat[at : fixed.slots_at] = vals

    rows = fixed.rows
    for j, (tid, lv, face) in enumerate(zip(table[:m], levels, faces, strict=False)):
        # what the row shows: its card only to its owner
        key = (j, tid, lv, seat, face if tid // N == seat else -1, targets.get(tid) if targets else None)
        row = rows.get(key)
        if row is None:
            row = fixed.row(key)
        idx += row[0]
        val += row[1]
    flat[idx] = val
    tensors.clip_unit(flat)
