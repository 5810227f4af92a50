"""What each seat knows in Troika (spec §7): its view of the table and of each event.

At round scoring everything about the players is public; until then a seat sees its own hand, the
tiles it returned face down that it still counts in the pool (TR-D9), and every public move.
"""

from __future__ import annotations

from operator import add
from typing import Any

from bodoge.core.game import LogEntry
from bodoge.games.troika.cards import counts_of, tiles_of
from bodoge.games.troika.scoring import REASONS, score_counts
from bodoge.games.troika.state import TroikaGame, TroikaState

#: Events whose tile only their seat sees.
PRIVATE = ("deal", "draw", "return_hand")


#: The last round's result as views show it, by its event (a round-end event never changes, and
#: clones share it): filled with its words once, not at every view of the round that follows, and
#: shared read-only between views as their log entries are.
_LAST_ROUNDS: dict[int, tuple[tuple[Any, ...], LogEntry]] = {}
_LAST_ROUNDS_KEPT = 256


def _last_round(event: tuple[Any, ...], g: TroikaGame) -> LogEntry:
    kept = _LAST_ROUNDS.get(id(event))
    if kept is None or kept[0] is not event:
        last = round_end_view(event, g)
        text = g.needed_part("text")  # the game's words, reached through core: no import cycle
        last["text"] = text.event_text(g, last, "en")
        last["text_ja"] = text.event_text(g, last, "ja")
        if len(_LAST_ROUNDS) >= _LAST_ROUNDS_KEPT:
            _LAST_ROUNDS.clear()
        kept = _LAST_ROUNDS[id(event)] = (event, LogEntry(last))
    return kept[1]


def view(state: TroikaState, seat: int | None) -> dict[str, Any]:
    g = state.game
    last = None
    for e in reversed(state.events):
        if e[0] == "round_end":
            last = _last_round(e, g)
            break
    return {
        "round": state.round,
        "rounds": g.rounds,
        "start_player": state.start_player,
        "mine": tiles_of(state.mine),
        "pool_size": len(state.pool),
        "removed": state.removed_size,
        "containers": [tiles_of(c) for c in state.containers],
        "hand_sizes": list(state.hand_sizes),
        "hand": None if seat is None else tiles_of(state.hands[seat]),
        "returned_in_pool": None if seat is None else tiles_of(state.known[seat]),
        "declared": list(state.declared),
        "first_declarer": state.first_declarer,
        "chips": list(state.chips),
        "last_round": last,
    }


def round_end_view(event: tuple[Any, ...], game: TroikaGame) -> dict[str, Any]:
    """The public result of a round (§7: at round scoring everything about the players is public)."""
    (_, rnd, reason, hands, containers, scores, gained, placements, first, declared, totals) = event
    players = []
    for q in range(game.num_players):
        tile_score, has_fuel, sets, waste = score_counts(
            tuple(map(add, counts_of(hands[q]), counts_of(containers[q])))
        )
        players.append(
            {
                "seat": q,
                "hand": list(hands[q]),
                "container": list(containers[q]),
                "sets": [list(s) for s in sets],
                "waste": list(waste),
                "has_fuel": has_fuel,
                "left_behind": scores[q] is None,
                "tile_score": tile_score,
                "declared": declared[q],
                "bonus": game.troika_bonus if first == q else 0,
                "round_score": scores[q],
                "chips": gained[q],
                "placement": placements[q],
                "chip_total": totals[q],
            }
        )
    return {
        "type": "round_end",
        "round": rnd,
        "reason": REASONS[reason],
        "first_declarer": first,
        "players": players,
    }


def event_view(state: TroikaState, event: tuple[Any, ...], seat: int | None) -> dict[str, Any]:
    """One event as `seat` saw it: a deal, draw or hand return shows its tile to that seat only."""
    game = state.game
    kind = event[0]
    if kind == "round_end":
        return round_end_view(event, game)
    if kind == "round_start":
        return {"type": "round_start", "round": event[1], "start_player": event[2]}
    if kind == "game_end":  # TR-6.5: the game ends only when its rounds are played
        return {
            "type": "game_end",
            "winners": list(event[1]),
            "reason": "rounds_played",
            "chips": list(event[2]),
            "placements": list(event[3]),
        }
    if kind == "removed":
        return {"type": "removed", "count": event[1]}
    if kind == "troika":
        return {"type": "troika", "seat": event[1], "first": event[2]}
    q, t = event[1], event[2]
    if kind in PRIVATE and q != seat:
        t = None
    return {"type": kind, "seat": q, "tile": t}
