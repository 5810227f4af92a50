"""Hangover's words: which text each event and decision takes, with its fields. The words themselves
are in texts/en.toml and texts/ja.toml; the terminal board (`render`) is English. Action texts are the
rules' (`play.action_text`: the protocol's); `action_rest` names their cards in words for people."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bodoge.core.text import Texts
from bodoge.games.hangover.cards import DRINK_CODES, DRINK_INDEX, NUMBER, SUIT, SUITS
from bodoge.games.hangover.options import IN_ORDER, SECRET
from bodoge.games.hangover.state import (
    FLIPPING,
    OUT_NON_DRINKER,
    PHASE_NAMES,
    STATUS_NAMES,
    TRICK,
    HangoverGame,
    HangoverState,
)

TEXTS = Texts(__package__ or "bodoge.games.hangover")

#: The status column of the terminal board.
STATUS_TEXT = {
    "drinker": "drinker",
    "non_drinker": "non-drinker",
    "out_non_drinker": "out (non-drinker)",
    "hung_over": "HUNG OVER",
}


def drink_name(card: int, lang: str = "en") -> str:
    """A drink card in words: 'red 5 △', '赤の5△'."""
    key = "card.drink_tri" if card % 2 else "card.drink"
    suit = TEXTS.say(lang, f"card.suit.{SUITS[SUIT[card]]}")
    return TEXTS.say(lang, key, suit=suit, number=NUMBER[card])


def _card(code: str, lang: str) -> str:
    """A drink card as a player reads it: its name ("red 5 △", "赤の5△"), never its code ("R5^")."""
    return drink_name(DRINK_INDEX[code], lang)


def action_rest(rest: str, lang: str) -> str:
    """The words after an action's verb, for people: a drink card's code (`play R4^`) in words;
    snack cards (`flip -2/+2 -2`) and positions are numbers already."""
    return drink_name(DRINK_INDEX[rest], lang) if rest in DRINK_INDEX else rest


def _nth(k: int, lang: str) -> str:
    """1st, 2nd, 3rd, 4th, …, 11th, 12th, 13th, 21st (a plain number where the language has no
    ordinal suffixes)."""
    key = "nth" if k % 100 in (11, 12, 13) else {1: "first", 2: "second", 3: "third"}.get(k % 10, "nth")
    return TEXTS.say(lang, f"list.{key}", k=k)


def _seats(seats: list[int], lang: str) -> str:
    return TEXTS.say(lang, "list.separator").join(TEXTS.say(lang, "list.seat", seat=q) for q in seats)


def _trick(game: HangoverGame, seen: Mapping[str, Any], lang: str) -> str:
    fields = {**seen, "card": _card(seen["card"], lang), "nth": _nth(seen["own_trick"], lang)}
    outcome = seen["outcome"]
    if outcome == "out" and (game.non_drinker_tricks or game.out_non_drinker_gains):
        outcome = "out_option"  # HO-D31, HO-D32: not a first trick, or the VP not frozen
    line = TEXTS.say(lang, f"event.trick.{outcome}", **fields)
    bonus = seen["bonus"]
    if bonus:
        key = "event.trick.bonus_" + ("one" if len(bonus) == 1 else "many")
        if game.non_drinker_vp != 1:  # HO-D30
            key += "_vp"
        line += TEXTS.say(lang, key, seats=_seats(bonus, lang), vp=game.non_drinker_vp)
    return line


def _judge(seen: Mapping[str, Any], lang: str) -> str:
    total, limit, f = seen["adjusted_sum"], seen["limit"], seen["flipped"]
    band = "under" if total < limit else "just" if total == limit else "over"
    line = TEXTS.say(
        lang,
        "event.judge.line",
        seat=seen["seat"],
        nth=_nth(seen["own_trick"], lang),
        adjusted=TEXTS.say(lang, "event.judge.adjusted") if f else "",
        total=total,
        band=TEXTS.say(lang, f"event.judge.{band}", limit=limit),
        base=seen["base"],
        snacks=TEXTS.say(lang, "event.judge.snacks_" + ("one" if f == 1 else "many"), count=f),
        vp=seen["vp"],
    )
    if seen["slid"]:
        k = seen["own_trick"]
        line += TEXTS.say(lang, "event.judge.slid", column=k, next=k + 1)
    return line


def _game_end(seen: Mapping[str, Any], lang: str) -> str:
    lines = [TEXTS.say(lang, "event.game_end.head", reason=TEXTS.say(lang, f"end_reason.{seen['reason']}"))]
    for q, (vp, status) in enumerate(zip(seen["vp"], seen["status"], strict=True)):
        lines.append(
            TEXTS.say(
                lang, "event.game_end.seat", seat=q, vp=vp, note=TEXTS.say(lang, f"event.game_end.{status}")
            )
        )
    winners = seen["winners"]
    key = "nobody" if not winners else "winner" if len(winners) == 1 else "shared"
    lines.append(TEXTS.say(lang, f"event.game_end.{key}", winners=_seats(winners, lang)))
    return "\n".join(lines)


def chance_text(game: HangoverGame, outcome: int) -> str:
    """A card dealt with explicit chance: the drink card's code, or the snack (NUM_DRINK + its type)."""
    if outcome < len(DRINK_CODES):
        return f"deal {DRINK_CODES[outcome]}"
    return f"deal snack {game.snack_codes[outcome - len(DRINK_CODES)]}"


