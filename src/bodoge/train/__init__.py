"""`bodoge train`: self-play networks by expert iteration (the `nn` agent's models).

    bodoge train troika --players 4 --iterations 6 --games 40 --out runs/troika-4p

Each iteration:
1. **self-play**: `games` games with every seat played by the expert, each decision recorded as the
   seat saw it (`selfplay`). Iteration 1 uses `bootstrap` (default the game's heuristic: fast, so the
   first network learns from many games); the later ones use `expert` (default a short ISMCTS),
   guided by the network of the iteration before as `guide` says (`prior=nn`, `value=nn`, both);
2. **learning**: the network is fitted on the samples of the last `window` iterations: its policy to
   the expert's choices, its value to the final win shares (`learn`, JAX); or, with `--expert ppo`,
   the network plays the games itself and learns from their outcomes (`ppo`);
3. **measuring**: `nn` (its best move) against n − 1 heuristics on `eval_deals` fixed deals, each
   played once with the network in every seat; its win share with a 95% interval over deals.

Every iteration ends with a checkpoint in `out` (the model of that iteration, its samples, the
history), so an interrupted run continues with `resume`. A run may start from the weights of a model
(`start`, e.g. a shipped one): its first iteration is then played by the expert, with no bootstrap.
The run writes `model.npz` + `model.json` (the latest model and its card), `report.md`,
`report.html` and the plots.

`--expert nfsp` is another kind of run: OpenSpiel's Neural Fictitious Self-Play, every seat learning
from scratch, its average policy exported as the model (`bodoge.train.nfsp`; the CLI sends it there).
"""

from __future__ import annotations

import json
import random
import resource
import shutil
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import bodoge
from bodoge import agents
from bodoge.agents import nn
from bodoge.analysis.values import rollout_policy
from bodoge.arena.match import play_match
from bodoge.arena.stats import clustered_mean_ci
from bodoge.core.game import Game
from bodoge.errors import BadOption, is_int_in
from bodoge.train import ppo
from bodoge.train.lookahead import Teaching, is_lookahead
from bodoge.train.ppo import Improving, is_ppo
from bodoge.train.selfplay import Samples, play

CHECKPOINT_FORMAT = "bodoge-train/1"
GUIDES = ("none", "prior", "value", "both")
MAX_ITERATIONS = 1000
MAX_GAMES = 100_000
RESUMABLE = ("iterations", "window")  # the settings a resumed run may change


