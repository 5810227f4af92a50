"""Troika's words: which text each event and decision takes, with its fields. The words themselves
are in texts/en.toml and texts/ja.toml; the terminal board (`render`) is English."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bodoge.core.text import Texts
from bodoge.games.troika.cards import tiles_of
from bodoge.games.troika.information import PRIVATE, round_end_view
from bodoge.games.troika.state import TroikaGame, TroikaState

TEXTS = Texts(__package__ or "bodoge.games.troika")


def _tiles(tiles: list[int], lang: str = "en") -> str:
    return " ".join(str(t) for t in tiles) if tiles else TEXTS.say(lang, "list.no_tiles")


def _sets(sets: list[list[int]], lang: str) -> str:
    """Scored sets, each with its kind where the language names it: fuel (three of a number) or
    jewel (three in a row)."""
    said = [
        TEXTS.say(lang, "list.fuel" if len(set(s)) == 1 else "list.jewel", tiles="-".join(map(str, s)))
        for s in sets
    ]
    return TEXTS.say(lang, "list.set_separator").join(said) or TEXTS.say(lang, "list.no_set")


def _round_end(seen: Mapping[str, Any], lang: str) -> str:
    lines = [TEXTS.say(lang, f"event.round_end.{seen['reason']}", round=seen["round"])]
    for p in seen["players"]:
        if p["left_behind"]:
            result = TEXTS.say(lang, "event.round_end.left_behind")
        else:
            bonus = TEXTS.say(lang, "event.round_end.bonus", bonus=p["bonus"]) if p["bonus"] else ""
            result = TEXTS.say(lang, "event.round_end.score", **{**p, "bonus": bonus})
        fields = {**p, "sets": _sets(p["sets"], lang), "waste": _tiles(p["waste"], lang), "result": result}
        lines.append(TEXTS.say(lang, "event.round_end.player", **fields))
    return "\n".join(lines)


def _game_end(game: TroikaGame, seen: Mapping[str, Any], lang: str) -> str:
    won = seen["winners"]
    sep = TEXTS.say(lang, "list.separator")
    return TEXTS.say(
        lang,
        "event.game_end" if len(won) == 1 else "event.game_end_shared",  # TR-6.6: never nobody
        reason=TEXTS.say(lang, f"end_reason.{seen['reason']}", rounds=game.rounds),
        winners=sep.join(TEXTS.say(lang, "list.seat", seat=p) for p in won),
        chips=sep.join(
            TEXTS.say(lang, "list.seat_chips", seat=p, chips=c) for p, c in enumerate(seen["chips"])
        ),
    )


def event_text(game: TroikaGame, seen: Mapping[str, Any], lang: str) -> str:
    """One log event, as a seat saw it, in `lang` (hidden tiles stay hidden: `tile` is None then)."""
    kind = seen["type"]
    if kind == "round_end":
        return _round_end(seen, lang)
    if kind == "game_end":
        return _game_end(game, seen, lang)
    key = f"event.{kind}"
    if kind == "troika" and seen["first"]:
        key += "_first"
    elif kind == "flip" and seen["seat"] is None:
        key += "_setup"
    elif kind in PRIVATE and seen["tile"] is None:
        key += "_hidden"
    return TEXTS.say(lang, key, **seen)


def chance_text(game: TroikaGame, outcome: int) -> str:
    """A draw from the pool with explicit chance: the tile's number (the outcome is number − 1)."""
    return f"tile {outcome + 1}"


def decision_text(state: TroikaState, lang: str) -> str:
    """What `current_player` decides now, in `lang`."""
    key = "decision.turn_troika" if state.game.troika_on else "decision.turn"
    return TEXTS.say(lang, key, seat=state.current_player, round=state.round)


def render(state: TroikaState, seat: int | None) -> str:
    """A compact board from `seat`'s point of view (others' hands hidden until round scoring)."""
    g = state.game
    n = g.num_players
    lines = [
        f"Troika トロイカ — round {state.round}/{g.rounds}, start player P{state.start_player}"
        + (f", {state.removed_size} tiles set aside" if state.removed_size else ""),
        f"mine (face up): {_tiles(tiles_of(state.mine))}    face-down pool: {len(state.pool)} tiles",
    ]
    for q in range(n):
        mark = ">" if q == state.current_player else " "
        who = f"P{q}" + (" (you)" if q == seat else "")
        if q == seat or state.current_player is None:
            hand = _tiles(tiles_of(state.hands[q]))
        else:
            hand = f"{state.hand_sizes[q]} hidden"
        flags = []
        if state.declared[q]:
            flags.append("TROIKA (first)" if state.first_declarer == q else "TROIKA")
        line = (
            f"{mark} {who:<9} chips {state.chips[q]:>3}  container: {_tiles(tiles_of(state.containers[q]))}"
            f"  | hand: {hand}"
        )
        if flags:
            line += "  " + " ".join(flags)
        lines.append(line)
    if seat is not None and state.known_sizes[seat]:
        lines.append(
            f"your tiles returned face down, still in the pool: {_tiles(tiles_of(state.known[seat]))}"
        )
    ends = [e for e in state.events if e[0] == "round_end"]
    if ends:
        last = round_end_view(ends[-1], g)
        lines.append(f"round {last['round']} result ({last['reason'].replace('_', ' ')}):")
        for p in last["players"]:
            sets = " ".join("-".join(str(t) for t in s) for s in p["sets"]) or "no sets"
            score = "left behind" if p["left_behind"] else f"score {p['round_score']}"
            if p["bonus"]:
                score += f" (incl. bonus {p['bonus']})"
            lines.append(
                f"  P{p['seat']}: {sets}; waste {_tiles(p['waste'])}; {score}; chips {p['chips']:+d}"
                f" (total {p['chip_total']}), place {p['placement']}"
            )
    if state.current_player is None:
        winners = state.winners()
        lines.append(
            "game over — winner"
            + ("s" if len(winners) > 1 else "")
            + ": "
            + ", ".join(f"P{w}" for w in winners)
        )
    elif seat == state.current_player:
        lines.append("your turn")
    else:
        lines.append(f"P{state.current_player} to play")
    return "\n".join(lines)
