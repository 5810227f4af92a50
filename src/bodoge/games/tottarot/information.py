"""What each seat knows in Tottarot (spec §7): its view of the table, and of each event.

Knowledge of a declared card is a bit mask per holder (`knows[p]`: bit q for seat q, bit n for
everyone); who knows what is public, only the faces are private (TT-7).
"""

from __future__ import annotations

from typing import Any

from bodoge.games.tottarot.scoring import row_total
from bodoge.games.tottarot.state import PH_PEEK, PH_SHARE, PHASES, TottarotState


def view(state: TottarotState, seat: int | None) -> dict[str, Any]:
    g = state.game
    n = g.n
    codes = g.codes
    bit = g.public_bit if seat is None else 1 << seat
    revealed = state.nbid == n
    declared = []
    for p in range(n):
        c = state.declared[p]
        k = state.knows[p]
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
                for x in state.rows[p]
            ]
        )
    bids = []
    for p in range(n):
        v = state.bids[p]
        bids.append(v if v >= 0 and (revealed or p == seat) else None)
    in_icons = state.phase in (PH_SHARE, PH_PEEK)
    return {
        "round": state.round,
        "turn": state.turn,
        "turns_per_round": g.turns,
        "target": g.target,
        "start_player": state.start,
        "phase": PHASES[state.phase],
        "deck_count": len(state.pile),
        "discard": [codes[c] for c in state.discard],
        "declared": declared,
        "rows": rows,
        "totals": [row_total(state, p) for p in range(n)],
        "has_bid": [v >= 0 for v in state.bids],
        "bids": bids,
        "bids_revealed": revealed,
        "used_tokens": [[v for v in range(g.max_will + 1) if state.used[p] >> v & 1] for p in range(n)],
        "unused_tokens": [list(g.bid_lists[state.used[p]]) for p in range(n)],
        "actors": list(state.actors) if revealed else [],
        "actor_index": state.qi if revealed else 0,
        "pending_icons": [
            {"seat": h, "icon": g.icon_codes[state.last_dec[h]]} for h in state.icon_queue[state.iq :]
        ]
        if in_icons
        else [],
        "victory_tokens": list(state.tokens),
    }


def event_view(state: TottarotState, event: tuple[Any, ...], seat: int | None) -> dict[str, Any]:
    g = state.game
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
    if kind == "end":  # TT-6.3: the only way a game ends
        return {
            "type": "game_end",
            "winners": list(event[1]),
            "reason": "target_reached",
            "victory_tokens": list(event[2]),
        }
    out: dict[str, Any] = {"type": kind, "round": event[1], "turn": event[2]}
    if kind == "turn":  # a turn begins with its declaration (TT-4.2): who draws, in which order
        out["type"] = "turn_start"
        out["order"] = list(event[3])
    elif kind == "draw":  # TT-4.2: the drawer alone sees the card
        p = event[3]
        out["seat"] = p
        out["card"] = codes[event[4]] if seat == p else None
    elif kind == "bid":
        p, v = event[3], event[4]
        out["seat"] = p
        out["value"] = v if seat == p else None
    elif kind == "reveal":
        out["bids"] = list(event[3])
        out["actors"] = list(event[4])
    elif kind == "discard":
        out["seat"] = event[3]
        out["card"] = codes[event[4]]
    elif kind == "steal":
        _, _, _, a, s, c, mask = event
        bit = g.public_bit if seat is None else 1 << seat
        out["seat"] = a
        out["target"] = s
        out["card"] = codes[c] if mask & bit else None
    elif kind == "nosteal":
        out["type"] = "steal_none"
        out["seat"] = event[3]
    elif kind == "skip":
        out["seat"] = event[3]
    elif kind == "decide":
        out["cards"] = [codes[c] if c >= 0 else None for c in event[3]]
    elif kind == "invert":
        out["seat"] = event[3]
        out["card"] = codes[event[4]]
        out["inverted"] = bool(event[5])
    elif kind == "share":  # `card`: what this seat was shown
        _, _, _, h, s, ch, cs = event
        out["seat"] = h
        out["target"] = s
        out["card"] = codes[cs] if seat == h else codes[ch] if seat == s else None
    elif kind == "peek":
        _, _, _, h, s, cs = event
        out["seat"] = h
        out["target"] = s
        out["card"] = codes[cs] if seat == h else None
    elif kind == "expose":
        out["seat"] = event[3]
        out["card"] = codes[event[4]]
    else:  # pragma: no cover - every event kind is listed above
        raise AssertionError(f"unknown event {event!r}")
    return out
