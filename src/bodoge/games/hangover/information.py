"""What each seat knows in Hangover (spec §7): its view of the table, and of each event."""

from __future__ import annotations

from typing import Any

from bodoge.games.hangover.cards import DRINK_CODES, SUIT
from bodoge.games.hangover.options import ANY_TRICK, SECRET
from bodoge.games.hangover.play import (
    EV_ARRANGE,
    EV_DECLARE,
    EV_DISCARD,
    EV_FLIP,
    EV_JUDGE,
    EV_PLAY,
    EV_REVEAL,
    EV_STOP,
    EV_TRICK,
    OUTCOME_NAMES,
)
from bodoge.games.hangover.scoring import end_reason
from bodoge.games.hangover.state import DECLARING, FLIPPING, PHASE_NAMES, STATUS_NAMES, TRICK, HangoverState


def view(state: HangoverState, seat: int | None) -> dict[str, Any]:
    g = state.game
    codes = g.snack_codes
    n = g.num_players
    # HO-D29: during a secret round, another seat's answer is unseen (its status waits for the reveal)
    hidden = g.declaration == SECRET and state.phase == DECLARING
    seats = []
    for q in range(n):
        seats.append(
            {
                "status": STATUS_NAMES[state.status[q]],
                "declared": None
                if state.declared[q] < 0 or (hidden and q != seat)
                else bool(state.declared[q]),
                "tricks": state.tricks[q],
                "vp": state.vp[q],
                "hand": len(state.hands[q]),
                "face_down": len(state.discards[q]),
                "snacks_in_hand": len(state.snack_hands[q]),
                "columns": [len(col) for col in state.columns[q]],
                "flipped": [
                    {"column": k, "card": codes[d], "value": g.snack_value[d][v]}
                    for k, d, v in state.flipped[q]
                ],
            }
        )
    v: dict[str, Any] = {
        "phase": PHASE_NAMES[state.phase],
        "drunk_limit": g.limit,
        "num_columns": g.num_columns,
        "trick_number": len(state.past) + (1 if state.phase == TRICK else 0),
        "leader": state.leader,
        "lead_suit": "RBYG"[SUIT[state.trick[0]]] if state.trick else None,
        "trick": _trick_view(state, state.leader, state.trick),
        "tricks_played": [
            {"leader": lead, "cards": _trick_view(state, lead, cards), "winner": w}
            for lead, cards, w in state.past
        ],
        "judging": None,
        "set_aside": {"drink": len(state.aside), "snack": len(state.snack_aside)},
        "seats": seats,
    }
    if state.phase == FLIPPING:
        w = state.current_player
        assert w is not None
        v["judging"] = {
            "seat": w,
            "column": state.tricks[w],
            "sum": state.judge_sum,
            "flipped": state.judge_flips,
            "added": state.judge_added,
            "adjusted_sum": state.judge_sum + state.judge_added,
        }
    if seat is not None:
        v["you"] = {
            "hand": [DRINK_CODES[c] for c in state.hands[seat]],
            "face_down": [DRINK_CODES[c] for c in state.discards[seat]],
            "snacks": [codes[d] for d in state.snack_hands[seat]],
            "columns": [[codes[d] for d in col] for col in state.columns[seat]],
        }
    return v


def _trick_view(
    state: HangoverState, leader: int, cards: list[int] | tuple[int, ...]
) -> list[dict[str, Any]]:
    n = state.game.num_players
    return [
        {"seat": (leader + i) % n, "card": None if c < 0 else DRINK_CODES[c]} for i, c in enumerate(cards)
    ]


def event_view(state: HangoverState, event: tuple[Any, ...], seat: int | None) -> dict[str, Any]:
    """The facts of one event as `seat` saw them: a face-down discard, a snack order and a secret
    declaration (HO-D29) are seen by their owner only, and are None for the others (every seat's entry
    has the same keys)."""
    g = state.game
    kind = event[0]
    if kind == EV_PLAY:
        return {"type": "play", "seat": event[1], "card": DRINK_CODES[event[2]]}
    if kind == EV_DISCARD:
        return {
            "type": "discard",
            "seat": event[1],
            "card": DRINK_CODES[event[2]] if seat == event[1] else None,
        }
    if kind == EV_TRICK:
        _, w, total, outcome, k, bonus, number = event
        leader, cards, _ = state.past[number - 1]
        return {
            "type": "trick",
            "trick": number,
            "winner": w,
            "card": DRINK_CODES[cards[(w - leader) % g.num_players]],
            "sum": total,
            "own_trick": k,
            "outcome": OUTCOME_NAMES[outcome],
            "bonus": list(bonus),
        }
    if kind == EV_FLIP:
        _, p, d, v = event
        return {"type": "flip", "seat": p, "card": g.snack_codes[d], "value": g.snack_value[d][v]}
    if kind == EV_STOP:
        return {"type": "stop", "seat": event[1]}
    if kind == EV_JUDGE:
        _, w, k, total, base, f, gain, slid = event
        return {
            "type": "judge",
            "seat": w,
            "own_trick": k,
            "adjusted_sum": total,
            "limit": g.limit,
            "base": base,
            "flipped": f,
            "vp": gain,
            "slid": slid,
        }
    if kind == EV_DECLARE:
        _, p, declared, number = event
        if g.declaration == SECRET and seat != p:  # HO-D29: unseen until the reveal
            return {"type": "declare", "seat": p, "non_drinker": None}
        if g.declaration == ANY_TRICK:  # HO-D29: which trick the declaration comes before
            return {"type": "declare", "seat": p, "non_drinker": declared, "before_trick": number}
        return {"type": "declare", "seat": p, "non_drinker": declared}
    if kind == EV_REVEAL:
        answers = event[1]
        return {
            "type": "declarations",
            "non_drinkers": [q for q, a in enumerate(answers) if a],
            "drinkers": [q for q, a in enumerate(answers) if not a],
        }
    if kind == EV_ARRANGE:
        order = [g.snack_codes[d] for d in event[3]] if seat == event[1] else None
        return {"type": "arrange", "seat": event[1], "order": order}
    # EV_END is the last event: the state is final, so its results are the game's
    return {
        "type": "game_end",
        "reason": end_reason(state),
        "vp": list(state.vp),
        "status": [STATUS_NAMES[s] for s in state.status],
        "winners": state.winners(),
    }
