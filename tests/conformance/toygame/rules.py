"""Three Tricks' rules: setup, decisions, scoring. Knows nothing of words, views or bots."""

from __future__ import annotations

from typing import Any, ClassVar

from bodoge.core import Game, State
from bodoge.core import options as opts
from bodoge.errors import BadOption


class ThreeTricks(Game):
    name = "threetricks"
    title: ClassVar[dict[str, str]] = {"en": "Three Tricks", "ja": "スリートリック"}
    min_players = 2
    max_players = 4
    default_players = 3
    option_specs = (opts.integer("hand", 3, "cards dealt to each player: one trick per card", 1, 4),)

    def prepare(self) -> None:
        self.cards = 4 * self.num_players  # the cards 1 .. cards
        self.num_actions = self.cards  # action a plays card a + 1

    def max_game_length(self) -> int:
        return self.num_players * self.options["hand"]


class ThreeTricksState(State):
    game: ThreeTricks
    hands: list[list[int]]
    aside: list[int]
    trick: list[tuple[int, int]]  # (seat, card) in the order played
    won: list[int]
    leader: int

    def setup(self) -> None:
        g = self.game
        deck = list(range(1, g.cards + 1))
        if self.deck is not None:
            if sorted(self.deck) != deck:
                raise BadOption("deck", self.deck, f"the cards 1 to {g.cards}, each once")
            deck = list(self.deck)
        else:
            self.rng.shuffle(deck)
        k = g.options["hand"]
        self.hands = [sorted(deck[p * k : (p + 1) * k]) for p in range(g.num_players)]
        self.aside = sorted(deck[g.num_players * k :])
        self.trick, self.won, self.leader = [], [0] * g.num_players, 0
        for p, hand in enumerate(self.hands):
            self.events.append(("deal", p, tuple(hand)))
        self.current_player = 0

    def _legal_actions(self) -> list[int]:
        assert self.current_player is not None
        return [c - 1 for c in self.hands[self.current_player]]

    def _apply(self, action: int) -> None:
        p = self.current_player
        assert p is not None
        card = action + 1
        self.hands[p].remove(card)
        self.trick.append((p, card))
        self.events.append(("play", p, card))
        n = self.game.num_players
        if len(self.trick) < n:
            self.current_player = (p + 1) % n
            return
        winner = max(self.trick, key=lambda played: played[1])[0]
        self.won[winner] += 1
        self.events.append(("trick", winner))
        self.trick = []
        self.leader = winner
        self.current_player = winner if self.hands[winner] else None
        if self.current_player is None:
            self.events.append(("end", tuple(self.winners()), tuple(self.won)))

    def action_text(self, action: int) -> str:
        return f"play {action + 1}"

    def scores(self) -> list[int]:
        return list(self.won)

    def winners(self) -> list[int]:
        best = max(self.won)
        return [p for p, w in enumerate(self.won) if w == best]

    def check_invariants(self) -> None:
        cards = [c for h in self.hands for c in h] + self.aside + [c for _, c in self.trick]
        played = [e[2] for e in self.events if e[0] == "play"]
        in_tricks = played[: len(played) - len(self.trick)]
        assert sorted(cards + in_tricks) == list(range(1, self.game.cards + 1)), "a card is lost or doubled"

    def _copy_mutables(self, other: Any) -> None:
        other.hands = [h.copy() for h in self.hands]
        other.trick = self.trick.copy()
        other.won = self.won.copy()


ThreeTricks.state_class = ThreeTricksState
