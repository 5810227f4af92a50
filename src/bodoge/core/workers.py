"""How parallel work runs (the arena's games, the review's decisions): pool workers that leave Ctrl-C
to the parent and see its import path, and Ray started or joined for `--backend ray`."""

from __future__ import annotations

import importlib.util
import os
import signal
import sys

from bodoge.errors import BodogeError


def ignore_sigint(paths: list[str]) -> None:
    """Pool workers leave Ctrl-C to the parent (which stops them) and see the parent's import path."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for p in reversed(paths):
        if p not in sys.path:
            sys.path.insert(0, p)


def check_ray() -> None:
    """BodogeError now if Ray is not installed, before a run writes anything."""
    if importlib.util.find_spec("ray") is None:
        raise BodogeError("--backend ray needs Ray: pip install 'bodoge[ray]'")


def start_ray(jobs: int, address: str | None) -> bool:
    """Start (or join) Ray; True if this call started it (so the run shuts it down again)."""
    check_ray()
    import ray

    if ray.is_initialized():
        return False
    env = {"env_vars": {"PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}}
    try:
        if address:
            ray.init(address=address, runtime_env=env, log_to_driver=False)
        else:
            ray.init(num_cpus=jobs, runtime_env=env, include_dashboard=False, log_to_driver=False)
    # Ray raises ConnectionError, RuntimeError or ValueError (among others) for a cluster it cannot reach.
    except Exception as exc:
        where = f" at {address}" if address else ""
        raise BodogeError(f"Ray could not start{where}: {exc}") from None
    return True
