"""Tokkuri (トックリ): the rules (spec shared/rules/tokkuri.md, rule ids TK-…).

Cards are ints: the index of their type in option `deck` (the `Tokkuri.codes` list). A hand is a
list of type indices; the draw deck (`stock`) is a list with its top card at the end. A tokkuri on
the table is a `tid` = owner × N + (k − 1) for id `T<owner>.<k>` (N = cards in the deck: nobody can
place more than N tokkuri in one round); the on-table tokkuri are three parallel lists `table`
(tids in increasing order: by owner, then placement), `levels` and `faces`.

Decisions (TK-4): OPEN (every player in turn, hidden until all chose), ACTION (place or drink),
TARGET (one per number of the drunk card), VICTIM (the `9`), GIVE (pass-left, hidden until all
chose). Action ids, in this order: `target T<s>.<k>` (its id is the tid), `place <code>` (OPEN and
ACTION), `drink <code>[=<values>]`, `victim P<s>`, `give <code>`.
"""

from __future__ import annotations

import itertools
import random
from bisect import bisect_left, insort
from collections.abc import Mapping
from typing import Any, ClassVar

from bodoge.core import options as opts
from bodoge.core.game import Game, State
from bodoge.errors import BadOption
from bodoge.games.tokkuri import cards as C
from bodoge.games.tokkuri.text import event_text, event_text_ja

NUMBER, DUMMY, TROUBLE = 0, 1, 2
NO_EFFECT, DISCARD, DRAW, PASS, BONUS = 0, 1, 2, 3, 4
OPEN, ACTION, TARGET, VICTIM, GIVE, OVER = 0, 1, 2, 3, 4, 5
PHASES = ("open", "action", "target", "victim", "give", "over")


#: The most rounds a game may be set to last (options `rounds` and `max_rounds`).
MAX_ROUNDS = 100


def settle(round_scores: list[int]) -> list[int]:
    """TK-6.2: each seat's balance change. Every player below the top score M pays (M − own score)
    to each player who has M; if everyone has M nobody pays."""
    scores = list(round_scores)
    if not scores:
        return []
    top = max(scores)
    winners = [i for i, s in enumerate(scores) if s == top]
    delta = [0] * len(scores)
    if len(winners) == len(scores):
        return delta
    for loser, score in enumerate(scores):
        if score == top:
            continue
        owed = top - score
        delta[loser] -= owed * len(winners)
        for w in winners:
            delta[w] += owed
    return delta


def completable(values_desc: tuple[int, ...], levels_desc: list[int]) -> bool:
    """TK-4.3: can each value go to a different tokkuri without taking a level below 0?"""
    if len(values_desc) > len(levels_desc):
        return False
    return all(v <= lv for v, lv in zip(values_desc, levels_desc, strict=False))


