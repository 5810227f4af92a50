"""`sample_state` for Tokkuri: a full state consistent with one seat's view (DESIGN.md §2).

The view's log holds, round by round, everything the seat saw: the public course of play (who
placed, what was drunk and where, who was skipped, the random discards) and the seat's own secrets
(its deal, its placements, its draws, what it gave and received, the faces of the tokkuri it
captured or that were captured from it). Every round starts from a fresh shuffle, so each round is
solved on its own:

1. Tokens. The round's N cards are N tokens, token i being deck position i (top first). The deal
   and every draw move tokens exactly as the engine does. A token's card is either fixed (the seat
   saw it, or a public event showed it) or free, with a *domain*: the set of card types it may
   still be (a bit mask), narrowed by the rules (OPEN and a placement from a hand of 2 or more are
   never `trouble`, TK-5.7; a captured tokkuri is never a dummy; a skipped player holds no
   completable card, TK-4.8).
2. Picks. Where the log says a player took a card out of their hand, the solver picks the token:
   - the card is known (a drink, a random discard, a card given to the seat, a tokkuri whose face
     the seat later saw): a token already fixed to that card if the hand has one — always safe,
     since two tokens of the same card can swap their futures — else a free token whose domain
     allows it;
   - the card is hidden (another player's placement or gift): any token of the hand whose domain
     meets what the rest of the round shows about that card (looked up ahead in the log).
   Only a hand holding tokens of different kinds (fixed cards the seat gave away, or free tokens
   with different domains) gives a real choice; the solver tries those in a random order, weighted
   by how many tokens each holds, and backtracks if the round cannot be completed.
3. The free tokens are then dealt the cards the seat cannot account for, at random, respecting
   every domain (a small bipartite matching keeps the choice feasible).

The tokens' cards give each round's deck order and every hidden choice; the state is then rebuilt
by replaying the whole game through the rules with those decks and the logged random discards, so
its events, and every seat's view of them, are those of a game that could really have been played.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from bodoge.errors import BadOption
from bodoge.games.tokkuri import play, setup
from bodoge.games.tokkuri.cards import NUMBER
from bodoge.games.tokkuri.play import completable
from bodoge.games.tokkuri.state import TokkuriGame, TokkuriState

#: Tests set this to replay through `State.apply`, which checks every action's legality.
CHECK_REPLAY = False


class _Budget(Exception):
    """The backtracking search used up its budget; retry with a new random order."""


class _Ctx:
    """What is fixed for one round's solve: the game's tables, the seat, the round's log items."""

    def __init__(self, game: TokkuriGame, p: int, items: list[tuple[Any, ...]], rng: random.Random) -> None:
        self.game = game
        self.p = p
        self.items = items
        self.rng = rng
        self.all = game.all_mask
        self.no_trouble = game.all_mask & ~(1 << game.trouble) if game.trouble >= 0 else game.all_mask
        self.level = game.options["tokkuri_level"]
        self.budget = 0
        # Look ahead: what the rest of the round shows about each tokkuri's face, and which card
        # each GIVE choice turned out to be for the seat that received it.
        self.tk_mask: dict[tuple[int, int], int] = {}
        self.gave_at: dict[int, int] = {}
        not_dummy = game.all_mask & ~game.dummy_mask
        for i, it in enumerate(items):
            tag = it[0]
            if tag == "empty":
                _, _, owner, k, face, _dummy = it
                if face >= 0:
                    self.tk_mask[(owner, k)] = 1 << face
                else:
                    self.tk_mask[(owner, k)] = not_dummy
            elif tag == "give":
                for j in range(i + 1, len(items)):
                    if items[j][0] == "gave" and items[j][1] == it[1]:
                        self.gave_at[i] = j
                        break


