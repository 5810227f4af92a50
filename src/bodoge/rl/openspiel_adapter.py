"""Every bodoge game as an OpenSpiel Python game: `bodoge_troika`, `bodoge_tokkuri`, …, and a tiny
variant of each for exact algorithms: `bodoge_tottarot_tiny`, …

    bodoge.rl.register_openspiel()
    game = pyspiel.load_game("bodoge_troika", {"players": 4})
    game = pyspiel.load_game("bodoge_hangover", {"players": 3, "options": '{"drunk_limit": {"3": 8}}'})
    game = pyspiel.load_game("bodoge_tottarot_tiny")          # CFR, exploitability, best responses

Chance is explicit (`EXPLICIT_STOCHASTIC`) for a game whose engine takes its chance from outside
(`Game.num_chance_outcomes`, `new_state(explicit_chance=True)`): the deal and every later draw are
chance nodes, one per card drawn, whose outcomes are the card types (copies of a type cannot be told
apart) with their probabilities, so a history (players' actions and chance outcomes) is one state:
`serialize`/`deserialize_state` replay it. A game without that support samples its chance inside
the engine (`SAMPLED_STOCHASTIC`, each new initial state a new seed from the game's `rng_seed`).

Strings and tensors:
- `str(state)`: the full state, hidden cards too (every field of the engine's state);
- information-state strings: the facts of the seat's view (its game part, scores, whose decision
  and the legal actions, without the words made from them) and its log's events as the seat saw
  them (perfect recall); observation strings: the view without its log;
- observation tensors: `observation_tensor(seat)` (the view, without recall);
- information-state tensors: the observation tensor, then what the seat saw in order, a slot each:
  each chance outcome it saw as it happened (its card drawn, a tile turned face up: the game says
  who sees each, `State.chance_seen_by`), and the end of each step (the setup, or a player's action
  with the chance it led to) in which it acted or its observation changed: that observation and a
  one-hot of its own action (if it acted). What it did not see leaves no slot, so the tensor is a
  function of the information state; it holds every observation the seat had in order, so it has
  perfect recall. Fixed size: `max_game_length() + 1 + max_chance_events()` slots (large for a long
  game; the tiny variants are small).

`resample_from_infostate` is `game.sample_state` (a state that draws its own future chance), so
OpenSpiel's ISMCTS bot plays these games.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

import bodoge
from bodoge.core.game import CHANCE, Game, State
from bodoge.core.registry import game_class
from bodoge.core.registry import games as game_names

#: The tiny variant of each game: options (and players) small enough that the whole game tree is
#: enumerable, for exact algorithms (CFR, best responses, exploitability). `bodoge_<game>_tiny`.
TINY: dict[str, dict[str, Any]] = {
    # 2 players, one turn of one round, six cards of three types (+5, −1 with PEEK, −5), will 0/1.
    "tottarot": {
        "players": 2,
        "options": {
            "deck": [
                {"code": "WORLD", "points": 5, "copies": 2},
                {"code": "MOON", "points": -1, "icon": "PEEK", "copies": 2},
                {"code": "DEVIL", "points": -5, "copies": 2},
            ],
            "turns_per_round": 2,
            "max_will": 1,
            "target": 1,
        },
    },
    # 2 players, one round, five tiles (1, 1, 1, 2, 2: a fuel is three 1s), none set aside, a hand of
    # one tile.
    "troika": {
        "players": 2,
        "options": {
            "rounds": 1,
            "tile_counts": {"1": 3, "2": 2},
            "two_player_removed": 0,
            "hand_limit": 1,
        },
    },
    # 2 players, one round, hands of two from five cards (1, 1, 2, 2 and a dummy), tokkuri at level 3.
    "tokkuri": {
        "players": 2,
        "options": {
            "rounds": 1,
            "hand_size": 2,
            "tokkuri_level": 3,
            "penalty_level": 2,
            "penalty_points": 1,
            "deck": [
                {"code": "1", "kind": "number", "slots": [1], "copies": 2},
                {"code": "2", "kind": "number", "slots": [2], "copies": 2},
                {"code": "D", "kind": "dummy", "copies": 1},
            ],
        },
    },
    # 3 players (Hangover's fewest), one card each from eight (the 1s of four suits, plain and △),
    # no snacks, the non-drinker declaration, and a drunk limit of 2 for the one trick.
    "hangover": {
        "players": 3,
        "options": {
            "hand_size": 1,
            "snacks_per_player": 0,
            "removed_numbers": {"3": [2, 3, 4, 5, 6, 7], "4": [7], "5": []},
            "hangover_trick": 2,
            "drunk_limit": 2,
        },
    },
}

#: The largest information-state tensor a game provides (floats): a game whose bound on its length
#: makes it larger (Tokkuri with its default 50 rounds at most) gives information-state strings only.
MAX_INFORMATION_STATE_TENSOR = 1 << 22


def explicit(name: str) -> bool:
    """Whether the bodoge game `name` takes its chance from outside (explicit chance nodes)."""
    return bodoge.make(name).num_chance_outcomes is not None  # set by the game's `prepare`


def recall_slots(game: Game) -> tuple[int, int]:
    """The information-state tensor's recall (`BodogeObserver`): its number of slots and their size."""
    chances = game.max_chance_events() if game.num_chance_outcomes is not None else 0
    slots = game.max_game_length() + 1 + chances
    outcomes = game.num_chance_outcomes or 0
    return slots, 1 + int(np.prod(game.observation_shape)) + game.num_actions + 1 + outcomes


