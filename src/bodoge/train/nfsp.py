"""Neural Fictitious Self-Play (NFSP, Heinrich and Silver 2016) with OpenSpiel's JAX agent, exported
as a model of the `nn` agent: a learned baseline that no teacher of ours shaped.

    bodoge train hangover --players 3 --expert nfsp --games 600 --iterations 1 --out runs/nfsp-hangover-3p
    bodoge train troika --players 4 --expert nfsp:anticipatory=0.1,epsilon=0.06 --games 200 --iterations 2

Every seat is an `open_spiel.python.jax.nfsp.NFSP` agent over our OpenSpiel registration
(`bodoge_<game>`, `bodoge.rl.openspiel_adapter`), played through OpenSpiel's `rl_environment` with
the chance events (the deal, every draw) sampled by the environment. Each agent keeps two networks: a
best response (DQN, ε-greedy, learning the win share that a move leads to) and an average policy,
fitted to the moves its best response made (a reservoir of them). At the start of each episode an
agent plays its best response with probability `anticipatory`, otherwise its average policy; the
average policies are what fictitious play converges with, so they are the model: after each
iteration (`games` episodes) seat 0's average network becomes `model.npz` + `model.json`.

**An approximation.** NFSP's guarantee is over information states (perfect recall: everything the seat
saw, in order). The networks here see the observation tensor of the seat's view (`observation_tensor`,
what the `nn` agent sees when it plays), which holds the seat's hand, the table and the public record the
game keeps, but not every earlier observation. Two information states with one observation share
one policy; that is what lets the model be played by `nn`, and it is what the information-state tensor
(48-91 OpenSpiel steps/s) could not afford. The sizes we train at are also far from convergence
(docs/benchmark.md, "Baselines").

**The export.** OpenSpiel's average network is an MLP (`dqn.MLP`: ReLU hidden layers, a linear output
per action id); its softmax over the legal actions is the policy. The `nn` format holds it as it is: the
hidden layers as the trunk (`w0, b0, …`), the output layer as the policy head (`wp, bp`), over the
absolute action ids (the card has no `policy_size`, so `nn` reads the outputs by action id, as OpenSpiel
does). NFSP learns no value of a position; the value head is all zeros, so `value=nn` reads every
seat's share as 1/n (the card says so). `policy_equals` checks that `nn` plays what the JAX network plays.

Needs the `baselines` extra (flax, chex, orbax-checkpoint, etils: what OpenSpiel's JAX agents import).
"""

from __future__ import annotations

import json
import os
import platform
import resource
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

import bodoge
from bodoge import agents
from bodoge.agents import nn
from bodoge.core.game import Game
from bodoge.errors import BadOption, BodogeError, is_int_in, is_number_in

NAME = "nfsp"
FORM = "nfsp or nfsp:anticipatory=A,epsilon=E,sl_lr=S,rl_lr=R,learn_every=K,min_buffer=M,reservoir=C"
SPEC_SETTINGS = ("anticipatory", "epsilon", "sl_lr", "rl_lr", "learn_every", "min_buffer", "reservoir")
MAX_EPISODES = 10_000_000
MAX_BUFFER = 1_000_000  # transitions of one agent's reservoir or replay buffer (each an observation)
MAX_BUFFER_FLOATS = 1 << 28  # 1 GiB of float32 per buffer: the capacity times the observation size


def is_nfsp(spec: str) -> bool:
    return isinstance(spec, str) and agents.parse_spec(spec)[0] == NAME


def require() -> None:
    """A clear error unless OpenSpiel's JAX NFSP can be imported (the `baselines` extra)."""
    try:
        import flax.nnx  # noqa: F401
        import pyspiel  # noqa: F401
        from open_spiel.python.jax import nfsp  # noqa: F401
    except ImportError as exc:
        raise BodogeError(
            "--expert nfsp needs OpenSpiel's JAX agents: pip install 'bodoge[baselines]' "
            f"(open_spiel, jax, flax, chex, orbax-checkpoint, etils; missing: {exc.name})"
        ) from None


