"""Every bodoge game as an OpenSpiel Python game: `bodoge_troika`, `bodoge_tokkuri`, …

    bodoge.rl.register_openspiel()
    game = pyspiel.load_game("bodoge_troika", {"players": 4})
    game = pyspiel.load_game("bodoge_hangover", {"players": 3, "options": '{"drunk_limit": {"3": 8}}'})

Chance is sampled inside the engine (`SAMPLED_STOCHASTIC`): each new initial state draws its deal
seed from the game's `rng_seed`. Information-state strings are the seat's view (with perfect
recall); observation strings are the view without its log; tensors are `observation_tensor`.
`resample_from_infostate` is `game.sample_state`, so OpenSpiel's ISMCTS bot plays these games.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

import bodoge
from bodoge.core.game import Game, State
from bodoge.core.registry import game_class
from bodoge.core.registry import games as game_names


def _game_type(name: str) -> Any:
    cls = game_class(name)
    return pyspiel.GameType(
        short_name=f"bodoge_{name}",
        long_name=f"bodoge {cls.title['en']} ({cls.title['ja']})",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": cls.default_players, "options": "{}", "rng_seed": 0},
    )


class BodogeSpielGame(pyspiel.Game):
    """One bodoge game in OpenSpiel; `register_openspiel` makes a subclass per game (pyspiel wants a class)."""

    bodoge_name: str

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        name = self.bodoge_name
        params = dict(params or {})
        players = int(params.get("players", game_class(name).default_players))
        options = json.loads(params.get("options", "{}") or "{}")
        self.bodoge_game: Game = bodoge.make(name, players=players, **options)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.bodoge_game.num_actions,
            max_chance_outcomes=0,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=self.bodoge_game.max_game_length(),
        )
        super().__init__(_game_type(name), info, params)
        self._deals = random.Random(int(params.get("rng_seed", 0)))

    def __deepcopy__(self, memo: dict[int, Any]) -> BodogeSpielGame:
        # OpenSpiel clones a Python state by deep-copying its attributes; the game is shared, not copied.
        return self

    def new_initial_state(self) -> BodogeSpielState:
        return BodogeSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> BodogeObserver:
        perfect_recall = iig_obs_type is None or iig_obs_type.perfect_recall
        return BodogeObserver(self.bodoge_game, perfect_recall)

    def next_deal(self) -> State:
        return self.bodoge_game.new_state(seed=self._deals.getrandbits(63))


class BodogeSpielState(pyspiel.State):
    def __init__(self, game: BodogeSpielGame, state: State | None = None) -> None:
        super().__init__(game)
        self._spiel_game = game
        # Made lazily: OpenSpiel's clone() builds a fresh initial state and then copies attributes over.
        self._inner = state

    @property
    def inner(self) -> State:
        if self._inner is None:
            self._inner = self._spiel_game.next_deal()
        return self._inner

    def current_player(self) -> int:
        player = self.inner.current_player
        return pyspiel.PlayerId.TERMINAL if player is None else player

    def _legal_actions(self, player: int) -> list[int]:
        return self.inner.legal_actions() if player == self.inner.current_player else []

    def _apply_action(self, action: int) -> None:
        self.inner.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.inner.action_text(action)

    def is_terminal(self) -> bool:
        return self.inner.is_terminal

    def returns(self) -> list[float]:
        if not self.inner.is_terminal:
            return [0.0] * self.inner.game.num_players
        return self.inner.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> BodogeSpielState:
        rng = random.Random(int(probability_sampler() * 2**53))
        sampled = self.inner.game.sample_state(self.inner.view(player_id), rng)
        return BodogeSpielState(self._spiel_game, sampled)

    def __str__(self) -> str:
        return self.inner.render(None)


class BodogeObserver:
    """OpenSpiel's PyObserver: `tensor`/`dict` filled by `set_from`, strings by `string_from`."""

    def __init__(self, game: Game, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(int(np.prod(game.observation_shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(game.observation_shape)}

    def set_from(self, state: BodogeSpielState, player: int) -> None:
        self.tensor[:] = state.inner.observation_tensor(player).reshape(-1)

    def string_from(self, state: BodogeSpielState, player: int) -> str:
        view = state.inner.view(player)
        if not self.perfect_recall:
            view.pop("log", None)
        return json.dumps(view, sort_keys=True, ensure_ascii=False)


def register_openspiel() -> list[str]:
    """Register every bodoge game with pyspiel (idempotent); returns the names."""
    registered = set(pyspiel.registered_names())
    names = []
    for name in game_names():
        short = f"bodoge_{name}"
        if short not in registered:
            cls = type(f"BodogeSpielGame_{name}", (BodogeSpielGame,), {"bodoge_name": name})
            pyspiel.register_game(_game_type(name), cls)
        names.append(short)
    return names
