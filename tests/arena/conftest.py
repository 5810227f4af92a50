"""The arena tests use the test-only game beside the agent tests (`tests/agents/bodoge_tinygame.py`)."""

import sys
from pathlib import Path

AGENTS_TESTS = str(Path(__file__).resolve().parent.parent / "agents")
if AGENTS_TESTS not in sys.path:
    sys.path.insert(0, AGENTS_TESTS)
