"""The `nn` agent: a small network that learned a game by self-play (`bodoge train`), played in NumPy.

    bodoge.agents.make("nn")                          # the shipped model for the game and player count
    bodoge.agents.make("nn:temperature=0.5")          # sample from the policy instead of its best move
    bodoge.agents.make("nn:model=runs/troika-4p/model.npz")

The network sees exactly what the seat sees: `observation_tensor` of its view (each game's
`observation` module) and the legal actions. It is a multilayer perceptron with two heads: a
**policy** (illegal actions masked out) and a **value**, the expected share of the win of every seat,
seats relative to the observer (slot 0 is the observer, slot i the player i seats clockwise, as in the
observation tensors). ISMCTS uses both (`ismcts:prior=nn,value=nn`).

The policy has one output per action of `game.num_actions`, except where a game's observation module
says otherwise (`policy_indices(game, view, actions)`, and `policy_size(game)` where the outputs are
not one per action id): an action that names a seat or a piece by its absolute number is read
relative to the observer, as the observation is, so that "take from my left neighbour" is one output
whatever the seat (Tokkuri's targets are its tokkuri slots in the observation's order, its victims
and Tottarot's steal, share and peek are relative seats). A card records the size it was trained
with (`policy_size`); a card without it is an older model over the absolute actions, and is still
played that way.

A model is two files side by side: `NAME.npz` (the weights, NumPy arrays `w0, b0, w1, b1, …` of the
trunk and `wp, bp`, `wv, bv` of the heads) and `NAME.json`, its card: the game, the player count, the
observation shape and action count it was trained on, the sha256 of the .npz, and how it was trained.
Playing needs only NumPy: no training library is imported. Shipped models live in
`bodoge/agents/models/` as `<game>-<players>p.npz` (docs/models.md).
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from bodoge.agents.base import legal_ids
from bodoge.core.game import Game, LazyView, State
from bodoge.errors import BadOption, is_number_in

MODEL_FORMAT = "bodoge-model/1"
MODELS = Path(__file__).parent / "models"  # the shipped models (package data)
MAX_TEMPERATURE = 100.0


def shipped_path(game: str, players: int) -> Path:
    return MODELS / f"{game}-{players}p.npz"


def shipped_counts(game: str) -> list[int]:
    """The player counts that have a shipped model for `game`."""
    counts = []
    for path in MODELS.glob(f"{game}-*p.npz"):
        tail = path.stem[len(game) + 1 : -1]
        if tail.isdigit():
            counts.append(int(tail))
    return sorted(counts)


def file_sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@dataclass(frozen=True)
class Model:
    """A loaded network: its layers as float32 arrays and its card."""

    path: Path
    card: dict[str, Any]
    trunk: tuple[tuple[np.ndarray, np.ndarray], ...]
    policy: tuple[np.ndarray, np.ndarray]
    value: tuple[np.ndarray, np.ndarray]

    @property
    def game(self) -> str:
        return str(self.card["game"])

    @property
    def players(self) -> int:
        return int(self.card["players"])

    @property
    def relative(self) -> bool:
        """Whether the policy is in the game's observer-relative layout (module docstring); older
        models have one output per absolute action."""
        return "policy_size" in self.card

    def check(self, game: Game) -> None:
        """BadOption unless this model was trained on `game`'s name, player count, observation shape,
        action space and policy layout (a changed observation must be retrained, not silently misread)."""
        card = self.card
        outputs = policy_size(game) if self.relative else game.num_actions
        want = (game.name, game.num_players, list(game.observation_shape), game.num_actions, outputs)
        have = (
            card["game"],
            card["players"],
            list(card["observation_shape"]),
            card["num_actions"],
            card.get("policy_size", card["num_actions"]),
        )
        if want != have:
            raise BadOption(
                "model",
                str(self.path),
                f"a model of {game.name} with {game.num_players} players, observation shape "
                f"{list(game.observation_shape)}, {game.num_actions} actions and {outputs} policy outputs",
                f"it was trained on {card['game']} with {card['players']} players, observation shape "
                f"{list(card['observation_shape'])}, {card['num_actions']} actions and {have[4]} policy outputs"
                + (" (retrain it: bodoge train)" if want[:2] == have[:2] else ""),
            )
        layers = (self.trunk[0][0].shape[0], self.policy[0].shape[1], self.value[0].shape[1])
        if layers != (math.prod(game.observation_shape), outputs, game.num_players):
            raise BadOption(
                "model",
                str(self.path),
                "weights of the shapes on its card: "
                f"{math.prod(game.observation_shape)} inputs, {outputs} policy outputs, {game.num_players} values",
                f"the weights have {layers[0]} inputs, {layers[1]} policy outputs and {layers[2]} values",
            )

    def outputs(self, game: Game, view: Mapping[str, Any], legal: list[int]) -> list[int]:
        """The policy outputs of the actions `legal` of `view` (their ids, for an older model)."""
        return policy_indices(game, view, legal) if self.relative else legal

    def decide(self, game: Game, view: Mapping[str, Any], legal: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """`evaluate` of the observer's decision in `view` (a view of a live state or a sampled one)."""
        view = readable(view)
        return self.evaluate(observe(game, view), self.outputs(game, view, legal))

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Policy logits and value logits of a batch of observations (or one)."""
        h = x.reshape(-1, x.shape[-1]) if x.ndim > 1 else x
        for w, b in self.trunk:
            h = h @ w + b
            np.maximum(h, 0.0, out=h)
        return h @ self.policy[0] + self.policy[1], h @ self.value[0] + self.value[1]

    def evaluate(self, obs: np.ndarray, outputs: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """(probabilities over the policy `outputs` of the legal actions, in their order; win shares
        of the seats relative to the observer)."""
        logits, value_logits = self.forward(obs)
        chosen = logits[outputs].astype(np.float64)
        chosen -= chosen.max()
        p = np.exp(chosen)
        p /= p.sum()
        v = value_logits.astype(np.float64)
        v = np.exp(v - v.max())
        return p, v / v.sum()


def policy_size(game: Game) -> int:
    """How many outputs the policy of a network for `game` has (module docstring)."""
    size = getattr(game.observation_module(), "policy_size", None)
    return game.num_actions if size is None else int(size(game))


def reads_relative(game: Game) -> bool:
    """Whether `game` has an observer-relative policy layout (module docstring)."""
    return hasattr(game.observation_module(), "policy_indices")


def policy_indices(game: Game, view: Mapping[str, Any], actions: list[int]) -> list[int]:
    """The policy outputs of the legal `actions` of the observer's decision in `view`: their ids, or
    the game's observer-relative layout (module docstring)."""
    indices = getattr(game.observation_module(), "policy_indices", None)
    return actions if indices is None else list(indices(game, readable(view), actions))


