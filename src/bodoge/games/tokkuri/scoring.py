"""Tokkuri's scoring, round end, game end and winners (spec §6)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bodoge.games.tokkuri.rules import TokkuriState


def settle(round_scores: list[int]) -> list[int]:
    """TK-6.2: each seat's balance change. Every player below the top score M pays (M − own score)
    to each player who has M; if everyone has M nobody pays."""
    scores = list(round_scores)
    if not scores:
        return []
    top = max(scores)
    winners = [i for i, s in enumerate(scores) if s == top]
    delta = [0] * len(scores)
    if len(winners) == len(scores):
        return delta
    for loser, score in enumerate(scores):
        if score == top:
            continue
        owed = top - score
        delta[loser] -= owed * len(winners)
        for w in winners:
            delta[w] += owed
    return delta


def round_scores(state: TokkuriState) -> list[int]:
    """TK-6.1 for the round as it stands."""
    g = state.game
    n = g.num_players
    N = g.total
    pl = g.options["penalty_level"]
    pp = g.options["penalty_points"]
    penalised = [0] * n
    for tid, lv in zip(state.table, state.levels, strict=True):
        if lv >= pl:
            penalised[tid // N] += 1
    return [len(state.captured[s]) + len(state.bonus[s]) - pp * penalised[s] for s in range(n)]


def end_round(state: TokkuriState) -> bool:
    """TK-6.1, TK-6.2; True if another round follows (TK-6.3), False at the end (TK-6.5)."""
    g = state.game
    scores = round_scores(state)
    delta = settle(scores)
    state.balances = [b + d for b, d in zip(state.balances, delta, strict=True)]
    state.last_round_scores = scores
    r = state.round_no
    o = g.options
    over = min(state.balances) <= 0 or r == o["rounds"] or r >= o["max_rounds"]
    state.events.append(
        (
            "score",
            state.round_no,
            tuple(scores),
            tuple(state.balances),
            tuple(map(len, state.captured)),
            tuple(map(len, state.bonus)),
            over,
        )
    )
    return not over


def winners(state: TokkuriState) -> list[int]:
    """TK-6.5: the highest balance at the end (ties share the win)."""
    if state.current_player is not None:
        return []
    top = max(state.balances)
    return [s for s, b in enumerate(state.balances) if b == top]
