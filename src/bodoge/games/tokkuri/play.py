"""Tokkuri's play (spec §4) and its special cards (§5): OPEN, placing and drinking, choosing the
tokkuri for each number, the cards' effects, and the turn order, through the decisions (phases) of
`state.py`.

Action ids, in this order: `target T<s>.<k>` (its id is the tokkuri's tid), `place <code>` (OPEN and
ACTION), `drink <code>[=<values>]`, `victim P<s>`, `give <code>`.
"""

from __future__ import annotations

from bisect import bisect_left, insort

from bodoge.games.tokkuri import scoring, setup
from bodoge.games.tokkuri.cards import BONUS, DISCARD, DRAW, DUMMY, PASS
from bodoge.games.tokkuri.state import ACTION, GIVE, OPEN, OVER, TARGET, VICTIM, TokkuriGame, TokkuriState


def completable(values_desc: tuple[int, ...], levels_desc: list[int]) -> bool:
    """TK-4.3: can each value go to a different tokkuri without taking a level below 0?"""
    if len(values_desc) > len(levels_desc):
        return False
    return all(v <= lv for v, lv in zip(values_desc, levels_desc, strict=False))


def begin_round(state: TokkuriState) -> None:
    """TK-4.1: a round opens with every player choosing a card, from the start player."""
    state.phase = OPEN
    state.current_player = state.start


def legal_actions(state: TokkuriState) -> list[int]:
    phase = state.phase
    if phase == ACTION:
        return action_choices(state)
    if phase == TARGET:
        return target_choices(state)
    g = state.game
    p = state.current_player
    assert p is not None
    if phase in (OPEN, GIVE):
        a = g.a_place if phase == OPEN else g.a_give
        skip = g.trouble if phase == OPEN else -1  # TK-5.7: never opens
        out = []
        last = -1
        for t in state.hands[p]:  # sorted
            if t != last:
                last = t
                if t != skip:
                    out.append(a + t)
        return out
    if phase == VICTIM:
        a = g.a_victim
        return [a + s for s in state.victims]
    return []


def action_choices(state: TokkuriState) -> list[int]:
    g = state.game
    hand = state.hands[state.current_player]  # type: ignore[index]
    ordered = state.sorted_levels
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
    if cap is not None and len(state.table) >= cap:
        return drinks
    trouble = g.trouble
    if trouble >= 0 and len(hand) > 1 and trouble in hand:
        places.remove(place[trouble])  # TK-5.7
    if drinks:
        places += drinks
    return places


def target_choices(state: TokkuriState) -> list[int]:
    """TK-4.4: tokkuri not yet chosen, at level ≥ the value, leaving the rest completable."""
    g = state.game
    chosen = state.d_targets
    value, rest = g.slot_info[state.d_var][len(chosen)]
    table = state.table
    levels = state.levels
    if not rest:  # (a tokkuri's target id is its tid)
        if chosen:
            return [tid for tid, lv in zip(table, levels, strict=False) if lv >= value and tid not in chosen]
        if state.sorted_levels[0] >= value:
            return table.copy()
        return [tid for tid, lv in zip(table, levels, strict=False) if lv >= value]
    desc = state.sorted_levels[::-1]
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


def apply(state: TokkuriState, action: int) -> None:
    phase = state.phase
    g = state.game
    p: int = state.current_player  # type: ignore[assignment]
    if phase == ACTION:
        if action < g.a_drink:  # TK-3.4
            action -= g.a_place
            state.hands[p].remove(action)
            k = state.placed[p] + 1
            state.placed[p] = k
            tid = p * g.total + k - 1
            table = state.table
            j = bisect_left(table, tid)  # the table is kept in id order
            table.insert(j, tid)
            state.levels.insert(j, g.level)
            state.sorted_levels.append(g.level)  # no level is higher
            state.faces.insert(j, action)
            state.events.append(("place", p, k, action))
            end_turn(state, p)
        else:
            v = action - g.a_drink
            state.hands[p].remove(g.var_type[v])
            state.d_var = v
            state.d_targets = []
            state.events.append(("drink", p, v))
            state.phase = TARGET
    elif phase == TARGET:
        tid = action
        targets = state.d_targets
        targets.append(tid)
        state.events.append(("target", p, tid))
        if len(targets) == g.var_slots[state.d_var]:
            resolve(state, p)
    elif phase == OPEN:
        action -= g.a_place
        state.hands[p].remove(action)
        state.pending[p] = action
        state.events.append(("open", p, action))
        state.ask_i += 1
        if state.ask_i < len(state.ask):
            state.current_player = state.ask[state.ask_i]
        else:
            level = g.level
            N = g.total
            for s in sorted(state.ask):  # TK-4.1: all placed at once, as T<s>.1
                state.placed[s] = 1
                state.table.append(s * N)
                state.levels.append(level)
                state.sorted_levels.append(level)
                state.faces.append(state.pending[s])
                state.pending[s] = -1
            state.events.append(("opened",))
            begin_turn(state, state.start)
    elif phase == GIVE:
        t = action - g.a_give
        state.hands[p].remove(t)
        state.pending[p] = t
        state.events.append(("give", p, t))
        state.ask_i += 1
        if state.ask_i < len(state.ask):
            state.current_player = state.ask[state.ask_i]
        else:
            n = g.num_players
            ev = state.events
            hands = state.hands
            pending = state.pending
            for s in state.ask:  # TK-5.4: all cards move at the same moment
                ev.append(("gave", s, (s + 1) % n, pending[s]))
            for s in state.ask:
                insort(hands[(s + 1) % n], pending[s])
                pending[s] = -1
            end_turn(state, state.active)
    elif phase == VICTIM:
        victim = action - g.a_victim
        state.events.append(("victim", p, victim))
        steal(state, p, victim)
        end_turn(state, p)


