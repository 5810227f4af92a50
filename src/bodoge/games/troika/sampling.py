"""Determinization for Troika (`Troika.sample_state`, `Troika.sampler`): a full state consistent with
one seat's view, built through the rules.

Hidden from a seat in each round: the tiles of the other players' deals, draws and face-down hand
returns, the 2-player set-aside tiles and the face-down pool (the round's end shows every hand). The
actions themselves are public, so the view's log gives every action of the game.

How a round is sampled. Under the chance model (TR-D18: every deal, flip, draw and set-aside takes a
physical tile uniformly from the pool) the numbers of the tiles the seat has not seen are, by deferred
decisions, a uniformly random arrangement of the numbers it cannot account for: any two such tiles
are interchangeable. Two things break that symmetry:

- the seat's own face-down returns ("marked" tiles: number known, place not). A returned tile was in
  the pool when it went back; any later unseen draw may have taken it (TR-D9), and its taker may have
  put it back. The view's `returned_in_pool` is what the seat may still rely on, not a fact;
- declarations (TR-7.1): a declarer's hand, frozen from then on (TR-5.5.3), made a legal one.

So the round is a hidden Markov chain whose state is where the marked tiles are, plus the numbers in
the declarers' hands (usually no state at all). `_Round` reads the round once and computes, event by
event, the probability of each state given all the seat saw (flips, its own draws, declarations, the
round's end); each sample draws a path back from the end (forward filtering, backward sampling), moves
interchangeable tiles along it at random, and deals the numbers still free uniformly among them. This
is exact under the chance model, taking another player's face-down return to be any tile of their hand
with equal probability (their choice is hidden; any other rule would need their strategy).

The game is then played through the rules (`play.stacked_state`, `play.play_stacked`): each
round's chance outcomes stacked in order (TR-3.4) and the log's actions applied and checked.

It never fails: the true history has positive probability, so no step of the forward pass is left
without a state, and each path it gives replays legally by construction. A view that no game with these
options can produce raises BadOption.

A `Sampler` (what `Troika.sampler` returns: a search reads its view once) samples the round in play
afresh at each call. Earlier rounds are sampled the same way, but once: all tiles are reshuffled each
round (TR-D10), so nothing hidden in them bears on play now. They are drawn with a fixed seed, so
they are a function of the log alone, and the last few are kept for the calls that share them (each
call of a search, and every `sample_state` of a round).

The spectator (seat None) is the same case with no marked tiles.
"""

from __future__ import annotations

import marshal
import random
import threading
from collections.abc import Mapping, Sequence
from math import comb, factorial
from typing import Any

from bodoge.errors import BadOption, IllegalAction
from bodoge.games.troika.cards import N_NUMBERS
from bodoge.games.troika.play import (
    DRAW,
    RETURN_CONTAINER,
    RETURN_HAND,
    TAKE,
    TROIKA,
    play_stacked,
    stacked_state,
)
from bodoge.games.troika.scoring import REASONS
from bodoge.games.troika.state import TroikaGame, TroikaState

# A state of the forward pass: the marked tiles (and declarers' known tiles) as a sorted tuple of codes
# 16 × place + number, place 0 for the pool and q + 1 for the hand of seat q. Pool codes sort first.
Marks = tuple[int, ...]
# What a path says about one event: None (an interchangeable tile, or nothing to choose), a number
# (the marked tile of that number moved), or a declarer's hidden tiles (tile numbers).
Choice = int | tuple[int, ...] | None
# For one event: each state after it -> its possible states before it, with weight and choice.
Back = dict[Marks, list[tuple[Marks, float, Choice]]]

TINY = 5e-324  # a weight too small for a float is kept this small, never dropped (support = truth)


def _with(s: Marks, code: int) -> Marks:
    return tuple(sorted((*s, code)))


def _without(s: Marks, code: int) -> Marks:
    i = s.index(code)
    return s[:i] + s[i + 1 :]


def _pick(weights: Sequence[float], rng: random.Random) -> int:
    """An index with probability proportional to its (positive) weight."""
    r = rng.random() * sum(weights)
    for i, w in enumerate(weights):
        r -= w
        if r < 0:
            return i
    return len(weights) - 1  # rounding at the very top