def load(path: str | Path) -> Model:
    """The model at `path` (its .npz; the card is the .json beside it). BadOption if either is
    missing or unreadable, or the weights do not match the checksum on the card."""
    try:
        return _load(str(Path(path).expanduser().resolve()))
    except OSError as exc:  # a path the system cannot even look up: too long, a loop of links …
        allowed = "the path of a model's .npz with its .json card beside it"
        raise BadOption("model", str(path), allowed, exc.strerror or str(exc)) from None


@functools.lru_cache(maxsize=32)
def _load(where: str) -> Model:
    path = Path(where)
    if path.suffix != ".npz":
        path = path.with_suffix(".npz")
    card_path = path.with_suffix(".json")
    if not path.is_file() or not card_path.is_file():
        raise BadOption("model", str(path), "the path of a model's .npz with its .json card beside it")
    try:
        card = json.loads(card_path.read_text())
    except (OSError, ValueError) as exc:
        raise BadOption("model", str(card_path), "a model card (JSON)", str(exc)) from None
    if not isinstance(card, dict) or card.get("format") != MODEL_FORMAT:
        raise BadOption("model", str(card_path), f"a model card of format {MODEL_FORMAT}")
    digest = file_sha256(path)
    if digest != card.get("sha256"):
        raise BadOption(
            "model", str(path), "weights whose sha256 is the card's", f"{digest} is not {card.get('sha256')}"
        )
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {k: np.asarray(data[k], dtype=np.float32) for k in data.files}
        depth = len(card["hidden"])
        trunk = tuple((arrays[f"w{i}"], arrays[f"b{i}"]) for i in range(depth))
        model = Model(path, card, trunk, (arrays["wp"], arrays["bp"]), (arrays["wv"], arrays["bv"]))
    except (KeyError, ValueError, OSError) as exc:
        raise BadOption("model", str(path), "weights of a bodoge network", str(exc)) from None
    return model


