"""Observations at the engine's speed (issue #58): each game's `encode_state` (the tensor read from the
state) equals its `encode` of the view (the reference) bit for bit, everywhere; `observation_tensor`
fills a preallocated array; and `bodoge.rl.vector_env` steps n games as Gymnasium's vector API says,
as `SyncVectorEnv` over `gym_env` would, seed for seed."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import bodoge
import bodoge.rl
from bodoge.core.registry import game_class
from bodoge.errors import BadOption

gymnasium = pytest.importorskip("gymnasium", reason="the rl extra (gymnasium) is not installed")
from gymnasium.vector import AutoresetMode, SyncVectorEnv  # noqa: E402

CASES = [
    (name, players)
    for name in bodoge.games()
    for players in range(game_class(name).min_players, game_class(name).max_players + 1)
]
IDS = [f"{name}-{players}p" for name, players in CASES]

# Options that move the encodings' scales and slices away from the defaults.
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "hangover": [
        {"declaration": "secret"},
        {"declaration": "any_trick", "non_drinker_tricks": 1},
        {"non_drinker": False, "hangover_trick": 4},
    ],
    "tokkuri": [{"rounds": 2, "max_tokkuri": 5, "penalty_points": 0}, {"hand_size": 4, "tokkuri_level": 6}],
    "tottarot": [{"max_will": 2, "turns_per_round": 2, "target": 3}],
    "troika": [
        {"troika": False, "chips": (3, 0, -2), "rounds": 2},
        {
            "tile_counts": {**{n: 3 for n in range(1, 16)}, 7: 5, 15: 0},
            "hand_limit": 2,
        },  # a number with no tiles
    ],
}


def reference(state: bodoge.core.State, seat: int | None) -> np.ndarray:
    game = state.game
    out = np.zeros(game.observation_shape, dtype=np.float32)
    game.observation_module().encode(game, state.view(seat), out)
    return out


def fast(state: bodoge.core.State, seat: int | None) -> np.ndarray:
    game = state.game
    out = np.full(game.observation_shape, 7.0, dtype=np.float32)  # need not come zeroed
    game.observation_module().encode_state(game, state, seat, out)
    return out


def check_game(game: bodoge.core.Game, seed: int, sample_every: int = 7) -> int:
    """Plays one random game, comparing the two encodings for every seat and a spectator at every
    step, and on a determinization of the mover's view now and then; returns the positions seen."""
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    seats: list[int | None] = [*range(game.num_players), None]
    seen = 0
    while True:
        for seat in seats:
            want = reference(state, seat)
            got = fast(state, seat)
            assert got.tobytes() == want.tobytes(), (
                f"{game.name} {game.num_players}p seed {seed} move {len(state.history)} seat {seat}: "
                f"slots {np.flatnonzero(got != want)[:10].tolist()} differ"
            )
        seen += 1
        if state.is_terminal:
            return seen
        if seen % sample_every == 0:
            mover = state.current_player
            sampled = game.sample_state(state.view(mover), rng)
            assert fast(sampled, mover).tobytes() == reference(sampled, mover).tobytes()
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_the_fast_path_encodes_as_the_view_does(name: str, players: int) -> None:
    game = bodoge.make(name, players=players)
    assert sum(check_game(game, seed) for seed in (1, 2)) > 20


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_the_fast_path_holds_under_other_options(name: str) -> None:
    cls = game_class(name)
    tried = 0
    for options in VARIANTS[name]:
        for players in range(cls.min_players, cls.max_players + 1):
            try:
                game = bodoge.make(name, players=players, **options)
            except BadOption:
                continue
            check_game(game, seed=players, sample_every=11)
            tried += 1
    assert tried