def _multinomial(parts: Sequence[int]) -> int:
    out = factorial(sum(parts))
    for k in parts:
        out //= factorial(k)
    return out


def _legal_hands(avail: Sequence[int], size: int, base: Sequence[int]) -> list[tuple[int, ...]]:
    """Every multiset h of `size` tiles within `avail` (counts, index = number, 1–15) such that h plus
    `base` splits into 3-tile sets with no waste and at least one fuel (TR-5.5.1 item 3)."""
    found: set[tuple[int, ...]] = set()
    h = [0] * 16
    dead: set[tuple[int, int, int, int, bool]] = set()  # places from which no split completes

    # Up the numbers: p1 jewels started at t − 1 and p2 at t − 2 still need a t (cf. scoring.py);
    # the rest of the t's make fuels, r // 3 of them. True if some split completes from here.
    def rec(t: int, p1: int, p2: int, left: int, fuel: bool) -> bool:
        if t == 16:
            if left == 0 and p1 == 0 and p2 == 0 and fuel:
                found.add(tuple(h))
                return True
            return False
        if (t, p1, p2, left, fuel) in dead:
            return False
        done = False
        for x in range(min(avail[t], left) + 1):
            c = base[t] + x - p1 - p2
            if c < 0:
                continue
            h[t] = x
            most = min(c, base[t + 1] + avail[t + 1] - p1) if t <= 13 else 0
            for j in range(most + 1):  # j jewels t, t+1, t+2 start here (TR-5.2)
                r = c - j
                if r % 3 == 0 and rec(t + 1, j, p1, left - x, fuel or r > 0):
                    done = True
        h[t] = 0
        if not done:
            dead.add((t, p1, p2, left, fuel))
        return done

    if (size + sum(base)) % 3 == 0:
        rec(1, 0, 0, size, False)
    return sorted(found)


# what the dealing pass does at an event (the others move nothing the seat cannot see)
_REMOVE, _EXIT, _REVEAL, _RETURN, _DECLARE, _SHOW = range(6)