def model_for(game: Game, model: str | Path | None = None) -> Model:
    """The model `model` (a path), or the shipped one for `game`'s name and player count, checked
    against `game`. BadOption naming the counts that have one where none is shipped."""
    if model is None:
        path = shipped_path(game.name, game.num_players)
        if not path.is_file():
            counts = shipped_counts(game.name)
            have = (
                f"{game.name} has shipped models for {', '.join(map(str, counts))} players"
                if counts
                else f"no model is shipped for {game.name}"
            )
            raise BadOption(
                "agent",
                "nn",
                f"{have}; for another count train one (bodoge train {game.name} --players "
                f"{game.num_players}) and pass nn:model=PATH",
                f"no model is shipped for {game.name} with {game.num_players} players",
            )
        found = load(path)
    else:
        found = load(model)
    found.check(game)
    return found


class _EncodedView(Mapping[str, Any]):
    """`state.view(seat)` as the observation encoders read it, for a seat at its own decision: the
    game's part of the view (`_view`, the one guard of its secrets) and the few protocol keys they
    read, without the texts of the legal actions and of the decision, which a view builds in two
    languages and which cost more than the encoding itself. Any other key is read from the whole view,
    so the tensor is always the one `observation_tensor` gives (tests/agents/test_nn.py)."""

    __slots__ = ("_full", "_own", "_seat", "_state")

    def __init__(self, state: State, seat: int) -> None:
        self._state, self._seat = state, seat
        self._own = state._view(seat)
        self._full: dict[str, Any] | None = None

    def __getitem__(self, key: str) -> Any:
        if key in self._own:
            return self._own[key]
        state = self._state
        if key == "seat":
            return self._seat
        if key == "current_player":
            return state.current_player
        if key == "scores":
            return state.scores()
        if key == "log":
            return state.log(self._seat)
        if key == "winners" and state.current_player is not None:
            raise KeyError(key)  # a view has winners only at the end
        if self._full is None:
            self._full = state.view(self._seat, log=False)
        return self._full[key]

    def __iter__(self) -> Any:
        if self._full is None:
            self._full = self._state.view(self._seat, log=False)
        yield from self._full
        yield "log"

    def __len__(self) -> int:
        return sum(1 for _ in self)


def observe(game: Game, view: Mapping[str, Any]) -> np.ndarray:
    """The observation tensor of a view (what `state.observation_tensor(seat)` gives from the state).
    A `LazyView` of a live state is read through `_EncodedView`, without the view's texts."""
    out = np.zeros(game.observation_shape, dtype=np.float32)
    game.observation_module().encode(game, readable(view), out)
    return out.reshape(-1)


def readable(view: Mapping[str, Any]) -> Mapping[str, Any]:
    """A `LazyView` of the seat's own decision in a live state as `_EncodedView` (what `observe` and
    `policy_indices` read, without the view's texts); any other view as it is."""
    if isinstance(view, LazyView) and view.legal_ids():
        return _EncodedView(view._state, view._seat)  # type: ignore[arg-type]
    return view


def state_observation(state: State, seat: int) -> np.ndarray:
    """The observation of `seat` in `state` (a sampled one, inside a search), built from its view."""
    out = np.zeros(state.game.observation_shape, dtype=np.float32)
    state.game.observation_module().encode(state.game, _EncodedView(state, seat), out)
    return out.reshape(-1)


def to_absolute(relative: Sequence[float] | np.ndarray, seat: int) -> list[float]:
    """Win shares of seats relative to `seat` (slot i: i seats clockwise) as shares of seats 0 … n−1."""
    n = len(relative)
    return [float(relative[(p - seat) % n]) for p in range(n)]


