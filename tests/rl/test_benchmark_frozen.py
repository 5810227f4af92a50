"""The benchmark stays what was published: versioned ids whose fingerprints hold, PettingZoo's `state()`
and `render()` as its API asks, and a terminal mask a masked sampler can draw from (docs/benchmark.md)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import bodoge
import bodoge.rl
from bodoge.rl.versions import ENV_VERSIONS, FINGERPRINTS, fingerprint

pytest.importorskip("pettingzoo", reason="the rl extra (pettingzoo) is not installed")
gymnasium = pytest.importorskip("gymnasium", reason="the rl extra (gymnasium) is not installed")

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", bodoge.games())
def test_a_version_plays_as_it_was_recorded(name: str) -> None:
    version, recorded = FINGERPRINTS[name]
    assert version == ENV_VERSIONS[name], f"record the fingerprint of {name} v{ENV_VERSIONS[name]}"
    assert fingerprint(name) == recorded, (
        f"What an agent sees or earns in {name} changed (observations, masks, rewards or deals): bump "
        f"ENV_VERSIONS[{name!r}] in bodoge/rl/versions.py, say what changed in docs/benchmark.md's "
        "changelog, and record the new fingerprint (python -m bodoge.rl.versions)."
    )


def test_the_changelog_names_every_version_and_the_ids_carry_it() -> None:
    from bodoge.rl.gymnasium_adapter import env_id

    changelog = (ROOT / "docs" / "benchmark.md").read_text(encoding="utf-8")
    for name, version in ENV_VERSIONS.items():
        gym_id = env_id(name)
        assert gym_id == f"bodoge/{name.capitalize()}-v{version}" and gym_id in gymnasium.registry
        assert f"`{gym_id}`" in changelog, f"docs/benchmark.md's changelog lacks {gym_id}"
        assert bodoge.rl.pettingzoo_env(name).metadata["name"] == f"bodoge_{name}_v{version}"


def test_a_retired_id_says_which_one_to_use() -> None:
    with pytest.raises(gymnasium.error.Error, match="v1"), pytest.warns(DeprecationWarning, match="v1"):
        gymnasium.make("bodoge/Troika-v0")


@pytest.mark.parametrize("name", bodoge.games())
def test_pettingzoo_state_is_every_seat_observation(name: str) -> None:
    # PettingZoo's own state_test steps unmasked random actions, which these games refuse (as chess
    # does): its space check, then the same walk with legal actions.
    from pettingzoo.test.state_test import test_state_space

    env = bodoge.rl.pettingzoo_env(name)
    test_state_space(env)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        state = env.state()
        assert env.state_space.contains(state) and state.dtype == np.float32
        for seat, other in enumerate(env.possible_agents):
            assert np.array_equal(state[seat], env.observe(other)["observation"])
        done = terminated or truncated
        env.step(None if done else int(rng.choice(np.flatnonzero(observation["action_mask"]))))


def test_pettingzoo_render_follows_the_api(capsys: pytest.CaptureFixture[str]) -> None:
    from pettingzoo.test import render_test

    name = bodoge.games()[0]
    render_test(lambda render_mode=None: bodoge.rl.pettingzoo_env(name, render_mode=render_mode))
    human = bodoge.rl.pettingzoo_env(name, render_mode="human")
    human.reset(seed=1)
    capsys.readouterr()
    assert human.render() is None and capsys.readouterr().out.strip()
    ansi = bodoge.rl.pettingzoo_env(name, render_mode="ansi")
    ansi.reset(seed=1)
    assert isinstance(ansi.render(), str) and ansi.render()


@pytest.mark.parametrize("name", bodoge.games())
def test_a_masked_sampler_survives_the_last_observation(name: str) -> None:
    env = bodoge.rl.gym_env(name, opponents="random")
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=2)
    done = False
    while not done:
        mask = info["action_mask"].astype(bool)
        action = int(rng.choice(np.flatnonzero(mask)))
        _, _, done, _, info = env.step(action)
    # The terminal mask: every action allowed, so a categorical over masked logits is defined.
    final = info["action_mask"]
    assert final.shape == (env.game.num_actions,) and final.all()
    assert env.action_space.contains(env.action_space.sample(mask=final))
    logits = np.where(final.astype(bool), 0.0, -np.inf)
    probabilities = np.exp(logits - logits.max())
    assert np.isfinite(probabilities / probabilities.sum()).all()