class _Round:
    """One round of the seat's log, read once: the forward pass over the marks, and what each sample
    must fill in (the dealing pass's steps, and templates of the chance outcomes and actions)."""

    def __init__(self, game: TroikaGame, seat: int | None, events: list[list[Any]]) -> None:
        self.game = game
        self.seat = seat
        self.number = events[0][1]
        self.backs: dict[int, Back] = {}  # event index -> backpointers, where the marks may move
        self.order: list[int] = []  # those indexes, last first
        self.final: dict[Marks, float] = {(): 1.0}
        self.ops: list[tuple[int, int, int, Any]] = []  # (op, event index, seat, tile or tiles)
        # Outcomes after the set-aside ones, and actions: a tile number / action id, or -j where
        # hidden event j supplies the tile.
        self.outcomes: list[int] = []
        self.actions: list[int] = []
        self._read(events)

    def _impossible(self, why: str) -> None:
        raise BadOption(
            "view",
            f"round {self.number} of the log of seat {self.seat}",
            "a view that a Troika game with these options can produce",
            why,
        )

    # -- reading the round: the forward pass -------------------------------------------------------------

    def _read(self, events: list[list[Any]]) -> None:
        g = self.game
        n = g.num_players
        seat = self.seat
        ops = self.ops
        outcomes = self.outcomes
        actions = self.actions
        unseen = [0, *g.tile_counts]  # by number: the tiles the seat cannot see now (marked ones too)
        usum = g.total_tiles
        m = g.total_tiles  # the face-down pool's size before the event
        sizes = [0] * n
        containers = [[0] * 16 for _ in range(n)]
        alpha = self.final  # {(): 1.0}: no marks until the seat returns a tile or another declares
        trivial = True
        legal_cache: dict[tuple[Any, ...], list[tuple[int, ...]]] = {}

        for j, e in enumerate(events):
            kind = e[0]
            step: list[tuple[Marks, Marks, float, Choice]] = []  # (before, after, weight, choice)
            if kind == "flip" or (kind in ("deal", "draw") and e[2] is not None):
                # A flip, or the seat's own deal or draw: a tile t left the pool, seen.
                t = e[2]
                ops.append((_REVEAL, j, e[1], t))
                outcomes.append(t)
                if trivial:
                    if unseen[t] <= 0 or m <= 0:
                        self._impossible(f"a {t} left the pool when none could be there")
                else:
                    for s in alpha:
                        mp = sum(1 for c in s if c < 16)
                        k = s.count(t)
                        if k:  # the marked t itself
                            step.append((s, _without(s, t), k, t))
                        at = unseen[t] - sum(1 for c in s if c & 15 == t)
                        if at > 0 and m > mp:  # an interchangeable tile, which was a t
                            step.append((s, s, (m - mp) * at / (usum - len(s)), None))
                    if not step:
                        self._impossible(f"a {t} left the pool when none could be there")
                unseen[t] -= 1
                usum -= 1
                m -= 1
                if kind != "flip":
                    sizes[e[1]] += 1
                    if kind == "draw":
                        actions.append(DRAW)
            elif kind in ("deal", "draw"):  # another player's deal or draw: any face-down tile
                q = e[1]
                if m <= 0:
                    self._impossible(f"P{q} took a tile from an empty pool")
                ops.append((_EXIT, j, q, None))
                outcomes.append(-j)
                if kind == "draw":
                    actions.append(DRAW)
                if not trivial:
                    slot = 16 * (q + 1)
                    for s in alpha:
                        mp = sum(1 for c in s if c < 16)
                        if m > mp:
                            step.append((s, s, m - mp, None))
                        for c in set(s):
                            if c < 16:
                                step.append((s, _with(_without(s, c), slot + c), s.count(c), c))
                m -= 1
                sizes[q] += 1
            elif kind == "take":
                containers[e[1]][e[2]] += 1
                actions.append(TAKE + e[2] - 1)
            elif kind == "return_hand":
                q, t = e[1], e[2]
                if t is None:  # another player's face-down return: any tile of their hand
                    if sizes[q] <= 0:
                        self._impossible(f"P{q} returned a tile from an empty hand")
                    ops.append((_RETURN, j, q, None))
                    actions.append(-j)
                    if not trivial:
                        slot = 16 * (q + 1)
                        for s in alpha:
                            mh = sum(1 for c in s if slot <= c < slot + 16)
                            if sizes[q] > mh:
                                step.append((s, s, sizes[q] - mh, None))
                            for c in set(s):
                                if slot <= c < slot + 16:
                                    step.append((s, _with(_without(s, c), c - slot), s.count(c), c - slot))
                else:  # the seat's own return: a marked tile enters the pool (TR-D9)
                    actions.append(RETURN_HAND + t - 1)
                    step = [(s, _with(s, t), 1.0, None) for s in alpha]
                    unseen[t] += 1
                    usum += 1
                m += 1
                sizes[q] -= 1
            elif kind == "return_container":
                containers[e[1]][e[2]] -= 1
                actions.append(RETURN_CONTAINER + e[2] - 1)
            elif kind == "troika":
                actions.append(TROIKA)
                q = e[1]
                if q != seat:
                    # TR-7.1: the declarer's hand, frozen from now on (TR-5.5.3), made it legal.
                    ops.append((_DECLARE, j, q, None))
                    step = self._declare(alpha, q, sizes[q], containers[q], unseen, usum, legal_cache)
            elif kind == "removed":
                ops.append((_REMOVE, j, 0, e[1]))
                m -= e[1]
            elif kind == "round_end":
                # §7: every hand is shown, so the interchangeable tiles in them had those numbers.
                shown = [[0] * 16 for _ in range(n)]
                for q in range(n):
                    for v in e[3][q]:
                        shown[q][v] += 1
                ops.append((_SHOW, j, 0, shown))
                if not trivial:
                    step = self._show(alpha, shown, unseen)
            if step:
                back: Back = {}
                nxt: dict[Marks, float] = {}
                for before, after, w, choice in step:
                    weight = alpha[before] * w or TINY
                    nxt[after] = nxt.get(after, 0.0) + weight
                    back.setdefault(after, []).append((before, weight, choice))
                total = sum(nxt.values())
                alpha = {s: (weight / total) or TINY for s, weight in nxt.items()}
                self.backs[j] = back
                trivial = len(alpha) == 1 and () in alpha
        self.final = alpha
        self.order = sorted(self.backs, reverse=True)

    def _declare(
        self,
        alpha: dict[Marks, float],
        q: int,
        size: int,
        container: list[int],
        unseen: list[int],
        usum: int,
        cache: dict[tuple[Any, ...], list[tuple[int, ...]]],
    ) -> list[tuple[Marks, Marks, float, Choice]]:
        """The ways another player's declaration may go: the numbers of the interchangeable tiles in
        their hand, such that hand and container split into sets with no waste and a fuel (TR-5.5.1),
        each as likely as its share of the arrangements of the unaccounted tiles."""
        slot = 16 * (q + 1)
        step: list[tuple[Marks, Marks, float, Choice]] = []
        for s in alpha:
            base = container.copy()
            avail = unseen.copy()
            free = size
            for c in s:
                avail[c & 15] -= 1
                if slot <= c < slot + 16:
                    base[c - slot] += 1
                    free -= 1
            key = (tuple(avail), free, tuple(base))
            hands = cache.get(key)
            if hands is None:
                hands = cache[key] = _legal_hands(avail, free, base)
            ways = comb(usum - len(s), free)
            for h in hands:
                w = 1
                tiles: list[int] = []
                for v in range(1, 16):
                    if h[v]:
                        w *= comb(avail[v], h[v])
                        tiles += [v] * h[v]
                step.append((s, tuple(sorted(s + tuple(slot + v for v in tiles))), w / ways, tuple(tiles)))
        if not step:
            self._impossible(f"P{q} declared Troika with no hand that makes it legal")
        return step

    def _show(
        self, alpha: dict[Marks, float], shown: list[list[int]], unseen: list[int]
    ) -> list[tuple[Marks, Marks, float, Choice]]:
        """The weight of each state given the hands shown at the round's end: the chance that the
        interchangeable tiles in the hands the seat did not see had exactly the shown numbers."""
        n = self.game.num_players
        hidden = [q for q in range(n) if q != self.seat]
        step: list[tuple[Marks, Marks, float, Choice]] = []
        for s in alpha:
            need = [shown[q].copy() for q in range(n)]
            rest = unseen.copy()
            for c in s:
                rest[c & 15] -= 1
                if c >= 16:
                    need[(c >> 4) - 1][c & 15] -= 1
            parts = [0] * len(hidden)
            ok = True
            for i, q in enumerate(hidden):
                for v in range(1, 16):
                    rest[v] -= need[q][v]
                    if need[q][v] < 0 or rest[v] < 0:
                        ok = False
                parts[i] = sum(need[q])
            if ok:
                num = 1
                for v in range(1, 16):
                    num *= _multinomial([rest[v], *(need[q][v] for q in hidden)])
                step.append((s, s, num / _multinomial([sum(rest), *parts]), None))
        if not step:
            self._impossible("the hands shown at the round's end cannot be reached")
        return step

    # -- one sample --------------------------------------------------------------------------------------

    def sample(self, rng: random.Random) -> tuple[list[int], list[int]]:
        """The round's chance outcomes in order (TR-3.4) and its actions, for one sampled history."""
        g = self.game
        rand = rng.random
        # A path of the marks, drawn backwards from their probability given all the seat saw.
        choices: dict[int, Choice] = {}
        if self.backs:
            final = self.final
            states = list(final)
            s = states[_pick([final[x] for x in states], rng)]
            for j in self.order:
                ways = self.backs[j][s]
                k = 0 if len(ways) == 1 else _pick([w for _, w, _ in ways], rng)
                s, _, choices[j] = ways[k]
        # Every physical tile is an id; an id in the pool or a hand has no number yet (0) until
        # something the seat saw fixes it. Marked tiles move by number, without ids.
        value = [0] * g.total_tiles
        left = [0, *g.tile_counts]  # numbers not yet given to an id
        pool = list(range(g.total_tiles))
        hands: list[list[int]] = [[] for _ in range(g.num_players)]
        marked = [[0] * 16 for _ in range(g.num_players)]  # marked tiles in each hand, by number
        vals: dict[int, int] = {}  # hidden event -> the number it moved
        ids: dict[int, int] = {}  # hidden event -> the id it moved, when not a marked tile
        removed: list[int] = []

        def fix(free: list[int], tiles: list[int]) -> None:
            if len(free) != len(tiles):
                self._impossible("a hand's size does not match its tiles")
            rng.shuffle(tiles)
            for x, v in zip(free, tiles, strict=True):
                value[x] = v
                left[v] -= 1

        for op, j, q, t in self.ops:
            if op == _REVEAL:
                if choices.get(j) is None:  # an interchangeable tile: it was a t
                    i = int(rand() * len(pool))
                    value[pool[i]] = t
                    left[t] -= 1
                    pool[i] = pool[-1]
                    pool.pop()
            elif op == _EXIT:
                c = choices.get(j)
                if c is None:
                    i = int(rand() * len(pool))
                    x = ids[j] = pool[i]
                    pool[i] = pool[-1]
                    pool.pop()
                    hands[q].append(x)
                else:
                    assert isinstance(c, int)
                    marked[q][c] += 1
                    vals[j] = c
            elif op == _RETURN:
                c = choices.get(j)
                if c is None:
                    h = hands[q]
                    i = int(rand() * len(h))
                    x = ids[j] = h[i]
                    h[i] = h[-1]
                    h.pop()
                    pool.append(x)
                else:
                    assert isinstance(c, int)
                    marked[q][c] -= 1
                    vals[j] = c
            elif op == _REMOVE:
                for _ in range(t):
                    i = int(rand() * len(pool))
                    removed.append(pool[i])
                    pool[i] = pool[-1]
                    pool.pop()
            elif op == _DECLARE:
                c = choices[j]
                assert isinstance(c, tuple)
                fix(hands[q], list(c))
            else:  # _SHOW
                for q2 in range(g.num_players):
                    if q2 == self.seat:
                        continue
                    need = t[q2].copy()
                    for v in range(1, 16):
                        need[v] -= marked[q2][v]
                    free = []
                    for x in hands[q2]:
                        if value[x]:
                            need[value[x]] -= 1
                        else:
                            free.append(x)
                    fix(free, [v for v in range(1, 16) for _ in range(need[v])])
        # The ids whose number matters and is still free: numbers from what is left, uniformly.
        free = list({x for x in (*ids.values(), *removed) if not value[x]})
        if free:
            tiles = [v for v in range(1, 16) for _ in range(left[v])]
            if len(tiles) < len(free):
                self._impossible("more tiles are hidden than the tile set has")
            for k, x in enumerate(free):
                i = k + int(rand() * (len(tiles) - k))
                tiles[k], tiles[i] = tiles[i], tiles[k]
                value[x] = tiles[k]
        for j, x in ids.items():
            vals[j] = value[x]
        outcomes = [value[x] for x in removed]
        outcomes += [t if t > 0 else vals[-t] for t in self.outcomes]
        actions = [a if a >= 0 else RETURN_HAND - 1 + vals[-a] for a in self.actions]
        return outcomes, actions


