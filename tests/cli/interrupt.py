"""Ctrl-C for a `bodoge play` child waiting at its prompt (tests of both CLI test modules)."""

from __future__ import annotations

import signal
import subprocess


def ctrl_c(proc: subprocess.Popen[bytes]) -> None:
    """SIGINT, as a person pressing Ctrl-C at the prompt; once more if the child has not left in 5 s.

    CPython's `input()` writes its prompt, then starts reading: a signal that lands between the two
    (a loaded machine may pause the child there, just after the test saw the prompt) is noted but
    does not interrupt the read, which then waits for input. A person would press Ctrl-C again; so
    does the test, rather than closing stdin, which would end the game as "End of input" instead."""
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGINT)
