"""Hangover's heuristic bot: legal from views only, on odd options too, and better than random."""

from __future__ import annotations

import random
from typing import Any

import pytest

import bodoge
from bodoge.agents import make as make_agent
from bodoge.games.hangover.cards import DRINK_INDEX
from bodoge.games.hangover.heuristic import Seen, act, best_flips, decide, in_play, not_held
from bodoge.games.hangover.play import DECLARE, DISCARD, PASS
from bodoge.games.hangover.state import DRINKER, NON_DRINKER, OUT_NON_DRINKER, TRICK


def test_best_flips_plans() -> None:
    """HO-E9 and HO-E12 from the bot's side: it finds the 9 VP and 12 VP plans."""
    four, three = bodoge.make("hangover", players=4), bodoge.make("hangover", players=3)

    def snacks(game: object, *codes: str) -> list[int]:
        return [game.snack_index[c] for c in codes]  # type: ignore[attr-defined]

    up, even = snacks(four, "+1/+2", "-1/+1")
    assert best_flips(four, 9, [up, even]) == (9, [(up, 1), (even, 1)])  # +2 and +1: 12, just
    vp, plan = best_flips(three, 10, snacks(three, "-2/-3", "+1/+3", "-1/+1"))
    assert vp == 12 and len(plan) == 3
    assert best_flips(three, 5, []) == (1, [])
    (wide,) = snacks(four, "-4/+4")
    assert best_flips(four, 14, [wide]) == (2, [(wide, 0)])  # -4: 10 is under, 1 × 2


def cards(*codes: str) -> list[int]:
    return sorted(DRINK_INDEX[c] for c in codes)


def seen(
    game: bodoge.core.Game,
    hand: list[int],
    *,
    phase: str = "trick",
    legal: list[int] | None = None,
    trick: list[int] | None = None,
    status: list[int] | None = None,
    placed: list[int] | None = None,
    voids: list[int] | None = None,
    seat: int = 0,
) -> Seen:
    """A hand-made decision for seat `seat`: every card in play that is not in `hand` or `placed` is
    unseen (in the others' hands or set aside)."""
    n = game.num_players
    known = 0
    for c in [*hand, *(placed or [])]:
        known |= 1 << c
    status = status or [NON_DRINKER] * n
    return Seen(
        seat=seat,
        phase=phase,
        legal=hand if legal is None else legal,
        hand=hand,
        trick=trick or [],
        status=status,
        tricks=[0] * n,
        column=[],
        total=0,
        snacks=[],
        read=lambda: (in_play(game) & ~known, voids or [0] * n),  # type: ignore[attr-defined]
    )


FOUR = bodoge.make("hangover", players=4)


def test_declares_unless_drinking_is_safe() -> None:
    """HO-4.2 from an evaluation: a drinker who would have to hang over declares (HO-5.3.2, HO-5.4:
    11 tricks, non-drinkers take at most one each, a drinker at most 4); where enough seats already
    drink, a hand likely to be forced to win tricks drinks and a hand that can duck declares."""
    strong = cards("R6", "R6^", "B6", "B6^", "Y6", "Y6^", "G6", "G6^", "R5^", "B5^", "Y5^")
    weak = cards("R1", "R1^", "B1", "B1^", "Y1", "Y1^", "G1", "G1^", "R2", "B2", "Y2")
    rng = random.Random(0)

    def declaring(hand: list[int], status: list[int], seat: int = 3) -> int:
        decision = seen(FOUR, hand, phase="declare", legal=[DECLARE, PASS], status=status, seat=seat)
        return decide(FOUR, decision, rng)

    # seat 3, the last to answer, after the seats before it:
    assert declaring(strong, [DRINKER, DRINKER, DRINKER, DRINKER]) == PASS  # seat 3 after 3 passes
    assert declaring(weak, [DRINKER, DRINKER, DRINKER, DRINKER]) == DECLARE  # it can duck: +1 a trick
    assert declaring(strong, [DRINKER, NON_DRINKER, DRINKER, DRINKER]) == PASS  # 3 drinkers: 12 ≥ 10
    assert declaring(strong, [DRINKER, NON_DRINKER, NON_DRINKER, DRINKER]) == DECLARE  # 2: 8 < 9
    assert declaring(strong, [NON_DRINKER, NON_DRINKER, NON_DRINKER, DRINKER]) == DECLARE  # 1: 4 < 8
    # seat 0 first: the seats not yet asked are counted as declaring, so it would drink alone
    assert declaring(strong, [DRINKER] * 4, seat=0) == DECLARE


