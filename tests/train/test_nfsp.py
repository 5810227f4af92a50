"""`bodoge train --expert nfsp` at a tiny size: OpenSpiel's JAX NFSP on a small Tottarot, its average
policy exported to the `nn` format, played by `nn` as the JAX network plays it, on the observation it
was trained on."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

pytest.importorskip("flax.nnx", reason="NFSP needs flax: pip install 'bodoge[baselines]'")
pytest.importorskip("open_spiel.python.jax.nfsp", reason="NFSP needs OpenSpiel's JAX agents")

import bodoge
from bodoge import agents
from bodoge.agents import nn
from bodoge.arena.match import play_match
from bodoge.cli import app
from bodoge.errors import BadOption
from bodoge.rl.openspiel_adapter import TINY
from bodoge.train.nfsp import NFSPConfig, environment, is_nfsp, jax_policy, run

# Tottarot's tiny variant (two players, six cards, one turn) with a third player: short episodes
# with real decisions (will, steal, share, peek), so a few dozen episodes fill the buffers and learn.
OPTIONS = dict(TINY["tottarot"]["options"])
SMALL: dict[str, Any] = {
    "game": "tottarot",
    "players": 3,
    "options": OPTIONS,
    "iterations": 1,
    "games": 24,
    "hidden": [16],
    "eval_deals": 1,
    "batch": 16,
    "learn_every": 4,
    "min_buffer": 16,
    "reservoir": 500,
    "replay": 500,
    "anticipatory": 0.5,  # half the episodes by the best response: the reservoir fills quickly
}


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("nfsp") / "run"
    held: dict[str, Any] = {}
    history = run(NFSPConfig(**SMALL), out, on_agents=lambda seats, env: held.update(seats=seats, env=env))
    return {"out": out, "history": history, **held}


def test_nfsp_writes_a_model_that_nn_plays_with_legal_moves(trained: dict[str, Any]) -> None:
    out, history = trained["out"], trained["history"]
    assert [h["episodes"] for h in history] == [24]
    assert history[-1]["sl_loss"] is not None  # the average network learned: the export is not its init
    card = json.loads((out / "model.json").read_text())
    assert card["training"]["episodes"] == 24 and card["training"]["method"].startswith("nfsp")
    assert card["training"]["open_spiel_version"] and "policy_size" not in card  # outputs by action id
    game = bodoge.make("tottarot", 3, **OPTIONS)
    model = nn.model_for(game, out / "model.npz")  # checks the game, observation and shapes
    assert not model.relative and model.policy[0].shape == (16, game.num_actions)
    assert not model.value[0].any() and not model.value[1].any()  # NFSP learns no value
    player = agents.make(f"nn:model={out / 'model.npz'}")
    for seed in range(3):
        lineup = [player, agents.make("random"), player]
        result = play_match(game, lineup, seed, rngs=[random.Random(seed + s) for s in range(3)])
        assert result.returns and abs(sum(result.returns) - 1) < 1e-9  # a whole game, every move legal


def test_nn_plays_the_jax_average_policy_on_the_observation_it_was_trained_on(
    trained: dict[str, Any],
) -> None:
    env, agent = trained["env"], trained["seats"][0]
    game = bodoge.make("tottarot", 3, **OPTIONS)
    model = nn.load(trained["out"] / "model.npz")
    rng = random.Random(5)
    compared = 0
    for _ in range(8):
        step = env.reset()
        while not step.last():
            seat = step.observations["current_player"]
            legal = list(step.observations["legal_actions"][seat])
            inner = env.get_state.inner  # the engine's state under OpenSpiel's
            view = inner.lazy_view(seat)
            seen = np.asarray(step.observations["info_state"][seat], np.float32)
            # what the network saw in training is what `nn` computes from the seat's view
            np.testing.assert_array_equal(seen, nn.observe(game, nn.readable(view)))
            if seat == 0 and len(legal) > 1:
                ours, _ = model.decide(game, view, legal)
                np.testing.assert_allclose(ours, jax_policy(agent, seen, legal), atol=1e-5)
                compared += 1
            step = env.step([rng.choice(legal)])
    assert compared >= 5


@pytest.mark.parametrize("name", ["hangover", "tokkuri", "tottarot", "troika"])
def test_openspiel_environment_gives_every_game_its_observation_tensor(name: str) -> None:
    """NFSP trains on rl_environment's OBSERVATION: the engine's observation tensor in every game
    (Tokkuri's too, whose information-state tensor is too large to be given)."""
    config = NFSPConfig(game=name, players=4)
    env = environment(config)
    game = bodoge.make(name, 4)
    assert env.observation_spec()["info_state"] == (int(np.prod(game.observation_shape)),)
    step = env.reset()
    seat = step.observations["current_player"]
    inner = env.get_state.inner
    for p in range(4):
        seen = np.asarray(step.observations["info_state"][p], np.float32)
        np.testing.assert_array_equal(seen, inner.observation_tensor(p).reshape(-1))
    assert inner.current_player == seat


def test_bad_settings_are_refused(tmp_path: Path) -> None:
    good: dict[str, Any] = dict(SMALL)
    NFSPConfig(**good).check()
    for key, value in (
        ("games", 0),
        ("iterations", 1001),
        ("hidden", []),
        ("hidden", [0]),
        ("anticipatory", 1.5),
        ("epsilon", float("nan")),
        ("sl_lr", 0),
        ("rl_lr", 1),
        ("batch", True),
        ("min_buffer", 501),  # more than the buffers hold
        ("reservoir", 10**7),
        ("seed", -1),
        ("players", 9),
    ):
        with pytest.raises(BadOption):
            NFSPConfig(**{**good, key: value}).check()
    with pytest.raises(BadOption, match="unknown parameter 'clip'"):
        NFSPConfig.from_spec("nfsp:clip=0.2", game="tottarot", players=3)
    assert NFSPConfig.from_spec("nfsp:anticipatory=0.2", game="tottarot", players=3).anticipatory == 0.2
    assert is_nfsp("nfsp:epsilon=0.1") and not is_nfsp("ppo")
    out = tmp_path / "run"
    out.mkdir()
    (out / "model.npz").write_bytes(b"")
    with pytest.raises(BadOption, match="--force"):
        run(NFSPConfig(**good), out)
    runner = CliRunner()
    for extra in (["--start", "x.npz"], ["--epochs", "2"], ["--resume"]):
        result = runner.invoke(app, ["train", "tottarot", "--expert", "nfsp", *extra, "--out", str(out)])
        assert result.exit_code != 0 and "does not take" in result.output
    result = runner.invoke(app, ["train", "tottarot", "--expert", "nfsp:anticipatory=2", "--out", str(out)])
    assert result.exit_code != 0 and "anticipatory" in result.output


def test_ctrl_c_stops_training_with_a_line_not_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As every command (bodoge.cli): Ctrl-C says where the finished iterations' model is, status 130."""
    import bodoge.train.nfsp

    def interrupted(*args: Any, **kwargs: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(bodoge.train.nfsp, "run", interrupted)
    out = tmp_path / "run"
    result = CliRunner().invoke(app, ["train", "tottarot", "--expert", "nfsp", "--out", str(out)])
    assert result.exit_code == 130, result.output
    assert "Interrupted" in result.output and "last finished iteration" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
