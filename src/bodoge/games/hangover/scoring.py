"""Hangover's game end and winners (spec §6; the VP themselves are gained in play, HO-4.4.5, HO-4.6)."""

from __future__ import annotations

from bodoge.games.hangover.state import DRINKER, HUNG_OVER, NON_DRINKER, HangoverState


def end_reason(state: HangoverState) -> str:
    """Why the game ended (HO-4.8), for the game_end event."""
    active = state.status.count(DRINKER) + state.status.count(NON_DRINKER)
    if active == 0:
        return "no_active_player"
    if state.game.end_when_one_active and active <= 1:
        return "one_active_player"
    return "hands_empty"


def winners(state: HangoverState) -> list[int]:
    """HO-6.4, HO-6.5: the most VP among those not hung over; ties share the win."""
    eligible = [p for p, s in enumerate(state.status) if s != HUNG_OVER]  # HO-6.4
    if not eligible:
        return []
    best = max(state.vp[p] for p in eligible)
    return [p for p in eligible if state.vp[p] == best]  # HO-6.5: ties share the win


def standing(state: HangoverState) -> list[tuple[int, int]]:
    """Each seat's key in the final ranking, higher first (HO-6.4, HO-6.5): the eligible players
    by VP, then the hung-over ones by VP; a hung-over player is never above an eligible one, the
    winners included, whatever their VP."""
    return [(int(s != HUNG_OVER), vp) for s, vp in zip(state.status, state.vp, strict=True)]
