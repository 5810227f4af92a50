"""Tokkuri's scoring, round end, game end and winners (spec §6)."""

from __future__ import annotations

from typing import Any

from bodoge.games.tokkuri.state import TokkuriState


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
    balances = [b + d for b, d in zip(state.balances, delta, strict=True)]
    state.balances = balances
    state.last_round_scores = scores
    r = state.round_no
    state.events.append(
        (
            "round_end",
            r,
            tuple(scores),
            tuple(balances),
            tuple(map(len, state.captured)),
            tuple(map(len, state.bonus)),
        )
    )
    reason = ending(balances, r, g.options)
    if reason is None:
        return True
    top = max(balances)
    won = tuple(s for s, b in enumerate(balances) if b == top)
    state.events.append(("game_end", reason, r, tuple(balances), won))
    return False


def ending(balances: list[int], r: int, options: dict[str, Any]) -> str | None:
    """TK-6.5: why the game ends after the settlement of round r, or None if it goes on. Bankruptcy
    is named first when the last round also leaves someone at 0 or less."""
    if min(balances) <= 0:
        return "bankruptcy"
    if r == options["rounds"]:
        return "rounds_played"
    if r >= options["max_rounds"]:
        return "max_rounds"
    return None


def end_reason(state: TokkuriState) -> str | None:
    """Why a finished game ended (the reason of its log's game_end), None while it goes on: what the
    arena counts per reason, without building the log."""
    if state.current_player is not None:
        return None
    tag, reason, *_ = state.events[-1]
    assert tag == "game_end", "a finished Tokkuri game's last event is its game_end"
    return str(reason)


def winners(state: TokkuriState) -> list[int]:
    """TK-6.5: the highest balance at the end (ties share the win)."""
    if state.current_player is not None:
        return []
    top = max(state.balances)
    return [s for s, b in enumerate(state.balances) if b == top]