def information_state_tensor_size(game: Game) -> int:
    slots, size = recall_slots(game)
    return int(np.prod(game.observation_shape)) + slots * size


GENERAL_SUM = pyspiel.GameType.Utility.GENERAL_SUM


def _game_type(
    name: str, short_name: str, players: int, constant_sum: bool, information_tensor: bool = True
) -> Any:
    cls = game_class(name)
    tiny = short_name.endswith("_tiny")
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"bodoge {cls.title['en']} ({cls.title['ja']})" + (" tiny" if tiny else ""),
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            if explicit(name)
            else pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
        ),
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        # a tiny variant always has a winner (ties share): its returns sum to 1 (tested)
        utility=pyspiel.GameType.Utility.CONSTANT_SUM if constant_sum else GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=information_tensor,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": players, "options": "{}", "rng_seed": 0},
    )


class BodogeSpielGame(pyspiel.Game):
    """One bodoge game in OpenSpiel; `register_openspiel` makes a subclass per game (pyspiel wants a class)."""

    bodoge_name: str
    short_name: str
    default_players: int
    default_options: dict[str, Any]
    constant_sum: bool

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        name = self.bodoge_name
        params = dict(params or {})
        players = int(params.get("players", self.default_players))
        # A variant's own options, then those given (a JSON object; OpenSpiel's game strings cannot
        # hold a comma, so a game with options of its own given here does not serialize).
        options = {**self.default_options, **json.loads(params.get("options", "") or "{}")}
        self.bodoge_game: Game = bodoge.make(name, players=players, **options)
        self.explicit = self.bodoge_game.num_chance_outcomes is not None
        info = pyspiel.GameInfo(
            num_distinct_actions=self.bodoge_game.num_actions,
            max_chance_outcomes=self.bodoge_game.num_chance_outcomes or 0,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0 if self.constant_sum else None,
            max_game_length=self.bodoge_game.max_game_length(),
        )
        self.information_tensor = (
            information_state_tensor_size(self.bodoge_game) <= MAX_INFORMATION_STATE_TENSOR
        )
        game_type = _game_type(
            name, self.short_name, self.default_players, self.constant_sum, self.information_tensor
        )
        super().__init__(game_type, info, params)
        self._deals = random.Random(int(params.get("rng_seed", 0)))

    def __deepcopy__(self, memo: dict[int, Any]) -> BodogeSpielGame:
        # OpenSpiel clones a Python state by deep-copying its attributes; the game is shared, not copied.
        return self

    def new_initial_state(self) -> BodogeSpielState:
        return BodogeSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> BodogeObserver:
        perfect_recall = iig_obs_type is None or iig_obs_type.perfect_recall
        # only the information-state tensor can be too large: the observation tensor is always given
        with_tensor = self.information_tensor or not perfect_recall
        return BodogeObserver(self.bodoge_game, perfect_recall, with_tensor)

    def initial_inner(self) -> State:
        """The engine's state at the start: with explicit chance, before the deal (a chance node)."""
        if self.explicit:
            return self.bodoge_game.new_state(explicit_chance=True)
        return self.bodoge_game.new_state(seed=self._deals.getrandbits(63))


