"""Tottarot's words: which text each event and decision takes, with its fields. The words themselves
are in texts/en.toml and texts/ja.toml; the terminal board (`render`) is English."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from bodoge.core.text import Texts
from bodoge.games.tottarot.scoring import row_total
from bodoge.games.tottarot.state import PHASES, TottarotGame, TottarotState

TEXTS = Texts(__package__ or "bodoge.games.tottarot")

_TEXT = re.compile(r"(bid) (\d+)|(steal|share|peek) p(\d+)|(steal) none")


def parse_text(text: str) -> tuple[str, int | None] | None:
    """`'steal P3'` -> `('steal', 3)`, `'steal none'` -> `('steal', None)`, `'bid 2'` -> `('bid', 2)`."""
    m = _TEXT.fullmatch(" ".join(text.split()).lower())
    if not m:
        return None
    if m.group(1):
        return "bid", int(m.group(2))
    if m.group(3):
        return m.group(3), int(m.group(4))
    return "steal", None


def _card(game: TottarotGame, lang: str, code: str | None) -> str:
    """A card as a player reads it: its name in the language (the `deck` option's: "The Sun",
    "太陽"), never its code ("SUN")."""
    if code is None:
        return TEXTS.say(lang, "list.no_card")
    if lang == "ja":
        return game.names_ja.get(code, code)
    return next((t.name_en for t in game.types if t.code == code), code)


def _seats(lang: str, seats: list[int]) -> str:
    said = [TEXTS.say(lang, "list.seat", seat=p) for p in seats]
    return TEXTS.say(lang, "list.separator").join(said) or TEXTS.say(lang, "list.nobody")


def _per_seat(lang: str, values: list[Any]) -> str:
    items = [TEXTS.say(lang, "list.per_seat_item", seat=p, value=v) for p, v in enumerate(values)]
    return TEXTS.say(lang, "list.per_seat", items=TEXTS.say(lang, "list.separator").join(items))


def _seat_values(lang: str, values: list[Any]) -> str:
    items = [TEXTS.say(lang, "list.seat_value", seat=p, value=v) for p, v in enumerate(values)]
    return TEXTS.say(lang, "list.separator").join(items)


def event_text(game: TottarotGame, seen: Mapping[str, Any], lang: str) -> str:
    """One log event, as a seat saw it, in `lang`."""
    kind = seen["type"]
    card = seen.get("card")
    key = f"event.{kind}"
    fields: dict[str, Any] = dict(seen)
    if card is not None:
        fields["card"] = _card(game, lang, card)
    if kind in ("draw", "steal", "share", "peek") and card:
        key += "_seen"
    elif kind == "bid" and seen["value"] is None:
        key += "_hidden"
    elif kind == "invert" and not seen["inverted"]:
        key += "_back"
    elif kind == "turn_start":
        fields["order"] = _seats(lang, seen["order"])
    elif kind == "reveal":
        fields["bids"] = _seat_values(lang, seen["bids"])
        fields["actors"] = _seats(lang, seen["actors"])
    elif kind == "decide":
        fields["cards"] = _seat_values(lang, [_card(game, lang, c) for c in seen["cards"]])
    elif kind == "round_end":
        for name in ("totals", "unused_sums", "victory_tokens"):
            fields[name] = _per_seat(lang, seen[name])
        fields["gainers"] = _seats(lang, seen["gainers"])
    elif kind == "game_end":
        won = seen["winners"]
        key += "" if len(won) == 1 else "_shared" if won else "_none"
        fields["winners"] = _seats(lang, won)
        fields["reason"] = TEXTS.say(lang, f"end_reason.{seen['reason']}", target=game.target)
        fields["victory_tokens"] = _per_seat(lang, seen["victory_tokens"])
    return TEXTS.say(lang, key, **fields)


def chance_text(game: TottarotGame, outcome: int) -> str:
    """A draw's outcome with explicit chance: the card type drawn."""
    return f"draw {game.codes[outcome]}"


def decision_text(state: TottarotState, lang: str) -> str:
    """What `current_player` decides now, in `lang`."""
    key = f"decision.{PHASES[state.phase]}"
    return TEXTS.say(lang, key, seat=state.current_player, round=state.round, turn=state.turn)


def _board_card(state: TottarotState, c: int) -> str:
    g = state.game
    icon = g.icon_codes[c]
    pts = g.points[c]
    return f"{g.codes[c]}({pts:+d}{'/' + icon if icon else ''})"


def render(state: TottarotState, seat: int | None = None) -> str:
    """A compact board from `seat`'s point of view (others' hidden cards hidden)."""
    g = state.game
    n = g.n
    bit = g.public_bit if seat is None else 1 << seat
    who = "spectator" if seat is None else f"P{seat}"
    lines = [
        f"Tottarot · round {state.round}, turn {state.turn}/{g.turns} · start player P{state.start} · "
        f"deck {len(state.pile)} · target {g.target} victory tokens · you: {who}"
    ]
    lines.append("discard pile: " + (" ".join(_board_card(state, c) for c in state.discard) or "-"))
    revealed = state.nbid == n
    for p in range(n):
        c = state.declared[p]
        if c < 0:
            held = "no card"
        elif state.knows[p] & bit:
            held = _board_card(state, c)
        else:
            held = "[hidden]"
        row = []
        for x in state.rows[p]:
            t = x >> 1
            pts = -g.points[t] if x & 1 else g.points[t]
            row.append(f"{g.codes[t]}{' inverted' if x & 1 else ''} {pts:+d}")
        unused = g.bid_lists[state.used[p]]
        b = state.bids[p]
        if b < 0:
            bid = "-"
        elif revealed or p == seat:
            bid = str(b)
        else:
            bid = "?"
        marks = ("*" if p == state.start else " ") + (">" if p == state.current_player else " ")
        lines.append(
            f"{marks}P{p}{' (you)' if p == seat else ''}: tokens {state.tokens[p]} | declared {held} | "
            f"row [{', '.join(row)}] = {row_total(state, p):+d} | unused will {unused} | bid {bid}"
        )
    if revealed and state.actors:
        lines.append("actors (priority order): " + ", ".join(f"P{a}" for a in state.actors))
    if state.current_player is None:
        lines.append("game over · winners: " + ", ".join(f"P{w}" for w in state.winners()))
    else:
        lines.append(state.decision())
    return "\n".join(lines)