@dataclass
class NFSPConfig:
    """Everything that decides an NFSP run. `iterations` × `games` episodes in all, the model exported
    and measured after each iteration. The settings after `seed` are OpenSpiel's (`NFSP`, `DQN`):
    `anticipatory` the share of episodes played by the best response, `epsilon` its exploration at
    the start (decaying exponentially toward `epsilon_end`, by 1/e in `epsilon_decay` of the agent's steps), `sl_lr` and `rl_lr` the
    learning rates of the average network and the best response (SGD, as OpenSpiel's examples),
    `learn_every` the agent's own steps between updates, `min_buffer` the transitions a buffer holds
    before the first update, `reservoir` and `replay` the buffers' capacities."""

    game: str
    players: int
    iterations: int = 1
    games: int = 500
    hidden: list[int] = field(default_factory=lambda: [128, 128])
    seed: int = 1
    eval_deals: int = 20
    options: dict[str, Any] = field(default_factory=dict)
    anticipatory: float = 0.1
    epsilon: float = 0.06
    epsilon_end: float = 0.001
    sl_lr: float = 0.01
    rl_lr: float = 0.01
    batch: int = 128
    learn_every: int = 16
    min_buffer: int = 256
    reservoir: int = 20_000
    replay: int = 20_000
    update_target_every: int = 1000
    epsilon_decay: int = 100_000

    @classmethod
    def from_spec(cls, spec: str, **settings: Any) -> NFSPConfig:
        """The config of `--expert nfsp:…` with the run's other settings (`settings`)."""
        _, params = agents.parse_spec(spec)
        unknown = sorted(set(params) - set(SPEC_SETTINGS))
        if unknown:
            raise BadOption("expert", spec, FORM, f"unknown parameter {unknown[0]!r}")
        return cls(**settings, **params)

    @property
    def episodes(self) -> int:
        return self.iterations * self.games

    def check(self) -> Game:
        """The game, after every setting is checked (BadOption naming the first bad one)."""
        game = bodoge.make(self.game, self.players, **self.options)  # BadOption: unknown game, count
        for name, value, low, high in (
            ("iterations", self.iterations, 1, 1000),
            ("games", self.games, 1, MAX_EPISODES),
            ("seed", self.seed, 0, 2**31),
            ("eval_deals", self.eval_deals, 0, 100_000),
            ("batch", self.batch, 1, 65536),
            ("learn_every", self.learn_every, 1, 100_000),
            ("min_buffer", self.min_buffer, 1, MAX_BUFFER),
            ("reservoir", self.reservoir, 1, MAX_BUFFER),
            ("replay", self.replay, 1, MAX_BUFFER),
            ("update_target_every", self.update_target_every, 1, 10_000_000),
            ("epsilon_decay", self.epsilon_decay, 1, 1_000_000_000),
        ):
            if not is_int_in(value, low, high):
                raise BadOption(name, value, f"an integer from {low} to {high}")
        if self.episodes > MAX_EPISODES:
            raise BadOption(
                "games", self.games, f"at most {MAX_EPISODES:,} episodes in all (iterations × games)"
            )
        if not self.hidden or not all(is_int_in(h, 1, 4096) for h in self.hidden):
            raise BadOption("hidden", self.hidden, "layer widths from 1 to 4096, e.g. 128,128")
        size = int(np.prod(game.observation_shape))
        for name, capacity in (("reservoir", self.reservoir), ("replay", self.replay)):
            if capacity * size > MAX_BUFFER_FLOATS:
                raise BadOption(
                    name,
                    capacity,
                    f"at most {MAX_BUFFER_FLOATS // size:,} transitions for {game.name} "
                    f"({size} floats an observation; 1 GiB a buffer)",
                )
        if self.min_buffer > min(self.reservoir, self.replay):
            raise BadOption("min_buffer", self.min_buffer, "at most the buffers' capacities")
        for share, number, top in (
            ("anticipatory", self.anticipatory, 1.0),
            ("epsilon", self.epsilon, 1.0),
            ("epsilon_end", self.epsilon_end, self.epsilon),  # ε decays toward it, from `epsilon`
        ):
            if not is_number_in(number, 0.0, top):
                raise BadOption(share, number, f"a number from 0 to {top:g}")
        for rate, number in (("sl_lr", self.sl_lr), ("rl_lr", self.rl_lr)):
            if not is_number_in(number, 0, 1) or number in (0, 1):
                raise BadOption(rate, number, "a learning rate above 0 and below 1")
        if not isinstance(self.options, dict):
            raise BadOption("options", self.options, "a dict of the game's options")
        return game


