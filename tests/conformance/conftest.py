from __future__ import annotations

from collections.abc import Iterator

import pytest
from conformance_games import TOY

from bodoge.core import registry


@pytest.fixture(autouse=True)
def toy_game_registered() -> Iterator[None]:
    """The toy game is in the registry while a conformance test runs (so make and replay find it)."""
    registry.register(TOY)
    try:
        yield
    finally:
        registry.unregister(TOY.name)
