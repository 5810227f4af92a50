"""What each seat knows (spec §7 of a game): its own hand, every played card, the tricks won."""

from __future__ import annotations

from typing import Any

from toygame.rules import ThreeTricksState


def view(state: ThreeTricksState, seat: int | None) -> dict[str, Any]:
    return {
        "hand": [] if seat is None else list(state.hands[seat]),
        "hand_sizes": [len(h) for h in state.hands],
        "trick": [[p, c] for p, c in state.trick],
        "won": list(state.won),
        "leader": state.leader,
    }


def event_view(state: ThreeTricksState, event: tuple[Any, ...], seat: int | None) -> dict[str, Any] | None:
    kind = event[0]
    if kind == "deal":
        _, p, hand = event
        return {"type": "deal", "seat": p, "cards": list(hand) if seat == p else None}
    if kind == "play":
        return {"type": "play", "seat": event[1], "card": event[2]}
    if kind == "trick":  # `winner`, not `seat`: nobody acts, the highest card takes it
        return {"type": "trick", "winner": event[1]}
    _, winners, won = event  # the last entry of every log (docs/protocol.md, "Events: one vocabulary")
    return {"type": "game_end", "winners": list(winners), "reason": "hands_played", "won": list(won)}
