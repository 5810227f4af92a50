"""The benchmark's versions: one number per game, in every environment's id.

A result published on `bodoge/Troika-v1` must mean the same thing next year. So each game's version is
bumped whenever anything an agent sees or earns changes: the observation tensor, the action ids or
mask, the rewards, or the deals and rules under them (a `rules_version` bump changes the games played
from a seed). The changelog is docs/benchmark.md; `fingerprint` is the check: a digest of seeded games'
observations, masks and rewards, recorded here per version, which a test recomputes (so a change that
forgets the bump fails there, saying what to do).

Version 0 was the unfrozen series (2026-11-21 to 2026-11-29), during which observations changed
without a bump; its ids are retired, and Gymnasium answers them with a pointer to version 1.
"""

from __future__ import annotations

import hashlib
import random

import numpy as np

import bodoge
from bodoge.core.registry import game_class

ENV_VERSIONS: dict[str, int] = {"hangover": 1, "tokkuri": 1, "tottarot": 1, "troika": 1}

# game -> (version, the fingerprint of that version), as `fingerprint(game)` printed it.
FINGERPRINTS: dict[str, tuple[int, str]] = {
    "hangover": (1, "cc0b9b5c4af2a1d75ad094789a78c34952e5dca5cf6f64f1dcfb72c77f6bb62c"),
    "tokkuri": (1, "343ed99580aa30529cfec2d63d689a91b4af3bb6678c96917e034b546521eb06"),
    "tottarot": (1, "b2798c2c8c016756541165107986a32975f30df02aafe242152bb8d727279706"),
    "troika": (1, "039aa1d009c197fb81772ef13b6364b2ad4e253d175c39536e335ffe49185c08"),
}

# What the fingerprint plays: every player count of the game, these deal seeds, random legal moves.
FINGERPRINT_SEEDS = (11, 29)


def env_version(game: str) -> int:
    """The game's benchmark version (KeyError names an unknown game)."""
    return ENV_VERSIONS[game]


def fingerprint(game: str) -> str:
    """A SHA-256 over seeded random games of `game` at each player count: every seat's observation
    tensor (float32 bytes), the mover's legal mask and the final returns."""
    cls = game_class(game)
    digest = hashlib.sha256()
    for players in range(cls.min_players, cls.max_players + 1):
        made = bodoge.make(game, players=players)
        digest.update(f"{game}/{players}/{made.observation_shape}/{made.num_actions}".encode())
        for seed in FINGERPRINT_SEEDS:
            state = made.new_state(seed=seed)
            rng = random.Random(seed)
            while not state.is_terminal:
                for seat in range(players):
                    digest.update(np.ascontiguousarray(state.observation_tensor(seat), np.float32).tobytes())
                digest.update(np.ascontiguousarray(state.legal_mask(), np.int8).tobytes())
                state.apply(rng.choice(state.legal_actions()))
            digest.update(np.asarray(state.returns(), np.float64).tobytes())
    return digest.hexdigest()


if __name__ == "__main__":  # python -m bodoge.rl.versions: the fingerprints to record after a bump
    for name in sorted(ENV_VERSIONS):
        print(f'    "{name}": ({ENV_VERSIONS[name]}, "{fingerprint(name)}"),')
