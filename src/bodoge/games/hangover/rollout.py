"""Hangover's quick policy: the heuristic's move, decided on the full state without building a view,
for search simulations (ISMCTS rollouts and its model of the other players).

It reads only what the seat to move knows (`seen_in_state`): its own hand, snacks, columns and
face-down discards, the face-up cards of every trick, the statuses and tricks won. Never
another seat's hand or discards, nor the set-aside cards. The rules of thumb are the heuristic's own
(`heuristic.decide`), so the two make the same move on the same knowledge.
"""

from __future__ import annotations

import random

from bodoge.games.hangover.heuristic import Seen, decide, in_play, read_trick
from bodoge.games.hangover.play import DISCARD
from bodoge.games.hangover.state import FLIPPING, PHASE_NAMES, TRICK, HangoverState


def act(state: HangoverState, rng: random.Random) -> int:
    """A legal action for `state.current_player` (never called at the end of the game)."""
    legal = state.legal_actions()
    if len(legal) == 1 or (state.phase == TRICK and legal[0] >= DISCARD):
        return legal[0]  # forced, or an eliminated seat's face-down card, which never counts (HO-5.5)
    return decide(state.game, seen_in_state(state, legal), rng)


def seen_in_state(state: HangoverState, legal: list[int]) -> Seen:
    """The `Seen` of the seat to move: the same as `heuristic.seen_in_view` on its view."""
    g = state.game
    p: int = state.current_player  # type: ignore[assignment]
    n = g.num_players
    hand = state.hands[p]

    def read() -> tuple[int, list[int]]:
        known = 0
        for c in hand:
            known |= 1 << c
        for c in state.discards[p]:
            known |= 1 << c
        voids = [0] * n
        for leader, cards, _ in [*state.past, (state.leader, state.trick, 0)]:
            if cards:
                known = read_trick([((leader + i) % n, c) for i, c in enumerate(cards)], known, voids)
        return in_play(g) & ~known, voids

    phase = state.phase
    k = state.tricks[p] - 1 if phase == FLIPPING else state.tricks[p]
    columns = state.columns[p]
    return Seen(
        seat=p,
        phase=PHASE_NAMES[phase],
        legal=legal,
        hand=hand,
        trick=state.trick,
        status=state.status,
        tricks=state.tricks,
        column=columns[k] if k < len(columns) else [],
        total=state.judge_sum + state.judge_added if phase == FLIPPING else 0,
        snacks=state.snack_hands[p],
        read=read,
    )
