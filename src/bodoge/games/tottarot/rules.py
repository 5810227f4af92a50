"""Tottarot (トッタロット): the rules of shared/rules/tottarot.md as a Game and a State.

Cards are *type indices* (0 … K−1 in the order of the `deck` option); copies of a type cannot be told
apart (TT-1.4). Places (TT-1.5): `pile` (the draw deck, top card last so `pop()` draws it),
`declared[p]` (−1: none), `discard`, and `rows[p]` whose entries are `type << 1 | inverted`.

Knowledge of a declared card (TT-7) is a bit mask per holder, `knows[p]`: bit q for seat q, and bit n
for "everyone" (EXPOSE), which is what a spectator sees. The mask travels with the card when it is
stolen (TT-D11). Who knows what is itself public (draws, SHARE/PEEK targets, EXPOSE and steals are all
seen by everyone); only the faces are private.

Action ids: `bid v` = v (0 … max_will); `steal P<s>` = steal0 + s; `steal none` = steal0 + n;
`share P<s>` = share0 + s; `peek P<s>` = peek0 + s.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any, ClassVar

from bodoge.core.game import Game, State
from bodoge.core.options import Option, integer
from bodoge.errors import BadOption, IllegalAction
from bodoge.games.tottarot.cards import (
    DECK_ALLOWED,
    DEFAULT_DECK_JSON,
    EXPOSE,
    INVERT,
    SHARE,
    CardType,
    convert_deck,
    deck_to_json,
)
from bodoge.games.tottarot.text import event_text, event_text_ja, render

# Phases: what `current_player` decides.
PH_SHARE = 0
PH_PEEK = 1
PH_BID = 2
PH_STEAL = 3
PH_OVER = 4
PHASES = ("share", "peek", "bid", "steal", "over")


class TottarotState(State):
    game: Tottarot

    # -- setup (TT-3) ----------------------------------------------------------------------------

    def setup(self) -> None:
        stacked: dict[int, list[int]] = {}
        if self.deck is not None:
            stacked[1] = self.game.stacked_order(self.deck, self.rng)
        self._begin(stacked)

    def _begin(self, stacked: dict[int, list[int]]) -> None:
        """A new game; `stacked` gives full deck orders (top first) for some rounds."""
        n = self.game.n
        self._stacked = stacked  # read-only once made: clones share it
        self.round = 0
        self.turn = 0
        self.start = 0
        self.tokens = [0] * n
        self.pile: list[int] = []
        self.declared = [-1] * n
        self.knows = [0] * n
        self.discard: list[int] = []
        self.rows: list[list[int]] = [[] for _ in range(n)]
        self.used = [0] * n  # bit v: will token v revealed as used this round
        self.bids = [-1] * n  # this turn's bids (−1: not yet)
        self.nbid = 0
        self.actors: list[int] = []
        self.qi = 0
        self.icon_queue: list[int] = []
        self.iq = 0
        self.last_dec = [-1] * n  # card decided in the previous turn (−1: none)
        self.phase = PH_BID
        self._start_round()

    def _start_round(self) -> None:
        g = self.game
        n = g.n
        self.round += 1
        self.start = (self.round - 1) % n  # TT-3.1: the marker moves one seat left each round
        order = self._stacked.get(self.round)
        if order is None:
            # TT-3.2 / TT-4.8, the only chance event. Only the top n × turns_per_round cards are
            # ever drawn (or seen), so a partial Fisher-Yates shuffle of that prefix is the same
            # uniform deal; the cards below it stay in a fixed order, never drawn nor shown.
            order = g.full_deck.copy()
            size = len(order)
            rnd = self.rng.random
            for i in range(g.drawn_per_round):
                j = i + int(rnd() * (size - i))
                order[i], order[j] = order[j], order[i]
        self.pile = order[::-1]
        self.discard = []
        self.rows = [[] for _ in range(n)]
        self.used = [0] * n
        self.last_dec = [-1] * n
        self.turn = 0
        self.events.append(("round", self.round, self.start))
        self._start_turn()

    # -- a turn (TT-4) ---------------------------------------------------------------------------

    def _start_turn(self) -> None:
        g = self.game
        self.turn += 1
        t = self.turn
        pile = self.pile
        declared = self.declared
        knows = self.knows
        order = g.orders[self.start]
        for p in order:  # TT-4.2 declaration, TT-3.3 drawing order
            declared[p] = pile.pop()
            knows[p] = 1 << p
        # One event for the whole declaration: each seat sees only its own card in it.
        self.events.append(("draw", self.round, t, tuple(declared)))
        self.bids = [-1] * g.n
        self.nbid = 0
        if t > 1:  # TT-4.3 icon step, TT-D14 (`next_icon[-1]` is False: no card decided)
            last = self.last_dec
            nxt = g.next_icon
            queue = [p for p in order if nxt[last[p]]]
            if queue:
                self.icon_queue = queue
                self.iq = 0
                self._run_icons()
                return
        self.icon_queue = []
        self.phase = PH_BID
        self.current_player = self.start

    def _run_icons(self) -> None:
        g = self.game
        queue = self.icon_queue
        while self.iq < len(queue):
            h = queue[self.iq]
            icon = g.icons[self.last_dec[h]]
            if icon == EXPOSE:  # TT-5.4: automatic
                self.knows[h] |= g.all_mask
                self.events.append(("expose", self.round, self.turn, h, self.declared[h]))
                self.iq += 1
                continue
            self.phase = PH_SHARE if icon == SHARE else PH_PEEK
            self.current_player = h
            return
        self.phase = PH_BID
        self.current_player = self.start

    def _reveal(self) -> None:
        """TT-4.4: all bids revealed at once; TT-4.5: the actors' queue is fixed now."""
        g = self.game
        bids = self.bids
        used = self.used
        for p in range(g.n):
            used[p] |= 1 << bids[p]
        high = max(bids)
        self.actors = [p for p in g.orders[self.start] if bids[p] == high]
        self.qi = 0
        self.events.append(("reveal", self.round, self.turn, tuple(bids), tuple(self.actors)))
        self._seize()

    def _seize(self) -> None:
        """TT-4.5: each actor in priority order: check, discard, then the STEAL decision."""
        actors = self.actors
        declared = self.declared
        qi = self.qi
        while qi < len(actors):
            a = actors[qi]
            c = declared[a]
            if c < 0:  # TT-D10: their card was taken: skipped entirely
                self.events.append(("skip", self.round, self.turn, a))
                qi += 1
                continue
            self.discard.append(c)  # TT-D8: mandatory, face up (TT-D24)
            declared[a] = -1
            self.knows[a] = 0
            self.events.append(("discard", self.round, self.turn, a, c))
            self.qi = qi
            self.phase = PH_STEAL
            self.current_player = a
            return
        self.qi = qi
        self._decide()

    def _decide(self) -> None:
        """TT-4.6: every held declared card goes to its holder's row; INVERT acts now (TT-D13)."""
        g = self.game
        t = self.turn
        declared = self.declared
        rows = self.rows
        last = self.last_dec
        invert = g.is_invert
        ev = self.events.append
        ev(("decide", self.round, t, tuple(declared)))
        for p in g.orders[self.start]:
            c = declared[p]
            last[p] = c
            if c < 0:
                continue  # TT-D18: nothing is added
            row = rows[p]
            row.append(c << 1)
            if invert[c] and len(row) > 1:  # TT-5.5 / TT-D12: the holder's previous card
                row[-2] ^= 1
                ev(("invert", self.round, t, p, row[-2] >> 1, row[-2] & 1))
        self.declared = [-1] * g.n
        self.knows = [0] * g.n
        if t == g.turns:
            self._score_round()
        else:
            self._start_turn()

    def _score_round(self) -> None:
        """TT-6.1 … TT-6.3."""
        g = self.game
        n = g.n
        eff = g.effective
        totals = [sum([eff[x] for x in row]) for row in self.rows]
        unused = [g.unused_sum[self.used[p]] for p in range(n)]
        best = max(totals)
        tied = [p for p in range(n) if totals[p] == best]
        if len(tied) > 1:  # TT-D21: unused will tokens, then each still tied scores
            most = max(unused[p] for p in tied)
            tied = [p for p in tied if unused[p] == most]
        for p in tied:
            self.tokens[p] += 1
        self.events.append(
            ("score", self.round, tuple(totals), tuple(unused), tuple(tied), tuple(self.tokens))
        )
        if max(self.tokens) >= g.target:  # TT-6.3, TT-D22
            self.phase = PH_OVER
            self.current_player = None
            self.events.append(("end", tuple(self.winners())))
        else:
            self._start_round()

    def row_total(self, p: int) -> int:
        eff = self.game.effective
        return sum([eff[x] for x in self.rows[p]])

    # -- the protocol ----------------------------------------------------------------------------

    def _legal_actions(self) -> list[int]:
        g = self.game
        ph = self.phase
        p = self.current_player
        assert p is not None
        if ph == PH_BID:
            return g.bid_lists[self.used[p]]  # shared, never mutated (the base hands out copies)
        if ph == PH_STEAL:
            declared = self.declared
            s0 = g.steal0
            legal = [s0 + s for s in range(g.n) if declared[s] >= 0 and s != p]
            legal.append(s0 + g.n)
            return legal
        if ph == PH_SHARE:
            return g.share_lists[p]
        return g.peek_lists[p]

    def _apply(self, action: int) -> None:
        g = self.game
        ph = self.phase
        if ph == PH_BID:
            p = self.current_player
            assert p is not None
            self.bids[p] = action
            self.events.append(("bid", self.round, self.turn, p, action))
            self.nbid += 1
            if self.nbid < g.n:
                self.current_player = p + 1 if p + 1 < g.n else 0
            else:
                self._reveal()
        elif ph == PH_STEAL:
            a = self.current_player
            assert a is not None
            s = action - g.steal0
            if s == g.n:
                self.events.append(("nosteal", self.round, self.turn, a))
            else:  # TT-D9, TT-D11: the taker looks at it; earlier knowers still know it
                declared = self.declared
                knows = self.knows
                c = declared[s]
                mask = knows[s] | (1 << a)
                declared[a] = c
                knows[a] = mask
                declared[s] = -1
                knows[s] = 0
                self.events.append(("steal", self.round, self.turn, a, s, c, mask))
            self.qi += 1
            self._seize()
        else:
            h = self.current_player
            assert h is not None
            knows = self.knows
            declared = self.declared
            if ph == PH_SHARE:  # TT-5.2
                s = action - g.share0
                knows[s] |= 1 << h
                knows[h] |= 1 << s
                self.events.append(("share", self.round, self.turn, h, s, declared[h], declared[s]))
            else:  # TT-5.3
                s = action - g.peek0
                knows[s] |= 1 << h
                self.events.append(("peek", self.round, self.turn, h, s, declared[s]))
            self.iq += 1
            self._run_icons()

    def action_text(self, action: int) -> str:
        return self.game.action_texts[action]

    _ALIAS = re.compile(r"(steal|share|peek|bid)\s*p?\s*(\d+)")

    def parse_action(self, text: str) -> int:
        """Besides the texts themselves: `steal 3` = `steal P3` (also share/peek), `p3` at a STEAL,
        SHARE or PEEK decision, and `none`/`pass`/`keep` for `steal none`."""
        try:
            return super().parse_action(text)
        except IllegalAction as exc:
            if not isinstance(text, str) or self.current_player is None:
                raise
            wanted = " ".join(text.split()).lower()
            alias = None
            m = self._ALIAS.fullmatch(wanted)
            if m:
                verb, num = m.groups()
                alias = f"bid {int(num)}" if verb == "bid" else f"{verb} p{int(num)}"
            elif wanted in ("none", "pass", "keep", "no steal", "take nothing") and self.phase == PH_STEAL:
                alias = "steal none"
            elif re.fullmatch(r"p\s*\d+", wanted) and self.phase != PH_BID:
                alias = f"{PHASES[self.phase]} p{int(wanted[1:])}"
            if alias is None or alias == wanted:
                raise
            try:
                return super().parse_action(alias)
            except IllegalAction:
                raise exc from None

    def decision(self) -> str:
        p = self.current_player
        if p is None:
            return "the end of the game"
        where = f"round {self.round}, turn {self.turn}"
        ph = self.phase
        if ph == PH_BID:
            return f"P{p} bids a will token ({where})"
        if ph == PH_STEAL:
            return f"P{p} chooses whose declared card to steal, or none ({where})"
        if ph == PH_SHARE:
            return f"P{p} chooses a player to SHARE declared cards with ({where})"
        return f"P{p} chooses a player to PEEK at ({where})"

    def decision_ja(self) -> str:
        """`decision()` in Japanese."""
        p = self.current_player
        if p is None:
            return "ゲーム終了"
        where = f"ラウンド{self.round}、ターン{self.turn}"
        ph = self.phase
        if ph == PH_BID:
            return f"P{p}が意志トークンを出します({where})"
        if ph == PH_STEAL:
            return f"P{p}が奪う宣告された運命を選ぶか、何も奪わないかを決めます({where})"
        if ph == PH_SHARE:
            return f"P{p}が宣告された運命を見せ合う相手を選びます(見せ合い、{where})"
        return f"P{p}が宣告された運命を覗き見る相手を選びます(覗き見、{where})"

    def scores(self) -> list[int]:
        return list(self.tokens)

    def winners(self) -> list[int]:
        if self.current_player is not None:
            return []
        target = self.game.target
        return [p for p, k in enumerate(self.tokens) if k >= target]

    # -- views (TT-7) ----------------------------------------------------------------------------

    def _view(self, seat: int | None) -> dict[str, Any]:
        g = self.game
        n = g.n
        codes = g.codes
        bit = g.public_bit if seat is None else 1 << seat
        revealed = self.nbid == n
        declared = []
        for p in range(n):
            c = self.declared[p]
            k = self.knows[p]
            declared.append(
                {
                    "holds": c >= 0,
                    "card": codes[c] if c >= 0 and k & bit else None,
                    "known_by": [q for q in range(n) if k >> q & 1],
                    "exposed": bool(k & g.public_bit),
                }
            )
        rows = []
        for p in range(n):
            rows.append(
                [
                    {
                        "card": codes[x >> 1],
                        "inverted": bool(x & 1),
                        "points": g.effective[x],
                    }
                    for x in self.rows[p]
                ]
            )
        bids = []
        for p in range(n):
            v = self.bids[p]
            bids.append(v if v >= 0 and (revealed or p == seat) else None)
        in_icons = self.phase in (PH_SHARE, PH_PEEK)
        return {
            "round": self.round,
            "turn": self.turn,
            "turns_per_round": g.turns,
            "target": g.target,
            "start_player": self.start,
            "phase": PHASES[self.phase],
            "deck_count": len(self.pile),
            "discard": [codes[c] for c in self.discard],
            "declared": declared,
            "rows": rows,
            "totals": [self.row_total(p) for p in range(n)],
            "has_bid": [v >= 0 for v in self.bids],
            "bids": bids,
            "bids_revealed": revealed,
            "used_tokens": [[v for v in range(g.max_will + 1) if self.used[p] >> v & 1] for p in range(n)],
            "unused_tokens": [list(g.bid_lists[self.used[p]]) for p in range(n)],
            "actors": list(self.actors) if revealed else [],
            "actor_index": self.qi if revealed else 0,
            "pending_icons": [
                {"player": h, "icon": g.icon_codes[self.last_dec[h]]} for h in self.icon_queue[self.iq :]
            ]
            if in_icons
            else [],
            "victory_tokens": list(self.tokens),
        }

    def _event_view(self, event: tuple[Any, ...], seat: int | None) -> dict[str, Any] | None:
        out = self._event_fields(event, seat)
        out["text"] = event_text(out)
        out["text_ja"] = event_text_ja(out, self.game.names_ja)
        return out

    def _event_fields(self, event: tuple[Any, ...], seat: int | None) -> dict[str, Any]:
        g = self.game
        codes = g.codes
        kind = event[0]
        if kind == "round":
            return {"type": "round_start", "round": event[1], "start_player": event[2]}
        if kind == "score":
            _, r, totals, unused, gainers, tokens = event
            return {
                "type": "round_end",
                "round": r,
                "totals": list(totals),
                "unused_sums": list(unused),
                "gainers": list(gainers),
                "victory_tokens": list(tokens),
            }
        if kind == "end":
            return {"type": "game_end", "winners": list(event[1])}
        out: dict[str, Any] = {"type": kind, "round": event[1], "turn": event[2]}
        if kind == "draw":
            out["type"] = "declaration"
            out["order"] = list(g.orders[(event[1] - 1) % g.n])
            out["card"] = None if seat is None else codes[event[3][seat]]
        elif kind == "bid":
            p, v = event[3], event[4]
            out["player"] = p
            out["value"] = v if seat == p else None
        elif kind == "reveal":
            out["bids"] = list(event[3])
            out["actors"] = list(event[4])
        elif kind == "discard":
            out["player"] = event[3]
            out["card"] = codes[event[4]]
        elif kind == "steal":
            _, _, _, a, s, c, mask = event
            bit = g.public_bit if seat is None else 1 << seat
            out["player"] = a
            out["target"] = s
            out["card"] = codes[c] if mask & bit else None
        elif kind == "nosteal":
            out["type"] = "steal_none"
            out["player"] = event[3]
        elif kind == "skip":
            out["player"] = event[3]
        elif kind == "decide":
            out["cards"] = [codes[c] if c >= 0 else None for c in event[3]]
        elif kind == "invert":
            out["player"] = event[3]
            out["card"] = codes[event[4]]
            out["inverted"] = bool(event[5])
        elif kind == "share":  # `card`: what this seat was shown
            _, _, _, h, s, ch, cs = event
            out["player"] = h
            out["target"] = s
            out["card"] = codes[cs] if seat == h else codes[ch] if seat == s else None
        elif kind == "peek":
            _, _, _, h, s, cs = event
            out["player"] = h
            out["target"] = s
            out["card"] = codes[cs] if seat == h else None
        elif kind == "expose":
            out["player"] = event[3]
            out["card"] = codes[event[4]]
        else:  # pragma: no cover - every event kind is listed above
            raise AssertionError(f"unknown event {event!r}")
        return out

    def render(self, seat: int | None = None) -> str:
        return render(self, seat)

    # -- tests and cloning -----------------------------------------------------------------------

    def check_invariants(self) -> None:
        g = self.game
        n = g.n
        counts = [0] * len(g.codes)
        for c in self.pile:
            counts[c] += 1
        for c in self.declared:
            if c >= 0:
                counts[c] += 1
        for c in self.discard:
            counts[c] += 1
        for row in self.rows:
            for x in row:
                counts[x >> 1] += 1
        assert counts == list(g.copies), f"cards not conserved: {counts} != {list(g.copies)}"
        assert len(self.pile) == g.deck_size - n * self.turn, "wrong number of cards drawn"
        for p in range(n):
            if self.declared[p] >= 0:
                assert self.knows[p] >> p & 1, f"P{p} does not know its own declared card"
            else:
                assert self.knows[p] == 0
        for p in range(n):
            k = bin(self.used[p]).count("1")
            assert k == self.turn - (0 if self.nbid == n else 1), f"P{p} used {k} tokens in turn {self.turn}"
        total = self.turn * n
        held = sum(1 for c in self.declared if c >= 0)
        assert len(self.discard) + sum(len(r) for r in self.rows) + held <= total
        if self.current_player is None:
            assert self.phase == PH_OVER and max(self.tokens) >= g.target
        else:
            assert max(self.tokens) < g.target

    def _copy_mutables(self, other: State) -> None:
        assert isinstance(other, TottarotState)
        other.tokens = self.tokens.copy()
        other.pile = self.pile.copy()
        other.declared = self.declared.copy()
        other.knows = self.knows.copy()
        other.discard = self.discard.copy()
        other.rows = [row.copy() for row in self.rows]
        other.used = self.used.copy()
        other.bids = self.bids.copy()
        other.actors = self.actors.copy()
        other.icon_queue = self.icon_queue.copy()
        other.last_dec = self.last_dec.copy()