@dataclass
class TrainConfig:
    """Everything that decides a training run (kept in its checkpoint; a resumed run must match,
    except that `iterations` may grow and `window` may change: it only decides which samples the
    iterations still to come learn from, and each iteration records its own)."""

    game: str
    players: int
    iterations: int = 4
    games: int = 40
    bootstrap: str = "heuristic"
    expert: str = "ismcts:iterations=100"
    guide: str = "prior"
    hidden: list[int] = field(default_factory=lambda: [128, 128])
    epochs: int = 8
    batch: int = 256
    lr: float = 1e-3
    window: int = 3
    eval_deals: int = 30
    seed: int = 1
    options: dict[str, Any] = field(default_factory=dict)
    bootstrap_games: int | None = None  # games of the first iteration (default: `games`)
    start: str | None = None  # a model whose weights the run starts from (no bootstrap iteration)

    def games_of(self, iteration: int) -> int:
        if iteration == 1 and self.start is None and self.bootstrap_games is not None:
            return self.bootstrap_games
        return self.games

    def check(self) -> Game:
        """The game, after every setting is checked (BadOption naming the first bad one)."""
        game = bodoge.make(self.game, self.players, **self.options)  # BadOption: unknown game, count
        for name, value, low, high in (
            ("iterations", self.iterations, 1, MAX_ITERATIONS),
            ("games", self.games, 1, MAX_GAMES),
            ("epochs", self.epochs, 1, 1000),
            ("batch", self.batch, 1, 65536),
            ("window", self.window, 1, MAX_ITERATIONS),
            ("eval_deals", self.eval_deals, 0, 100_000),
            ("seed", self.seed, 0, 2**31),
            (
                "bootstrap_games",
                self.games if self.bootstrap_games is None else self.bootstrap_games,
                1,
                MAX_GAMES,
            ),
        ):
            if not is_int_in(value, low, high):
                raise BadOption(name, value, f"an integer from {low} to {high}")
        if not self.hidden or not all(is_int_in(h, 1, 4096) for h in self.hidden):
            raise BadOption("hidden", self.hidden, "layer widths from 1 to 4096, e.g. 128,128")
        if not isinstance(self.lr, float | int) or not 0 < self.lr < 1:
            raise BadOption("lr", self.lr, "a learning rate above 0 and below 1")
        if self.guide not in GUIDES:
            raise BadOption("guide", self.guide, ", ".join(GUIDES))
        if is_lookahead(self.bootstrap) != is_lookahead(self.expert):
            raise BadOption(
                "expert" if is_lookahead(self.bootstrap) else "bootstrap",
                self.expert if is_lookahead(self.bootstrap) else self.bootstrap,
                "lookahead for both --bootstrap and --expert, or for neither",
                "a network learns either the teacher's values or an agent's choices",
            )
        if is_ppo(self.bootstrap):
            raise BadOption(
                "bootstrap",
                self.bootstrap,
                "an agent or lookahead",
                "ppo needs a network to play: --expert ppo",
            )
        if is_ppo(self.expert):
            if Improving.parse(self.expert).model is not None:
                raise BadOption(
                    "expert",
                    self.expert,
                    ppo.FORM,
                    "the network that plays is the last iteration's (--start for the first): no model=",
                )
            if self.window != 1:
                raise BadOption(
                    "window", self.window, "1 with --expert ppo", "it learns from its own policy's games only"
                )
        if self.start is not None:
            self._check_start(game)
        for key in ("bootstrap", "expert"):
            spec = getattr(self, key)
            if is_ppo(spec):
                continue
            if is_lookahead(spec):
                rollout_policy(game, Teaching.parse(spec).rollout)  # BadOption: a bad setting or policy
                continue
            agent = agents.make(spec)
            if getattr(agent, "uses_nn", False) or agents.parse_spec(spec)[0] == "nn":
                raise BadOption(key, spec, "an agent that does not use a network (--guide adds ours)")
            check = getattr(agent, "check", None)
            if check is not None:
                check(game)
        return game

    def _check_start(self, game: Game) -> None:
        """BadOption unless `start` is a model for `game` with the run's hidden layers."""
        if not isinstance(self.start, str) or not self.start.strip():
            raise BadOption("start", self.start, "the path of a model's .npz")
        model = nn.model_for(game, self.start)  # BadOption: missing, corrupt, another game or observation
        widths = [w.shape[1] for w, _ in model.trunk]
        if widths != list(self.hidden):
            raise BadOption(
                "hidden",
                ",".join(map(str, self.hidden)),
                f"the hidden layers of --start: {','.join(map(str, widths))}",
            )

    def expert_of(self, iteration: int, model: Path | None) -> str:
        """The spec that plays iteration `iteration` (1-based), guided by `model` (the last one; for
        the first, `start`, if any: then there is no bootstrap)."""
        if model is None and iteration == 1 and self.start is not None:
            model = Path(self.start)
        if model is None:
            return self.bootstrap
        spec = self.expert
        if is_ppo(spec):
            return spec + ("," if ":" in spec else ":") + f"model={model}"
        if self.guide == "none" or agents.parse_spec(spec)[0] != "ismcts":
            return spec
        extra = {"prior": ["prior=nn"], "value": ["value=nn"], "both": ["prior=nn", "value=nn"]}[self.guide]
        return spec + ("," if ":" in spec else ":") + ",".join([*extra, f"model={model}"])


