"""Three Tricks' words: which text each event and decision takes; the words are in texts/*.toml."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bodoge.core.text import Texts
from toygame.rules import ThreeTricks, ThreeTricksState

TEXTS = Texts(__package__ or "toygame")


def event_text(game: ThreeTricks, seen: Mapping[str, Any], lang: str) -> str:
    kind = seen["type"]
    if kind == "deal":
        if seen["cards"] is None:
            return TEXTS.say(lang, "event.deal_hidden", seat=seen["seat"])
        return TEXTS.say(lang, "event.deal", seat=seen["seat"], cards=" ".join(map(str, seen["cards"])))
    if kind == "game_end":
        reason = TEXTS.say(lang, f"end_reason.{seen['reason']}")
        return TEXTS.say(
            lang, "event.game_end", reason=reason, winners=", ".join(f"P{p}" for p in seen["winners"])
        )
    return TEXTS.say(lang, f"event.{kind}", **seen)


def decision_text(state: ThreeTricksState, lang: str) -> str:
    key = "decision.lead" if not state.trick else "decision.follow"
    return TEXTS.say(lang, key, seat=state.current_player)


def render(state: ThreeTricksState, seat: int | None) -> str:
    lines = [TEXTS.say("en", "board.trick", cards=" ".join(f"P{p}:{c}" for p, c in state.trick) or "-")]
    for p in range(state.game.num_players):
        hand = " ".join(map(str, state.hands[p])) if p == seat else f"{len(state.hands[p])} cards"
        lines.append(TEXTS.say("en", "board.seat", seat=p, hand=hand, won=state.won[p]))
    return "\n".join(lines)
