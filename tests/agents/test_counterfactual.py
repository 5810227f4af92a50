"""Counterfactual agents (issue #35): any agent with `prefer=`/`avoid=`, refused when the prefix names
no action of the game, and otherwise the inner agent exactly."""

from __future__ import annotations

import random

import pytest
from bodoge_tinygame import TinyGame
from typer.testing import CliRunner

import bodoge
from bodoge import agents
from bodoge.agents.counterfactual import ActionWord, CounterfactualAgent, action_label, matches, vocabulary
from bodoge.arena import SimConfig
from bodoge.cli import app
from bodoge.errors import BadOption


def test_any_agent_takes_prefer_and_avoid_beside_its_own_parameters() -> None:
    agent = agents.make("ismcts:iterations=7,avoid=declare")
    assert isinstance(agent, CounterfactualAgent)
    assert agent.spec == "ismcts:iterations=7,avoid=declare"
    assert agent.inner.spec == "ismcts:iterations=7"  # its own parameters reach the inner agent
    assert agent.avoid == (("declare",),)
    assert agents.make("heuristic:prefer=take 1|draw").prefer == (("take", "1"), ("draw",))
    assert not isinstance(agents.make("heuristic"), CounterfactualAgent)
    assert agents.make("heuristic:avoid=declare").reads_log is False  # as its inner agent


@pytest.mark.parametrize("spec", ["heuristic:avoid=", "heuristic:prefer=|draw"])
def test_an_empty_prefix_is_refused(spec: str) -> None:
    with pytest.raises(BadOption, match="the start of an action's text"):
        agents.make(spec)


@pytest.mark.parametrize(
    ("game", "spec"),
    [
        ("hangover", "heuristic:prefer=declare drinker"),  # `declare` has no more words
        ("hangover", "heuristic:avoid=drink"),  # Tokkuri's word, not Hangover's
        ("troika", "random:prefer=return tile"),
        ("tottarot", "heuristic:avoid=Bid"),  # words match exactly
    ],
)
def test_a_prefix_that_names_no_action_of_the_game_is_refused_with_its_words(game: str, spec: str) -> None:
    made = bodoge.make(game, 4)
    with pytest.raises(BadOption, match=f"no action of {game} starts with") as err:
        agents.make(spec).check(made)  # type: ignore[attr-defined]
    shown = ", ".join(w.shown() for w in vocabulary(made))
    assert shown in str(err.value)  # the message lists what is allowed
    with pytest.raises(BadOption):  # and a run is refused before any game is played
        SimConfig(game, 4, [spec, "heuristic", "heuristic", "heuristic"], games=4).check()


@pytest.mark.parametrize(
    ("game", "spec"),
    [
        ("hangover", "heuristic:avoid=declare"),
        ("hangover", "heuristic:prefer=play R5^"),  # more words than the action word: a card
        ("troika", "heuristic:prefer=return"),  # the start of `return hand …` and `return container …`
        ("tottarot", "heuristic:avoid=steal none"),
        ("tokkuri", "heuristic:prefer=drink|place dummy"),
    ],
)
def test_a_prefix_of_an_action_of_the_game_is_accepted(game: str, spec: str) -> None:
    agents.make(spec).check(bodoge.make(game, 4))  # type: ignore[attr-defined]


def test_a_game_without_text_tables_is_read_from_the_actions_it_offers() -> None:
    game = TinyGame(3)
    assert vocabulary(game) == (ActionWord(("play",), True),)
    agents.make("heuristic:prefer=play 3").check(game)  # type: ignore[attr-defined]
    with pytest.raises(BadOption, match="no action of tiny starts with 'lead'"):
        agents.make("heuristic:prefer=lead").check(game)  # type: ignore[attr-defined]


def test_prefixes_match_whole_words() -> None:
    assert matches("take 1", [("take", "1")])
    assert not matches("take 12", [("take", "1")])
    assert matches("return hand 7", [("return",)])
    assert not matches("returned", [("return",)])
    assert matches("draw", [("take",), ("draw",)])


def test_an_action_text_is_labelled_by_its_longest_action_word() -> None:
    words = vocabulary(bodoge.make("tottarot", 4))
    assert action_label("steal none", words) == "steal none"
    assert action_label("steal P2", words) == "steal"
    assert action_label("bid 3", words) == "bid"
    troika = vocabulary(bodoge.make("troika", 4))
    assert action_label("return hand 7", troika) == "return hand"
    assert action_label("troika", troika) == "troika"
    assert action_label("unheard of", troika) == "unheard"  # no action word: the first word