def spiel_game(config: NFSPConfig) -> Any:
    """Our OpenSpiel registration of the config's game, player count and options."""
    import pyspiel

    from bodoge.rl.openspiel_adapter import register_openspiel

    register_openspiel()
    params: dict[str, Any] = {"players": config.players}
    if config.options:
        params["options"] = json.dumps(config.options)
    return pyspiel.load_game(f"bodoge_{config.game}", params)


def environment(config: NFSPConfig) -> Any:
    """OpenSpiel's `rl_environment` over the observation tensor (what `nn` sees), chance seeded."""
    from open_spiel.python import rl_environment

    env = rl_environment.Environment(
        spiel_game(config), observation_type=rl_environment.ObservationType.OBSERVATION
    )
    env.seed(config.seed)
    return env


def make_agents(config: NFSPConfig, size: int, actions: int) -> list[Any]:
    """One OpenSpiel NFSP agent a seat, each with its own seed."""
    import jax.numpy as jnp
    from open_spiel.python.jax import nfsp

    made = []
    for seat in range(config.players):
        agent = nfsp.NFSP(
            seat,
            size,
            actions,
            list(config.hidden),
            reservoir_buffer_capacity=config.reservoir,
            anticipatory_param=float(config.anticipatory),
            batch_size=config.batch,
            rl_learning_rate=float(config.rl_lr),
            sl_learning_rate=float(config.sl_lr),
            min_buffer_size_to_learn=config.min_buffer,
            learn_every=config.learn_every,
            optimizer_str="sgd",
            seed=config.seed * 1009 + seat,
            allow_checkpointing=False,
            replay_buffer_capacity=config.replay,
            update_target_network_every=config.update_target_every,
            epsilon_start=float(config.epsilon),
            epsilon_end=float(config.epsilon_end),
            epsilon_decay_duration=config.epsilon_decay,
            discount_factor=1.0,
        )
        # OpenSpiel makes the reservoir at the first best-response step but learns from it every
        # `learn_every` steps: an agent that has played only its average policy so far would fail on
        # the missing buffer. An empty one of the right shapes learns nothing until `min_buffer`.
        template = nfsp.Transition(
            info_state=jnp.zeros(size, jnp.float32),
            action_probs=jnp.zeros(actions, jnp.float32),
            legal_actions_mask=jnp.zeros(actions, jnp.bool_),
        )
        agent._reservoir_buffer = nfsp.ReservoirBuffer.init(config.reservoir, template)
        made.append(agent)
    return made


def play_episode(env: Any, seats: list[Any]) -> int:
    """One training episode (every agent learning); the number of decisions played."""
    step = env.reset()
    decisions = 0
    while not step.last():
        seat = step.observations["current_player"]
        out = seats[seat].step(step)
        step = env.step([int(out.action)])
        decisions += 1
    for agent in seats:  # each agent sees the end: its last transition and its return
        agent.step(step)
    return decisions


def export_params(agent: Any, players: int) -> dict[str, np.ndarray]:
    """The average-policy network of an OpenSpiel NFSP agent as `nn` weights, with a value head of
    zeros for `players` seats (module docstring)."""
    from flax import nnx

    layers = []
    for block in agent._avg_network.model.layers:  # dqn.MLP: Sequential(Linear, activation) each
        linear = next(m for m in block.layers if isinstance(m, nnx.Linear))
        assert linear.bias is not None, "OpenSpiel's MLP layers have biases"
        layers.append((np.asarray(linear.kernel[...], np.float32), np.asarray(linear.bias[...], np.float32)))
    *trunk, (wp, bp) = layers
    params = {}
    for i, (w, b) in enumerate(trunk):
        params[f"w{i}"], params[f"b{i}"] = w, b
    params["wp"], params["bp"] = wp, bp
    params["wv"] = np.zeros((wp.shape[0], players), np.float32)
    params["bv"] = np.zeros(players, np.float32)
    return params


def jax_policy(agent: Any, obs: np.ndarray, legal: list[int]) -> np.ndarray:
    """The probabilities OpenSpiel's average network gives the actions `legal` (in their order)."""
    import jax.numpy as jnp
    from flax import nnx

    mask = np.zeros(agent._num_actions, bool)
    mask[legal] = True
    key = agent._next_rng_key()  # `_act` draws an action too; only its probabilities are read
    _, _, probs = agent._act(nnx.state(agent._avg_network), key, jnp.asarray(obs), jnp.asarray(mask))
    return np.asarray(probs, np.float64)[legal]


