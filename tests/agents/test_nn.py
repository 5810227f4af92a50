"""The `nn` agent: a network played in NumPy from the seat's view (bodoge.agents.nn)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import bodoge
from bodoge import agents, arena
from bodoge.agents import nn
from bodoge.errors import BadOption
from bodoge.train.learn import init_params


def tiny_model(
    tmp_path: Path, name: str = "troika", players: int = 3, seed: int = 0, absolute: bool = False
) -> Path:
    """An untrained network of `name` with the game's real shapes (random weights: legal play is what
    is tested, not strength); `absolute`: an older model, one policy output per action id."""
    game = bodoge.make(name, players)
    outputs = game.num_actions if absolute else nn.policy_size(game)
    params = init_params(int(np.prod(game.observation_shape)), [16], outputs, players, seed)
    card = {
        "game": name,
        "players": players,
        "options": {},
        "observation_shape": list(game.observation_shape),
        "num_actions": game.num_actions,
        "hidden": [16],
        "training": {},
    }
    if not absolute:
        card["policy_size"] = outputs
    path = tmp_path / f"{name}-{players}p{'-absolute' if absolute else ''}.npz"
    nn.save(path, params, card)
    return path


def play(game: bodoge.Game, specs: list[str], seed: int) -> list[int]:
    """The actions of one game with these agents; apply() refuses any illegal action."""
    made = [agents.make(s) for s in specs]
    state = game.new_state(seed=seed)
    rngs = [random.Random(f"{seed}:{s}") for s in range(game.num_players)]
    while state.current_player is not None:
        seat = state.current_player
        state.apply(made[seat].act(game, state.lazy_view(seat), rngs[seat]), seat=seat)
    return list(state.history)


@pytest.mark.parametrize("name", ["troika", "tottarot", "hangover", "tokkuri"])
def test_nn_plays_only_legal_actions_and_repeats_itself(tmp_path: Path, name: str) -> None:
    model = tiny_model(tmp_path, name, 3)
    game = bodoge.make(name, 3)
    for spec in (f"nn:model={model}", f"nn:model={model},temperature=1"):
        first = play(game, [spec, spec, "heuristic"], seed=3)
        assert play(game, [spec, spec, "heuristic"], seed=3) == first  # same seed, same game
    # at one decision: the best move whatever the rng; sampling varies with the rng
    state = game.new_state(seed=4)
    while len(state.legal_actions()) < 3:
        state.apply(state.legal_actions()[0])
    view = state.view(state.current_player)
    greedy, hot = agents.make(f"nn:model={model}"), agents.make(f"nn:model={model},temperature=100")
    assert len({greedy.act(game, view, random.Random(r)) for r in range(30)}) == 1
    drawn = {hot.act(game, view, random.Random(r)) for r in range(30)}
    assert len(drawn) > 1 and drawn <= set(state.legal_actions())


def test_argmax_picks_the_policy_best_legal_action(tmp_path: Path) -> None:
    model = nn.load(tiny_model(tmp_path))
    game = bodoge.make("troika", 3)
    state = game.new_state(seed=2)
    view = state.view(state.current_player)
    legal = [a["id"] for a in view["legal_actions"]]
    logits, _ = model.forward(nn.observe(game, view))
    best = max(legal, key=lambda a: logits[a])
    assert agents.make(f"nn:model={model.path}").act(game, view, random.Random(0)) == best
    assert np.array_equal(nn.observe(game, view), state.observation_tensor(state.current_player))


@pytest.mark.parametrize("name", ["troika", "tottarot", "hangover", "tokkuri"])
def test_policy_outputs_read_the_actions_relative_to_the_observer(name: str) -> None:
    """One output per legal action, the same from a view, a live state's LazyView and a sampled
    state; an action naming a seat or a tokkuri names it as the observation does (module docstring
    of bodoge.agents.nn), so the same choice seen from any seat is the same output."""
    for players in (3, 4):
        game = bodoge.make(name, players)
        size = nn.policy_size(game)
        rng = random.Random(players)
        for seed in range(4):
            state = game.new_state(seed=seed)
            while state.current_player is not None:
                seat = state.current_player
                view = state.view(seat)
                legal = state.legal_actions()
                outputs = nn.policy_indices(game, view, legal)
                assert len(set(outputs)) == len(legal) and all(0 <= o < size for o in outputs)
                assert nn.policy_indices(game, state.lazy_view(seat), legal) == outputs
                sampled = game.sample_state(view, rng)
                assert nn.policy_indices(game, nn._EncodedView(sampled, seat), legal) == outputs
                texts = {a["id"]: a["text"] for a in view["legal_actions"]}
                for action, output in zip(legal, outputs, strict=True):
                    verb, _, rest = texts[action].partition(" ")
                    if name == "tokkuri" and verb == "target":
                        slots = [tk["id"] for tk in view["tokkuri"]]
                        assert output == slots.index(rest)
                    elif verb in ("victim", "steal", "share", "peek") and rest.startswith("P"):
                        named = int(rest[1:])  # P<named>: the seat (named − seat) mod n after the observer
                        assert output == action - named + (named - seat) % players + size - game.num_actions
                    else:
                        assert output - action == size - game.num_actions  # the rest keep their order
                state.apply(rng.choice(legal))


def test_an_older_model_over_the_action_ids_still_plays_them(tmp_path: Path) -> None:
    game = bodoge.make("tokkuri", 3)
    older, newer = (
        nn.load(tiny_model(tmp_path, "tokkuri", absolute=True)),
        nn.load(tiny_model(tmp_path, "tokkuri")),
    )
    assert not older.relative and newer.relative
    assert older.policy[0].shape[1] == game.num_actions and newer.policy[0].shape[1] == nn.policy_size(game)
    state = game.new_state(seed=1)
    while state.view(state.current_player)["phase"] != "target" or len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[-1])
    view = state.view(state.current_player)
    legal = state.legal_actions()
    for model in (older, newer):
        logits, _ = model.forward(nn.observe(game, view))
        outputs = legal if model is older else nn.policy_indices(game, view, legal)
        best = legal[max(range(len(legal)), key=lambda i: logits[outputs[i]])]
        assert agents.make(f"nn:model={model.path}").act(game, view, random.Random(0)) == best
    card = dict(newer.card, policy_size=game.num_actions)  # a layout the game no longer has
    want = rf"{game.num_actions} policy outputs \(retrain it.*{nn.policy_size(game)} policy outputs"
    with pytest.raises(BadOption, match=want):
        nn.Model(newer.path, card, newer.trunk, newer.policy, newer.value).check(game)


def test_weights_of_other_shapes_than_their_card_are_refused(tmp_path: Path) -> None:
    """A card that matches the game over weights that do not (written by hand, checksum and all) is
    refused before any game, not misread or an IndexError mid-game."""
    game = bodoge.make("tokkuri", 3)
    good = nn.load(tiny_model(tmp_path, "tokkuri"))
    size = int(np.prod(game.observation_shape))
    for outputs in (game.num_actions, nn.policy_size(game) - 1):
        params = init_params(size, [16], outputs, 3, 0)
        card = nn.save(
            tmp_path / f"odd-{outputs}.npz",
            params,
            {k: v for k, v in good.card.items() if k not in ("format", "sha256")},
        )
        with pytest.raises(BadOption, match=f"the weights have {size} inputs, {outputs} policy outputs"):
            nn.model_for(game, tmp_path / f"odd-{outputs}.npz")
        assert card["policy_size"] == nn.policy_size(game)  # the card itself is the game's


def test_spec_errors_are_clear(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shipped = tmp_path / "shipped"
    for n in (3, 4):
        tiny_model(shipped, "troika", n)
    monkeypatch.setattr(nn, "MODELS", shipped)
    with pytest.raises(BadOption, match="temperature"):
        agents.make("nn:temperature=-1")
    with pytest.raises(BadOption, match="model"):
        agents.make(f"nn:model={tmp_path / 'missing.npz'}")
    with pytest.raises(BadOption, match="too long"):  # a path the system cannot look up at all
        nn.load(tmp_path / ("a" * 5000 + ".npz"))
    with pytest.raises(BadOption, match="parameters that nn takes"):
        agents.make("nn:depth=3")
    with pytest.raises(BadOption, match="3, 4 players") as info:
        agents.make("nn").check(bodoge.make("troika", 2))  # shipped here for 3 and 4 only
    agents.make("nn").check(bodoge.make("troika", 4))
    with pytest.raises(BadOption, match="no model is shipped for hangover"):
        agents.make("nn").check(bodoge.make("hangover", 3))
    assert "bodoge train troika --players 2" in str(info.value)
    model = tiny_model(tmp_path, "troika", 3)
    with pytest.raises(BadOption, match="trained on troika with 3 players"):
        agents.make(f"nn:model={model}").check(bodoge.make("troika", 4))


def test_a_model_whose_weights_or_observation_changed_fails_loudly(tmp_path: Path) -> None:
    model = tiny_model(tmp_path)
    card = json.loads(model.with_suffix(".json").read_text())
    card["observation_shape"] = [card["observation_shape"][0] - 1]
    model.with_suffix(".json").write_text(json.dumps(card))
    nn._load.cache_clear()
    with pytest.raises(BadOption, match="retrain"):
        nn.model_for(bodoge.make("troika", 3), model)
    card["observation_shape"] = list(bodoge.make("troika", 3).observation_shape)
    card["sha256"] = "0" * 64
    model.with_suffix(".json").write_text(json.dumps(card))
    nn._load.cache_clear()
    with pytest.raises(BadOption, match="sha256"):
        nn.load(model)


def test_playing_imports_no_training_library(tmp_path: Path) -> None:
    model = tiny_model(tmp_path)
    code = (
        "import random, sys, bodoge\n"
        "from bodoge import agents\n"
        f"bot = agents.make('nn:model={model}')\n"
        "game = bodoge.make('troika', 3)\n"
        "state = game.new_state(seed=1)\n"
        "while not state.is_terminal:\n"
        "    state.apply(bot.act(game, state.lazy_view(state.current_player), random.Random(1)))\n"
        "print(sorted(m for m in ('jax', 'optax', 'torch') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_guided_ismcts_plays_legal_moves(tmp_path: Path) -> None:
    model = tiny_model(tmp_path, "tottarot", 3)
    game = bodoge.make("tottarot", 3)
    for guided in ("prior=nn", "value=nn", "prior=nn,value=nn", "value=nn,root=halving"):
        spec = f"ismcts:iterations=12,{guided},model={model}"
        assert agents.make(spec).spec.startswith("ismcts:iterations=12")
        first = play(game, [spec, "heuristic", "heuristic"], seed=5)
        assert play(game, [spec, "heuristic", "heuristic"], seed=5) == first
    search = agents.make(f"ismcts:iterations=30,prior=nn,model={model}")
    state = game.new_state(seed=9)
    search.act(game, state.view(state.current_player), random.Random(0))
    found = search.last_search
    assert found is not None and abs(sum(found.policy.values()) - 1) < 1e-6
    assert sum(c.visits for c in found.root.children.values()) == 30
    with pytest.raises(BadOption, match="prior=nn or value=nn"):
        agents.make(f"ismcts:model={model}")
    with pytest.raises(BadOption, match="prior"):
        agents.make("ismcts:prior=net")


def test_nn_is_an_agent_of_sim(tmp_path: Path) -> None:
    model = tiny_model(tmp_path, "tottarot", 3)
    config = arena.SimConfig(
        game="tottarot", players=3, agents=[f"nn:model={model}", "heuristic", "heuristic"], games=3
    )
    records = arena.run(config)
    assert len(records) == 3
    with pytest.raises(BadOption, match="no model is shipped for tottarot with 5 players"):
        arena.SimConfig(game="tottarot", players=5, agents=["nn"] * 5, games=5).check()


@pytest.mark.parametrize("name", ["troika", "tottarot", "hangover", "tokkuri"])
def test_the_quick_encoding_of_a_live_view_is_the_observation_tensor(name: str) -> None:
    """`observe` reads a live LazyView without the view's texts; what it encodes must still be exactly
    `observation_tensor`, the seat's view (also for a search's sampled state)."""
    for players in (3, 4):
        game = bodoge.make(name, players)
        state = game.new_state(seed=players)
        rng = random.Random(players)
        while state.current_player is not None:
            seat = state.current_player
            want = state.observation_tensor(seat)
            assert np.array_equal(nn.observe(game, state.lazy_view(seat)), want)
            assert np.array_equal(nn.state_observation(state, seat), want)
            sampled = game.sample_state(state.view(seat), rng)
            assert np.array_equal(nn.state_observation(sampled, seat), want)
            state.apply(rng.choice(state.legal_actions()))