def test_a_ducking_lead_is_the_card_least_likely_to_win() -> None:
    """Leading Y3 when every lower yellow card has been played makes anyone holding yellow play over
    it (HO-4.3.2); R2 lets them duck under with R1 or R1^, though its rank is lower."""
    hand = cards("R2", "Y3", "G6^", "R6^", "B6^", "Y6^", "R6", "B6", "Y6", "G6")  # the 6s: sure to win
    placed = cards("Y1", "Y1^", "Y2", "Y2^")
    assert decide(FOUR, seen(FOUR, hand, placed=placed), random.Random(0)) == DRINK_INDEX["Y3"]


def test_a_top_card_is_thrown_when_void_and_nothing_is_led_that_cannot_be_beaten() -> None:
    """Void in the lead suit, it throws the card it would be forced to win with (R6^ is the top red
    card with 7s removed); leading, a top card is its last choice."""
    hand = cards("R6^", "G1^", "G2")
    throw = seen(FOUR, hand, trick=cards("B3"))
    assert decide(FOUR, throw, random.Random(0)) == DRINK_INDEX["R6^"]
    lead = seen(FOUR, cards("R6^", "B6^"))
    assert decide(FOUR, lead, random.Random(0)) in cards("R6^", "B6^")  # both sure winners: either


def test_following_ducks_under_the_best_else_goes_over_as_low_as_it_can() -> None:
    """Under the best card so far with its highest card that loses; forced over with a later seat
    still to play, with its lowest (a later seat may be forced higher); last, with its highest."""
    hand = cards("B2", "B4", "B5^", "B6")
    assert decide(FOUR, seen(FOUR, hand, trick=cards("B5")), random.Random(0)) == DRINK_INDEX["B4"]
    over = seen(FOUR, cards("B5^", "B6"), seat=1, trick=[DRINK_INDEX["B3"]])
    assert decide(FOUR, over, random.Random(0)) == DRINK_INDEX["B5^"]
    last = seen(FOUR, cards("B5^", "B6"), seat=3, trick=cards("B1", "B2", "B3"))
    assert decide(FOUR, last, random.Random(0)) == DRINK_INDEX["B6"]
    alone = [NON_DRINKER, NON_DRINKER, OUT_NON_DRINKER, OUT_NON_DRINKER]  # seats 2 and 3 are out
    after = seen(FOUR, cards("B5^", "B6"), seat=1, trick=[DRINK_INDEX["B3"]], status=alone)
    assert decide(FOUR, after, random.Random(0)) == DRINK_INDEX["B6"]


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize(
    "options",
    [{}, {"snacks_per_player": 0, "non_drinker": False}, {"hangover_trick": 2, "snacks_per_player": 3}],
)
def test_heuristic_plays_legal_games(players: int, options: dict[str, object]) -> None:
    game = bodoge.make("hangover", players=players, **options)
    agent = make_agent("heuristic")
    for seed in range(3):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            p = state.current_player
            assert p is not None
            state.apply(agent.act(game, state.view(p), rng), seat=p)


def test_heuristic_beats_random() -> None:
    game = bodoge.make("hangover", players=4)
    games, share = 80, 0.0
    for i in range(games):
        seat = i % 4
        state = game.new_state(seed=1000 + i)
        rng = random.Random(i)
        while not state.is_terminal:
            p = state.current_player
            assert p is not None
            state.apply(act(game, state.view(p), rng) if p == seat else rng.choice(state.legal_actions()))
        share += state.returns()[seat]
    assert share / games > 0.35  # a fair share is 0.25


