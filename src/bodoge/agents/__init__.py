"""Game-agnostic agents and the registry of agent specs.

    bodoge.agents.make("random")
    bodoge.agents.make("ismcts", iterations=2000)
    bodoge.agents.make("ismcts:iterations=2000,rollout=heuristic")
    bodoge.agents.make("nn")                        # the shipped network for the game (bodoge train)
    bodoge.agents.make("heuristic:avoid=declare")   # counterfactual: any agent, some actions avoided

Every agent is `act(game, view, rng) -> int` and sees only `view(seat)`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from bodoge.agents import counterfactual
from bodoge.agents.base import Agent, legal_ids
from bodoge.agents.counterfactual import CounterfactualAgent
from bodoge.agents.heuristic import HeuristicAgent
from bodoge.agents.ismcts import ISMCTSAgent
from bodoge.agents.random_agent import RandomAgent
from bodoge.core.options import parse_text
from bodoge.errors import BadOption, BodogeError


def _nn_agent(**params: Any) -> Agent:
    """The `nn` agent, imported when first made (it needs NumPy, which the others do not load)."""
    from bodoge.agents.nn import NNAgent

    return NNAgent(**params)


_FACTORIES: dict[str, Callable[..., Agent]] = {
    "random": RandomAgent,
    "heuristic": HeuristicAgent,
    "ismcts": ISMCTSAgent,
    "nn": _nn_agent,
}


def register(name: str, factory: Callable[..., Agent]) -> None:
    _FACTORIES[name] = factory


def names() -> list[str]:
    return sorted(_FACTORIES)


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """'ismcts:iterations=2000,rollout=heuristic' -> ('ismcts', {'iterations': 2000, 'rollout': 'heuristic'})."""
    name, _, rest = spec.strip().partition(":")
    params: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise BadOption("agent", spec, "name or name:key=value,key=value", f"{part!r} is not key=value")
        params[key.strip()] = parse_text(value.strip())
    return name.strip(), params


def make(spec: str, **params: Any) -> Agent:
    """An agent from its name or spec string, with keyword parameters added. Any agent takes
    `prefer=` and `avoid=` besides its own parameters (`bodoge.agents.counterfactual`)."""
    name, parsed = parse_spec(spec)
    if name not in _FACTORIES:
        raise BadOption("agent", spec, "one of " + ", ".join(names()))
    parsed.update(params)
    wrapping = {k: parsed.pop(k) for k in counterfactual.PARAMETERS if k in parsed}
    try:
        inner = _FACTORIES[name](**parsed)
    except TypeError as exc:
        raise BadOption(
            "agent", spec, f"parameters that {name} takes (and prefer=, avoid= for any agent)", str(exc)
        ) from None
    return counterfactual.wrap(inner, spec.strip(), wrapping)


@functools.lru_cache(maxsize=256)
def reads_log(spec: str) -> bool:
    """Whether the agent of `spec` reads its view's `log` (ISMCTS's samplers do; the random and
    heuristic players decide on the present state). The server builds and sends a bot's view without
    its log when it does not: in a long game the log is most of the view's cost. Unknown agents (an
    outside package's) get the log, as they may read it."""
    try:
        agent = make(spec)
    except BodogeError:
        return True
    return bool(getattr(agent, "reads_log", True))


__all__ = [
    "Agent",
    "CounterfactualAgent",
    "HeuristicAgent",
    "ISMCTSAgent",
    "RandomAgent",
    "legal_ids",
    "make",
    "names",
    "parse_spec",
    "reads_log",
    "register",
]
