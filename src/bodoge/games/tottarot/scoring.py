"""Tottarot's scoring, round end, game end and winners (spec §6)."""

from __future__ import annotations

from bodoge.games.tottarot.state import TottarotState


def row_total(state: TottarotState, p: int) -> int:
    """TT-6.1: the points of a row, inverted cards negative (TT-1.5)."""
    eff = state.game.effective
    return sum([eff[x] for x in state.rows[p]])


def score_round(state: TottarotState) -> bool:
    """TT-6.1 … TT-6.3: the round's victory tokens; True if the game goes on."""
    g = state.game
    n = g.n
    eff = g.effective
    totals = [sum([eff[x] for x in row]) for row in state.rows]
    unused = [g.unused_sum[state.used[p]] for p in range(n)]
    best = max(totals)
    tied = [p for p in range(n) if totals[p] == best]
    if len(tied) > 1:  # TT-D21: unused will tokens, then each still tied scores
        most = max(unused[p] for p in tied)
        tied = [p for p in tied if unused[p] == most]
    for p in tied:
        state.tokens[p] += 1
    state.events.append(
        ("score", state.round, tuple(totals), tuple(unused), tuple(tied), tuple(state.tokens))
    )
    return max(state.tokens) < g.target  # TT-6.3, TT-D22


def winners(state: TottarotState) -> list[int]:
    """TT-6.3: everyone with `target` victory tokens at the end (TT-D22: several may)."""
    if state.current_player is not None:
        return []
    target = state.game.target
    return [p for p, k in enumerate(state.tokens) if k >= target]