class _Solve:
    """The mutable part of a round's solve (copied at each real choice)."""

    __slots__ = ("acts", "code", "dom", "fixed", "hands", "levels", "pending", "steals", "stock", "tk")

    acts: list[int | tuple[int, int]]  # action ids; (base, token): base + the token's card
    code: list[int]  # per token: its card, or -1 while free
    dom: list[int]  # per token: the cards it may still be (bit mask)
    fixed: list[int]  # per card type: tokens fixed to it
    hands: list[list[int]]
    levels: dict[tuple[int, int], int]  # (owner, k) -> level, for the tokkuri on the table
    pending: list[int]  # per seat: the token chosen in OPEN or GIVE, or -1
    steals: list[int]
    stock: int  # the next token to draw
    tk: dict[tuple[int, int], int]  # (owner, k) -> token

    def copy(self) -> _Solve:
        other = _Solve.__new__(_Solve)
        other.code = self.code.copy()
        other.dom = self.dom.copy()
        other.fixed = self.fixed.copy()
        other.hands = [h.copy() for h in self.hands]
        other.stock = self.stock
        other.tk = self.tk.copy()
        other.levels = self.levels.copy()
        other.pending = self.pending.copy()
        other.acts = self.acts.copy()
        other.steals = self.steals.copy()
        return other


def sample_state(game: TokkuriGame, view: Mapping[str, Any], rng: random.Random) -> TokkuriState:
    seat = view.get("seat")
    p = -1 if seat is None else int(seat)
    try:
        rounds = _parse_log(game, view["log"])
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise BadOption(
            "view", "…", "a view made by this game's State.view", f"unreadable log: {exc}"
        ) from None
    forced: dict[int, list[int]] = {}
    actions: list[int] = []
    steals: list[int] = []
    cap = game.options["max_tokkuri"]
    if rounds and cap is not None and view.get("phase") == "action" and len(view.get("tokkuri", ())) >= cap:
        # TK-4.8: the player to move was not skipped, so they hold a card they can drink.
        rounds[-1].append(("must", view["current_player"]))
    for r, items in enumerate(rounds, start=1):
        order, acts, stolen = _solve_round(game, p, items, rng)
        forced[r] = order
        actions += acts
        steals += stolen
    state = game.blank_state(rng)
    assert isinstance(state, TokkuriState)
    setup.begin_game(state, forced, steals)
    play.begin_round(state)
    history = state.history
    for a in actions:
        if CHECK_REPLAY:  # tests: every replayed action must be legal
            state.apply(a)
        else:
            history.append(a)
            state._apply(a)
    state._forced_decks = {}
    state._forced_steals = None
    state._legal = None
    return state


def _parse_log(game: TokkuriGame, log: Any) -> list[list[tuple[Any, ...]]]:
    """The view's log as per-round item lists (-1 where the seat did not see a card)."""
    index = game.code_index

    def card(e: Mapping[str, Any]) -> int:
        c = e.get("card")
        return -1 if c is None else index[c.lower()]

    ids = game.tokkuri_ids

    def tokkuri_id(text: str) -> tuple[int, int]:
        return ids[text]

    rounds: list[list[tuple[Any, ...]]] = []
    cur: list[tuple[Any, ...]] = []
    for e in log:
        tag = e["type"]
        if tag == "round_start":
            cur = [("round", e["round"], e["start_player"])]
            rounds.append(cur)
        elif tag == "deal":
            cards = e.get("cards")
            cur.append(("deal", e["seat"], None if cards is None else [index[c.lower()] for c in cards]))
        elif tag in ("open", "give", "draw"):
            cur.append((tag, e["seat"], card(e)))
        elif tag == "steal":  # the card leaves the robbed hand, the target's
            cur.append(("steal", e["target"], card(e)))
        elif tag == "opened":
            cur.append(("opened",))
        elif tag == "place":
            _, k = tokkuri_id(e["tokkuri"])
            cur.append(("place", e["seat"], k, card(e)))
        elif tag == "drink":
            v = game.var_index[(card(e), tuple(e["values"]))]
            cur.append(("drink", e["seat"], v))
        elif tag == "target":
            owner, k = tokkuri_id(e["tokkuri"])
            cur.append(("target", e["seat"], owner, k))
        elif tag == "resolve":
            cur.append(("resolve", [(*tokkuri_id(tid), lv) for tid, lv in e["levels"]]))
        elif tag == "empty":
            owner, k = tokkuri_id(e["tokkuri"])
            cur.append(("empty", e["seat"], owner, k, card(e), e["dummy"]))
        elif tag == "victim":
            cur.append(("victim", e["seat"], e["target"]))
        elif tag == "gave":
            cur.append(("gave", e["seat"], e["to"], card(e)))
        elif tag == "skip":
            cur.append(("skip", e["seat"]))
        elif tag == "stuck":
            cur.append(("stuck",))
        elif tag == "round_end":
            cur.append(("round_end",))
        elif tag == "game_end":
            pass
        else:
            raise ValueError(f"unknown event {tag!r}")
    return rounds


