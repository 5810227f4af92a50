"""Fitting the network to self-play samples, with JAX and Optax (the `train` extra).

The network (see `bodoge.agents.nn`): a ReLU multilayer perceptron trunk and two linear heads. The
policy head is fitted to the expert's choices by cross-entropy over the legal actions (the others
masked out), or, from the lookahead teacher, to the heuristic's move shifted toward the moves the
teacher values higher (cross-entropy against that distribution, `bodoge.train.lookahead`), or, from the
network's own games, by PPO's clipped objective (`bodoge.train.ppo`); the value head to the final win
shares by cross-entropy against its softmax. Weights travel as NumPy arrays, so a model is saved,
loaded and played without JAX; JAX runs on whatever device it finds (a GPU where `jax[cuda]` is
installed, else the CPU).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bodoge.errors import BodogeError
from bodoge.train.lookahead import Teaching
from bodoge.train.ppo import Improving
from bodoge.train.selfplay import Samples

Params = dict[str, np.ndarray]


def require_jax() -> Any:
    """The jax module, or a clear error saying how to install it."""
    try:
        import jax
        import optax  # noqa: F401
    except ImportError:
        raise BodogeError(
            "bodoge train needs JAX and Optax: pip install 'bodoge[train]' (or jax optax)"
        ) from None
    return jax


def init_params(obs_size: int, hidden: list[int], actions: int, players: int, seed: int) -> Params:
    """He-initialised weights (biases zero) for the trunk `hidden` and the two heads."""
    rng = np.random.default_rng(seed)
    params: Params = {}
    width = obs_size
    for i, h in enumerate(hidden):
        params[f"w{i}"] = (rng.standard_normal((width, h)) * np.sqrt(2.0 / width)).astype(np.float32)
        params[f"b{i}"] = np.zeros(h, np.float32)
        width = h
    params["wp"] = (rng.standard_normal((width, actions)) * np.sqrt(1.0 / width)).astype(np.float32)
    params["bp"] = np.zeros(actions, np.float32)
    params["wv"] = (rng.standard_normal((width, players)) * np.sqrt(1.0 / width)).astype(np.float32)
    params["bv"] = np.zeros(players, np.float32)
    return params


def _losses(
    params: Any,
    obs: Any,
    mask: Any,
    action: Any,
    value: Any,
    q: Any,
    behaviour: Any,
    outcome: Any,
    depth: int,
    bonus: float,
    temperature: float,
    clip: float = 0.2,
    entropy: float = 0.0,
) -> Any:
    """Policy loss, value loss and the share of decisions whose best logit is the target's best move.
    For samples of choices (`q` and `behaviour` None) the target is the expert's `action`; for the
    lookahead's values (`q`) it is `action`, the heuristic's move, given `bonus`, shifted by value /
    `temperature`; for the network's own games (`behaviour`: the log-probability of `action` when it
    was drawn) the loss is PPO's: the ratio of the move's probability now to then, clipped to 1 ±
    `clip`, times its advantage (the decider's win share, or the λ-return `outcome` where the samples
    have one, less the value head's expectation, normalised over the batch), less `entropy` times the
    policy's entropy."""
    import jax
    import jax.numpy as jnp

    h = obs
    for i in range(depth):
        h = jax.nn.relu(h @ params[f"w{i}"] + params[f"b{i}"])
    logits = jnp.where(mask, h @ params["wp"] + params["bp"], -1e9)
    logp = jax.nn.log_softmax(logits)
    logv = jax.nn.log_softmax(h @ params["wv"] + params["bv"])
    if behaviour is not None:
        expected = jnp.exp(logv[:, 0])
        achieved = value[:, 0] if outcome is None else outcome
        advantage = jax.lax.stop_gradient(achieved - expected)
        advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-6)
        ratio = jnp.exp(jnp.take_along_axis(logp, action[:, None], axis=1)[:, 0] - behaviour)
        surrogate = jnp.minimum(ratio * advantage, jnp.clip(ratio, 1 - clip, 1 + clip) * advantage)
        spread = -jnp.where(mask, jnp.exp(logp) * logp, 0.0).sum(axis=1)
        policy_loss = -surrogate.mean() - entropy * spread.mean()
        best = action
    elif q is None:
        policy_loss = -jnp.take_along_axis(logp, action[:, None], axis=1).mean()
        best = action
    else:
        heuristic = jax.nn.one_hot(action, mask.shape[1])
        target = jax.nn.softmax(jnp.where(mask, bonus * heuristic + q / temperature, -1e9))
        policy_loss = -(target * jnp.where(mask, logp, 0.0)).sum(axis=1).mean()
        best = jnp.argmax(target, axis=1)
    accuracy = (jnp.argmax(logits, axis=1) == best).mean()
    value_loss = -(value * logv).sum(axis=1).mean()
    return policy_loss, value_loss, accuracy


