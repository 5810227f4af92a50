"""A `bodoge play` child that Ctrl-C reaches (tests of both CLI test modules)."""

from __future__ import annotations

#: The CLI, with SIGINT handled as Python does by default. A test suite started in the background
#: (`make test &` from a script: a background job ignores SIGINT, and its children inherit that)
#: would otherwise start the child with SIGINT ignored, and Ctrl-C would never reach it.
CHILD = "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); from bodoge.cli import main; main()"