def _solve_round(
    game: TokkuriGame, p: int, items: list[tuple[Any, ...]], rng: random.Random
) -> tuple[list[int], list[int], list[int]]:
    """One round: (deck order top first, the actions in order, the random discards in order)."""
    ctx = _Ctx(game, p, items, rng)
    n = game.num_players
    N = game.total
    start = items[0][2]
    st = _Solve()
    st.code = [-1] * N
    st.dom = [ctx.all] * N
    st.fixed = [0] * game.ntypes
    st.hands = [[] for _ in range(n)]
    dealt = n * game.options["hand_size"]
    for i in range(dealt):
        st.hands[(start + i) % n].append(i)
    st.stock = dealt
    st.tk = {}
    st.levels = {}
    st.pending = [-1] * n
    st.acts = []
    st.steals = []
    for it in items:
        if it[0] == "deal" and it[1] == p and it[2] is not None:
            cards = list(it[2])
            rng.shuffle(cards)
            for tok, t in zip(st.hands[p], cards, strict=True):
                st.code[tok] = t
                st.fixed[t] += 1
    budget = 2000
    while True:
        ctx.budget = budget
        try:
            done = _walk(ctx, st.copy(), 1)
        except _Budget:
            budget *= 4
            continue
        if done is None:
            raise BadOption(
                "view", "…", "a view made by this game's State.view", "no deal is consistent with it"
            )
        break
    code = done.code
    actions = [a if isinstance(a, int) else a[0] + code[a[1]] for a in done.acts]
    return code, actions, done.steals


def _walk(ctx: _Ctx, st: _Solve, i: int) -> _Solve | None:
    """Go through the round's items from i; None if they cannot be completed from here."""
    g = ctx.game
    items = ctx.items
    N = g.total
    while i < len(items):
        it = items[i]
        tag = it[0]
        if tag in ("open", "place", "drink", "steal", "give"):
            s = it[1]
            hand = st.hands[s]
            if tag == "drink":
                mask = 1 << g.var_type[it[2]]
            elif it[-1] >= 0:
                mask = 1 << it[-1]
            elif tag == "open":
                mask = ctx.tk_mask.get((s, 1), ctx.all) & ctx.no_trouble
            elif tag == "place":
                mask = ctx.tk_mask.get((s, it[2]), ctx.all)
                if len(hand) > 1:
                    mask &= ctx.no_trouble
            else:  # a hidden gift: known only if it went to the seat
                j = ctx.gave_at.get(i)
                mask = ctx.all
                if j is not None and items[j][2] == ctx.p and items[j][3] >= 0:
                    mask = 1 << items[j][3]
            options = _options(st, hand, mask)
            if not options:
                return None
            if len(options) > 1:
                ctx.budget -= 1
                if ctx.budget < 0:
                    raise _Budget
                for opt in _order(ctx.rng, options):
                    branch = st.copy()
                    if _pick(g, branch, s, opt, mask, it) and (done := _walk(ctx, branch, i + 1)) is not None:
                        return done
                return None
            if not _pick(g, st, s, options[0], mask, it):
                return None
        elif tag == "opened":
            for s, tok in enumerate(st.pending):
                if tok >= 0:
                    st.tk[(s, 1)] = tok
                    st.levels[(s, 1)] = ctx.level
                    st.pending[s] = -1
        elif tag == "target":
            st.acts.append(g.a_target + it[2] * N + it[3] - 1)
        elif tag == "resolve":
            for owner, k, lv in it[1]:
                st.levels[(owner, k)] = lv
        elif tag == "empty":
            del st.levels[(it[2], it[3])]
        elif tag == "victim":
            st.acts.append(g.a_victim + it[2])
        elif tag == "draw":
            tok = st.stock
            st.stock += 1
            st.hands[it[1]].append(tok)
            if it[2] >= 0 and not _fix(g, st, tok, it[2]):
                return None
        elif tag == "gave":
            tok = st.pending[it[1]]
            st.pending[it[1]] = -1
            st.hands[it[2]].append(tok)
        elif tag == "must":
            can = ctx.all & ~_not_completable(g, list(st.levels.values()))
            hand = st.hands[it[1]]
            if not any(st.code[tok] >= 0 and can >> st.code[tok] & 1 for tok in hand):
                free: dict[int, int] = {}
                for tok in hand:
                    d = st.dom[tok]
                    if st.code[tok] < 0 and d & can:
                        free[d] = free.get(d, 0) + 1
                for _, d, _ in _order(ctx.rng, [(0, d, k) for d, k in free.items()]):
                    branch = st.copy()
                    tok = next(t for t in branch.hands[it[1]] if branch.code[t] < 0 and branch.dom[t] == d)
                    if _narrow(g, branch, tok, can) and (done := _walk(ctx, branch, i + 1)) is not None:
                        return done
                return None
        elif tag == "skip" or tag == "stuck":
            stuck = _not_completable(g, list(st.levels.values()))
            seats = [it[1]] if tag == "skip" else range(len(st.hands))
            for s in seats:
                for tok in st.hands[s]:
                    if not _narrow(g, st, tok, stuck):
                        return None
        i += 1
    return st if _finish(ctx, st) else None


