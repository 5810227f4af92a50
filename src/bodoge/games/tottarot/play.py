"""Tottarot's play (spec §4 and the icons of §5): a turn's declaration, icons, bids, seizing and
decision, the legal actions at each decision and their effect."""

from __future__ import annotations

from bodoge.games.tottarot import scoring, setup
from bodoge.games.tottarot.cards import EXPOSE, SHARE
from bodoge.games.tottarot.state import PH_BID, PH_OVER, PH_PEEK, PH_SHARE, PH_STEAL, TottarotState


def start_turn(state: TottarotState) -> None:
    g = state.game
    state.turn += 1
    t = state.turn
    pile = state.pile
    declared = state.declared
    knows = state.knows
    order = g.orders[state.start]
    r = state.round
    ev = state.events.append
    ev(("turn", r, t, order))  # the turn's declaration begins, drawn in this order
    explicit = state.explicit_chance  # chance from outside: each draw is a chance event (setup.start_round)
    for p in order:  # TT-4.2 declaration, TT-3.3 drawing order
        c = declared[p] = state.chance_draw(pile, (p,)) if explicit else pile.pop()
        knows[p] = 1 << p
        ev(("draw", r, t, p, c))  # each seat sees only its own card
    state.bids = [-1] * g.n
    state.nbid = 0
    if t > 1:  # TT-4.3 icon step, TT-D14 (`next_icon[-1]` is False: no card decided)
        last = state.last_dec
        nxt = g.next_icon
        queue = [p for p in order if nxt[last[p]]]
        if queue:
            state.icon_queue = queue
            state.iq = 0
            run_icons(state)
            return
    state.icon_queue = []
    state.phase = PH_BID
    state.current_player = state.start


def run_icons(state: TottarotState) -> None:
    g = state.game
    queue = state.icon_queue
    while state.iq < len(queue):
        h = queue[state.iq]
        icon = g.icons[state.last_dec[h]]
        if icon == EXPOSE:  # TT-5.4: automatic
            state.knows[h] |= g.all_mask
            state.events.append(("expose", state.round, state.turn, h, state.declared[h]))
            state.iq += 1
            continue
        state.phase = PH_SHARE if icon == SHARE else PH_PEEK
        state.current_player = h
        return
    state.phase = PH_BID
    state.current_player = state.start


def reveal(state: TottarotState) -> None:
    """TT-4.4: all bids revealed at once; TT-4.5: the actors' queue is fixed now."""
    g = state.game
    bids = state.bids
    used = state.used
    for p in range(g.n):
        used[p] |= 1 << bids[p]
    high = max(bids)
    state.actors = [p for p in g.orders[state.start] if bids[p] == high]
    state.qi = 0
    state.events.append(("reveal", state.round, state.turn, tuple(bids), tuple(state.actors)))
    seize(state)


def seize(state: TottarotState) -> None:
    """TT-4.5: each actor in priority order: check, discard, then the STEAL decision."""
    actors = state.actors
    declared = state.declared
    qi = state.qi
    while qi < len(actors):
        a = actors[qi]
        c = declared[a]
        if c < 0:  # TT-D10: their card was taken: skipped entirely
            state.events.append(("skip", state.round, state.turn, a))
            qi += 1
            continue
        state.discard.append(c)  # TT-D8: mandatory, face up (TT-D24)
        declared[a] = -1
        state.knows[a] = 0
        state.events.append(("discard", state.round, state.turn, a, c))
        state.qi = qi
        state.phase = PH_STEAL
        state.current_player = a
        return
    state.qi = qi
    decide(state)


def decide(state: TottarotState) -> None:
    """TT-4.6: every held declared card goes to its holder's row; INVERT acts now (TT-D13)."""
    g = state.game
    t = state.turn
    declared = state.declared
    rows = state.rows
    last = state.last_dec
    invert = g.is_invert
    ev = state.events.append
    ev(("decide", state.round, t, tuple(declared)))
    for p in g.orders[state.start]:
        c = declared[p]
        last[p] = c
        if c < 0:
            continue  # TT-D18: nothing is added
        row = rows[p]
        row.append(c << 1)
        if invert[c] and len(row) > 1:  # TT-5.5 / TT-D12: the holder's previous card
            row[-2] ^= 1
            ev(("invert", state.round, t, p, row[-2] >> 1, row[-2] & 1))
    state.declared = [-1] * g.n
    state.knows = [0] * g.n
    if t < g.turns:
        start_turn(state)
    elif scoring.score_round(state):
        setup.start_round(state)
        start_turn(state)
    else:  # TT-6.3: the game is over
        state.phase = PH_OVER
        state.current_player = None
        state.events.append(("end", tuple(state.winners()), tuple(state.tokens)))


def legal_actions(state: TottarotState) -> list[int]:
    g = state.game
    ph = state.phase
    p = state.current_player
    assert p is not None
    if ph == PH_BID:
        return g.bid_lists[state.used[p]]  # shared, never mutated (the base hands out copies)
    if ph == PH_STEAL:
        declared = state.declared
        s0 = g.steal0
        legal = [s0 + s for s in range(g.n) if declared[s] >= 0 and s != p]
        legal.append(s0 + g.n)
        return legal
    if ph == PH_SHARE:
        return g.share_lists[p]
    return g.peek_lists[p]


def apply(state: TottarotState, action: int) -> None:
    g = state.game
    ph = state.phase
    if ph == PH_BID:
        p = state.current_player
        assert p is not None
        state.bids[p] = action
        state.events.append(("bid", state.round, state.turn, p, action))
        state.nbid += 1
        if state.nbid < g.n:
            state.current_player = p + 1 if p + 1 < g.n else 0
        else:
            reveal(state)
    elif ph == PH_STEAL:
        a = state.current_player
        assert a is not None
        s = action - g.steal0
        if s == g.n:
            state.events.append(("nosteal", state.round, state.turn, a))
        else:  # TT-D9, TT-D11: the taker looks at it; earlier knowers still know it
            declared = state.declared
            knows = state.knows
            c = declared[s]
            mask = knows[s] | (1 << a)
            declared[a] = c
            knows[a] = mask
            declared[s] = -1
            knows[s] = 0
            state.events.append(("steal", state.round, state.turn, a, s, c, mask))
        state.qi += 1
        seize(state)
    else:
        h = state.current_player
        assert h is not None
        knows = state.knows
        declared = state.declared
        if ph == PH_SHARE:  # TT-5.2
            s = action - g.share0
            knows[s] |= 1 << h
            knows[h] |= 1 << s
            state.events.append(("share", state.round, state.turn, h, s, declared[h], declared[s]))
        else:  # TT-5.3
            s = action - g.peek0
            knows[s] |= 1 << h
            state.events.append(("peek", state.round, state.turn, h, s, declared[s]))
        state.iq += 1
        run_icons(state)