class Sampler:
    """`sample_state` for one view (`Troika.sampler`): the log read and the forward pass of the round
    in play done once; each call samples that round afresh."""

    def __init__(self, game: TroikaGame, view: Mapping[str, Any]) -> None:
        self.game = game
        seat: int | None = view["seat"]
        log = view["log"]
        start = next((i for i in range(len(log) - 1, -1, -1) if log[i]["type"] == "round_start"), None)
        if start is None or log[0]["type"] != "round_start":
            raise BadOption("view", "its log", "a Troika log, from its first round's start")
        self.round = _Round(game, seat, [parse_event(d) for d in log[start:]])
        self._prefix: TroikaState | None = None
        self._last: list[int] = []
        if start:
            self._prefix, self._last = _earlier_rounds(game, seat, log[:start])

    def __call__(self, rng: random.Random) -> TroikaState:
        outcomes, actions = self.round.sample(rng)
        try:
            if self._prefix is None:
                s = stacked_state(self.game, outcomes, rng)
            else:
                copy = self._prefix.clone()
                assert isinstance(copy, TroikaState)
                s = copy
                s._rng = None  # its own future chance, not the prefix's
                s._rng_seed = rng.getrandbits(64)
                play_stacked(s, self._last, next_round=outcomes)
            play_stacked(s, actions)
        except (IllegalAction, BadOption) as exc:
            # Every sampled history replays by construction: only a view no game produces gets here.
            raise BadOption(
                "view", "its log", "a view that a Troika game with these options can produce", str(exc)
            ) from None
        return s


