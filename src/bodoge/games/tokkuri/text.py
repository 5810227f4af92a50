"""Tokkuri's words: which text each event and decision takes, with its fields. The words themselves
are in texts/en.toml and texts/ja.toml; the terminal board (`render`) is English. Action texts are the
rules' (`play.action_text`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bodoge.core.text import Texts
from bodoge.games.tokkuri.scoring import round_scores
from bodoge.games.tokkuri.state import PHASES, TokkuriGame, TokkuriState

TEXTS = Texts(__package__ or "bodoge.games.tokkuri")

#: Action words that name which card rather than what to do: placing the dummy is a `place`, giving
#: the trouble card a `give`. The arena counts a decision among them as a choice of card, not of a
#: kind of move (`bodoge.arena.choices`): "the bots place the dummy" says which card, not a strategy.
WHICH_CARD = {
    "place dummy": "place",
    "place trouble": "place",
    "give dummy": "give",
    "give trouble": "give",
}


def card_name(code: str, lang: str) -> str:
    """A card as a player reads it: its own name where the language has one ("dummy" ->
    "ダミートックリ"), else its code ("9+4", in Japanese "「9+4」")."""
    key = f"card.{code}"
    if key in TEXTS.tables[lang]:
        return TEXTS.say(lang, key)
    return TEXTS.say(lang, "card.number", code=code)


def _and(items: list[str], lang: str) -> str:
    """ "a and b", "a, b and c" (in Japanese "a、b、c")."""
    last = TEXTS.say(lang, "list.and")
    if len(items) <= 2:
        return last.join(items)
    return TEXTS.say(lang, "list.comma").join(items[:-1]) + last + items[-1]


def _minus(x: int) -> str:
    return f"−{-x}" if x < 0 else str(x)


def _signed(x: int) -> str:
    return f"+{x}" if x > 0 else f"−{-x}" if x < 0 else "±0"


def _round_end(seen: Mapping[str, Any], lang: str) -> str:
    say = TEXTS.say
    lines = [say(lang, "event.round_end.head", round=seen["round"])]
    for q, score in enumerate(seen["round_scores"]):
        parts = [say(lang, "event.round_end.captured", count=seen["captured"][q])]
        if seen["bonus"][q]:
            parts.append(say(lang, "event.round_end.bonus", count=seen["bonus"][q]))
        if seen["penalty"][q]:
            k = seen["penalised"][q]
            left = say(lang, "event.round_end.penalised", count=k) if k else ""
            parts.append(say(lang, "event.round_end.penalty", count=seen["penalty"][q], left=left))
        lines.append(say(lang, "event.round_end.seat", seat=q, parts=" ".join(parts), score=_minus(score)))
    changes = seen["changes"]
    scores = seen["round_scores"]
    top = max(scores)
    if any(changes):
        tops = [q for q, x in enumerate(scores) if x == top]
        key = "event.round_end.pays_each" if len(tops) > 1 else "event.round_end.pays"
        names = _and([f"P{w}" for w in tops], lang)
        for q, x in enumerate(scores):
            if x < top:
                lines.append(say(lang, key, seat=q, owed=top - x, top=names))
    else:
        lines.append(say(lang, "event.round_end.all_tie"))
    balances = TEXTS.say(lang, "list.comma").join(
        say(lang, "event.round_end.balance", seat=q, balance=_minus(b), change=_signed(d))
        for q, (b, d) in enumerate(zip(seen["balances"], changes, strict=True))
    )
    lines.append(say(lang, "event.round_end.balances", balances=balances))
    return "\n".join(lines)


def _game_end(seen: Mapping[str, Any], lang: str) -> str:
    """Why the game ended (TK-6.5) and who won (TK-6.6)."""
    say = TEXTS.say
    reason = seen["reason"]
    broke = [f"P{q}" for q in seen["bankrupt"]]
    key = reason + ("_many" if reason == "bankruptcy" and len(broke) > 1 else "")
    why = say(lang, f"event.game_end.{key}", seats=_and(broke, lang), round=seen["round"])
    won = [f"P{q}" for q in seen["winners"]]
    best = _minus(max(seen["balances"]))
    key = "event.game_end.winner" if len(won) == 1 else "event.game_end.shared"
    return why + say(lang, key, winners=_and(won, lang), best=best)


def event_text(game: TokkuriGame, seen: Mapping[str, Any], lang: str) -> str:
    """One log event as a line a player reads. It says only what the event dict holds, so a card the
    seat did not see (another player's deal, placement, draw or gift, a captured face) stays unnamed."""
    kind = seen["type"]
    if kind == "round_end":
        return _round_end(seen, lang)
    if kind == "game_end":
        return _game_end(seen, lang)
    code = seen.get("card")
    fields = dict(seen)
    key = f"event.{kind}"
    if code is not None:
        fields["card"] = card_name(code, lang)
        if kind in ("open", "place", "draw", "give", "gave"):
            key += "_seen"
    if kind == "deal" and seen.get("cards") is not None:
        key += "_seen"
        fields["cards"] = TEXTS.say(lang, "list.cards").join(card_name(c, lang) for c in seen["cards"])
    elif kind == "drink":
        fields["values"] = "+".join(map(str, seen["values"]))
        if fields["values"] != code:
            key += "_as"
    elif kind == "resolve":
        fields["values"] = "+".join(map(str, seen["values"]))
        fields["tokkuri"] = _and([tid for tid, _ in seen["levels"]], lang)
        fields["changes"] = TEXTS.say(lang, "list.comma").join(
            TEXTS.say(lang, "list.level", tokkuri=tid, before=lv + x, after=lv)
            for (tid, lv), x in zip(seen["levels"], seen["values"], strict=True)
        )
        line = TEXTS.say(lang, key, **fields)
        if seen["bonus"]:
            line += TEXTS.say(lang, "event.resolve_bonus", **fields)
        return line
    elif kind == "empty":
        key += "_dummy" if seen["dummy"] else "_seen" if code is not None else ""
    return TEXTS.say(lang, key, **fields)


def chance_text(game: TokkuriGame, outcome: int) -> str:
    """A card dealt, drawn or stolen with explicit chance: its code."""
    return f"card {game.codes[outcome]}"


def decision_text(state: TokkuriState, lang: str) -> str:
    """What `current_player` decides now, in `lang`. Everyone's view carries it, so it says nothing
    that hangs on a hidden hand: a turn is "place a tokkuri, or drink if a card can" (whether one can
    is the mover's to see, in the legal actions; the board's prompt says which)."""
    phase = PHASES[state.phase]
    if phase != "target":
        return TEXTS.say(lang, f"decision.{phase}", seat=state.current_player)
    g = state.game
    v = state.d_var
    i = len(state.d_targets)
    card = card_name(g.codes[g.var_type[v]], lang)
    fields = {"value": g.var_values[v][i], "card": card, "number": i + 1, "count": len(g.var_values[v])}
    return TEXTS.say(lang, "decision.target", seat=state.current_player, **fields)


def bottle(level: int, full: int) -> str:
    """A tokkuri's level as a bar, e.g. ■■■■■□□□□□ for 5 of 10."""
    if full > 20:
        return f"{level}/{full}"
    return "■" * level + "□" * (full - level)


def render(state: TokkuriState, seat: int | None = None) -> str:
    g = state.game
    o = g.options
    codes = g.codes
    N = g.total
    n = g.num_players
    full = o["tokkuri_level"]
    pl = o["penalty_level"]
    lines = [
        f"Tokkuri — round {state.round_no} (start P{state.start}) — {state.decision()}",
        f"Draw deck: {len(state.stock)}   Discard: {' '.join(codes[t] for t in state.discard) or '—'}",
    ]
    tally = round_scores(state)
    for s in range(n):
        me = " (you)" if s == seat else ""
        turn = " ◀" if s == state.current_player else ""
        bonus = " ".join(codes[t] for t in state.bonus[s]) or "—"
        lines.append(
            f"P{s}{me}{turn}  balance {state.balances[s]}  hand {len(state.hands[s])}  "
            f"captured {len(state.captured[s])}  bonus {bonus}  round tally {tally[s]}"
        )
        for tid, lv, face in zip(state.table, state.levels, state.faces, strict=True):
            if tid // N != s:
                continue
            card = codes[face] if s == seat else "?"
            warn = f"  (−{o['penalty_points']} if left)" if lv >= pl else ""
            lines.append(f"    T{s}.{tid % N + 1} [{card}] {bottle(lv, full)} {lv}{warn}")
    if seat is not None:
        hand = " ".join(codes[t] for t in sorted(state.hands[seat])) or "—"
        lines.append(f"Your hand: {hand}")
        if state.captured[seat]:
            lines.append(f"Your captured: {' '.join(codes[t] for t in state.captured[seat])}")
        if state.pending[seat] >= 0:
            lines.append(f"Your hidden choice: {codes[state.pending[seat]]}")
    if state.d_var >= 0:
        v = state.d_var
        chosen = ", ".join(f"T{tid // N}.{tid % N + 1}" for tid in state.d_targets) or "none yet"
        values = "+".join(str(x) for x in g.var_values[v])
        lines.append(f"Drinking {codes[g.var_type[v]]} ({values}); targets so far: {chosen}")
    if state.current_player is None:
        won = ", ".join(f"P{w}" for w in state.winners())
        lines.append(f"Game over. Balances {state.balances}; winner(s): {won}")
    return "\n".join(lines)
