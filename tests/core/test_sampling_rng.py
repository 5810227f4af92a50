"""`game.sample_state(view, rng)` takes a `random.Random` (issue #16: a README reader passed a numpy
Generator and got an error from deep inside a game's sampler)."""

from __future__ import annotations

import random

import numpy as np
import pytest

import bodoge


def test_a_numpy_generator_is_refused_with_what_is_allowed() -> None:
    game = bodoge.make("troika", players=3)
    state = game.new_state(seed=1)
    with pytest.raises(TypeError, match=r"random\.Random\(0\).*numpy"):
        game.sample_state(state.view(0), np.random.default_rng(0))
    sampled = game.sample_state(state.view(0), random.Random(0))
    assert sampled.view(0) == state.view(0)
