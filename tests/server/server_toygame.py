"""A tiny test-only game with hidden hands, and test-only agents, registered on import.

The server tests import it in the server and (through `ServerConfig.preload`) in its bot workers,
so they can check the server's flow and secrecy on a game whose secrets are known exactly.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from typing import Any, ClassVar

from bodoge import agents
from bodoge.agents.base import legal_ids
from bodoge.core import Game, State, registry
from bodoge.core import options as opts

MODULE = __name__


class HighCardState(State):
    game: HighCardGame
    hands: list[list[int]]
    trick: list[tuple[int, int]]
    won: list[int]
    leader: int

    def setup(self) -> None:
        deck = list(range(1, 13))
        self.rng.shuffle(deck)
        n, k = self.game.num_players, self.game.options["tricks"]
        self.hands = [sorted(deck[i * k : (i + 1) * k]) for i in range(n)]
        self.trick = []
        self.won = [0] * n
        self.leader = 0
        self.current_player = 0
        self.events.append(("deal",))

    def _legal_actions(self) -> list[int]:
        assert self.current_player is not None
        return [c - 1 for c in self.hands[self.current_player]]

    def _apply(self, action: int) -> None:
        seat = self.current_player
        assert seat is not None
        card = action + 1
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        self.events.append(("play", seat, card))
        n = self.game.num_players
        if len(self.trick) < n:
            self.current_player = (seat + 1) % n
            return
        winner = max(self.trick, key=lambda sc: sc[1])[0]
        self.won[winner] += 1
        self.events.append(("trick", winner))
        self.trick = []
        self.leader = winner
        self.current_player = None if not self.hands[winner] else winner
        if self.current_player is None:
            self.events.append(("game_end",))

    def action_text(self, action: int) -> str:
        return f"play {action + 1}"

    def _view(self, seat: int | None) -> dict[str, Any]:
        v: dict[str, Any] = {
            "hand_sizes": [len(h) for h in self.hands],
            "trick": [{"seat": s, "card": c} for s, c in self.trick],
            "won": list(self.won),
        }
        if seat is not None:
            v["hand"] = list(self.hands[seat])
        return v

    def _event_view(self, event: tuple[Any, ...], seat: int | None) -> dict[str, Any] | None:
        if event[0] == "deal":
            return {"type": "deal", "text": "cards are dealt"}
        if event[0] == "play":
            return {
                "type": "play",
                "seat": event[1],
                "card": event[2],
                "text": f"P{event[1]} plays {event[2]}",
            }
        if event[0] == "trick":
            return {"type": "trick", "winner": event[1], "text": f"P{event[1]} wins the trick"}
        # the one vocabulary's last entry (docs/protocol.md): every log ends with game_end
        winners = self.winners()
        return {"type": "game_end", "winners": winners, "reason": "hands_played", "text": f"{winners} win"}

    def scores(self) -> list[int]:
        return list(self.won)

    def winners(self) -> list[int]:
        best = max(self.won)
        return [p for p, w in enumerate(self.won) if w == best]

    def render(self, seat: int | None = None) -> str:
        return repr(self._view(seat))

    def check_invariants(self) -> None:
        pass

    def _copy_mutables(self, other: State) -> None:
        assert isinstance(other, HighCardState)
        other.hands = [list(h) for h in self.hands]
        other.trick = list(self.trick)
        other.won = list(self.won)


class HighCardGame(Game):
    name = "highcard"
    title: ClassVar[dict[str, str]] = {"en": "High Card (test)", "ja": "ハイカード（テスト）"}
    min_players = 2
    max_players = 4
    default_players = 3
    option_specs = (opts.integer("tricks", 3, "cards dealt to each seat", lo=1, hi=3),)
    state_class = HighCardState
    num_actions = 12

    def max_game_length(self) -> int:
        return self.num_players * self.options["tricks"]

    def sample_state(self, view: Mapping[str, Any], rng: random.Random) -> State:
        raise NotImplementedError


class SleepyAgent:
    """Sleeps `seconds` before a random move (to overrun a time budget)."""

    def __init__(self, seconds: float = 10.0) -> None:
        self.seconds = seconds
        self.spec = f"sleepy:seconds={seconds}"

    def act(self, game: Game, view: dict[str, Any], rng: random.Random) -> int:
        time.sleep(self.seconds)
        return rng.choice(legal_ids(view))


class BrokenAgent:
    spec = "broken"

    def act(self, game: Game, view: dict[str, Any], rng: random.Random) -> int:
        raise RuntimeError("this bot always fails")


class SnoopAgent:
    """Fails the game if its view holds another seat's hand: bots must get exactly view(seat)."""

    spec = "snoop"

    def act(self, game: Game, view: dict[str, Any], rng: random.Random) -> int:
        if view.get("seat") is None or "hands" in view:
            raise RuntimeError("the bot was given more than its own view")
        return min(legal_ids(view))


registry.register(HighCardGame)
agents.register("sleepy", SleepyAgent)
agents.register("broken", BrokenAgent)
agents.register("snoop", SnoopAgent)