def test_designers_metrics_come_from_the_final_view() -> None:
    """Hangover's `metrics` part (bodoge sim's per-game numbers): shares of players hung over and of
    non-drinkers, and the tricks played, as the final spectator view tells them."""
    from bodoge.arena.metrics import game_metrics

    game = bodoge.make("hangover", players=4)
    state = game.new_state(seed=3)
    agent = make_agent("heuristic")
    rng = random.Random(3)
    while not state.is_terminal:
        p = state.current_player
        assert p is not None
        state.apply(agent.act(game, state.view(p), rng))
    view = state.view(None)
    found = game_metrics(state)
    assert found["hung_over"] == sum(s["status"] == "hung_over" for s in view["seats"]) / 4
    assert found["non_drinkers"] == sum(s["declared"] is True for s in view["seats"]) / 4
    assert found["tricks"] == view["trick_number"] == len(view["tricks_played"])
    assert set(found) >= {"tie", "no_winner", "hung_over", "non_drinkers", "tricks"}


def _heuristic_game(game: bodoge.core.Game, seed: int, on_play: Any = None) -> None:
    """A game of heuristic seats (the quick policy: the same moves); `on_play(state, card)` before
    each face-up play."""
    from bodoge.games.hangover.rollout import act as quick

    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal:
        action = quick(state, rng)
        if state.phase == TRICK and action < DISCARD and on_play is not None:
            on_play(state, action)
        state.apply(action)


@pytest.mark.parametrize(
    ("players", "options"),
    [(3, {}), (4, {}), (5, {}), (4, {"hand_size": 7}), (5, {"hand_size": 7}), (3, {"non_drinker": False})],
)
def test_what_a_heuristic_play_says_of_its_hand_is_true(players: int, options: dict[str, Any]) -> None:
    """`not_held`: no card it names for a play by these rules of thumb was in the player's hand,
    whether the player ducks, drinks (hand_size=7 and no declarations make drinkers) or is void."""
    game = bodoge.make("hangover", players=players, **options)
    said = 0

    def check(state: Any, card: int) -> None:
        nonlocal said
        p = state.current_player
        mask = not_held(game, p, card, state.trick, state.status, state.tricks)
        held = [c for c in state.hands[p] if mask >> c & 1]
        assert not held, f"P{p} played {card} holding {held}, which the play says it did not hold"
        said += mask != 0

    for seed in range(10):
        _heuristic_game(game, seed, check)
    assert said >= 20  # the plays said something


def test_a_likely_deal_puts_no_card_where_a_heuristic_play_says_it_is_not() -> None:
    """`game.sampler(view, likely=True)`: among heuristic players, no seat is dealt a card that its
    plays so far say it did not hold; a uniform deal often does. Both keep the view."""
    game = bodoge.make("hangover", players=4)
    broken = {True: 0, False: 0}
    views = 0
    for seed in range(6):
        named = [0] * 4

        def deal_at(state: Any, card: int, named: list[int] = named) -> None:
            nonlocal views
            p = state.current_player
            if p == 0 and state.past:  # seat 0 deals, once the others have played a trick
                view = state.view(0)
                views += 1
                for likely in (True, False):
                    sample = game.sampler(view, likely=likely)
                    for k in range(4):
                        dealt = sample(random.Random(k))
                        assert dealt.view(0) == view
                        for q in range(1, 4):
                            had = dealt.hands[q] + dealt.discards[q]  # what it holds now it held then
                            broken[likely] += any(named[q] >> c & 1 for c in had)
            named[p] |= not_held(game, p, card, state.trick, state.status, state.tricks)

        _heuristic_game(game, seed, deal_at)
    assert views >= 6
    assert broken[True] == 0
    assert broken[False] > 0