def fit(
    params: Params,
    data: Samples,
    epochs: int,
    batch: int,
    lr: float,
    seed: int,
    holdout: float = 0.1,
    teaching: Teaching | None = None,
    improving: Improving | None = None,
    weight_decay: float = 1e-4,
) -> tuple[Params, dict[str, float]]:
    """Train `params` on `data` for `epochs` (Adam with weight decay), keeping `holdout` of the
    samples aside to measure; `teaching`: the lookahead's settings, for samples of its values;
    `improving`: ppo's, for samples of the network's own games. Returns the new weights and the final
    losses (train and held out)."""
    jax = require_jax()
    import jax.numpy as jnp
    import optax

    depth = sum(1 for k in params if k.startswith("w") and k[1:].isdigit())
    n = len(data)
    order = np.random.default_rng(seed).permutation(n)
    cut = int(n * holdout) if n >= 20 else 0
    test, train = order[:cut], order[cut:]
    tx = optax.adamw(lr, weight_decay=weight_decay)
    p = {k: jnp.asarray(v) for k, v in params.items()}
    state = tx.init(p)

    if data.q is not None and teaching is None:
        raise ValueError("samples of the lookahead's values need its settings (teaching)")
    if data.behaviour is not None and improving is None:
        raise ValueError("samples of the network's own games need ppo's settings (improving)")
    bonus, temperature = (teaching.bonus, teaching.temperature) if teaching is not None else (0.0, 1.0)
    clip, entropy = (improving.clip, improving.entropy) if improving is not None else (0.2, 0.0)

    def losses(p: Any, o: Any, m: Any, a: Any, v: Any, q: Any, b: Any, g: Any) -> Any:
        return _losses(p, o, m, a, v, q, b, g, depth, bonus, temperature, clip, entropy)

    def loss_fn(p: Any, o: Any, m: Any, a: Any, v: Any, q: Any, b: Any, g: Any) -> Any:
        pl, vl, _ = losses(p, o, m, a, v, q, b, g)
        return pl + vl

    @jax.jit
    def step(p: Any, state: Any, o: Any, m: Any, a: Any, v: Any, q: Any, b: Any, g: Any) -> Any:
        loss, grads = jax.value_and_grad(loss_fn)(p, o, m, a, v, q, b, g)
        updates, state = tx.update(grads, state, p)
        return optax.apply_updates(p, updates), state, loss

    measure = jax.jit(losses)

    def samples(part: np.ndarray) -> tuple[np.ndarray | None, ...]:
        """The samples `part` as `losses` takes them (after the weights)."""
        q = None if data.q is None else data.q[part]
        behaviour = None if data.behaviour is None else data.behaviour[part]
        outcome = None if data.outcome is None else data.outcome[part]
        return data.obs[part], data.mask[part], data.action[part], data.value[part], q, behaviour, outcome

    def evaluate(idx: np.ndarray) -> tuple[float, float, float]:
        if len(idx) == 0:
            return float("nan"), float("nan"), float("nan")
        totals = np.zeros(3)
        for s in range(0, len(idx), 4096):
            part = idx[s : s + 4096]
            out = measure(p, *samples(part))
            totals += np.asarray([float(x) for x in out]) * len(part)
        pl, vl, acc = totals / len(idx)
        return float(pl), float(vl), float(acc)

    shuffle = np.random.default_rng(seed + 1)
    size = max(1, min(batch, len(train)))
    for _ in range(epochs):
        perm = shuffle.permutation(train)
        for s in range(0, len(perm) - size + 1, size):
            part = perm[s : s + size]
            p, state, _ = step(p, state, *samples(part))
    train_pl, train_vl, train_acc = evaluate(train)
    test_pl, test_vl, test_acc = evaluate(test)
    out = {k: np.asarray(v, np.float32) for k, v in p.items()}
    metrics = {
        "policy_loss": train_pl,
        "value_loss": train_vl,
        "accuracy": train_acc,
        "heldout_policy_loss": test_pl,
        "heldout_value_loss": test_vl,
        "heldout_accuracy": test_acc,
    }
    return out, metrics
