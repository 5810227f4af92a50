"""The shipped models of the `nn` agent (bodoge/agents/models/, docs/models.md)."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

import bodoge
from bodoge import agents
from bodoge.agents import nn

SHIPPED = [(name, n) for name in ("hangover", "tokkuri", "tottarot", "troika") for n in (3, 4)]


@pytest.mark.parametrize(("name", "players"), SHIPPED)
def test_each_shipped_model_loads_and_matches_its_game(name: str, players: int) -> None:
    """Every game ships a model at 3 and 4 players, under 2 MB, whose weights match the checksum on its
    card and whose observation shape and action count are the game's today: changing an observation
    must retrain the models (bodoge train) or this fails."""
    path = nn.shipped_path(name, players)
    assert path.is_file() and path.stat().st_size < 2_000_000
    card = json.loads(path.with_suffix(".json").read_text())
    assert card["sha256"] == nn.file_sha256(path)
    game = bodoge.make(name, players)
    assert card["observation_shape"] == list(game.observation_shape)
    assert card["num_actions"] == game.num_actions
    model = nn.model_for(game)  # loads, checks the checksum and the shapes
    assert model.trunk[0][0].shape[0] == int(np.prod(game.observation_shape))
    outputs = nn.policy_size(game) if model.relative else game.num_actions  # older: one per action id
    assert model.policy[0].shape[1] == outputs and model.value[0].shape[1] == players
    assert nn.shipped_counts(name) == [3, 4]
    state = game.new_state(seed=1)
    action = agents.make("nn").act(game, state.lazy_view(state.current_player), random.Random(0))
    assert action in state.legal_actions()


@pytest.mark.parametrize(
    ("name", "players"), [("tokkuri", 3), ("tokkuri", 4), ("tottarot", 3), ("tottarot", 4)]
)
def test_the_newer_shipped_models_read_actions_relative_to_the_observer(name: str, players: int) -> None:
    """Tokkuri's targets name a tokkuri by its owner's seat and placement, Tottarot's steals a seat: these
    shipped networks score them as the observation shows them (docs/models.md, the network)."""
    game = bodoge.make(name, players)
    model = nn.model_for(game)
    assert model.relative and model.card["policy_size"] == nn.policy_size(game)
    assert model.policy[0].shape[1] == nn.policy_size(game)
