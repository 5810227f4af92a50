"""The random agent: every legal action equally likely."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from bodoge.agents.base import legal_ids
from bodoge.core.game import Game


class RandomAgent:
    spec = "random"
    reads_log = False  # legal ids only

    def act(self, game: Game, view: Mapping[str, Any], rng: random.Random) -> int:
        return rng.choice(legal_ids(view))