# The earlier rounds, played through the rules, by (game, seat, log of those rounds): the last few.
_EARLIER: list[tuple[TroikaGame, int | None, list[Any], TroikaState, list[int]]] = []
_EARLIER_KEPT = 8
_EARLIER_LOCK = threading.Lock()


def _earlier_rounds(game: TroikaGame, seat: int | None, log: list[Any]) -> tuple[TroikaState, list[int]]:
    """The rounds before the one in play, played through the rules up to their very last action, and
    that action (it starts the round in play). Nothing in them bears on play now (TR-D10), so one
    sample serves: it is drawn with a fixed seed, a function of the log alone, and kept for the next
    calls with the same earlier rounds (every call of a search, and of each move in a round)."""
    with _EARLIER_LOCK:
        for i, (g, p, before, prefix, last) in enumerate(_EARLIER):
            if g is game and p == seat and before == log:
                _EARLIER.append(_EARLIER.pop(i))
                return prefix, last
    events = [parse_event(d) for d in log]
    starts = [i for i, e in enumerate(events) if e[0] == "round_start"]
    ends = [*starts[1:], len(events)]
    rng = random.Random(0)
    played = [_Round(game, seat, events[a:b]).sample(rng) for a, b in zip(starts, ends, strict=True)]
    try:
        s = stacked_state(game, played[0][0], rng)
        for i in range(len(played) - 1):
            play_stacked(s, played[i][1], next_round=played[i + 1][0])
        play_stacked(s, played[-1][1][:-1])
    except (IllegalAction, BadOption) as exc:
        raise BadOption(
            "view", "its log", "a view that a Troika game with these options can produce", str(exc)
        ) from None
    last = played[-1][1][-1:]
    with _EARLIER_LOCK:
        # a copy of its own (marshal: the quickest deep copy of plain JSON data), safe from the caller
        _EARLIER.append((game, seat, marshal.loads(marshal.dumps([dict(e) for e in log])), s, last))
        del _EARLIER[:-_EARLIER_KEPT]
    return s, last