class Tottarot(Game):
    name = "tottarot"
    title: ClassVar[dict[str, str]] = {"en": "Tottarot", "ja": "トッタロット"}
    rules_version = 1
    min_players = 2
    max_players = 6
    default_players = 4
    option_specs = (
        Option(
            "deck",
            DEFAULT_DECK_JSON,
            DECK_ALLOWED,
            "the fate-card types (TT-1.4); default: the 21 PROPOSED cards of TT-1.1",
            convert_deck,
            deck_to_json,
        ),
        integer("max_will", 3, "will tokens are 0 … max_will (the seed's variant: 4)", 1, 9),
        # TT-D26: turns_per_round ≤ max_will + 1 ≤ 10
        integer("turns_per_round", 3, "turns in a round (TT-4.1)", 1, 10),
        # every round gives a token (TT-6.3): at most players × (target − 1) + 1 ≤ 115 rounds
        integer("target", 2, "victory tokens needed to win (TT-6.3)", 1, 20),
    )
    state_class = TottarotState

    def prepare(self) -> None:
        n = self.num_players
        types: tuple[CardType, ...] = self.options["deck"]
        self.types = types
        self.codes = tuple(t.code for t in types)
        self.names_ja = {t.code: t.name_ja for t in types}
        self.code_index = {c: i for i, c in enumerate(self.codes)}
        self.points = tuple(t.points for t in types)
        self.icons = tuple(t.icon_id for t in types)
        self.icon_codes = tuple(t.icon for t in types)
        self.copies = tuple(t.copies for t in types)
        self.full_deck = [i for i, t in enumerate(types) for _ in range(t.copies)]
        self.deck_size = len(self.full_deck)
        self.drawn_per_round = self.num_players * self.options["turns_per_round"]
        self.n = n
        self.max_will = w = self.options["max_will"]
        self.turns = turns = self.options["turns_per_round"]
        self.target = self.options["target"]
        if w + 1 < turns:  # TT-D26
            raise BadOption(
                "max_will",
                w,
                f"an integer from {max(1, turns - 1)} to 9 when turns_per_round is {turns}",
                f"out of range: at least {turns - 1} ({w + 1} will tokens, 0 … {w}, cannot cover {turns} turns)",
            )
        if n * turns > self.deck_size:  # TT-2.1, TT-D25
            raise BadOption(
                "turns_per_round",
                turns,
                f"an integer from 1 to {self.deck_size // n} for {n} players and a deck of "
                f"{self.deck_size} cards (players × turns_per_round ≤ deck size)",
                f"out of range: at most {self.deck_size // n} ({n} × {turns} = {n * turns} cards would be "
                f"drawn from a deck of {self.deck_size})",
            )
        self.public_bit = 1 << n
        # Indexed by a type, or by −1 (no card): the last entry is False.
        self.next_icon = (*tuple(SHARE <= i <= EXPOSE for i in self.icons), False)
        self.is_invert = tuple(i == INVERT for i in self.icons)
        # Effective points of a row entry `type << 1 | inverted` (TT-1.5, TT-6.1).
        self.effective = tuple(p for t in self.points for p in (t, -t))
        self.all_mask = (1 << (n + 1)) - 1
        self.orders = [tuple((s + j) % n for j in range(n)) for s in range(n)]
        self.bid_lists = [[v for v in range(w + 1) if not m >> v & 1] for m in range(1 << (w + 1))]
        self.unused_sum = [sum(b) for b in self.bid_lists]
        self.steal0 = w + 1
        self.share0 = self.steal0 + n + 1
        self.peek0 = self.share0 + n
        self.num_actions = self.peek0 + n
        self.share_lists = [[self.share0 + s for s in range(n) if s != h] for h in range(n)]
        self.peek_lists = [[self.peek0 + s for s in range(n) if s != h] for h in range(n)]
        texts = [f"bid {v}" for v in range(w + 1)]
        texts += [f"steal P{s}" for s in range(n)] + ["steal none"]
        texts += [f"share P{s}" for s in range(n)] + [f"peek P{s}" for s in range(n)]
        self.action_texts = tuple(texts)

    def max_game_length(self) -> int:
        """TT-6.3: every round gives a token, so at most n × (target − 1) + 1 rounds; a turn has at
        most n icon decisions, n bids and n steals."""
        n = self.n
        rounds = n * (self.target - 1) + 1
        return rounds * self.turns * 3 * n

    def stacked_order(self, deck: Any, rng: random.Random) -> list[int]:
        """The first round's deck from `new_state(deck=[codes, top first])`: a prefix of the deck (the
        rest shuffled below it), each code at most its number of copies."""
        allowed = (
            f"a list of at most {self.deck_size} card codes ({', '.join(self.codes)}), top first, "
            "each code at most its number of copies"
        )
        if not isinstance(deck, list | tuple):
            raise BadOption("deck", deck, allowed, "a stacked deck is a list of card codes")
        if len(deck) > self.deck_size:
            raise BadOption("deck", deck, allowed, f"{len(deck)} cards, but the deck has {self.deck_size}")
        left = list(self.copies)
        top = []
        for code in deck:
            i = self.code_index.get(code) if isinstance(code, str) else None
            if i is None:
                raise BadOption("deck", deck, allowed, f"unknown card code {code!r}")
            left[i] -= 1
            if left[i] < 0:
                raise BadOption("deck", deck, allowed, f"more than {self.copies[i]} × {code}")
            top.append(i)
        rest = [i for i, k in enumerate(left) for _ in range(k)]
        rng.shuffle(rest)
        return top + rest

    # -- determinization -------------------------------------------------------------------------

    def sample_state(self, view: Mapping[str, Any], rng: random.Random) -> TottarotState:
        """Rebuild the game from the view's log (every past turn is fully known: each drawn card
        ends discarded or decided, and steals are public), deal the current turn's unknown declared
        cards and the rest of the deck uniformly from the cards unaccounted for, sample the hidden
        bids of this turn among each bidder's unused tokens, and replay."""
        n = self.n
        seat = view["seat"]
        index = self.code_index
        rounds: list[tuple[int, list[list[int | None]]]] = []  # (start, faces per turn by origin seat)
        actions: list[int | None] = []
        hidden_bids: list[tuple[int, int]] = []  # (slot in actions, bidder)
        holder: list[int | None] = []
        faces: list[int | None] = []
        turn = 0
        for e in view["log"]:
            kind = e["type"]
            if kind == "round_start":
                rounds.append((e["start_player"], []))
                turn = 0
                continue
            if kind in ("round_end", "game_end", "skip", "invert"):
                continue
            if e["turn"] != turn:
                turn = e["turn"]
                holder = list(range(n))  # the origin (drawing seat) of each held card
                faces = [None] * n  # the face of the card each origin drew
                rounds[-1][1].append(faces)
            card = e.get("card")
            c = None if card is None else index[card]
            if kind == "declaration":
                if c is not None:
                    faces[seat] = c
            elif kind == "bid":
                if e["value"] is None:
                    hidden_bids.append((len(actions), e["player"]))
                actions.append(e["value"])
            elif kind == "reveal":
                for slot, p in hidden_bids:
                    actions[slot] = e["bids"][p]
                hidden_bids = []
            elif kind == "discard":
                o = holder[e["player"]]
                assert o is not None
                faces[o] = c
                holder[e["player"]] = None
            elif kind == "steal":
                o = holder[e["target"]]
                assert o is not None
                holder[e["player"]] = o
                holder[e["target"]] = None
                if c is not None:
                    faces[o] = c
                actions.append(self.steal0 + e["target"])
            elif kind == "steal_none":
                actions.append(self.steal0 + n)
            elif kind == "decide":
                for p, code in enumerate(e["cards"]):
                    if code is not None:
                        o = holder[p]
                        assert o is not None
                        faces[o] = index[code]
            elif kind in ("share", "peek", "expose"):
                h = e["player"]
                if kind != "expose":
                    actions.append((self.share0 if kind == "share" else self.peek0) + e["target"])
                if c is not None:
                    # What was shown: the target's card (to the holder, or to all for EXPOSE), or
                    # the holder's card (to a SHARE target).
                    shown = (
                        h if kind == "expose" or (kind == "share" and seat == e["target"]) else e["target"]
                    )
                    o = holder[shown]
                    assert o is not None
                    faces[o] = c
        # This turn's bids still hidden from `seat`: any unused token of the bidder.
        unused = view["unused_tokens"]
        for slot, p in hidden_bids:
            actions[slot] = rng.choice(unused[p])
        stacked: dict[int, list[int]] = {}
        for r, (start, turns) in enumerate(rounds, 1):
            left = list(self.copies)
            for turn_faces in turns:
                for c in turn_faces:
                    if c is not None:
                        left[c] -= 1
            if min(left) < 0:
                raise ValueError("the view shows more copies of a card than the deck has")
            rest = [i for i, k in enumerate(left) for _ in range(k)]
            rng.shuffle(rest)
            order = []
            for turn_faces in turns:
                for p in self.orders[start]:
                    c = turn_faces[p]
                    order.append(rest.pop() if c is None else c)
            stacked[r] = order + rest
        state = self.blank_state(rng)
        assert isinstance(state, TottarotState)
        state._begin(stacked)
        # Replay. Every action comes from the engine's own log (or a hidden bid drawn among the
        # bidder's unused tokens), so it is legal: the base's checks are skipped for speed.
        history = state.history
        for a in actions:
            assert a is not None
            history.append(a)
            state._apply(a)
        return state