def _options(st: _Solve, hand: list[int], mask: int) -> list[tuple[int, int, int]]:
    """The kinds of token `hand` could give up under `mask`: (fixed?, card or domain, how many)."""
    code = st.code
    dom = st.dom
    single = mask & (mask - 1) == 0
    known: dict[int, int] = {}
    free: dict[int, int] = {}
    for tok in hand:
        c = code[tok]
        if c >= 0:
            if mask >> c & 1:
                known[c] = known.get(c, 0) + 1
        elif dom[tok] & mask:
            free[dom[tok]] = free.get(dom[tok], 0) + 1
    if single and known:
        # The card is known and a token of it is at hand: taking it is always safe.
        c, count = next(iter(known.items()))
        return [(1, c, count)]
    return [(1, c, k) for c, k in known.items()] + [(0, d, k) for d, k in free.items()]


def _order(rng: random.Random, options: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """The options in a random order, each next one drawn with weight = its number of tokens."""
    rest = options.copy()
    out = []
    while rest:
        total = sum(o[2] for o in rest)
        x = rng.randrange(total)
        for j, o in enumerate(rest):
            x -= o[2]
            if x < 0:
                out.append(rest.pop(j))
                break
    return out


def _pick(
    g: TokkuriGame, st: _Solve, s: int, opt: tuple[int, int, int], mask: int, it: tuple[Any, ...]
) -> bool:
    """Take a token of kind `opt` out of seat s's hand for item `it`; False if that breaks a count."""
    fixed, value, _ = opt
    hand = st.hands[s]
    code = st.code
    dom = st.dom
    for tok in hand:
        if (code[tok] == value) if fixed else (code[tok] < 0 and dom[tok] == value):
            break
    else:  # pragma: no cover - options come from this hand
        raise AssertionError("no such token")
    hand.remove(tok)
    if not fixed and not _narrow(g, st, tok, mask):
        return False
    tag = it[0]
    if tag == "open":
        st.pending[s] = tok
        st.acts.append((g.a_place, tok))
    elif tag == "place":
        st.tk[(s, it[2])] = tok
        st.levels[(s, it[2])] = g.options["tokkuri_level"]
        st.acts.append((g.a_place, tok))
    elif tag == "drink":
        st.acts.append(g.a_drink + it[2])
    elif tag == "steal":
        st.steals.append(it[2])
    else:  # give
        st.pending[s] = tok
        st.acts.append((g.a_give, tok))
    return True


def _narrow(g: TokkuriGame, st: _Solve, tok: int, mask: int) -> bool:
    c = st.code[tok]
    if c >= 0:
        return bool(mask >> c & 1)
    d = st.dom[tok] & mask
    if not d:
        return False
    if d & (d - 1) == 0:
        return _fix(g, st, tok, d.bit_length() - 1)
    st.dom[tok] = d
    return True


def _fix(g: TokkuriGame, st: _Solve, tok: int, c: int) -> bool:
    if st.code[tok] >= 0:
        return st.code[tok] == c
    if not st.dom[tok] >> c & 1 or st.fixed[c] >= g.copies[c]:
        return False
    st.code[tok] = c
    st.fixed[c] += 1
    return True


def _not_completable(g: TokkuriGame, levels: list[int]) -> int:
    """The types a player may hold when they cannot drink (TK-4.8)."""
    desc = sorted(levels, reverse=True)
    mask = g.all_mask
    for t in range(g.ntypes):
        if g.kind[t] != NUMBER:
            continue
        for v in g.type_vars[t]:
            if completable(g.var_desc[v], desc):
                mask &= ~(1 << t)
                break
    return mask


def _finish(ctx: _Ctx, st: _Solve) -> bool:
    """Deal the unaccounted cards to the free tokens at random, within every domain."""
    g = ctx.game
    rng = ctx.rng
    rem = [c - f for c, f in zip(g.copies, st.fixed, strict=True)]
    if min(rem) < 0:
        return False
    code = st.code
    dom = st.dom
    full = ctx.all
    free = [tok for tok in range(len(code)) if code[tok] < 0]
    pool = [c for c, k in enumerate(rem) for _ in range(k)]
    if len(pool) != len(free):  # pragma: no cover - counts are conserved
        return False
    narrowed = [(j, dom[tok]) for j, tok in enumerate(free) if dom[tok] != full]
    # A uniform shuffle, kept only if every domain holds: uniform over the valid deals.
    for _ in range(40):
        rng.shuffle(pool)
        if all(d >> pool[j] & 1 for j, d in narrowed):
            for tok, c in zip(free, pool, strict=True):
                code[tok] = c
            return True
    # Tight domains: deal the narrowed tokens first, keeping the rest feasible at each step.
    order = [free[j] for j, _ in narrowed]
    rng.shuffle(order)
    order.sort(key=lambda tok: dom[tok].bit_count())
    for j, tok in enumerate(order):
        d = dom[tok]
        cands = [c for c in range(len(rem)) if d >> c & 1 and rem[c] > 0]
        while True:
            if not cands:
                return False
            c = rng.choices(cands, [rem[c] for c in cands])[0]
            rem[c] -= 1
            if _feasible([dom[t] for t in order[j + 1 :]], rem):
                code[tok] = c
                break
            rem[c] += 1
            cands.remove(c)
    pool = [c for c, k in enumerate(rem) for _ in range(k)]
    rng.shuffle(pool)
    rest = [tok for tok in free if code[tok] < 0]
    for tok, c in zip(rest, pool, strict=True):
        code[tok] = c
    return True


def _feasible(doms: list[int], rem: list[int]) -> bool:
    """Can each domain in `doms` get its own card, with at most rem[c] of card c in all?"""
    if not doms:
        return True
    common = doms[0]
    for d in doms:
        common &= d
    if sum(rem[c] for c in range(len(rem)) if common >> c & 1) >= len(doms):
        return True
    holders: list[list[int]] = [[] for _ in rem]
    return all(_augment(u, doms, rem, holders, [False] * len(rem)) for u in range(len(doms)))


def _augment(u: int, doms: list[int], rem: list[int], holders: list[list[int]], seen: list[bool]) -> bool:
    d = doms[u]
    c = 0
    while d:
        if d & 1 and not seen[c]:
            seen[c] = True
            if len(holders[c]) < rem[c]:
                holders[c].append(u)
                return True
            for w in holders[c]:
                if _augment(w, doms, rem, holders, seen):
                    holders[c].remove(w)
                    holders[c].append(u)
                    return True
        d >>= 1
        c += 1
    return False