class Tokkuri(Game):
    name = "tokkuri"
    title: ClassVar[dict[str, str]] = {"en": "Tokkuri", "ja": "トックリ"}
    rules_version = 2  # 2: the round shuffle is random.shuffle (deals differ from version 1)
    min_players = 2
    max_players = 4
    default_players = 4
    # Bounds (issue #15), beside each rule's own: rounds and points small enough that the longest
    # game stays sane (max_game_length ≤ 100 rounds × 200 cards × (2 + 6 numbers + 4 players)) and
    # every balance exact in JSON: a round's score lies within −penalty_points × 200 … 200 (TK-6.1),
    # so one settlement moves a balance by at most 3 × 200 × (10**6 + 1) (TK-6.2), and 100 of them
    # stay below 10**11.
    option_specs = (
        opts.Option(
            "deck",
            C.DEFAULT_DECK,
            C.ALLOWED,
            "the card-type list (TK-1.5); default: the 32 cards of TK-1.1 and TK-1.2",
            C.convert_deck,
            C.deck_to_json,
        ),
        opts.integer("start_points", 10, "each player's starting balance (TK-3.1)", 1, 10**6),
        # a hand holds at most half the largest deck (2 players)
        opts.integer("hand_size", 7, "cards dealt to each player per round (TK-3.3)", 2, C.MAX_CARDS // 2),
        opts.integer(
            "rounds",
            None,
            "rounds to play; null: until a bankruptcy or max_rounds (TK-6.5)",
            1,
            MAX_ROUNDS,
            none_ok=True,
        ),
        opts.integer("max_rounds", 50, "the most rounds a game lasts (TK-6.5)", 1, MAX_ROUNDS),
        # at least one tokkuri per player (TK-D20); a cap of every card in the deck is no cap
        opts.integer(
            "max_tokkuri",
            None,
            "the most tokkuri on the table at once; null: no cap (TK-D20)",
            2,
            C.MAX_CARDS,
            none_ok=True,
        ),
        opts.integer("tokkuri_level", 10, "the level of a new tokkuri (TK-3.4)", 1, C.MAX_NUMBER),
        # levels only fall from tokkuri_level: a higher penalty_level penalises nothing
        opts.integer(
            "penalty_level",
            3,
            "a tokkuri left at this level or more is penalised (TK-6.1)",
            1,
            C.MAX_NUMBER,
        ),
        opts.integer("penalty_points", 2, "points lost per penalised tokkuri (TK-6.1)", 0, 10**6),
    )

    def prepare(self) -> None:
        o = self.options
        n = self.num_players
        types: tuple[C.CardType, ...] = o["deck"]
        total = sum(ct.copies for ct in types)
        if n * o["hand_size"] > total:
            if n * 2 > total:
                raise BadOption(
                    "deck",
                    C.deck_to_json(types),
                    f"a deck of players × hand_size = {n * o['hand_size']} to {C.MAX_CARDS} cards",
                    f"out of range: at least {n * o['hand_size']} cards (it holds {total})",
                )
            raise BadOption(
                "hand_size",
                o["hand_size"],
                f"an integer from 2 to {total // n} (players × hand_size ≤ {total}, the cards in the deck)",
                f"out of range: at most {total // n} ({n} × {o['hand_size']} > {total})",
            )
        if o["rounds"] is not None and o["rounds"] > o["max_rounds"]:
            raise BadOption(
                "rounds",
                o["rounds"],
                f"null, or an integer from 1 to max_rounds = {o['max_rounds']}",
                f"out of range: at most max_rounds = {o['max_rounds']}",
            )
        if o["max_tokkuri"] is not None and o["max_tokkuri"] < n:
            raise BadOption(
                "max_tokkuri",
                o["max_tokkuri"],
                f"null, or an integer from the number of players ({n}) to {C.MAX_CARDS}",
                f"out of range: at least the number of players, {n}",
            )
        self.types = types
        self.codes = [ct.code for ct in types]
        self.code_index = {ct.code.lower(): i for i, ct in enumerate(types)}
        self.kind = [KINDS_INDEX[ct.kind] for ct in types]
        self.effect = [EFFECTS_INDEX[ct.effect] for ct in types]
        self.copies = [ct.copies for ct in types]
        self.ntypes = T = len(types)
        self.total = total
        self.all_cards = [t for t in range(T) for _ in range(types[t].copies)]
        #: after[p]: the seats from p's left neighbour round to p itself (TK-4.7).
        self.after = [tuple((p + i) % n for i in range(1, n + 1)) for p in range(n)]
        self.trouble = next((t for t in range(T) if self.kind[t] == TROUBLE), -1)
        self.max_slots = max((len(ct.slots) for ct in types), default=0)
        # Drink variants: one per number type and choice of values for its range slots (TK-D31).
        self.var_type: list[int] = []
        self.var_values: list[tuple[int, ...]] = []
        self.var_desc: list[tuple[int, ...]] = []
        self.var_rest: list[list[tuple[int, ...]]] = []  # per slot i: values after i, descending
        self.var_text: list[str] = []
        self.type_vars: list[list[int]] = [[] for _ in range(T)]
        self.var_index: dict[tuple[int, tuple[int, ...]], int] = {}
        for t, ct in enumerate(types):
            if ct.kind != "number":
                continue
            ranged = [i for i, (lo, hi) in enumerate(ct.slots) if lo != hi]
            for values in itertools.product(*(range(lo, hi + 1) for lo, hi in ct.slots)):
                v = len(self.var_type)
                self.var_type.append(t)
                self.var_values.append(values)
                self.var_desc.append(tuple(sorted(values, reverse=True)))
                self.var_rest.append(
                    [tuple(sorted(values[i + 1 :], reverse=True)) for i in range(len(values))]
                )
                text = f"drink {ct.code}"
                if ranged:
                    text += "=" + "+".join(str(values[i]) for i in ranged)
                self.var_text.append(text)
                self.type_vars[t].append(v)
                self.var_index[(t, values)] = v
        D = len(self.var_type)
        N = total
        # `target` ids first, so that a tokkuri's tid is its target id.
        self.a_target = 0
        self.a_place = n * N
        self.a_drink = self.a_place + T
        self.a_victim = self.a_drink + D
        self.a_give = self.a_victim + n
        self.num_actions = self.a_give + T
        self.cap = o["max_tokkuri"]
        self.level = o["tokkuri_level"]
        self.var_slots = [len(values) for values in self.var_values]
        # single_value[t]: the number of a card with one number and one reading; 0: not a
        # number card; -1: any other number card.
        self.single_value = [
            0
            if self.kind[t] != NUMBER
            else self.var_values[vs[0]][0]
            if len(vs) == 1 and len(self.var_values[vs[0]]) == 1
            else -1
            for t, vs in enumerate(self.type_vars)
        ]
        self.single_action = [self.a_drink + vs[0] if vs else -1 for vs in self.type_vars]
        self.place_action = [self.a_place + t for t in range(T)]
        self.slot_info = [
            [(values[i], self.var_rest[v][i]) for i in range(len(values))]
            for v, values in enumerate(self.var_values)
        ]
        self.drink_checks: list[list[tuple[int, tuple[tuple[int, int], ...]]]] = [
            [
                (
                    self.a_drink + v,
                    tuple(
                        (j, x)
                        for j, x in enumerate(self.var_desc[v])
                        if j + 1 == len(self.var_desc[v]) or self.var_desc[v][j + 1] != x
                    ),
                )
                for v in self.type_vars[t]
            ]
            for t in range(T)
        ]
        self.dummy_mask = sum(1 << t for t in range(T) if self.kind[t] == DUMMY)
        self.all_mask = (1 << T) - 1
        self.tokkuri_ids = {f"T{s}.{k}": (s, k) for s in range(n) for k in range(1, N + 1)}

    def max_game_length(self) -> int:
        # Per round: OPEN and ACTION take one card out of a hand each, and a card leaves the hands
        # at most once a round; a drunk card adds at most max_slots TARGETs, one VICTIM and one
        # GIVE per player.
        o = self.options
        rounds = o["rounds"] if o["rounds"] is not None else o["max_rounds"]
        return rounds * self.total * (2 + self.max_slots + self.num_players)

    def sample_state(self, view: Mapping[str, Any], rng: random.Random) -> State:
        from bodoge.games.tokkuri.sampling import sample_state

        return sample_state(self, view, rng)


KINDS_INDEX = {"number": NUMBER, "dummy": DUMMY, "trouble": TROUBLE}
EFFECTS_INDEX = {"none": NO_EFFECT, "discard": DISCARD, "draw": DRAW, "pass": PASS, "bonus": BONUS}


class LogEntry(dict[str, Any]):
    """One event of a view's log: a dict that refuses changes (views share their log entries)."""

    def _refuse(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("a view's log entry is read-only; copy it with dict(entry)")

    __setitem__ = __delitem__ = update = pop = popitem = clear = setdefault = _refuse  # type: ignore[assignment]

    def __reduce__(self) -> tuple[Any, ...]:  # copies and pickles are plain dicts
        return (dict, (dict(self),))

    __ior__ = _refuse  # type: ignore[assignment]


class TokkuriState(State):
    game: Tokkuri

    # -- setup ----------------------------------------------------------------------------------

    def setup(self) -> None:
        forced: dict[int, list[int]] = {}
        if self.deck is not None:
            forced[1] = self._stacked(self.deck)
        self._begin_game(forced, None)

    def _stacked(self, deck: Any) -> list[int]:
        g = self.game
        allowed = (
            f"a list of all {g.total} card codes of the deck, top first, each code as often as its copies"
        )
        if not isinstance(deck, list | tuple) or not all(isinstance(c, str) for c in deck):
            raise BadOption("deck", deck, allowed, "not a list of codes")
        if len(deck) != g.total:
            raise BadOption("deck", deck, allowed, f"{len(deck)} codes, but the deck has {g.total} cards")
        order = []
        for c in deck:
            t = g.code_index.get(c.strip().lower())
            if t is None:
                raise BadOption("deck", deck, allowed, f"no card has code {c!r}")
            order.append(t)
        if sorted(order) != g.all_cards:
            raise BadOption("deck", deck, allowed, "the codes are not exactly the deck's cards")
        return order

    def _begin_game(self, forced: dict[int, list[int]], steals: list[int] | None) -> None:
        g = self.game
        n = g.num_players
        self._forced_decks = forced
        self._forced_steals = steals
        self._log_cache: dict[int | None, tuple[list[Any], int, list[dict[str, Any]]]] | None = None
        self.balances = [g.options["start_points"]] * n
        self.round_no = 0
        self.last_round_scores: list[int] | None = None
        self._start_round()

    def _start_round(self) -> None:
        """TK-3.3: shuffle everything, deal one at a time from the start player, then OPEN."""
        g = self.game
        n = g.num_players
        self.round_no += 1
        r = self.round_no
        start = (r - 1) % n
        order = self._forced_decks.get(r) if self._forced_decks else None
        if order is not None:
            cards = list(order)
        else:
            cards = g.all_cards.copy()
            self.rng.shuffle(cards)  # Fisher–Yates on the seeded RNG: linear in the deck
        dealt = n * g.options["hand_size"]
        # Card i (from 0) goes to seat (start + i) mod n.
        hands = [sorted(cards[(k - start) % n : dealt : n]) for k in range(n)]
        self.hands = hands  # hands are kept sorted: the legal actions come out in order
        stock = cards[dealt:]
        stock.reverse()
        self.stock = stock  # top card last
        self.table: list[int] = []
        self.levels: list[int] = []
        self.faces: list[int] = []
        self.sorted_levels: list[int] = []  # the levels on the table, low to high
        self.placed = [0] * n
        self.captured: list[list[int]] = [[] for _ in range(n)]
        self.bonus: list[list[int]] = [[] for _ in range(n)]
        self.discard: list[int] = []
        self.start = start
        self.active = start
        self.pending = [-1] * n
        self.ask = [(start + i) % n for i in range(n)]
        self.ask_i = 0
        self.d_var = -1
        self.d_targets: list[int] = []
        self.victims: list[int] = []
        ev = self.events
        ev.append(("round", r, start))
        for s in self.ask:
            ev.append(("deal", s, tuple(sorted(hands[s]))))
        self.phase = OPEN
        self.current_player = start

    # -- legal actions --------------------------------------------------------------------------

    def _legal_actions(self) -> list[int]:
        phase = self.phase
        if phase == ACTION:
            return self._action_choices()
        if phase == TARGET:
            return self._target_choices()
        g = self.game
        p = self.current_player
        assert p is not None
        if phase in (OPEN, GIVE):
            a = g.a_place if phase == OPEN else g.a_give
            skip = g.trouble if phase == OPEN else -1  # TK-5.7: never opens
            out = []
            last = -1
            for t in self.hands[p]:  # sorted
                if t != last:
                    last = t
                    if t != skip:
                        out.append(a + t)
            return out
        if phase == VICTIM:
            a = g.a_victim
            return [a + s for s in self.victims]
        return []

    def _action_choices(self) -> list[int]:
        g = self.game
        hand = self.hands[self.current_player]  # type: ignore[index]
        ordered = self.sorted_levels
        top = ordered[-1] if ordered else 0
        single = g.single_value
        place = g.place_action
        places: list[int] = []
        drinks: list[int] = []
        last = -1
        for t in hand:  # sorted: each type once, in order
            if t == last:
                continue
            last = t
            places.append(place[t])
            x = single[t]
            if x > 0:  # one number: it needs a level ≥ it
                if x <= top:
                    drinks.append(g.single_action[t])
            elif x < 0 and ordered:
                # TK-4.3: with the levels sorted high to low, the j-th highest value must fit
                # the j-th highest level; `drink_checks` keeps only the j where the value changes.
                nl = len(ordered)
                for action, need in g.drink_checks[t]:
                    for j, y in need:
                        if j >= nl or ordered[nl - 1 - j] < y:
                            break
                    else:
                        drinks.append(action)
        cap = g.cap
        if cap is not None and len(self.table) >= cap:
            return drinks
        trouble = g.trouble
        if trouble >= 0 and len(hand) > 1 and trouble in hand:
            places.remove(place[trouble])  # TK-5.7
        if drinks:
            places += drinks
        return places

    def _target_choices(self) -> list[int]:
        """TK-4.4: tokkuri not yet chosen, at level ≥ the value, leaving the rest completable."""
        g = self.game
        chosen = self.d_targets
        value, rest = g.slot_info[self.d_var][len(chosen)]
        table = self.table
        levels = self.levels
        if not rest:  # (a tokkuri's target id is its tid)
            if chosen:
                return [
                    tid for tid, lv in zip(table, levels, strict=False) if lv >= value and tid not in chosen
                ]
            if self.sorted_levels[0] >= value:
                return table.copy()
            return [tid for tid, lv in zip(table, levels, strict=False) if lv >= value]
        desc = self.sorted_levels[::-1]
        for tid in chosen:
            desc.remove(levels[table.index(tid)])
        r = len(rest)
        if len(desc) <= r:
            return []
        # Taking a tokkuri of level lv leaves the others: desc[j] for j < k and desc[j + 1] from
        # k on, where k = how many levels exceed lv. The rest fits on the first part while
        # k ≤ fits_before and on the second while k ≥ fits_after (k ≥ r needs only the first).
        fits_before = r
        for j in range(r):
            if rest[j] > desc[j]:
                fits_before = j
                break
        fits_after = 0
        for j in range(r - 1, -1, -1):
            if rest[j] > desc[j + 1]:
                fits_after = j + 1
                break
        # k ≤ fits_before <=> lv ≥ desc[fits_before]; k ≥ fits_after <=> lv < desc[fits_after - 1].
        low = value if fits_before == r else max(value, desc[fits_before])
        high = desc[fits_after - 1] if fits_after else 1 << 60
        return [tid for tid, lv in zip(table, levels, strict=False) if low <= lv < high and tid not in chosen]

    # -- apply ----------------------------------------------------------------------------------

    def _apply(self, action: int) -> None:
        phase = self.phase
        g = self.game
        p: int = self.current_player  # type: ignore[assignment]
        if phase == ACTION:
            if action < g.a_drink:  # TK-3.4
                action -= g.a_place
                self.hands[p].remove(action)
                k = self.placed[p] + 1
                self.placed[p] = k
                tid = p * g.total + k - 1
                table = self.table
                j = bisect_left(table, tid)  # the table is kept in id order
                table.insert(j, tid)
                self.levels.insert(j, g.level)
                self.sorted_levels.append(g.level)  # no level is higher
                self.faces.insert(j, action)
                self.events.append(("place", p, k, action))
                self._end_turn(p)
            else:
                v = action - g.a_drink
                self.hands[p].remove(g.var_type[v])
                self.d_var = v
                self.d_targets = []
                self.events.append(("drink", p, v))
                self.phase = TARGET
        elif phase == TARGET:
            tid = action
            targets = self.d_targets
            targets.append(tid)
            self.events.append(("target", p, tid))
            if len(targets) == g.var_slots[self.d_var]:
                self._resolve(p)
        elif phase == OPEN:
            action -= g.a_place
            self.hands[p].remove(action)
            self.pending[p] = action
            self.events.append(("open", p, action))
            self.ask_i += 1
            if self.ask_i < len(self.ask):
                self.current_player = self.ask[self.ask_i]
            else:
                level = g.level
                N = g.total
                for s in sorted(self.ask):  # TK-4.1: all placed at once, as T<s>.1
                    self.placed[s] = 1
                    self.table.append(s * N)
                    self.levels.append(level)
                    self.sorted_levels.append(level)
                    self.faces.append(self.pending[s])
                    self.pending[s] = -1
                self.events.append(("opened",))
                self._begin_turn(self.start)
        elif phase == GIVE:
            t = action - g.a_give
            self.hands[p].remove(t)
            self.pending[p] = t
            self.events.append(("give", p, t))
            self.ask_i += 1
            if self.ask_i < len(self.ask):
                self.current_player = self.ask[self.ask_i]
            else:
                n = g.num_players
                ev = self.events
                hands = self.hands
                pending = self.pending
                for s in self.ask:  # TK-5.4: all cards move at the same moment
                    ev.append(("gave", s, (s + 1) % n, pending[s]))
                for s in self.ask:
                    insort(hands[(s + 1) % n], pending[s])
                    pending[s] = -1
                self._end_turn(self.active)
        elif phase == VICTIM:
            victim = action - g.a_victim
            self.events.append(("victim", p, victim))
            self._steal(victim)
            self._end_turn(p)

    def _resolve(self, p: int) -> None:
        """TK-4.5, then the card's effect (TK-5)."""
        g = self.game
        v = self.d_var
        values = g.var_values[v]
        card = g.var_type[v]
        table = self.table
        levels = self.levels
        targets = self.d_targets
        kind = g.kind
        faces = self.faces
        effect = g.effect[card]
        ev = self.events
        if len(targets) == 1:  # the common case, kept short
            tid = targets[0]
            j = table.index(tid)
            old = levels[j]
            lv = old - values[0]
            levels[j] = lv
            ordered = self.sorted_levels
            ordered.remove(old)
            if lv:
                insort(ordered, lv)
            bonus = False
            ev.append(("resolve", p, v, (tid,), (lv,), False))
            if lv == 0:
                face = faces[j]
                N = g.total
                ev.append(("empty", p, tid // N, tid % N + 1, face))
                if kind[face] == DUMMY:
                    self.discard.append(face)  # TK-5.6
                else:
                    self.captured[p].append(face)
                del table[j]
                del levels[j]
                del faces[j]
        else:
            emptied = []
            new_levels = []
            ordered = self.sorted_levels
            for i, tid in enumerate(targets):
                j = table.index(tid)
                old = levels[j]
                lv = old - values[i]
                levels[j] = lv
                ordered.remove(old)
                if lv:
                    insort(ordered, lv)
                new_levels.append(lv)
                if lv == 0:
                    emptied.append(j)
            dummy_hit = False
            for j in emptied:
                if kind[faces[j]] == DUMMY:
                    dummy_hit = True
            bonus = effect == BONUS and len(emptied) >= 2 and not dummy_hit  # TK-5.5, TK-D15
            ev.append(("resolve", p, v, tuple(targets), tuple(new_levels), bonus))
            if emptied:
                N = g.total
                for j in emptied:  # TK-4.5 step 3, in slot order
                    face = faces[j]
                    tid = table[j]
                    ev.append(("empty", p, tid // N, tid % N + 1, face))
                    if kind[face] == DUMMY:
                        self.discard.append(face)  # TK-5.6
                    else:
                        self.captured[p].append(face)
                for j in sorted(emptied, reverse=True):
                    del table[j]
                    del levels[j]
                    del faces[j]
        if bonus:
            self.bonus[p].append(card)
        else:
            self.discard.append(card)
        self.d_var = -1
        if not effect:
            self._end_turn(p)
            return
        hands = self.hands
        if effect == DISCARD:  # TK-5.2
            n = g.num_players
            victims = [s for s in range(n) if s != p and hands[s]]
            if not victims and hands[p]:
                victims = [p]
            if victims:
                self.victims = victims
                self.phase = VICTIM
                self.current_player = p
                return
        elif effect == DRAW:  # TK-5.3
            if self.stock:
                c = self.stock.pop()
                insort(hands[p], c)
                ev.append(("draw", p, c))
        elif effect == PASS:  # TK-5.4
            n = g.num_players
            ask = [s for s in ((p + i) % n for i in range(n)) if hands[s]]
            if ask:
                self.ask = ask
                self.ask_i = 0
                self.phase = GIVE
                self.current_player = ask[0]
                return
        self._end_turn(p)

    def _steal(self, victim: int) -> None:
        """TK-5.2: a uniformly random card of the victim's hand goes face up to the discard pile;
        the victim draws one."""
        hand = self.hands[victim]
        if self._forced_steals:
            t = self._forced_steals.pop(0)
            hand.remove(t)
        else:
            t = hand.pop(self.rng.randrange(len(hand)))
        self.discard.append(t)
        self.events.append(("steal", victim, t))
        if self.stock:
            c = self.stock.pop()
            insort(hand, c)
            self.events.append(("draw", victim, c))

    def _end_turn(self, p: int) -> None:
        """TK-4.7: the round ends when no hand holds a card; else the next holder clockwise."""
        hands = self.hands
        g = self.game
        for s in g.after[p]:
            if hands[s]:
                if g.cap is None:
                    self.phase = ACTION
                    self.active = s
                    self.current_player = s
                else:
                    self._begin_turn(s)
                return
        self._end_round()

    def _begin_turn(self, s: int) -> None:
        """TK-4.8: with `max_tokkuri`, skip a holder without a legal ACTION (or end the round)."""
        self.phase = ACTION
        if self.game.cap is not None and not self._can_act(s):
            n = self.game.num_players
            hands = self.hands
            if not any(hands[q] and self._can_act(q) for q in range(n)):
                self.events.append(("stuck",))
                self._end_round()
                return
            while not self._can_act(s):
                self.events.append(("skip", s))
                for i in range(1, n + 1):
                    q = (s + i) % n
                    if hands[q]:
                        s = q
                        break
        self.active = s
        self.current_player = s

    def _can_act(self, s: int) -> bool:
        """Whether seat s, holding cards, would have a legal ACTION now (TK-4.8)."""
        if not self.hands[s]:
            return False
        keep = self.current_player
        self.current_player = s
        can = bool(self._action_choices())
        self.current_player = keep
        return can

    def round_scores(self) -> list[int]:
        """TK-6.1 for the round as it stands."""
        g = self.game
        n = g.num_players
        N = g.total
        pl = g.options["penalty_level"]
        pp = g.options["penalty_points"]
        penalised = [0] * n
        for tid, lv in zip(self.table, self.levels, strict=True):
            if lv >= pl:
                penalised[tid // N] += 1
        return [len(self.captured[s]) + len(self.bonus[s]) - pp * penalised[s] for s in range(n)]

    def _end_round(self) -> None:
        """TK-6.1, TK-6.2, then TK-6.5 or the next round (TK-6.3)."""
        g = self.game
        scores = self.round_scores()
        delta = settle(scores)
        self.balances = [b + d for b, d in zip(self.balances, delta, strict=True)]
        self.last_round_scores = scores
        self.events.append(
            (
                "score",
                self.round_no,
                tuple(scores),
                tuple(self.balances),
                tuple(map(len, self.captured)),
                tuple(map(len, self.bonus)),
            )
        )
        r = self.round_no
        o = g.options
        if min(self.balances) <= 0 or r == o["rounds"] or r >= o["max_rounds"]:
            self.phase = OVER
            self.current_player = None
            return
        self._start_round()

    # -- results --------------------------------------------------------------------------------

    def scores(self) -> list[int]:
        return list(self.balances)

    def winners(self) -> list[int]:
        if self.current_player is not None:
            return []
        top = max(self.balances)
        return [s for s, b in enumerate(self.balances) if b == top]

    # -- texts ----------------------------------------------------------------------------------

    def action_text(self, action: int) -> str:
        from bodoge.games.tokkuri.text import action_text

        return action_text(self.game, action)

    def decision(self) -> str:
        p = self.current_player
        if p is None:
            return "the end of the game"
        g = self.game
        phase = self.phase
        if phase == OPEN:
            return f"P{p} chooses a card to open with (face down; hidden until all have chosen)"
        if phase == ACTION:
            return f"P{p}'s turn: place a tokkuri or drink"
        if phase == TARGET:
            v = self.d_var
            i = len(self.d_targets)
            k = len(g.var_values[v])
            code = g.codes[g.var_type[v]]
            return f"P{p} chooses a tokkuri for the {g.var_values[v][i]} of {code} (number {i + 1} of {k})"
        if phase == VICTIM:
            return f"P{p} chooses a victim: a random card of their hand is discarded, then they draw"
        return f"P{p} chooses a card to give left (hidden until all have chosen)"

    def decision_ja(self) -> str:
        from bodoge.games.tokkuri.text import decision_ja

        return decision_ja(self)

    def render(self, seat: int | None = None) -> str:
        from bodoge.games.tokkuri.text import render

        return render(self, seat)

    # -- views ----------------------------------------------------------------------------------

    def _view(self, seat: int | None) -> dict[str, Any]:
        g = self.game
        codes = g.codes
        N = g.total
        phase = self.phase
        tokkuri = []
        for tid, lv, face in zip(self.table, self.levels, self.faces, strict=True):
            owner = tid // N
            tokkuri.append(
                {
                    "id": f"T{owner}.{tid % N + 1}",
                    "owner": owner,
                    "level": lv,
                    "card": codes[face] if owner == seat else None,
                }
            )
        v: dict[str, Any] = {
            "round": self.round_no,
            "start_player": self.start,
            "phase": PHASES[phase],
            "active": self.active,
            "hand": None if seat is None else [codes[t] for t in sorted(self.hands[seat])],
            "hand_counts": [len(h) for h in self.hands],
            "deck_count": len(self.stock),
            "tokkuri": tokkuri,
            "captured_counts": [len(c) for c in self.captured],
            "my_captured": None if seat is None else [codes[t] for t in self.captured[seat]],
            "bonus": [[codes[t] for t in b] for b in self.bonus],
            "discard": [codes[t] for t in self.discard],
            "round_scores": self.round_scores(),
            "last_round_scores": self.last_round_scores,
            "pending": None,
            "chosen": [],
            "drink": None,
        }
        if phase in (OPEN, GIVE):
            v["chosen"] = self.ask[: self.ask_i]
            if seat is not None and self.pending[seat] >= 0:
                v["pending"] = codes[self.pending[seat]]
        elif phase == TARGET:
            var = self.d_var
            v["drink"] = {
                "seat": self.active,
                "card": codes[g.var_type[var]],
                "values": list(g.var_values[var]),
                "targets": [f"T{tid // N}.{tid % N + 1}" for tid in self.d_targets],
            }
        elif phase == VICTIM:
            v["victims"] = list(self.victims)
        return v

    def log(self, seat: int | None = None) -> list[dict[str, Any]]:
        """The events as `seat` saw them. Each seat's entries are built once per state and kept
        (read-only), so a view costs little more than its newest events; a clone starts afresh."""
        cache = self._log_cache
        if cache is None:
            cache = self._log_cache = {}
        events = self.events
        known, done, entries = cache.get(seat, (events, 0, []))
        if known is not events:  # the event list was replaced: start over
            done, entries = 0, []
        if done < len(events):
            for event in events[done:]:
                seen = self._event_view(event, seat)
                if seen is not None:
                    entries.append(LogEntry(seen))
            cache[seat] = (events, len(events), entries)
        return entries.copy()

    def _event_view(self, event: tuple[Any, ...], seat: int | None) -> dict[str, Any] | None:
        """The event's facts as `seat` saw them, and under "text" (English) and "text_ja" (Japanese) a
        line saying just those facts."""
        seen = self._event_dict(event, seat)
        seen["text"] = event_text(seen)
        seen["text_ja"] = event_text_ja(seen)
        return seen

    def _event_dict(self, event: tuple[Any, ...], seat: int | None) -> dict[str, Any]:
        g = self.game
        codes = g.codes
        tag = event[0]
        if tag == "round":
            return {"event": "round", "round": event[1], "start": event[2]}
        if tag == "deal":
            d: dict[str, Any] = {"event": "deal", "seat": event[1], "count": len(event[2])}
            if seat == event[1]:
                d["cards"] = [codes[t] for t in event[2]]
            return d
        if tag in ("open", "give", "draw"):
            d = {"event": tag, "seat": event[1]}
            if seat == event[1]:
                d["card"] = codes[event[2]]
            return d
        if tag == "opened":
            return {"event": "opened"}
        if tag == "place":
            d = {"event": "place", "seat": event[1], "tokkuri": f"T{event[1]}.{event[2]}"}
            if seat == event[1]:
                d["card"] = codes[event[3]]
            return d
        if tag == "drink":
            v = event[2]
            return {
                "event": "drink",
                "seat": event[1],
                "card": codes[g.var_type[v]],
                "values": list(g.var_values[v]),
            }
        N = g.total
        if tag == "target":
            tid = event[2]
            return {"event": "target", "seat": event[1], "tokkuri": f"T{tid // N}.{tid % N + 1}"}
        if tag == "resolve":
            _, p, v, targets, new_levels, bonus = event
            return {
                "event": "resolve",
                "seat": p,
                "card": codes[g.var_type[v]],
                "values": list(g.var_values[v]),
                "levels": [
                    [f"T{tid // N}.{tid % N + 1}", lv] for tid, lv in zip(targets, new_levels, strict=True)
                ],
                "bonus": bonus,
            }
        if tag == "empty":
            _, p, owner, k, face = event
            dummy = g.kind[face] == DUMMY
            d = {"event": "empty", "seat": p, "tokkuri": f"T{owner}.{k}", "dummy": dummy}
            if dummy or seat in (p, owner):
                d["card"] = codes[face]
            return d
        if tag == "victim":
            return {"event": "victim", "seat": event[1], "victim": event[2]}
        if tag == "steal":
            return {"event": "steal", "seat": event[1], "card": codes[event[2]]}
        if tag == "gave":
            _, giver, receiver, t = event
            d = {"event": "gave", "seat": giver, "to": receiver}
            if seat in (giver, receiver):
                d["card"] = codes[t]
            return d
        if tag == "skip":
            return {"event": "skip", "seat": event[1]}
        if tag == "stuck":
            return {"event": "stuck"}
        if tag == "score":
            _, r, scores, balances, captured, bonus = event
            pp = g.options["penalty_points"]
            penalty = [c + b - x for c, b, x in zip(captured, bonus, scores, strict=True)]
            return {
                "event": "score",
                "round": r,
                "round_scores": list(scores),
                "captured": list(captured),
                "bonus": list(bonus),
                "penalised": [x // pp if pp else 0 for x in penalty],
                "penalty": penalty,
                "changes": settle(list(scores)),
                "balances": list(balances),
                # a later round's events follow every score but the last one of the game
                "game_over": self.current_player is None and self.events[-1] is event,
            }
        raise AssertionError(f"unknown event {event!r}")

    # -- clone and invariants -------------------------------------------------------------------

    def _copy_mutables(self, other: State) -> None:
        assert isinstance(other, TokkuriState)
        other._log_cache = None
        other.balances = self.balances.copy()
        other.hands = [h.copy() for h in self.hands]
        other.stock = self.stock.copy()
        other.table = self.table.copy()
        other.levels = self.levels.copy()
        other.sorted_levels = self.sorted_levels.copy()
        other.faces = self.faces.copy()
        other.placed = self.placed.copy()
        other.captured = [c.copy() for c in self.captured]
        other.bonus = [b.copy() for b in self.bonus]
        other.discard = self.discard.copy()
        other.pending = self.pending.copy()
        other.ask = self.ask.copy()
        other.d_targets = self.d_targets.copy()
        other.victims = self.victims.copy()
        if self._forced_steals:
            other._forced_steals = self._forced_steals.copy()

    def check_invariants(self) -> None:
        g = self.game
        places: list[int] = []
        for h in self.hands:
            places += h
        places += self.stock + self.faces + self.discard
        for c in self.captured:
            places += c
        for b in self.bonus:
            places += b
        places += [t for t in self.pending if t >= 0]
        if self.phase == TARGET:
            places.append(g.var_type[self.d_var])
        assert sorted(places) == g.all_cards, "a card is missing or in two places"
        assert len(self.table) == len(self.levels) == len(self.faces)
        assert self.sorted_levels == sorted(self.levels), "sorted_levels is out of step"
        assert all(h == sorted(h) for h in self.hands), "a hand is not sorted"
        assert self.table == sorted(set(self.table)), "the table is not in id order"
        assert all(lv >= 1 for lv in self.levels), "a tokkuri at level 0 is still on the table"
        N = g.total
        for tid in self.table:
            assert tid % N < self.placed[tid // N], "a tokkuri id was not placed"
        cap = g.options["max_tokkuri"]
        assert cap is None or len(self.table) <= cap
        if self.current_player is not None and self.phase in (OPEN, ACTION, GIVE):
            assert self.hands[self.current_player], "a player without cards is asked to act"


Tokkuri.state_class = TokkuriState