def resolve(state: TokkuriState, p: int) -> None:
    """TK-4.5, then the card's effect (TK-5)."""
    g = state.game
    v = state.d_var
    values = g.var_values[v]
    card = g.var_type[v]
    table = state.table
    levels = state.levels
    targets = state.d_targets
    kind = g.kind
    faces = state.faces
    effect = g.effect[card]
    ev = state.events
    if len(targets) == 1:  # the common case, kept short
        tid = targets[0]
        j = table.index(tid)
        old = levels[j]
        lv = old - values[0]
        levels[j] = lv
        ordered = state.sorted_levels
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
                state.discard.append(face)  # TK-5.6
            else:
                state.captured[p].append(face)
            del table[j]
            del levels[j]
            del faces[j]
    else:
        emptied = []
        new_levels = []
        ordered = state.sorted_levels
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
                    state.discard.append(face)  # TK-5.6
                else:
                    state.captured[p].append(face)
            for j in sorted(emptied, reverse=True):
                del table[j]
                del levels[j]
                del faces[j]
    if bonus:
        state.bonus[p].append(card)
    else:
        state.discard.append(card)
    state.d_var = -1
    if not effect:
        end_turn(state, p)
        return
    hands = state.hands
    if effect == DISCARD:  # TK-5.2
        n = g.num_players
        victims = [s for s in range(n) if s != p and hands[s]]
        if not victims and hands[p]:
            victims = [p]
        if victims:
            state.victims = victims
            state.phase = VICTIM
            state.current_player = p
            return
    elif effect == DRAW:  # TK-5.3
        if state.stock:
            c = state.chance_draw(state.stock, (p,)) if state.explicit_chance else state.stock.pop()
            insort(hands[p], c)
            ev.append(("draw", p, c))
    elif effect == PASS:  # TK-5.4
        n = g.num_players
        ask = [s for s in ((p + i) % n for i in range(n)) if hands[s]]
        if ask:
            state.ask = ask
            state.ask_i = 0
            state.phase = GIVE
            state.current_player = ask[0]
            return
    end_turn(state, p)


def steal(state: TokkuriState, drinker: int, victim: int) -> None:
    """TK-5.2: the drinker takes a uniformly random card of the victim's hand, which goes face up to
    the discard pile; the victim draws one."""
    hand = state.hands[victim]
    if state._forced_steals:
        t = state._forced_steals.pop(0)
        hand.remove(t)
    elif state.explicit_chance:  # chance from outside: the card's type, face up for everyone
        weights = [0] * (hand[-1] + 1)  # the hand is sorted
        for c in hand:
            weights[c] += 1
        t = state.chance_pick(weights, tuple(range(state.game.num_players)))
        hand.remove(t)
    else:
        t = hand.pop(state.rng.randrange(len(hand)))
    state.discard.append(t)
    state.events.append(("steal", drinker, victim, t))
    if state.stock:
        c = state.chance_draw(state.stock, (victim,)) if state.explicit_chance else state.stock.pop()
        insort(hand, c)
        state.events.append(("draw", victim, c))


def end_turn(state: TokkuriState, p: int) -> None:
    """TK-4.7: the round ends when no hand holds a card; else the next holder clockwise."""
    hands = state.hands
    g = state.game
    for s in g.after[p]:
        if hands[s]:
            if g.cap is None:
                state.phase = ACTION
                state.active = s
                state.current_player = s
            else:
                begin_turn(state, s)
            return
    round_over(state)


def begin_turn(state: TokkuriState, s: int) -> None:
    """TK-4.8: with `max_tokkuri`, skip a holder without a legal ACTION (or end the round)."""
    state.phase = ACTION
    if state.game.cap is not None and not can_act(state, s):
        n = state.game.num_players
        hands = state.hands
        if not any(hands[q] and can_act(state, q) for q in range(n)):
            state.events.append(("stuck",))
            round_over(state)
            return
        while not can_act(state, s):
            state.events.append(("skip", s))
            for i in range(1, n + 1):
                q = (s + i) % n
                if hands[q]:
                    s = q
                    break
    state.active = s
    state.current_player = s


def can_act(state: TokkuriState, s: int) -> bool:
    """Whether seat s, holding cards, would have a legal ACTION now (TK-4.8)."""
    if not state.hands[s]:
        return False
    keep = state.current_player
    state.current_player = s
    can = bool(action_choices(state))
    state.current_player = keep
    return can


def round_over(state: TokkuriState) -> None:
    """TK-6.1 … TK-6.3 and TK-6.5: settle the round; then the next round, or the end."""
    if scoring.end_round(state):
        setup.start_round(state)
        begin_round(state)
    else:
        state.phase = OVER
        state.current_player = None


def action_text(game: TokkuriGame, action: int) -> str:
    g = game
    if action < 0 or action >= g.num_actions:
        return f"action {action}"
    if action < g.a_place:
        return f"target T{action // g.total}.{action % g.total + 1}"
    if action < g.a_drink:
        return f"place {g.codes[action - g.a_place]}"
    if action < g.a_victim:
        return g.var_text[action - g.a_drink]
    if action < g.a_give:
        return f"victim P{action - g.a_victim}"
    return f"give {g.codes[action - g.a_give]}"
