"""Helpers for the games' observation encoders (each game's `observation` part).

A game's `encode(game, view, out)` is the reference: the tensor of a view. Its
`encode_state(game, state, seat, out)` gives the same tensor, bit for bit, read from the state's
fields, at the engine's speed (`State.observation_tensor` uses it). What such an encoder works out
once per game (scales, offsets, the slices that never change) it keeps with the game (`fixed`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    import numpy as np

T = TypeVar("T")


def fixed(game: Any, build: Callable[[Any], T]) -> T:
    """`build(game)`, made once per game and kept with it (a game never changes once made)."""
    kept: T | None = game.__dict__.get("_observation_fixed")
    if kept is None:
        kept = game.__dict__["_observation_fixed"] = build(game)
    return kept


def _clip_ufunc() -> Any:
    """NumPy's `clip` ufunc itself: `np.clip` reaches it through Python wrappers that cost more
    than clipping a small array."""
    for path in ("numpy._core.umath", "numpy.core.umath"):
        try:
            return importlib.import_module(path).clip
        except (ImportError, AttributeError):
            continue
    import numpy as np

    return np.clip


_CLIP = _clip_ufunc()


def clip_unit(flat: np.ndarray) -> None:
    """Clip a float32 array to [-1, 1] in place (as `np.clip(flat, -1.0, 1.0, out=flat)`)."""
    _CLIP(flat, -1.0, 1.0, out=flat)
