"""`bodoge train` at a tiny size: self-play, learning, the model and its card, the report, resuming."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

import bodoge
from bodoge import agents
from bodoge.agents import nn
from bodoge.cli import app
from bodoge.errors import BadOption
from bodoge.train import TrainConfig, method, run
from bodoge.train.selfplay import play, win_shares_from

TINY = {
    "games": 1,
    "bootstrap_games": 2,
    "epochs": 1,
    "hidden": [8],
    "eval_deals": 1,
    "expert": "ismcts:iterations=4",
}


def test_self_play_records_each_seat_as_it_saw_the_game() -> None:
    samples = play("tottarot", 3, {}, "heuristic", [11], agent_seed=1)
    game = bodoge.make("tottarot", 3)
    assert samples.obs.shape[1:] == game.observation_shape
    assert samples.mask.shape[1] == nn.policy_size(game)
    assert all(samples.mask[i, a] for i, a in enumerate(samples.action))  # the expert's move was legal
    assert samples.mask.sum(axis=1).min() >= 2  # forced moves are left out
    assert abs(float(samples.value.sum(axis=1).mean()) - 1) < 1e-6
    assert win_shares_from([0.0, 1.0, 0.0], 1) == [1.0, 0.0, 0.0]  # slot 0 is the decider
    assert win_shares_from([0.5, 0.0, 0.5], 2) == [0.5, 0.5, 0.0]
    assert win_shares_from([0.0, 0.0, 0.0], 0) == [1 / 3] * 3


def test_train_writes_model_report_checkpoint_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "run"
    seen: list[str] = []
    first = run(TrainConfig("troika", 3, iterations=1, **TINY), out, on_step=lambda w, i, n: seen.append(w))
    assert len(first) == 1 and seen[0].startswith("self-play (heuristic)")
    for name in (
        "model.npz",
        "model.json",
        "checkpoint.json",
        "report.md",
        "report.html",
        "curves.png",
        "strength.png",
        "models/iter-001.npz",
    ):
        assert (out / name).is_file(), name
    card = json.loads((out / "model.json").read_text())
    game = bodoge.make("troika", 3)
    assert card["observation_shape"] == list(game.observation_shape)
    assert card["num_actions"] == game.num_actions and card["training"]["iterations"] == 1
    assert card["sha256"] == nn.file_sha256(out / "model.npz")
    with pytest.raises(BadOption, match="--resume"):
        run(TrainConfig("troika", 3, iterations=2, **TINY), out)
    with pytest.raises(BadOption, match="epochs: 1 in the run, 2 now"):
        run(TrainConfig("troika", 3, iterations=2, **{**TINY, "epochs": 2}), out, resume=True)
    both = run(TrainConfig("troika", 3, iterations=2, **TINY), out, resume=True)
    assert both[0] == first[0]  # the first iteration is kept, not replayed
    assert both[1]["expert"].startswith("ismcts:iterations=4,prior=nn,model=")
    assert json.loads((out / "model.json").read_text())["training"]["iterations"] == 2
    assert "| 2 |" in (out / "report.md").read_text()
    # the trained model plays
    bot = agents.make(f"nn:model={out / 'model.npz'}")
    state = game.new_state(seed=3)
    while not state.is_terminal:
        state.apply(bot.act(game, state.lazy_view(state.current_player), random.Random(0)))


def test_searched_games_alone_the_recipe_of_the_strongest_models(tmp_path: Path) -> None:
    """`--guide none` and a window narrower than the run (docs/models.md, the shipped Tottarot and
    Troika models): the later iterations' expert searches without the network, and each learns
    from its own searched games only, starting from the weights before; the card says so."""
    config = TrainConfig("tottarot", 3, iterations=2, guide="none", window=1, **TINY)
    history = run(config, tmp_path / "run", plots=False)
    assert history[0]["expert"] == "heuristic"
    assert history[1]["expert"] == "ismcts:iterations=4"  # no prior=nn, no model
    assert history[1]["samples"] == history[1]["new_samples"] > 0  # the heuristic's games left out
    card = json.loads((tmp_path / "run" / "model.json").read_text())
    assert card["training"]["method"].endswith("searches without the network")
    assert card["training"]["guide"] == "none" and card["training"]["last_expert"] == "ismcts:iterations=4"


def test_a_resumed_run_may_widen_its_window_and_says_so(tmp_path: Path) -> None:
    """The window only decides what the iterations still to come learn from: a resumed run may change
    it (so the heuristic's games can leave it after more searched games than first planned), and
    the card and the report say which iterations learned with which."""
    out = tmp_path / "run"
    run(TrainConfig("tottarot", 3, iterations=2, guide="none", window=1, **TINY), out, plots=False)
    checkpoint = json.loads((out / "checkpoint.json").read_text())
    for h in checkpoint["history"]:  # as a run written before iterations recorded their window
        del h["window"]
    (out / "checkpoint.json").write_text(json.dumps(checkpoint))
    history = run(
        TrainConfig("tottarot", 3, iterations=4, guide="none", window=2, **TINY),
        out,
        resume=True,
        plots=False,
    )
    assert [h["window"] for h in history] == [1, 1, 2, 2]
    assert history[2]["samples"] == history[2]["new_samples"] + history[1]["new_samples"]
    card = json.loads((out / "model.json").read_text())
    assert card["training"]["windows"] == [1, 1, 2, 2] and card["training"]["window"] == 2
    report = (out / "report.md").read_text()
    assert "the last 1 iteration (iterations 1–2), then 2 (3–4)." in report
    with pytest.raises(BadOption, match="epochs: 1 in the run, 3 now"):  # other settings still must match
        run(
            TrainConfig("tottarot", 3, iterations=5, guide="none", window=2, **{**TINY, "epochs": 3}),
            out,
            resume=True,
        )


def test_self_play_records_moves_as_the_policy_reads_them() -> None:
    """Tokkuri's targets are its tokkuri slots (bodoge.agents.nn): the expert's choice is recorded as
    the output the network will play it by."""
    game = bodoge.make("tokkuri", 3)
    samples = play("tokkuri", 3, {}, "heuristic", [5], agent_seed=2)
    assert samples.mask.shape[1] == nn.policy_size(game) < game.num_actions
    assert all(samples.mask[i, a] for i, a in enumerate(samples.action))
    assert samples.mask[:, : game.num_players * game.options["hand_size"]].any()  # targets were chosen


def test_a_run_of_another_policy_layout_is_not_resumed(tmp_path: Path) -> None:
    """A run from before the relative policy (no `policy_size` in its checkpoint) goes on where the game
    has no other layout (Troika), and is refused where it has (Tottarot, even with as many outputs)."""
    for name, goes_on in (("troika", True), ("tottarot", False)):
        out = tmp_path / name
        run(TrainConfig(name, 3, iterations=1, **TINY), out, plots=False)
        checkpoint = json.loads((out / "checkpoint.json").read_text())
        assert checkpoint["policy_size"] == nn.policy_size(bodoge.make(name, 3))
        del checkpoint["policy_size"]
        (out / "checkpoint.json").write_text(json.dumps(checkpoint))
        if goes_on:
            assert len(run(TrainConfig(name, 3, iterations=2, **TINY), out, resume=True, plots=False)) == 2
        else:
            with pytest.raises(BadOption, match=r"reads the actions by their ids .*start a new run"):
                run(TrainConfig(name, 3, iterations=2, **TINY), out, resume=True, plots=False)
            assert len(json.loads((out / "checkpoint.json").read_text())["history"]) == 1  # nothing changed
    checkpoint = json.loads((tmp_path / "troika" / "checkpoint.json").read_text())
    checkpoint["policy_size"] = 99
    (tmp_path / "troika" / "checkpoint.json").write_text(json.dumps(checkpoint))
    with pytest.raises(BadOption, match="its network has 99 outputs: start a new run"):
        run(TrainConfig("troika", 3, iterations=3, **TINY), tmp_path / "troika", resume=True, plots=False)


def test_train_refuses_bad_settings(tmp_path: Path) -> None:
    with pytest.raises(BadOption, match="guide"):
        TrainConfig("troika", 3, guide="policy").check()
    with pytest.raises(BadOption, match="does not use a network"):
        TrainConfig("troika", 3, expert="ismcts:prior=nn").check()
    result = CliRunner().invoke(
        app, ["train", "troika", "--players", "3", "--hidden", "0", "--out", str(tmp_path)]
    )
    assert result.exit_code == 2 and "hidden" in result.output
    assert not any(tmp_path.iterdir())  # refused before anything was written


def test_train_command_runs(tmp_path: Path) -> None:
    args = [
        "train",
        "tottarot",
        "-p",
        "3",
        "--iterations",
        "1",
        "--games",
        "1",
        "--epochs",
        "1",
        "--hidden",
        "8",
        "--eval-deals",
        "1",
        "--no-progress",
        "--no-plots",
        "--out",
        str(tmp_path / "r"),
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "iteration 1:" in result.output and (tmp_path / "r" / "model.npz").is_file()


def test_train_command_trains_a_variant_and_says_so(tmp_path: Path) -> None:
    """--set: every game of the run is the variant's, and the checkpoint, the card and the report say
    which; a resumed run must name the same options, and bad ones are refused before anything is written."""
    tiny = ["-p", "3", "--iterations", "1", "--games", "1", "--epochs", "1", "--hidden", "8"]
    tiny += ["--eval-deals", "1", "--no-progress", "--no-plots"]
    out = tmp_path / "r"
    result = CliRunner().invoke(app, ["train", "hangover", "--set", "hand_size=5", *tiny, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert json.loads((out / "checkpoint.json").read_text())["config"]["options"] == {"hand_size": 5}
    assert json.loads((out / "model.json").read_text())["options"] == {"hand_size": 5}
    assert (out / "report.md").read_text().startswith("# Training report: hangover, 3 players, hand_size=5\n")
    # self-play deals the variant: the same seed plays another game than the default's
    variant = play("hangover", 3, {"hand_size": 5}, "heuristic", [3], agent_seed=1)
    default = play("hangover", 3, {}, "heuristic", [3], agent_seed=1)
    assert variant.action.tolist() != default.action.tolist()
    again = [*tiny[:2], "--iterations", "2", *tiny[4:], "--out", str(out), "--resume"]
    result = CliRunner().invoke(app, ["train", "hangover", *again])
    assert result.exit_code == 2 and "options" in result.output and "hand_size" in result.output
    assert len(json.loads((out / "checkpoint.json").read_text())["history"]) == 1  # nothing changed
    for bad, says in (
        (["--set", "hand_size=99"], "hand_size"),
        (["--set", "nosuch=1"], "no such option"),
        (["--set", "hand_size=5", "--set", "hand_size=6"], "given twice"),
        (["--set", "hand_size"], "name=value"),
    ):
        result = CliRunner().invoke(app, ["train", "hangover", *bad, *tiny, "--out", str(tmp_path / "x")])
        assert result.exit_code == 2 and says in result.output, (bad, result.output)
    assert not (tmp_path / "x").exists()


def test_the_lookahead_teacher_values_each_move_by_playing_it_out_from_the_true_state() -> None:
    from bodoge.analysis.values import play_out, rollout_policy
    from bodoge.train.lookahead import Lookahead

    game = bodoge.make("hangover", 3)
    state = game.new_state(seed=5)
    quick = rollout_policy(game, "auto")
    while len(state.legal_actions()) < 3:  # a decision with a choice
        state.apply(quick(state, random.Random(0)))  # type: ignore[misc]
    legal = state.legal_actions()
    before = state.to_record()
    teacher = Lookahead(game, "lookahead")
    outcomes = teacher.returns(state, legal, random.Random(9))
    assert state.to_record() == before  # the live game is untouched
    luck = random.Random(9).getrandbits(64)
    for a, returns in zip(legal, outcomes, strict=True):
        s = state.clone()
        s.apply(a)
        assert returns == play_out(s, quick, random.Random(luck))  # from the true state, on the same luck
        assert all(0 <= r <= 1 for r in returns)


def test_self_play_with_the_lookahead_records_the_values_of_the_legal_moves() -> None:
    samples = play("tottarot", 3, {}, "lookahead", [11], agent_seed=1)
    heuristic = play("tottarot", 3, {}, "heuristic", [11], agent_seed=1)
    assert samples.q is not None and heuristic.q is None
    assert samples.q.shape == samples.mask.shape
    assert (samples.q[~samples.mask] == 0).all() and samples.q.min() >= 0 and samples.q.max() <= 1
    assert samples.mask[range(len(samples)), samples.action].all()  # the move the game went on by
    assert (samples.obs[0] == heuristic.obs[0]).all()  # the same deal, seen alike


def test_a_run_with_the_lookahead_learns_values_and_resumes(tmp_path: Path) -> None:
    settings = {**TINY, "bootstrap": "lookahead", "expert": "lookahead:rollout=quick"}
    out = tmp_path / "la"
    run(TrainConfig("hangover", 3, iterations=1, **settings), out, plots=False)
    history = run(TrainConfig("hangover", 3, iterations=2, **settings), out, resume=True, plots=False)
    assert [h["expert"] for h in history] == ["lookahead", "lookahead:rollout=quick"]
    assert history[1]["samples"] == history[0]["new_samples"] + history[1]["new_samples"]
    card = json.loads((out / "model.json").read_text())
    assert card["training"]["method"].startswith("lookahead")
    game = bodoge.make("hangover", 3)
    nn.load(out / "model.npz").check(game)
    state = game.new_state(seed=3)
    bot = agents.make(f"nn:model={out / 'model.npz'}")
    assert bot.act(game, state.view(state.current_player), random.Random(1)) in state.legal_actions()


def test_the_lookahead_shifts_the_heuristics_move_where_the_values_say_so() -> None:
    """The heuristic plays move 0; move 1 is better by a fifth of a win share where the first feature
    is positive, and the values of every move share noise as large (the hidden cards). The network
    keeps the heuristic's move where nothing is gained, and takes move 1 where it is; with a large
    bonus it keeps the heuristic's move everywhere."""
    import numpy as np

    from bodoge.train.learn import fit, init_params
    from bodoge.train.lookahead import Teaching
    from bodoge.train.selfplay import Samples

    rng = np.random.default_rng(0)
    n, actions = 2000, 5
    obs = rng.standard_normal((n, 6)).astype(np.float32)
    mask = np.ones((n, actions), bool)
    mask[:, 4] = False
    better = obs[:, 0] > 0
    q = rng.uniform(0, 0.5, (n, 1)).astype(np.float32) + np.zeros((n, actions), np.float32)
    q[:, 2:] -= 0.1
    q[better, 1] += 0.2
    q[~mask] = 0
    heuristic = np.zeros(n, np.int64)
    data = Samples(obs, mask, heuristic, np.full((n, 3), 1 / 3, np.float32), q)

    def best_moves(teaching: Teaching) -> np.ndarray:
        params, _ = fit(init_params(6, [16], actions, 3, 1), data, 30, 64, 3e-3, 1, teaching=teaching)
        logits = np.maximum(obs @ params["w0"] + params["b0"], 0) @ params["wp"] + params["bp"]
        return np.asarray(logits[:, :4].argmax(axis=1))

    moves = best_moves(Teaching(temperature=0.1, bonus=1.0))
    assert (moves[better] == 1).mean() > 0.9 and (moves[~better] == 0).mean() > 0.9
    assert (best_moves(Teaching(temperature=0.1, bonus=4.0)) == 0).mean() > 0.9


def test_the_lookahead_is_refused_beside_an_agent_and_with_a_bad_rollout() -> None:
    with pytest.raises(BadOption, match="lookahead for both --bootstrap and --expert"):
        TrainConfig("hangover", 3, bootstrap="lookahead").check()
    with pytest.raises(BadOption, match="lookahead for both --bootstrap and --expert"):
        TrainConfig("hangover", 3, expert="lookahead").check()
    with pytest.raises(BadOption, match="rollout"):
        TrainConfig("hangover", 3, bootstrap="lookahead:rollout=fast", expert="lookahead").check()
    with pytest.raises(BadOption, match="unknown parameter 'depth'"):
        TrainConfig("hangover", 3, bootstrap="lookahead:depth=2", expert="lookahead").check()
    for bad in ("temperature=0", "temperature=nan", "temperature=x", "bonus=-1", "bonus=true"):
        with pytest.raises(BadOption, match=r"temperature|bonus"):
            TrainConfig("hangover", 3, bootstrap="lookahead", expert=f"lookahead:{bad}").check()


def _tiny_model(tmp_path: Path, game: str = "hangover", players: int = 3) -> Path:
    """A network of TINY's shape, from one iteration of the heuristic's games."""
    out = tmp_path / f"start-{game}-{players}"
    run(TrainConfig(game, players, iterations=1, **TINY), out, plots=False)
    return out / "model.npz"


def test_ppo_records_the_networks_own_moves_and_their_probabilities(tmp_path: Path) -> None:
    import numpy as np

    from bodoge.train import ppo
    from bodoge.train.selfplay import Samples

    model = _tiny_model(tmp_path)
    net = nn.load(model)
    spec = f"ppo:model={model}"
    samples = ppo.play("hangover", 3, {}, spec, [7], agent_seed=1)
    assert samples.kind == "outcomes" and samples.behaviour is not None and samples.q is None
    assert samples.mask[range(len(samples)), samples.action].all()  # drawn among the legal moves
    assert samples.mask.sum(axis=1).min() >= 2
    for i in range(len(samples)):  # the log-probability of the move under the policy that drew it
        outputs = list(np.flatnonzero(samples.mask[i]))
        p, _ = net.evaluate(samples.obs[i], outputs)
        assert abs(float(np.log(p[outputs.index(samples.action[i])])) - samples.behaviour[i]) < 1e-5
    again = ppo.play("hangover", 3, {}, spec, [7], agent_seed=1)
    assert (again.action == samples.action).all()  # deterministic for a given seed
    # against the heuristic one seat (the deal's number modulo n) is the network: its hand alone
    seats = play("hangover", 3, {}, "heuristic", [7], agent_seed=1)
    assert len(samples) < len(seats)
    everyone = ppo.play("hangover", 3, {}, spec + ",against=self", [7], agent_seed=1)
    assert len(everyone) > len(samples)
    assert abs(float(everyone.value.sum(axis=1).mean()) - 1) < 1e-6
    with pytest.raises(ValueError, match="cannot be joined"):
        Samples.join([samples, seats])


def test_ppo_explores_with_the_mixture_it_records(tmp_path: Path) -> None:
    """`explore=X`: each move is drawn from (1 − X) · policy + X · uniform, and the log-probability
    recorded for PPO's ratio is that mixture's; at 0 the games are the plain policy's, move for move."""
    import numpy as np

    from bodoge.train import ppo

    model = _tiny_model(tmp_path)
    net = nn.load(model)
    spec = f"ppo:model={model},against=self"
    plain = ppo.play("hangover", 3, {}, spec, [7, 8], agent_seed=1)
    none = ppo.play("hangover", 3, {}, spec + ",explore=0", [7, 8], agent_seed=1)
    assert (none.action == plain.action).all() and np.allclose(none.behaviour, plain.behaviour)
    for share in (0.5, 1.0):
        samples = ppo.play("hangover", 3, {}, f"{spec},explore={share}", [7, 8], agent_seed=1)
        assert samples.mask[range(len(samples)), samples.action].all()
        for i in range(len(samples)):
            outputs = list(np.flatnonzero(samples.mask[i]))
            p, _ = net.evaluate(samples.obs[i], outputs)
            mixed = (1 - share) * p[outputs.index(samples.action[i])] + share / len(outputs)
            assert abs(float(np.log(mixed)) - samples.behaviour[i]) < 1e-5
    # the draws themselves are uniform at explore=1: the policy's best move as often as 1/k predicts
    uniform = ppo.play("hangover", 3, {}, f"{spec},explore=1", list(range(30)), agent_seed=1)
    best, chance = [], []
    for i in range(len(uniform)):
        outputs = list(np.flatnonzero(uniform.mask[i]))
        p, _ = net.evaluate(uniform.obs[i], outputs)
        best.append(outputs[int(np.argmax(p))] == uniform.action[i])
        chance.append(1 / len(outputs))
    assert len(best) > 200 and abs(np.mean(best) - np.mean(chance)) < 0.1


def test_ppo_makes_the_moves_that_won_more_than_expected_likelier() -> None:
    """A bandit: every move drawn at random (behaviour 1/4 each); move 1 wins where the first feature
    is positive, move 2 where it is not, the others never. PPO's fitted policy takes the winning move of
    each situation; without the clip's room (clip small, few passes) it moves less."""
    import numpy as np

    from bodoge.train.learn import fit, init_params
    from bodoge.train.ppo import Improving
    from bodoge.train.selfplay import Samples

    rng = np.random.default_rng(0)
    n, actions = 4000, 4
    obs = rng.standard_normal((n, 6)).astype(np.float32)
    mask = np.ones((n, actions), bool)
    drawn = rng.integers(0, actions, n)
    first = obs[:, 0] > 0
    won = np.where(first, drawn == 1, drawn == 2).astype(np.float32)
    value = np.stack([won, (1 - won) / 2, (1 - won) / 2], axis=1).astype(np.float32)
    behaviour = np.full(n, np.log(1 / actions), np.float32)
    data = Samples(obs, mask, drawn.astype(np.int64), value, behaviour=behaviour)

    def policy(improving: Improving, epochs: int) -> np.ndarray:
        params, metrics = fit(
            init_params(6, [16], actions, 3, 1), data, epochs, 64, 3e-3, 1, improving=improving
        )
        assert metrics["policy_loss"] == metrics["policy_loss"]  # not nan
        logits = np.maximum(obs @ params["w0"] + params["b0"], 0) @ params["wp"] + params["bp"]
        p = np.exp(logits - logits.max(axis=1, keepdims=True))
        return np.asarray(p / p.sum(axis=1, keepdims=True))

    p = policy(Improving(clip=0.5, entropy=0.0), 20)
    assert (p[first].argmax(axis=1) == 1).mean() > 0.9 and (p[~first].argmax(axis=1) == 2).mean() > 0.9
    timid = policy(Improving(clip=0.02, entropy=0.0), 1)
    assert timid[first, 1].mean() < p[first, 1].mean()
    with pytest.raises(ValueError, match="ppo's settings"):
        fit(init_params(6, [16], actions, 3, 1), data, 1, 64, 3e-3, 1)


def test_lambda_returns_chain_each_seats_decisions_to_its_own_next_one() -> None:
    from bodoge.train.ppo import lambda_returns

    seats, expected = [0, 1, 0, 0], [0.3, 0.5, 0.4, 0.6]
    final = [1.0, 0.0, 1.0, 1.0]  # seat 0 won, seat 1 lost
    assert lambda_returns(seats, expected, final, 1.0) == final  # every decision credited with the end
    assert lambda_returns(seats, expected, final, 0.0) == [0.4, 0.0, 0.6, 1.0]  # the seat's next estimate
    # λ = 0.5: G3 = 1; G2 = 0.5·0.6 + 0.5·1 = 0.8; G0 = 0.5·0.4 + 0.5·0.8 = 0.6; seat 1 decided once
    assert lambda_returns(seats, expected, final, 0.5) == pytest.approx([0.6, 0.0, 0.8, 1.0])
    assert lambda_returns([], [], [], 0.5) == []
    # the card says what the advantage was measured from
    assert "games' λ-returns (λ = 0.5) less" in method("prior", "ppo:lambda=0.5")
    assert "games' win shares less" in method("prior", "ppo")
    assert "0.1 of its moves drawn uniformly" in method("prior", "ppo:explore=0.1")
    assert "uniformly" not in method("prior", "ppo")


def test_ppo_with_lambda_records_each_decisions_return_and_learns_from_it(tmp_path: Path) -> None:
    import numpy as np

    from bodoge.train import ppo
    from bodoge.train.learn import fit, init_params
    from bodoge.train.ppo import Improving
    from bodoge.train.selfplay import Samples

    model = _tiny_model(tmp_path)
    plain = ppo.play("hangover", 3, {}, f"ppo:model={model}", [7, 8], agent_seed=1)
    assert plain.outcome is None  # lambda 1: the final win share, value[:, 0]
    spec = f"ppo:model={model},lambda=0.5,against=self"
    samples = ppo.play("hangover", 3, {}, spec, [7, 8], agent_seed=1)
    assert samples.outcome is not None and samples.outcome.shape == (len(samples),)
    assert ((samples.outcome >= 0) & (samples.outcome <= 1)).all()
    assert not np.allclose(samples.outcome, samples.value[:, 0])  # the value head's estimates weigh in
    saved = tmp_path / "samples.npz"
    np.savez(saved, **samples.arrays())
    assert (Samples.load(saved).outcome == samples.outcome).all()
    with pytest.raises(ValueError, match="'outcome' cannot be joined"):
        Samples.join([samples, plain])
    none = ppo.play("hangover", 3, {}, spec, [], agent_seed=1)  # a process left no games: joins the rest
    assert len(none) == 0 and (Samples.join([none, samples]).outcome == samples.outcome).all()

    # a bandit whose final outcomes are noise and whose λ-returns say which move wins: PPO follows them
    rng = np.random.default_rng(0)
    n, actions = 4000, 4
    obs = rng.standard_normal((n, 6)).astype(np.float32)
    drawn = rng.integers(0, actions, n)
    won = (drawn == 3).astype(np.float32)
    noise = rng.random(n).astype(np.float32)
    value = np.stack([noise, (1 - noise) / 2, (1 - noise) / 2], axis=1).astype(np.float32)
    behaviour = np.full(n, np.log(1 / actions), np.float32)
    data = Samples(obs, np.ones((n, actions), bool), drawn.astype(np.int64), value, behaviour=behaviour)
    for outcome, best in ((won, 3), (None, None)):
        params, _ = fit(
            init_params(6, [16], actions, 3, 1),
            replace(data, outcome=outcome),
            20,
            64,
            3e-3,
            1,
            improving=Improving(clip=0.5, entropy=0.0),
        )
        logits = np.maximum(obs @ params["w0"] + params["b0"], 0) @ params["wp"] + params["bp"]
        share = (logits.argmax(axis=1) == 3).mean()
        assert share > 0.9 if best == 3 else share < 0.6


def test_a_ppo_run_starts_from_a_model_learns_from_its_own_games_and_resumes(tmp_path: Path) -> None:
    start = _tiny_model(tmp_path)
    settings = {**TINY, "games": 3, "expert": "ppo", "window": 1, "start": str(start)}
    out = tmp_path / "ppo"
    first = run(TrainConfig("hangover", 3, iterations=1, **settings), out, plots=False)
    assert first[0]["expert"] == f"ppo:model={start}"  # no bootstrap: the start model plays
    assert first[0]["games"] == 3
    history = run(TrainConfig("hangover", 3, iterations=2, **settings), out, resume=True, plots=False)
    assert history[1]["expert"] == f"ppo:model={out / 'models/iter-001.npz'}"
    assert history[1]["samples"] == history[1]["new_samples"]  # its own policy's games only
    card = json.loads((out / "model.json").read_text())
    assert card["training"]["method"].startswith("ppo") and card["training"]["start"] == str(start)
    last = json.loads((out / "models/iter-002.json").read_text())  # an iteration's card is final too
    assert last["strength"] == history[1]["strength"]
    final, iteration = nn.load(out / "model.npz"), nn.load(out / "models/iter-002.npz")
    assert all((a == b).all() for a, b in zip(final.trunk[0], iteration.trunk[0], strict=True))
    assert last["training"]["cpu_seconds"] == round(sum(h["cpu_seconds"] for h in history), 1)
    begun = json.loads(start.with_suffix(".json").read_text())
    assert card["training"]["started_from"]["sha256"] == begun["sha256"]  # the whole training, told
    assert card["training"]["started_from"]["training"]["bootstrap"] == "heuristic"
    game = bodoge.make("hangover", 3)
    nn.load(out / "model.npz").check(game)
    # from nothing: the heuristic's games first, then the network's own
    scratch = run(
        TrainConfig("hangover", 3, iterations=2, **{**settings, "start": None}), tmp_path / "s", plots=False
    )
    assert [h["expert"].split(":")[0] for h in scratch] == ["heuristic", "ppo"]


def test_ppo_and_start_are_refused_where_they_cannot_work(tmp_path: Path) -> None:
    start = _tiny_model(tmp_path)
    ok = {"expert": "ppo", "window": 1, "hidden": [8]}
    TrainConfig("hangover", 3, **ok).check()
    with pytest.raises(BadOption, match="its own policy's games only"):
        TrainConfig("hangover", 3, **{**ok, "window": 3}).check()
    with pytest.raises(BadOption, match="no model="):
        TrainConfig("hangover", 3, **{**ok, "expert": f"ppo:model={start}"}).check()
    with pytest.raises(BadOption, match="needs a network to play"):
        TrainConfig("hangover", 3, **{**ok, "bootstrap": "ppo"}).check()
    bad_ones = (
        "against=random",
        "clip=0",
        "clip=2",
        "entropy=-1",
        "entropy=x",
        "lambda=1.5",
        "lambda=-0.1",
        "explore=1.5",
        "explore=-0.1",
        "explore=all",
        "depth=1",
    )
    for bad in bad_ones:
        with pytest.raises(BadOption, match=r"against|clip|entropy|lambda|explore|unknown parameter"):
            TrainConfig("hangover", 3, **{**ok, "expert": f"ppo:{bad}"}).check()
    with pytest.raises(BadOption, match="hidden layers of --start: 8"):
        TrainConfig("hangover", 3, **{**ok, "hidden": [16], "start": str(start)}).check()
    for hidden in ([True], [8, 2.0], [0]):  # from Python: a bool is no layer width (True was taken for 1)
        with pytest.raises(BadOption, match="hidden"):
            TrainConfig("hangover", 3, **{**ok, "hidden": hidden}).check()
    with pytest.raises(BadOption, match=r"missing\.npz"):
        TrainConfig("hangover", 3, **{**ok, "start": str(tmp_path / "missing.npz")}).check()
    with pytest.raises(BadOption):  # a model of another game
        TrainConfig("tottarot", 3, **{**ok, "start": str(start)}).check()
    result = CliRunner().invoke(
        app,
        ["train", "hangover", "-p", "3", "--expert", "ppo", "--window", "2", "--out", str(tmp_path / "x")],
    )
    assert result.exit_code == 2 and "window" in result.output
    assert not (tmp_path / "x").exists()
    for lr in ("0", "1", "nan", "-0.1"):
        result = CliRunner().invoke(
            app, ["train", "hangover", "-p", "3", "--lr", lr, "--out", str(tmp_path / "x")]
        )
        assert result.exit_code == 2 and "lr" in result.output, lr
    assert not (tmp_path / "x").exists()


def test_self_play_in_processes_plays_the_same_games() -> None:
    """--jobs splits the deals among spawned processes (not forked: JAX's threads are running by
    then); the decisions are the same, in another order."""
    import numpy as np

    from bodoge.train import _play_chunks

    config = TrainConfig("hangover", 3, **TINY)
    one = _play_chunks(config, "heuristic", [3, 4, 5], jobs=1)
    two = _play_chunks(config, "heuristic", [3, 4, 5], jobs=2)
    assert len(one) == len(two) > 0

    assert sorted(map(bytes, np.concatenate([one.obs, one.value], axis=1))) == sorted(
        map(bytes, np.concatenate([two.obs, two.value], axis=1))
    )
    assert sorted(one.action.tolist()) == sorted(two.action.tolist())


def test_self_play_in_pieces_keeps_each_process_share_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """A process plays its share in pieces of CHUNK_GAMES games (so that it never holds a whole
    share's samples); the pieces join into exactly what the whole shares gave: share 0, then share 1."""
    import numpy as np

    import bodoge.train as train
    from bodoge.train.selfplay import Samples, play

    config = TrainConfig("hangover", 3, **TINY)
    monkeypatch.setattr(train, "CHUNK_GAMES", 1)
    seeds = [3, 4, 5, 6, 7]
    pieces = train._play_chunks(config, "heuristic", seeds, jobs=2)
    shares = Samples.join(
        [
            play(config.game, config.players, config.options, "heuristic", seeds[i::2], config.seed)
            for i in (0, 1)
        ]
    )
    for key, array in shares.arrays().items():
        assert np.array_equal(pieces.arrays()[key], array), key