def event_text(game: HangoverGame, seen: Mapping[str, Any], lang: str) -> str:
    """One log event as a line a player reads. It says only what the event dict holds, so a card the
    seat may not see (another player's face-down discard or snack order) is never named."""
    kind = seen["type"]
    if kind == "trick":
        return _trick(game, seen, lang)
    if kind == "declarations":  # HO-D29: a secret round's answers, shown together
        declared = seen["non_drinkers"]
        if not declared:
            return TEXTS.say(lang, "event.declarations_none")
        return TEXTS.say(lang, "event.declarations", seats=_seats(declared, lang))
    if kind == "judge":
        return _judge(seen, lang)
    if kind == "game_end":
        return _game_end(seen, lang)
    key = f"event.{kind}"
    fields = dict(seen)
    if kind in ("play", "discard"):
        card = seen.get("card")
        if card is None:
            key += "_hidden"
        else:
            fields["card"] = _card(card, lang)
    elif kind == "declare":
        if seen["non_drinker"] is None:
            key += "_hidden"  # HO-D29: another seat's secret answer
        else:
            if not seen["non_drinker"]:
                key += "_pass"
            if seen.get("before_trick", 1) > 1:  # HO-D29 (any_trick): a later declaration
                key += "_later"
                fields["number"] = seen["before_trick"]
    elif kind == "arrange" and seen.get("order") is not None:
        key += "_seen"
        fields["order"] = " ".join(seen["order"])
    return TEXTS.say(lang, key, **fields)


def decision_text(state: HangoverState, lang: str) -> str:
    """What `current_player` decides now, in `lang` (core says the end's words)."""
    p = state.current_player
    assert p is not None
    phase = PHASE_NAMES[state.phase]
    if phase == "flip":
        total = state.judge_sum + state.judge_added
        return TEXTS.say(
            lang, "decision.flip", seat=p, column=state.tricks[p], total=total, limit=state.game.limit
        )
    if phase == "declare" and state.game.declaration != IN_ORDER:  # HO-D29
        if state.game.declaration == SECRET:
            return TEXTS.say(lang, "decision.declare_secret", seat=p)
        if state.past:
            return TEXTS.say(lang, "decision.declare_later", seat=p, number=len(state.past) + 1)
    if phase != "trick":
        return TEXTS.say(lang, f"decision.{phase}", seat=p)
    number = len(state.past) + 1
    if not state.trick:
        return TEXTS.say(lang, "decision.lead", seat=p, number=number)
    lead = _card(DRINK_CODES[state.trick[0]], lang)
    key = "decision.discard" if state.status[p] >= OUT_NON_DRINKER else "decision.play"
    return TEXTS.say(lang, key, seat=p, number=number, lead=lead)


def _board_card(c: int) -> str:
    return "??" if c < 0 else DRINK_CODES[c]


def render(state: HangoverState, seat: int | None) -> str:
    g = state.game
    n = g.num_players
    codes = g.snack_codes
    lines = [
        f"Hangover (draft 2) — {n} players, drunk limit {g.limit}, "
        f"VP under/just/over {g.vp_under}/{g.vp_just}/{g.vp_over}, Hangover on own trick {g.hangover_trick}",
        f"Trick {len(state.past) + (1 if state.phase == TRICK else 0)} of at most {g.hand_size}; "
        f"set aside: {len(state.aside)} drink, {len(state.snack_aside)} snack",
    ]
    for q in range(n):
        mark = ">" if q == state.current_player else " "
        you = " (you)" if q == seat else ""
        cols = " | ".join(str(len(c)) for c in state.columns[q])
        flips = " ".join(f"{codes[d]}={g.snack_value[d][v]:+d}@{k}" for k, d, v in state.flipped[q])
        row = (
            f"{mark}P{q}{you}: {STATUS_TEXT[STATUS_NAMES[state.status[q]]]:<17} VP {state.vp[q]:>3}  "
            f"tricks {state.tricks[q]}  hand {len(state.hands[q])}  face-down {len(state.discards[q])}  "
            f"columns [{cols}]"
        )
        if flips:
            row += f"  flipped {flips}"
        lines.append(row)
    if state.past:
        lead, cards, w = state.past[-1]
        played = "  ".join(f"P{(lead + i) % n} {_board_card(c)}" for i, c in enumerate(cards))
        lines.append(f"Last trick: {played}  -> P{w}")
    if state.phase == TRICK:
        if state.trick:
            played = "  ".join(
                f"P{(state.leader + i) % n} {_board_card(c)}" for i, c in enumerate(state.trick)
            )
            lines.append(f"This trick (lead suit {SUITS[SUIT[state.trick[0]]]}): {played}")
        else:
            lines.append(f"This trick: P{state.leader} to lead")
    if state.phase == FLIPPING:
        lines.append(
            f"Judging P{state.current_player}: sum {state.judge_sum}, flipped {state.judge_flips}, "
            f"adjusted {state.judge_sum + state.judge_added} (limit {g.limit})"
        )
    if seat is not None:
        lines.append("Your hand: " + (" ".join(DRINK_CODES[c] for c in state.hands[seat]) or "(empty)"))
        if state.discards[seat]:
            lines.append("Your face-down cards: " + " ".join(DRINK_CODES[c] for c in state.discards[seat]))
        if state.snack_hands[seat]:
            lines.append("Your snacks to arrange: " + " ".join(codes[d] for d in state.snack_hands[seat]))
        cols = "  ".join(
            f"{i + 1}[{' '.join(codes[d] for d in col)}]" for i, col in enumerate(state.columns[seat])
        )
        lines.append(f"Your snack columns: {cols}")
    if state.current_player is None:
        won = ", ".join(f"P{p}" for p in state.winners()) or "nobody"
        lines.append(f"Game over. Winners: {won}")
    else:
        lines.append(f"Now: {state.decision()}")
    return "\n".join(lines)
