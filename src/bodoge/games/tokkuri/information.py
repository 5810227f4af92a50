"""What each seat knows in Tokkuri (spec §7): its view of the table, and of each event."""

from __future__ import annotations

from typing import Any

from bodoge.games.tokkuri.cards import DUMMY
from bodoge.games.tokkuri.scoring import round_scores, settle
from bodoge.games.tokkuri.state import GIVE, OPEN, PHASES, TARGET, VICTIM, TokkuriState


def view(state: TokkuriState, seat: int | None) -> dict[str, Any]:
    g = state.game
    codes = g.codes
    N = g.total
    phase = state.phase
    tokkuri = []
    for tid, lv, face in zip(state.table, state.levels, state.faces, strict=True):
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
        "round": state.round_no,
        "start_player": state.start,
        "phase": PHASES[phase],
        "active": state.active,
        "hand": None if seat is None else [codes[t] for t in sorted(state.hands[seat])],
        "hand_counts": [len(h) for h in state.hands],
        "deck_count": len(state.stock),
        "tokkuri": tokkuri,
        "captured_counts": [len(c) for c in state.captured],
        "my_captured": None if seat is None else [codes[t] for t in state.captured[seat]],
        "bonus": [[codes[t] for t in b] for b in state.bonus],
        "discard": [codes[t] for t in state.discard],
        "round_scores": round_scores(state),
        "last_round_scores": state.last_round_scores,
        "pending": None,
        "chosen": [],
        "drink": None,
    }
    if phase in (OPEN, GIVE):
        v["chosen"] = state.ask[: state.ask_i]
        if seat is not None and state.pending[seat] >= 0:
            v["pending"] = codes[state.pending[seat]]
    elif phase == TARGET:
        var = state.d_var
        v["drink"] = {
            "seat": state.active,
            "card": codes[g.var_type[var]],
            "values": list(g.var_values[var]),
            "targets": [f"T{tid // N}.{tid % N + 1}" for tid in state.d_targets],
        }
    elif phase == VICTIM:
        v["victims"] = list(state.victims)
    return v


def event_view(state: TokkuriState, event: tuple[Any, ...], seat: int | None) -> dict[str, Any]:
    """One event as `seat` saw it: a dealt, opened, given or drawn card is seen by its holder only, an
    emptied tokkuri's face by its owner and the drinker (a dummy by everyone, TK-5.6). A card the seat
    did not see is None: every seat's entry has the same keys."""
    g = state.game
    codes = g.codes
    tag = event[0]
    if tag == "round_start":
        return {"type": "round_start", "round": event[1], "start_player": event[2]}
    if tag == "deal":
        return {
            "type": "deal",
            "seat": event[1],
            "count": len(event[2]),
            "cards": [codes[t] for t in event[2]] if seat == event[1] else None,
        }
    if tag in ("open", "give", "draw"):
        return {"type": tag, "seat": event[1], "card": codes[event[2]] if seat == event[1] else None}
    if tag == "opened":
        return {"type": "opened"}
    if tag == "place":
        return {
            "type": "place",
            "seat": event[1],
            "tokkuri": f"T{event[1]}.{event[2]}",
            "card": codes[event[3]] if seat == event[1] else None,
        }
    if tag == "drink":
        v = event[2]
        return {
            "type": "drink",
            "seat": event[1],
            "card": codes[g.var_type[v]],
            "values": list(g.var_values[v]),
        }
    N = g.total
    if tag == "target":
        tid = event[2]
        return {"type": "target", "seat": event[1], "tokkuri": f"T{tid // N}.{tid % N + 1}"}
    if tag == "resolve":
        _, p, v, targets, new_levels, bonus = event
        return {
            "type": "resolve",
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
        return {
            "type": "empty",
            "seat": p,
            "tokkuri": f"T{owner}.{k}",
            "dummy": dummy,
            "card": codes[face] if dummy or seat in (p, owner) else None,
        }
    if tag == "victim":  # the drinker of a `9` picks whose hand loses a card (TK-5.2)
        return {"type": "victim", "seat": event[1], "target": event[2]}
    if tag == "steal":  # ... and draws it at random from that hand, face up to the discard pile
        _, drinker, victim, t = event
        return {"type": "steal", "seat": drinker, "target": victim, "card": codes[t]}
    if tag == "gave":
        _, giver, receiver, t = event
        return {
            "type": "gave",
            "seat": giver,
            "to": receiver,
            "card": codes[t] if seat in (giver, receiver) else None,
        }
    if tag == "skip":
        return {"type": "skip", "seat": event[1]}
    if tag == "stuck":
        return {"type": "stuck"}
    if tag == "round_end":
        _, r, scores, balances, captured, bonus = event
        pp = g.options["penalty_points"]
        penalty = [c + b - x for c, b, x in zip(captured, bonus, scores, strict=True)]
        return {
            "type": "round_end",
            "round": r,
            "round_scores": list(scores),
            "captured": list(captured),
            "bonus": list(bonus),
            "penalised": [x // pp if pp else 0 for x in penalty],
            "penalty": penalty,
            "changes": settle(list(scores)),
            "balances": list(balances),
        }
    if tag == "game_end":  # the last event, right after the last round_end (TK-6.5, TK-6.6)
        _, reason, r, balances, won = event
        return {
            "type": "game_end",
            "reason": reason,
            "round": r,
            "winners": list(won),
            "balances": list(balances),
            "bankrupt": [q for q, b in enumerate(balances) if b <= 0],
        }
    raise AssertionError(f"unknown event {event!r}")