def method(guide: str, expert: str = "") -> str:
    """How a run learns, in words, for the model card."""
    if is_ppo(expert):
        settings = Improving.parse(expert)
        achieved = "win shares" if settings.lam == 1 else f"λ-returns (λ = {settings.lam:g})"
        return (
            "ppo: the network plays (drawing its moves) against "
            + ("the heuristic in every other seat" if settings.against == "heuristic" else "itself")
            + f"; its policy is fitted by PPO to its games' {achieved} less its value's expectation"
            + (
                f", {settings.explore:g} of its moves drawn uniformly among the legal ones (the ratio "
                "taken to that mixture)"
                if settings.explore
                else ""
            )
            + f"; the value predicts the final win shares ({expert})"
        )
    if is_lookahead(expert):
        return (
            "lookahead: the policy fits the heuristic's move shifted toward the moves that a teacher "
            "who sees every hand values higher (each legal move, then the heuristic's play to the end, "
            f"on the true deal; {expert}); the value predicts the final win shares"
        )
    how = (
        "the expert after the first iteration searches without the network"
        if guide == "none"
        else f"the expert after the first iteration searches with the network ({guide})"
    )
    return (
        "expert iteration: the policy imitates the expert's choices, the value predicts the final "
        f"win shares; {how}"
    )


def _cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def strength(game: Game, spec: str, deals: int, seed: int) -> dict[str, Any]:
    """`spec` in one seat against n − 1 heuristics, each of `deals` deals played once with it in every
    seat: its win share with a 95% interval over deals (clustered), and the fair share 1/n."""
    n = game.num_players
    ours = agents.make(spec)
    other = agents.make("heuristic")
    pairs = []
    for d in range(deals):
        for seat in range(n):
            lineup = [ours if s == seat else other for s in range(n)]
            rngs = [random.Random(f"eval:{seed + d}:{seat}:{s}") for s in range(n)]
            result = play_match(game, lineup, seed + d, rngs=rngs)
            pairs.append((d, result.returns[seat]))
    est = clustered_mean_ci(pairs)
    return {**est.to_json(), "fair": 1.0 / n, "games": len(pairs)}


CHUNK_GAMES = 1_000  # self-play games a worker process plays and sends back at a time


def _play_chunks(config: TrainConfig, expert: str, seeds: list[int], jobs: int) -> Samples:
    play_games = ppo.play if is_ppo(expert) else play
    if jobs <= 1 or len(seeds) < 2:
        return play_games(config.game, config.players, config.options, expert, seeds, config.seed)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # Process i's share is seeds[i::jobs], as ever, played in pieces of CHUNK_GAMES games that join
    # in the same order: the samples and their order are what one piece per share gave, while a
    # process holds (and sends back) one piece's decisions at a time, not its whole share. (50,000
    # Hangover lookahead games are 3.4 GB of samples: held twice in each process, and once more here
    # as they arrived, they outgrew a 24 GB machine.)
    chunks = [
        share[start : start + CHUNK_GAMES]
        for share in (seeds[i::jobs] for i in range(jobs))
        for start in range(0, len(share), CHUNK_GAMES)
    ]
    # spawned, not forked: this process has started JAX's threads by now, and a fork copies their locks
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        parts = list(
            pool.map(
                play_games,
                *zip(
                    *[
                        (config.game, config.players, config.options, expert, chunk, config.seed)
                        for chunk in chunks
                    ],
                    strict=True,
                ),
            )
        )
    return Samples.join(parts)


def _read_checkpoint(out: Path) -> dict[str, Any] | None:
    path = out / "checkpoint.json"
    if not path.is_file():
        return None
    data: dict[str, Any] = json.loads(path.read_text())
    if data.get("format") != CHECKPOINT_FORMAT:
        raise BadOption("resume", str(out), f"a folder of a bodoge train run ({CHECKPOINT_FORMAT})")
    return data