class _Origin:
    """The engine state an OpenSpiel state began from, shared by its clones (never changed)."""

    __slots__ = ("state",)

    def __init__(self, state: State) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Origin:
        return self


class BodogeSpielState(pyspiel.State):
    def __init__(self, game: BodogeSpielGame, state: State | None = None) -> None:
        super().__init__(game)
        self._spiel_game = game
        # Made lazily: OpenSpiel's clone() builds a fresh initial state and then copies attributes over.
        self._inner = state
        # The state the trail replays from: the initial state's. A state made around an engine state
        # (`resample_from_infostate`, which ISMCTS calls at every simulation) keeps none: no copy to
        # pay for, and no information-state tensor.
        self._origin: _Origin | None = None

    @property
    def inner(self) -> State:
        if self._inner is None:
            self._inner = self._spiel_game.initial_inner()
            self._origin = _Origin(self._inner.clone())
        return self._inner

    def current_player(self) -> int:
        player = self.inner.current_player
        if player is None:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(pyspiel.PlayerId.CHANCE) if player == CHANCE else player

    def _legal_actions(self, player: int) -> list[int]:
        inner = self.inner
        if inner.current_player == CHANCE:
            return [o for o, _ in inner.chance_outcomes()] if player == pyspiel.PlayerId.CHANCE else []
        return inner.legal_actions() if player == inner.current_player else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.inner.chance_outcomes()

    def is_chance_node(self) -> bool:
        return self.inner.is_chance_node

    def _apply_action(self, action: int) -> None:
        if self.inner.is_chance_node:
            self.inner.apply_chance(int(action))
        else:
            self.inner.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return self.inner.chance_text(action)
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

    def trail(self, seat: int) -> list[tuple[str, Any, int]]:
        """What the seat saw, in order, for the information-state tensor's recall, played again from
        the state this one began from: ("chance", None, outcome) for each chance outcome it saw as it
        happened (`chance_seen_by`), and ("step", observation, own action or −1) after each step
        (the setup, or a player's action with the chance it led to) in which it acted or its
        observation changed."""
        inner = self.inner
        if self._origin is None:
            raise ValueError(
                "an information-state tensor needs a state played from new_initial_state(), "
                "not one made around an engine state (resample_from_infostate)"
            )
        state = self._origin.state.clone()
        found: list[tuple[str, Any, int]] = []
        last: np.ndarray | None = None
        if not state.is_chance_node:
            last = state.observation_tensor(seat)
            found.append(("step", last, -1))
        own = -1  # the seat's action that began the step now played, if it did
        for a in self.history():
            if state.is_chance_node:
                if seat in state.chance_seen_by:
                    found.append(("chance", None, int(a)))
                state.apply_chance(int(a))
            else:
                own = int(a) if state.current_player == seat else -1
                state.apply(int(a))
            if state.is_chance_node:
                continue  # the step goes on: its end is seen once it has ended
            seen = state.observation_tensor(seat)
            if own >= 0 or last is None or not np.array_equal(seen, last):
                found.append(("step", seen, own))
                last = seen
            own = -1
        assert len(state.history) == len(inner.history), "the trail did not replay to this state"
        return found

    def __str__(self) -> str:
        return full_text(self.inner)


def full_text(state: State) -> str:
    """The whole state as text, hidden cards and all: the spectator's board, then every field of
    the engine's state (a pending chance event with its step and the outcomes given so far)."""
    pending = state._pending
    lines = []
    if pending is None or pending.before is not None:
        lines.append(state.render(None))
    skip = {
        "game",
        "events",
        "_legal",
        "_log_cache",
        "_log_shared",
        "_rng",
        "_rng_seed",
        "_given",
        "_given_at",
    }
    for key in sorted(state.__dict__):
        if key in skip:
            continue
        value = state.__dict__[key]
        if key == "_pending":
            if value is None:
                continue
            value = {"action": value.action, "given": list(value.given), "outcomes": list(value.outcomes)}
        lines.append(f"{key}: {value!r}")
    return "\n".join(lines)