def test_tokkuri_reads_its_log_right_for_many_games_at_once() -> None:
    # Tokkuri's tensor reads the log (the observer's tokkuri others emptied this round), which the
    # fast path keeps per game as it grows: more games at once than it first keeps, and on again.
    game = bodoge.make("tokkuri", players=3)
    rng = random.Random(8)
    states = [game.new_state(seed=seed) for seed in range(150)]
    for _ in range(3):
        for state in states:
            for _ in range(rng.randrange(5, 25)):
                if not state.is_terminal:
                    state.apply(rng.choice(state.legal_actions()))
            for seat in range(3):
                assert fast(state, seat).tobytes() == reference(state, seat).tobytes()


def test_troika_score_and_fuel_is_score_counts() -> None:
    from bodoge.games.troika.observation import score_and_fuel
    from bodoge.games.troika.scoring import score_counts

    rng = random.Random(5)
    for _ in range(3000):
        counts = [0] * 15
        for _ in range(rng.randint(1, 9)):
            counts[rng.randrange(15)] += rng.randint(1, 4)
        key = tuple(counts)
        assert score_and_fuel(key) == score_counts(key)[:2], key


@pytest.mark.parametrize("name", bodoge.games())
def test_observation_tensor_fills_a_preallocated_array(name: str) -> None:
    game = bodoge.make(name)
    state = game.new_state(seed=4)
    rng = random.Random(4)
    for _ in range(15):
        state.apply(rng.choice(state.legal_actions()))
    batch = np.full((3, *game.observation_shape), -5.0, dtype=np.float32)
    for seat, row in zip(range(game.num_players), batch, strict=False):
        filled = state.observation_tensor(seat, out=row)
        assert filled is row
        assert np.array_equal(row, state.observation_tensor(seat))
        assert np.array_equal(row, reference(state, seat))
    with pytest.raises(TypeError, match="float32"):
        state.observation_tensor(0, out=np.zeros(game.observation_shape, dtype=np.float64))
    with pytest.raises(BadOption):
        state.observation_tensor(game.num_players, out=batch[0])


# -- the vector environment ------------------------------------------------------------------------


def same(a: Any, b: Any) -> bool:
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, np.ndarray) and a.dtype == object:
        return all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.dtype == b.dtype and np.array_equal(a, b)
    return bool(a == b) if a is not None else b is None


def random_legal(masks: np.ndarray, gen: np.random.Generator) -> np.ndarray:
    return np.argmax(gen.random(masks.shape) * masks, axis=1)


@pytest.mark.parametrize("mode", list(AutoresetMode), ids=[m.value for m in AutoresetMode])
@pytest.mark.parametrize("name", bodoge.games())
def test_vector_env_is_sync_vector_env_of_gym_envs(name: str, mode: AutoresetMode) -> None:
    n = 3
    ours = bodoge.rl.vector_env(name, n, opponents="random", autoreset_mode=mode)
    theirs = SyncVectorEnv(
        [lambda: bodoge.rl.gym_env(name, opponents="random") for _ in range(n)], autoreset_mode=mode
    )
    assert ours.metadata["autoreset_mode"] == mode
    assert ours.observation_space == theirs.observation_space
    assert ours.action_space == theirs.action_space
    assert ours.single_observation_space == theirs.single_observation_space
    got, want = ours.reset(seed=9), theirs.reset(seed=9)
    assert same(got[0], want[0]) and same(got[1], want[1])
    gen = np.random.default_rng(9)
    infos = got[1]
    ended = 0
    for step in range(120):
        actions = random_legal(infos["action_mask"], gen)
        illegal = np.flatnonzero(infos["action_mask"][step % n] == 0)
        if step % 40 == 39 and illegal.size:  # now and then an illegal action: that game ends, −1
            actions[step % n] = int(illegal[0])
        got, want = ours.step(actions), theirs.step(actions.copy())
        for mine, sync in zip(got, want, strict=True):
            assert same(mine, sync), f"step {step}"
        infos = got[4]
        done = got[2] | got[3]
        ended += int(done.sum())
        if mode is AutoresetMode.DISABLED and done.any():
            got, want = (
                ours.reset(options={"reset_mask": done}),
                theirs.reset(options={"reset_mask": done.copy()}),
            )
            assert same(got[0], want[0]) and same(got[1], want[1])
            infos = {"action_mask": ours.action_masks()}
    assert ended > 0