def _write_json(path: Path, data: Any) -> None:
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(data, indent=1) + "\n")
    partial.replace(path)


def run(
    config: TrainConfig,
    out: Path,
    resume: bool = False,
    force: bool = False,
    jobs: int = 1,
    on_step: Callable[[str, int, int], None] | None = None,
    plots: bool = True,
) -> list[dict[str, Any]]:
    """Train as `config` says into `out` (see the module docstring) and return the history, one dict
    per iteration. `on_step(what, iteration, iterations)` is called as each phase starts."""
    game = config.check()
    if not is_int_in(jobs, 1, 256):
        raise BadOption("jobs", jobs, "an integer from 1 to 256")
    from bodoge.train.learn import fit, init_params, require_jax

    require_jax()
    history: list[dict[str, Any]] = []
    params: dict[str, np.ndarray] | None = None
    checkpoint = _read_checkpoint(out) if out.exists() else None
    if checkpoint is not None and not force:
        if not resume:
            raise BadOption("out", str(out), "a new folder, --resume to continue the run in it, or --force")
        old = dict(checkpoint["config"])
        new = asdict(config)
        diff = [
            f"{k}: {old.get(k)!r} in the run, {new[k]!r} now"
            for k in new
            if k not in RESUMABLE and old.get(k) != new[k]
        ]
        if diff:
            raise BadOption("resume", str(out), "the same settings as the run there", "; ".join(diff))
        # A run from before the policy layouts has one output per action id: it cannot go on where
        # the game's policy reads actions relative to the observer (even with as many outputs).
        outputs, relative = checkpoint.get("policy_size"), nn.reads_relative(game)
        older = outputs is None and relative
        if older or (outputs is not None and outputs != nn.policy_size(game)):
            read = ", actions read relative to the observer" if relative else ""
            raise BadOption(
                "resume",
                str(out),
                f"a run whose network has the game's policy: {nn.policy_size(game)} outputs{read}",
                (
                    "its network reads the actions by their ids (trained before the relative policy)"
                    if older
                    else f"its network has {outputs} outputs"
                )
                + ": start a new run",
            )
        history = list(checkpoint["history"])
        for h in history:  # written before iterations recorded their window: the run's, then
            h.setdefault("window", old.get("window"))
        if history:
            params = _weights(out / history[-1]["model"])
    elif force and out.exists():
        for name in ("checkpoint.json", "models", "samples"):
            target = out / name
            if target.is_dir():
                shutil.rmtree(target)
            elif target.exists():
                target.unlink()
    out.mkdir(parents=True, exist_ok=True)
    obs_size = int(np.prod(game.observation_shape))
    if params is None and config.start is not None:
        params = _weights(Path(config.start))
    if params is None:
        params = init_params(obs_size, config.hidden, nn.policy_size(game), game.num_players, config.seed)
    for iteration in range(len(history) + 1, config.iterations + 1):
        started, cpu0 = time.perf_counter(), _cpu_seconds()
        last_model = out / history[-1]["model"] if history else None
        expert = config.expert_of(iteration, last_model)
        if on_step:
            on_step(f"self-play ({expert})", iteration, config.iterations)
        # every iteration's deals are new: they start after all the deals before
        base = config.seed * 1_000_003 + sum(config.games_of(i) for i in range(1, iteration))
        fresh = _play_chunks(config, expert, list(range(base, base + config.games_of(iteration))), jobs)
        samples_dir = out / "samples"
        samples_dir.mkdir(exist_ok=True)
        np.savez_compressed(samples_dir / f"iter-{iteration:03d}.npz", **fresh.arrays())  # type: ignore[arg-type]
        played = time.perf_counter()
        parts = [fresh]
        for back in range(iteration - 1, max(0, iteration - config.window), -1):
            parts.append(Samples.load(samples_dir / f"iter-{back:03d}.npz"))
        data = Samples.join(parts)
        if on_step:
            on_step(f"learning ({len(data):,} decisions)", iteration, config.iterations)
        teaching = Teaching.parse(config.expert) if is_lookahead(config.expert) else None
        improving = Improving.parse(config.expert) if data.kind == "outcomes" else None
        params, metrics = fit(
            params,
            data,
            config.epochs,
            config.batch,
            float(config.lr),
            config.seed + iteration,
            teaching=teaching,
            improving=improving,
        )
        learned = time.perf_counter()
        model_rel = f"models/iter-{iteration:03d}.npz"
        card = _card(config, game, history, iteration, len(fresh), expert)
        nn.save(out / model_rel, params, card)
        if on_step:
            on_step("measuring against the heuristic", iteration, config.iterations)
        measured = (
            strength(game, f"nn:model={out / model_rel}", config.eval_deals, 10_000_000 + config.seed)
            if config.eval_deals
            else None
        )
        entry = {
            "iteration": iteration,
            "expert": expert,
            "games": config.games_of(iteration),
            "new_samples": len(fresh),
            "samples": len(data),
            "window": config.window,
            **metrics,
            "strength": measured,
            "selfplay_seconds": round(played - started, 2),
            "learn_seconds": round(learned - played, 2),
            "eval_seconds": round(time.perf_counter() - learned, 2),
            "cpu_seconds": round(_cpu_seconds() - cpu0, 2),
            "model": model_rel,
        }
        history.append(entry)
        final = _card(config, game, history, iteration, len(fresh), expert)
        nn.save(out / model_rel, params, final)  # its card now with its own time and strength
        nn.save(out / "model.npz", params, final)
        _write_json(
            out / "checkpoint.json",
            {
                "format": CHECKPOINT_FORMAT,
                "config": asdict(config),
                "policy_size": nn.policy_size(game),
                "history": history,
            },
        )
        from bodoge.train.report import write_report

        write_report(out, config, history, plots=plots)
    return history