def sample_state(game: TroikaGame, view: Mapping[str, Any], rng: random.Random) -> TroikaState:
    """A full state consistent with `view` (DESIGN.md §2); see the module docstring."""
    return Sampler(game, view)(rng)


def sampler(game: TroikaGame, view: Mapping[str, Any]) -> Sampler:
    """`sample_state` for many samples of one view, read once."""
    return Sampler(game, view)


def parse_event(d: Mapping[str, Any]) -> list[Any]:
    """The event of a log entry, as a list (hidden tiles None); the inverse of `event_view`."""
    kind = d["type"]
    if kind == "round_start":
        return [kind, d["round"], d["start_player"]]
    if kind == "removed":
        return [kind, d["count"]]
    if kind == "troika":
        return [kind, d["seat"], d["first"]]
    if kind == "game_end":  # after the last round: nothing for a sample to rebuild
        return [kind, tuple(d["winners"]), tuple(d["chips"]), tuple(d["placements"])]
    if kind == "round_end":
        ps = d["players"]
        return [
            kind,
            d["round"],
            REASONS.index(d["reason"]),
            tuple(tuple(p["hand"]) for p in ps),
            tuple(tuple(p["container"]) for p in ps),
            tuple(p["round_score"] for p in ps),
            tuple(p["chips"] for p in ps),
            tuple(p["placement"] for p in ps),
            d["first_declarer"],
            tuple(p["declared"] for p in ps),
            tuple(p["chip_total"] for p in ps),
        ]
    return [kind, d["seat"], d["tile"]]


def weighted_hands(counts: Sequence[int], size: int) -> list[tuple[tuple[int, ...], int]]:
    """Every multiset of `size` tiles drawn from `counts`, with its number of physical ways."""
    out: list[tuple[tuple[int, ...], int]] = []
    pick = [0] * N_NUMBERS

    def rec(i: int, left: int, ways: int) -> None:
        if left == 0:
            out.append((tuple(pick), ways))
            return
        if i == N_NUMBERS:
            return
        for k in range(min(left, counts[i]), -1, -1):
            pick[i] = k
            rec(i + 1, left - k, ways * comb(counts[i], k))
        pick[i] = 0

    rec(0, size, 1)
    return out
