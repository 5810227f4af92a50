"""A tiny hidden-card trick game, for testing the agents and the arena before (and beside) the real games.

"Tiny tricks", 2–3 players. Each round the deck (cards 1 … 4n) is shuffled and 3 cards are dealt to
each player; the rest stay face down, unseen. The round is 3 tricks: the leader plays any card face up,
then each other player in seat order plays any card; the highest card wins the trick and leads the
next. After 3 tricks, the players with the most tricks this round each score 1 point (`scores`). After
`rounds` rounds the most points win (ties share). Seat (r − 1) mod n leads round r.

Hidden information: the other hands and the unseen cards. A proper `Game`/`State` pair with views,
`sample_state`, records, and a heuristic (`heuristic_act`: win the trick as cheaply as possible, or
throw the lowest card), so every agent and the arena can run on it. The arena makes it from its class
path `bodoge_tinygame:TinyGame`; `registered()` adds it to the registry for a while (tests only), so
that `bodoge.replay` finds it.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from bodoge.core import registry
from bodoge.core.game import Game, State
from bodoge.core.options import integer

HAND = 3


class TinyState(State):
    game: TinyGame
    round: int
    hands: list[list[int]]
    unseen: list[int]
    trick: list[tuple[int, int]]
    tricks: list[int]
    points: list[int]
    played: list[int]
    leader: int

    def setup(self) -> None:
        n = self.game.num_players
        self.round = 0
        self.points = [0] * n
        self._deal()

    def _deal(self) -> None:
        n = self.game.num_players
        self.round += 1
        deck = list(range(1, 4 * n + 1))
        self.rng.shuffle(deck)
        self.hands = [sorted(deck[i * HAND : (i + 1) * HAND]) for i in range(n)]
        self.unseen = sorted(deck[n * HAND :])
        self.trick = []
        self.tricks = [0] * n
        self.played = []
        self.leader = (self.round - 1) % n
        self.current_player = self.leader
        self.events.append(("round_start", self.round, self.leader))
        for p in range(n):
            self.events.append(("deal", p, tuple(self.hands[p])))

    def _legal_actions(self) -> list[int]:
        return [c - 1 for c in self.hands[self.current_player]]  # type: ignore[index]

    def _apply(self, action: int) -> None:
        n = self.game.num_players
        seat = self.current_player
        assert seat is not None
        card = action + 1
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        self.played.append(card)
        self.events.append(("play", seat, card))
        if len(self.trick) < n:
            self.current_player = (seat + 1) % n
            return
        winner = max(self.trick, key=lambda t: t[1])[0]
        self.tricks[winner] += 1
        self.events.append(("trick", winner))
        self.trick = []
        self.leader = winner
        self.current_player = winner
        if self.hands[winner]:
            return
        best = max(self.tricks)
        won = [p for p in range(n) if self.tricks[p] == best]
        for p in won:
            self.points[p] += 1
        self.events.append(("round_end", self.round, tuple(won)))
        if self.round >= self.game.options["rounds"]:
            self.current_player = None
            self.events.append(("game_end", tuple(self.winners()), tuple(self.points)))
        else:
            self._deal()

    def action_text(self, action: int) -> str:
        return f"play {action + 1}"

    def _view(self, seat: int | None) -> dict[str, Any]:
        v: dict[str, Any] = {
            "round": self.round,
            "trick": [list(t) for t in self.trick],
            "tricks": list(self.tricks),
            "played": list(self.played),
            "hand_sizes": [len(h) for h in self.hands],
            "leader": self.leader,
        }
        if seat is not None:
            v["hand"] = list(self.hands[seat])
        return v

    def _event_view(self, event: tuple[Any, ...], seat: int | None) -> dict[str, Any] | None:
        # keyed in the one event vocabulary (docs/protocol.md): a hidden hand is None, never missing
        kind = event[0]
        if kind == "round_start":
            return {"type": "round_start", "round": event[1], "start_player": event[2]}
        if kind == "deal":
            return {"type": "deal", "seat": event[1], "cards": list(event[2]) if seat == event[1] else None}
        if kind == "play":
            return {"type": "play", "seat": event[1], "card": event[2]}
        if kind == "trick":
            return {"type": "trick", "winner": event[1]}
        if kind == "round_end":
            return {"type": "round_end", "round": event[1], "winners": list(event[2])}
        return {
            "type": "game_end",
            "winners": list(event[1]),
            "reason": "rounds_played",
            "points": list(event[2]),
        }

    def scores(self) -> list[int]:
        return list(self.points)

    def winners(self) -> list[int]:
        best = max(self.points)
        return [p for p, s in enumerate(self.points) if s == best]

    def render(self, seat: int | None = None) -> str:
        return repr(self._view(seat))

    def check_invariants(self) -> None:
        cards = [c for h in self.hands for c in h] + self.unseen + self.played
        assert sorted(cards) == list(range(1, 4 * self.game.num_players + 1))

    def _copy_mutables(self, other: State) -> None:
        assert isinstance(other, TinyState)
        other.hands = [h.copy() for h in self.hands]
        other.unseen = self.unseen.copy()
        other.trick = self.trick.copy()
        other.tricks = self.tricks.copy()
        other.points = self.points.copy()
        other.played = self.played.copy()


class TinyGame(Game):
    name = "tiny"
    title: ClassVar[dict[str, str]] = {"en": "Tiny tricks", "ja": "ちいさなトリック"}
    min_players = 2
    max_players = 3
    default_players = 3
    option_specs = (integer("rounds", 2, "number of rounds", lo=1, hi=9),)
    state_class = TinyState

    @staticmethod
    def heuristic_act(game: Game, view: Mapping[str, Any], rng: random.Random) -> int:
        return heuristic_act(game, view, rng)

    def prepare(self) -> None:
        self.num_actions = 4 * self.num_players

    def max_game_length(self) -> int:
        return self.options["rounds"] * HAND * self.num_players

    def sample_state(self, view: Mapping[str, Any], rng: random.Random) -> State:
        seat = view["seat"]
        n = self.num_players
        state = self.blank_state(rng)
        assert isinstance(state, TinyState)
        state.round = view["round"]
        state.points = list(view["scores"])
        state.trick = [(s, c) for s, c in view["trick"]]
        state.tricks = list(view["tricks"])
        state.played = list(view["played"])
        state.leader = view["leader"]
        state.current_player = view["current_player"]
        own = list(view["hand"])
        unknown = sorted(set(range(1, 4 * n + 1)) - set(own) - set(state.played))
        rng.shuffle(unknown)
        state.hands = []
        for p in range(n):
            if p == seat:
                state.hands.append(own)
            else:
                size = view["hand_sizes"][p]
                state.hands.append(sorted(unknown[:size]))
                unknown = unknown[size:]
        state.unseen = sorted(unknown)
        # the log is the observer's: rebuild events that view back exactly as the observer saw them
        state.events = _events_from_log(view["log"])
        return state


def _events_from_log(log: list[dict[str, Any]]) -> list[Any]:
    events: list[Any] = []
    for e in log:
        kind = e["type"]
        if kind == "round_start":
            events.append(("round_start", e["round"], e["start_player"]))
        elif kind == "deal":  # only the observer's own deal shows its cards
            events.append(("deal", e["seat"], tuple(e["cards"] or ())))
        elif kind == "play":
            events.append(("play", e["seat"], e["card"]))
        elif kind == "trick":
            events.append(("trick", e["winner"]))
        elif kind == "round_end":
            events.append(("round_end", e["round"], tuple(e["winners"])))
        else:
            events.append(("game_end", tuple(e["winners"]), tuple(e["points"])))
    return events


def heuristic_act(game: Game, view: Mapping[str, Any], rng: random.Random) -> int:
    """Win the trick with the cheapest card that beats it; if none does, or when leading, throw the lowest.
    Leading: lead the highest card (it wins most often)."""
    hand = sorted(view["hand"])
    trick = view["trick"]
    if not trick:
        return int(hand[-1]) - 1
    best = max(c for _, c in trick)
    winning = [c for c in hand if c > best]
    return (winning[0] if winning else hand[0]) - 1


@contextlib.contextmanager
def registered() -> Iterator[None]:
    """`tiny` in the registry of this process while the block runs (so `bodoge.replay` finds it)."""
    registry.register(TinyGame)
    try:
        yield
    finally:
        registry.unregister("tiny")