def _weights(path: Path) -> dict[str, np.ndarray]:
    with np.load(path) as data:
        return {k: np.asarray(data[k], np.float32) for k in data.files}


def started_from(start: str | None) -> dict[str, Any] | None:
    """What the card of the model a run started from says of it (its checksum, how it was trained and
    how strong it was), so that a card tells the whole training; None without `start`."""
    if start is None:
        return None
    card = nn.load(start).card
    return {key: card.get(key) for key in ("sha256", "training", "strength")}


def _card(
    config: TrainConfig,
    game: Game,
    history: list[dict[str, Any]],
    iteration: int,
    new_samples: int,
    expert: str,
) -> dict[str, Any]:
    """The model card (without the checksum, which `nn.save` adds)."""
    done = [h for h in history if h["iteration"] <= iteration]
    last = done[-1] if done and done[-1]["iteration"] == iteration else None
    return {
        **nn.card_head(game, config.options, config.hidden),
        "policy_size": nn.policy_size(game),
        "training": {
            "method": method(config.guide, config.expert),
            "iterations": iteration,
            "games": [h["games"] for h in done]
            if last
            else [*(h["games"] for h in done), config.games_of(iteration)],
            "bootstrap": config.bootstrap,
            "start": config.start,
            "started_from": started_from(config.start),
            "expert": config.expert,
            "guide": config.guide,
            "last_expert": expert,
            "samples": sum(h["new_samples"] for h in done)
            if last
            else sum(h["new_samples"] for h in done) + new_samples,
            "epochs": config.epochs,
            "lr": config.lr,
            "window": config.window,
            "windows": [h["window"] for h in done] if last else [*(h["window"] for h in done), config.window],
            "seed": config.seed,
            "cpu_seconds": round(sum(h["cpu_seconds"] for h in done), 1),
            "wall_seconds": round(
                sum(h["selfplay_seconds"] + h["learn_seconds"] + h["eval_seconds"] for h in done), 1
            ),
        },
        "strength": last["strength"] if last else None,
    }