def _play(game: bodoge.core.game.Game, seats: list[object], seed: int) -> list[str]:
    """The texts of the actions of one game, each seat played by its agent."""
    state = game.new_state(seed=seed)
    rngs = [random.Random(seed * 10 + s) for s in range(game.num_players)]
    texts = []
    while state.current_player is not None:
        seat = state.current_player
        action = seats[seat].act(game, state.view(seat, log=False), rngs[seat])  # type: ignore[attr-defined]
        texts.append(f"P{seat} {state.action_text(action)}")
        state.apply(action)
    return texts


def test_avoid_and_prefer_decide_the_named_choice_and_nothing_else() -> None:
    game = bodoge.make("hangover", 4)
    heuristic = agents.make("heuristic")
    never = agents.make("heuristic:avoid=declare")
    always = agents.make("heuristic:prefer=declare")
    for seed in range(3):
        plain = _play(game, [heuristic] * 4, seed)
        assert sum(t.endswith(" declare") for t in plain) == 4  # the bots all declare (issue #35)
        avoided = _play(game, [never, heuristic, heuristic, heuristic], seed)
        assert "P0 pass" in avoided and "P0 declare" not in avoided
        # up to seat 0's declaration the game is the same, action for action
        at = avoided.index("P0 pass")
        assert avoided[:at] == plain[:at]
        assert plain[at] == "P0 declare"
        preferred = _play(game, [always, heuristic, heuristic, heuristic], seed)
        assert preferred == plain  # preferring what the bot does anyway changes nothing


def test_the_inner_agent_chooses_among_the_allowed_actions() -> None:
    """Troika with `avoid=draw`: the heuristic's own choice where it is not a draw, else its choice
    among the others (never a draw while anything else is legal)."""
    game = bodoge.make("troika", 3)
    agent = agents.make("heuristic:avoid=draw")
    heuristic = agents.make("heuristic")
    state = game.new_state(seed=5)
    rng = random.Random(1)
    checked = 0
    while state.current_player is not None:
        view = state.view(state.current_player, log=False)
        texts = {e["id"]: e["text"] for e in view["legal_actions"]}
        own = heuristic.act(game, view, random.Random(2))
        chosen = agent.act(game, view, random.Random(2))
        if texts[own] != "draw":
            assert chosen == own
        elif len(texts) > 1:
            assert texts[chosen] != "draw"
            checked += 1
        state.apply(rng.choice(list(texts)))
    assert checked > 0


def test_sim_refuses_a_counterfactual_agent_that_names_no_action() -> None:
    result = CliRunner().invoke(
        app, ["sim", "hangover", "-p", "4", "--agents", "heuristic:avoid=drink,heuristic", "--games", "4"]
    )
    assert result.exit_code != 0
    assert "no action of hangover starts with 'drink'" in result.output


def test_at_limits_the_wrapper_to_one_kind_of_decision() -> None:
    """Troika, `avoid=take,at=return hand/take`: no take where only returning a hand tile or taking is
    legal, and the heuristic's own choice everywhere else (takes included)."""
    game = bodoge.make("troika", 4)
    agent = agents.make("heuristic:avoid=take,at=return hand/take")
    assert agent.at == frozenset({"take", "return hand"})  # type: ignore[attr-defined]
    agent.check(game)  # type: ignore[attr-defined]
    heuristic = agents.make("heuristic")
    words = vocabulary(game)
    there = elsewhere_takes = 0
    for seed in range(4):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while state.current_player is not None:
            view = state.view(state.current_player, log=False)
            texts = {e["id"]: e["text"] for e in view["legal_actions"]}
            kind = {action_label(t, words) for t in texts.values()}
            own = heuristic.act(game, view, random.Random(2))
            chosen = agent.act(game, view, random.Random(2))
            if kind == {"take", "return hand"}:
                assert not texts[chosen].startswith("take")
                there += 1
            else:
                assert chosen == own
                elsewhere_takes += texts[chosen].startswith("take")
            state.apply(rng.choice(list(texts)))
    assert there > 0 and elsewhere_takes > 0


@pytest.mark.parametrize(
    ("spec", "problem"),
    [
        ("heuristic:at=declare/pass", "together with prefer= or avoid="),
        ("heuristic:avoid=declare,at=declare", "two or more options"),
    ],
)
def test_a_bad_at_is_refused(spec: str, problem: str) -> None:
    with pytest.raises(BadOption, match=problem):
        agents.make(spec)


def test_an_at_that_names_no_option_of_the_game_is_refused() -> None:
    with pytest.raises(BadOption, match="drink is not one"):
        agents.make("heuristic:avoid=declare,at=declare/drink").check(bodoge.make("hangover", 4))  # type: ignore[attr-defined]