def state_value(model: Model, state: State) -> list[float]:
    """Every seat's win share as `model` sees it from the view of the seat to move in `state` (a live
    state or a sampled one, not over): the value of a search's leaf, or of a review's option."""
    seat = state.current_player
    assert seat is not None
    _, value_logits = model.forward(state_observation(state, seat))
    v = value_logits.astype(np.float64)
    e = np.exp(v - v.max())
    return to_absolute(e / e.sum(), seat)


def choose(p: np.ndarray, legal: list[int], temperature: float, rng: random.Random) -> int:
    """The best action of the policy `p` over `legal` (temperature 0: argmax, the first of equals),
    or one drawn from p^(1/temperature) with `rng`."""
    if temperature == 0:
        return legal[int(np.argmax(p))]
    logp = np.log(np.maximum(p, 1e-12)) / temperature
    q = np.exp(logp - logp.max())
    q /= q.sum()
    r = rng.random()
    acc = 0.0
    for a, w in zip(legal, q.tolist(), strict=True):
        acc += w
        if r < acc:
            return a
    return legal[-1]


class NNAgent:
    """Plays the policy of a trained network (see the module docstring)."""

    reads_log = True  # Tokkuri's observation reads the round's log (what the seat was shown)

    def __init__(self, model: str | None = None, temperature: float = 0.0) -> None:
        if model is not None and (not isinstance(model, str) or not model.strip()):
            raise BadOption("model", model, "the path of a model's .npz (default: the shipped model)")
        if not is_number_in(temperature, 0, MAX_TEMPERATURE):
            raise BadOption(
                "temperature", temperature, f"a number from 0 (the best move) to {MAX_TEMPERATURE:g}"
            )
        self.model_path = model
        if model is not None:
            load(model)  # a missing or corrupt file fails now, before any game
        self.temperature = float(temperature)
        self._models: dict[int, tuple[Game, Model]] = {}  # by game object (kept, so its id stays its)
        params = []
        if model is not None:
            params.append(f"model={model}")
        if self.temperature:
            params.append(f"temperature={temperature}")
        self.spec = "nn" + (":" + ",".join(params) if params else "")

    def check(self, game: Game) -> None:
        """BadOption now if there is no model for `game` (or it was trained on another observation)."""
        model_for(game, self.model_path)

    def model(self, game: Game) -> Model:
        """The model this agent plays `game` with, loaded and checked once per game object."""
        held = self._models.get(id(game))
        if held is None or held[0] is not game:
            held = self._models[id(game)] = (game, model_for(game, self.model_path))
        return held[1]

    def act(self, game: Game, view: Mapping[str, Any], rng: random.Random) -> int:
        legal = legal_ids(view)
        if len(legal) == 1:
            return legal[0]
        p, _ = self.model(game).decide(game, view, legal)
        return choose(p, legal, self.temperature, rng)


def card_head(game: Game, options: Mapping[str, Any], hidden: Sequence[int]) -> dict[str, Any]:
    """What every card says first, whatever trained the model: the game and player count, its
    options, the observation shape and action count, the hidden widths and bodoge's version."""
    import bodoge

    return {
        "game": game.name,
        "players": game.num_players,
        "options": dict(options),
        "observation_shape": list(game.observation_shape),
        "num_actions": game.num_actions,
        "hidden": list(hidden),
        "bodoge_version": bodoge.__version__,
    }


def save(path: Path, params: Mapping[str, np.ndarray], card: Mapping[str, Any]) -> dict[str, Any]:
    """Write the weights to `path` (.npz) and the card beside it (.json) with the weights' sha256;
    each file is written whole under a temporary name, then renamed, so a reader never sees half a
    model. Returns the card as written."""
    path = Path(path).with_suffix(".npz")
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.stem + ".partial.npz")
    arrays = {k: np.asarray(v, np.float32) for k, v in params.items()}
    np.savez_compressed(partial, **arrays)  # type: ignore[arg-type]
    written = {"format": MODEL_FORMAT, **card, "sha256": file_sha256(partial)}
    card_partial = path.with_name(path.stem + ".partial.json")
    card_partial.write_text(json.dumps(written, indent=1, sort_keys=False) + "\n")
    partial.replace(path)
    card_partial.replace(path.with_suffix(".json"))
    _load.cache_clear()  # a path may now hold other weights
    return written