def test_vector_env_batches_masks_and_autoresets() -> None:
    n = 4
    envs = bodoge.rl.vector_env("tottarot", n, opponents="random", players=3)
    shape = envs.single_observation_space.shape
    actions = envs.single_action_space.n
    obs, infos = envs.reset(seed=1)
    assert obs.shape == (n, *shape) and obs.dtype == np.float32 and envs.observation_space.contains(obs)
    gen = np.random.default_rng(1)
    ended_before = np.zeros(n, dtype=bool)
    episodes = 0
    for _ in range(200):
        masks = infos["action_mask"]
        assert masks.shape == (n, actions) and masks.dtype == np.int8
        for i, state in enumerate(envs.states):
            assert state is not None
            if not ended_before[i]:  # the mask of each game's position, its observation its seat's
                assert np.array_equal(masks[i], state.legal_mask())
                assert np.array_equal(obs[i], state.observation_tensor(0))
        obs, rewards, terminated, truncated, infos = envs.step(random_legal(masks, gen))
        assert rewards.shape == terminated.shape == truncated.shape == (n,)
        assert rewards.dtype == np.float64 and terminated.dtype == truncated.dtype == np.bool_
        assert not truncated.any()
        # next-step autoreset: the step after a game ends starts a new one, reward 0, not terminated
        assert not (terminated & ended_before).any() and (rewards[ended_before] == 0).all()
        assert (masks[terminated].sum(axis=1) > 0).all()
        for i in np.flatnonzero(terminated):
            assert 0.0 <= rewards[i] <= 1.0 and (infos["action_mask"][i] == 1).all()
        episodes += int(terminated.sum())
        ended_before = terminated
    assert episodes >= n


def test_vector_env_seeding_is_deterministic_and_returns_fresh_arrays() -> None:
    def run(seed: int) -> list[Any]:
        envs = bodoge.rl.vector_env("troika", 3, opponents="random")
        out: list[Any] = list(envs.reset(seed=seed))
        gen = np.random.default_rng(0)
        for _ in range(30):
            out.extend(envs.step(random_legal(out[-1]["action_mask"], gen)))  # out[-1]: the last infos
        return out

    a, b, c = run(3), run(3), run(4)
    assert all(same(x, y) for x, y in zip(a, b, strict=True))
    assert not all(same(x, y) for x, y in zip(a, c, strict=True))
    envs = bodoge.rl.vector_env("troika", 2, opponents="random")
    first = envs.reset(seed=0)
    second = envs.step(envs.action_masks().argmax(axis=1))
    assert first[0] is not second[0] and not np.shares_memory(first[0], second[0])
    assert not np.shares_memory(first[1]["action_mask"], second[4]["action_mask"])
    shared = bodoge.rl.vector_env("troika", 2, opponents="random", copy=False)
    assert shared.reset(seed=0)[0] is shared.step(shared.action_masks().argmax(axis=1))[0]


def test_vector_env_through_gymnasium() -> None:
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    from bodoge.rl.gymnasium_adapter import env_id

    envs = gymnasium.make_vec(
        env_id("hangover"), num_envs=2, vectorization_mode="vector_entry_point", opponents="random"
    )
    assert envs.observation_space.shape == (2, *bodoge.make("hangover").observation_shape)
    envs = RecordEpisodeStatistics(envs)
    _, infos = envs.reset(seed=2)
    gen = np.random.default_rng(2)
    finished = 0
    for _ in range(300):
        _, _, terminated, _, infos = envs.step(random_legal(infos["action_mask"], gen))
        finished += int(terminated.sum())
        if "episode" in infos:
            assert (infos["episode"]["r"][infos["_episode"]] >= 0).all()
    assert finished > 0
    with pytest.raises(BadOption):
        bodoge.rl.vector_env("troika", 0)
    with pytest.raises(BadOption):
        bodoge.rl.vector_env("troika", 2, autoreset_mode="sometimes")