def machine() -> str:
    """What trained the model, for its card: the cores, the system and JAX's device."""
    import jax

    return f"{os.cpu_count()} CPU cores, {platform.system()} {platform.machine()}, JAX on {jax.default_backend()}"


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


def card(
    config: NFSPConfig, game: Game, done: int, steps: int, wall: float, cpu: float, measured: Any
) -> dict[str, Any]:
    """The model card (without the checksum, which `nn.save` adds)."""
    settings = asdict(config)
    for key in ("game", "players", "options", "hidden", "eval_deals"):
        settings.pop(key)
    return {
        **nn.card_head(game, config.options, config.hidden),
        "training": {
            "method": (
                "nfsp: OpenSpiel's JAX NFSP (open_spiel.python.jax.nfsp), every seat an agent, over "
                "the observation tensor (not perfect-recall information states: an approximation); "
                "the model is seat 0's average-policy network, over the action ids; no value "
                "(the value head is zeros: every seat 1/n)"
            ),
            "episodes": done,
            "decisions": steps,
            **settings,
            "open_spiel_version": metadata.version("open_spiel"),
            "flax_version": metadata.version("flax"),
            "jax_version": metadata.version("jax"),
            "wall_seconds": round(wall, 1),
            "cpu_seconds": round(cpu, 1),
            "machine": machine(),
        },
        "strength": measured,
    }


def run(
    config: NFSPConfig,
    out: Path,
    force: bool = False,
    on_step: Callable[[str, int, int], None] | None = None,
    on_agents: Callable[[list[Any], Any], None] | None = None,
) -> list[dict[str, Any]]:
    """Train as `config` says, writing `out/model.npz` + `model.json` after every iteration (and
    `out/history.json`); returns the history, one dict per iteration. `on_agents(agents, env)` is
    called at the end with the OpenSpiel agents and environment (the tests compare policies)."""
    game = config.check()
    require()
    if out.exists() and (out / "model.npz").exists() and not force:
        raise BadOption("out", str(out), "a folder without a model, or --force")
    from bodoge.train import strength

    env = environment(config)
    size = int(env.observation_spec()["info_state"][0])
    actions = int(env.action_spec()["num_actions"])
    if size != int(np.prod(game.observation_shape)) or actions != game.num_actions:
        raise AssertionError("the OpenSpiel game's observation or actions are not the engine's")
    seats = make_agents(config, size, actions)
    out.mkdir(parents=True, exist_ok=True)
    history: list[dict[str, Any]] = []
    wall = cpu = 0.0  # the training's time, not the measuring's
    steps = 0
    for iteration in range(1, config.iterations + 1):
        if on_step:
            on_step(f"nfsp ({config.games} episodes)", iteration, config.iterations)
        t0, cpu0 = time.perf_counter(), cpu_seconds()
        for _ in range(config.games):
            steps += play_episode(env, seats)
        played = time.perf_counter()
        params = export_params(seats[0], config.players)
        wall, cpu = wall + played - t0, cpu + cpu_seconds() - cpu0
        done = iteration * config.games
        nn.save(out / "model.npz", params, card(config, game, done, steps, wall, cpu, None))
        if on_step and config.eval_deals:
            on_step("measuring against the heuristic", iteration, config.iterations)
        measured = (
            strength(game, f"nn:model={out / 'model.npz'}", config.eval_deals, 10_000_000 + config.seed)
            if config.eval_deals
            else None
        )
        nn.save(out / "model.npz", params, card(config, game, done, steps, wall, cpu, measured))
        loss = seats[0].loss[0]
        history.append(
            {
                "iteration": iteration,
                "episodes": done,
                "decisions": steps,
                "sl_loss": None if loss is None else float(loss),
                "strength": measured,
                "play_seconds": round(played - t0, 2),
                "eval_seconds": round(time.perf_counter() - played, 2),
            }
        )
        partial = out / "history.json.partial"
        partial.write_text(json.dumps({"config": asdict(config), "history": history}, indent=1) + "\n")
        partial.replace(out / "history.json")
    if on_agents:
        on_agents(seats, env)
    return history
