"""Helpers for the games' observation encoders (each game's `observation` part).

A game's `encode(game, view, out)` is the reference: the tensor of a view. Its
`encode_state(game, state, seat, out)` gives the same tensor, bit for bit, read from the state's
fields, at the engine's speed (`State.observation_tensor` uses it). What such an encoder works out
once per game (scales, offsets, the slices that never change) it keeps with the game (`fixed`).

An encoder may write float32 values as bytes (`packer`, `as_bytes`): `struct` rounds a Python float
to float32 as NumPy's assignment does (the C cast, to nearest), and writing a block of packed bytes
into the array's memory costs a memory copy, where NumPy converts a list value by value and an
index list entry by entry.
"""

from __future__ import annotations

import importlib
import struct
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

if TYPE_CHECKING:
    from numpy.typing import NDArray

T = TypeVar("T")


def fixed(game: Any, build: Callable[[Any], T]) -> T:
    """`build(game)`, made once per game and kept with it (a game never changes once made), and
    made again after the game was pickled (see `Kept`)."""
    kept: T | None = game.__dict__.get("_observation_fixed")
    if kept is None:
        kept = game.__dict__["_observation_fixed"] = build(game)
    return kept


def _not_kept() -> None:
    return None


class Kept:
    """A base for what an encoder keeps with a game (`fixed`) that does not pickle as it is (struct
    packers) or need not (tables of what was met): it pickles as None, so a game that is pickled
    (OpenSpiel serializes games and states) makes it again at its first encoding."""

    def __reduce__(self) -> tuple[Callable[[], None], tuple[()]]:
        return (_not_kept, ())


def _clip_ufunc() -> Any:
    """NumPy's `clip` ufunc itself: `np.clip` reaches it through Python wrappers that cost more
    than clipping a small array."""
    for path in ("numpy._core.umath", "numpy.core.umath"):
        try:
            return importlib.import_module(path).clip
        except (ImportError, AttributeError):
            continue
    return np.clip


_CLIP = _clip_ufunc()
# The bounds as float32 arrays: Python floats are converted at every call, which costs more than
# the clipping itself (the float32 loop runs either way, so the result is the same).
_LOW = np.array(-1.0, dtype=np.float32)
_HIGH = np.array(1.0, dtype=np.float32)
_FLOAT32 = np.dtype(np.float32)  # NumPy's one instance: `is` tells it (a byte-swapped float32 is not it)


def clip_unit(flat: NDArray[np.float32]) -> None:
    """Clip a float32 array to [-1, 1] in place (as `np.clip(flat, -1.0, 1.0, out=flat)`)."""
    _CLIP(flat, _LOW, _HIGH, flat)


@lru_cache(maxsize=256)
def packer(count: int) -> Callable[..., bytes]:
    """`packer(count)(*values)`: `count` Python floats as native float32 bytes (as `np.float32`
    rounds them)."""
    return struct.Struct(f"={count}f").pack


def as_bytes(out: NDArray[np.float32]) -> memoryview | None:
    """`out`'s memory as writable bytes, or None where it is not one C-contiguous float32 block (a
    strided view): the caller then writes a contiguous copy."""
    if out.dtype is not _FLOAT32:
        return None
    try:
        view = out.data.cast("B")
    except (TypeError, ValueError):  # not C-contiguous
        return None
    return None if view.readonly else view