class BodogeObserver:
    """OpenSpiel's PyObserver: `tensor`/`dict` filled by `set_from`, strings by `string_from`.

    Without perfect recall: the observation tensor. With it (information states): the observation
    tensor, then `max_game_length() + 1 + max_chance_events()` slots of what the seat saw in order
    (see `trail`), each [is a step, observation, one-hot own action, is a chance outcome, one-hot
    outcome]."""

    def __init__(self, game: Game, perfect_recall: bool, with_tensor: bool = True) -> None:
        self.perfect_recall = perfect_recall
        self.game = game
        self.with_tensor = with_tensor  # else strings only (the tensor would be too large)
        self.obs_size = int(np.prod(game.observation_shape))
        size = self.obs_size
        if perfect_recall:
            self.slots, self.slot_size = recall_slots(game)
            self.own0 = 1 + self.obs_size
            self.chance0 = self.own0 + game.num_actions
            size += self.slots * self.slot_size
        self.tensor: np.ndarray | None = None
        self.dict: dict[str, np.ndarray] = {}
        if not with_tensor:  # OpenSpiel asks such an observer for strings only
            return
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor[: self.obs_size].reshape(game.observation_shape)}
        if perfect_recall:
            self.dict["history"] = self.tensor[self.obs_size :].reshape(self.slots, self.slot_size)

    def set_from(self, state: BodogeSpielState, player: int) -> None:
        tensor = self.tensor
        if tensor is None:  # too large (MAX_INFORMATION_STATE_TENSOR): strings only
            return
        inner = state.inner
        tensor[:] = 0.0
        pending = inner._pending  # at a chance node: what the seat saw before the step (none in the setup)
        seen = inner if pending is None else pending.before
        if seen is not None:
            tensor[: self.obs_size] = seen.observation_tensor(player).reshape(-1)
        if not self.perfect_recall:
            return
        history = self.dict["history"]
        trail = state.trail(player)
        if len(trail) > self.slots:
            raise AssertionError(f"{len(trail)} things seen do not fit {self.slots} slots")
        for i, (kind, seen, number) in enumerate(trail):
            slot = history[i]
            if kind == "step":
                slot[0] = 1.0
                slot[1 : self.own0] = seen.reshape(-1)
                if number >= 0:
                    slot[self.own0 + number] = 1.0
            else:
                slot[self.chance0] = 1.0
                slot[self.chance0 + 1 + number] = 1.0

    def string_from(self, state: BodogeSpielState, player: int) -> str:
        inner = state.inner
        chance = inner.is_chance_node
        if chance:  # a step waits for chance: what the seat knew before it (and the wait)
            pending = inner._pending
            assert pending is not None
            if pending.before is None:
                return json.dumps({"chance": "setup", "seat": player})
            inner = pending.before
        if self.perfect_recall:
            # The view's facts without its words (its texts are made from them), with the log's
            # events as the seat saw them: cheaper than the whole view, which solvers ask for at
            # every node, and the same information.
            view = inner._view(player)
            view["current_player"] = inner.current_player
            view["scores"] = inner.scores()
            view["legal_actions"] = inner.legal_actions() if player == inner.current_player else []
            seen = (inner._event_view(event, player) for event in inner.events)
            view["log"] = [event for event in seen if event is not None]
        else:
            view = inner.view(player, log=False)
        if chance:
            view["chance"] = True
        return json.dumps(view, sort_keys=True, ensure_ascii=False)


def register_openspiel() -> list[str]:
    """Register every bodoge game with pyspiel (idempotent): `bodoge_<game>` for each, and
    `bodoge_<game>_tiny` for each game with a tiny variant; returns the names."""
    registered = set(pyspiel.registered_names())
    names = []
    for name in game_names():
        cls_game = game_class(name)
        variants: list[tuple[str, int, dict[str, Any]]] = [(f"bodoge_{name}", cls_game.default_players, {})]
        if name in TINY:
            variants.append((f"bodoge_{name}_tiny", TINY[name]["players"], TINY[name]["options"]))
        for short, players, options in variants:
            constant_sum = short.endswith("_tiny")
            if short not in registered:
                attrs = {
                    "bodoge_name": name,
                    "short_name": short,
                    "default_players": players,
                    "default_options": options,
                    "constant_sum": constant_sum,
                }
                cls = type(f"BodogeSpielGame_{short}", (BodogeSpielGame,), attrs)
                globals()[cls.__name__] = cls  # found by name: pickling a game (serialization) needs it
                pyspiel.register_game(_game_type(name, short, players, constant_sum), cls)
            names.append(short)
    return names
