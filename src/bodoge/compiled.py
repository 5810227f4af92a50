"""The hot modules compiled to C with mypyc, and the guard that runs them only when they are current.

A learning agent's step through Gymnasium is, at 4 players, three opponents' moves of the rules and
one observation tensor; in Tokkuri and Troika that is more Python than 30,000 steps a second allow
(docs/measured.md). mypyc (part of mypy) compiles these modules, unchanged, into C extensions: the
same code, each module a `.so` beside its `.py`, which Python imports in preference to the source.

- `bodoge compile` (what `make setup` runs) compiles them in place, when a C
  compiler and mypyc are at hand, and writes `compiled.json`: each module's source hash at the
  build. It does nothing when that is still current; without a compiler it says so and leaves the
  pure-Python modules to run (everything works the same, only slower).
- `import bodoge` checks the record (`guard`): if a compiled module's source has changed since the
  build (an edit not yet rebuilt), or `BODOGE_PURE=1` is set, every module of the list is imported
  from its `.py`. All or none: a compiled module calls the others' compiled code directly, so one
  stale module would otherwise still run in another's calls.
- `bodoge compile --status` (and `status()`) says whether they are in use, and if not why.

The compiled and the pure modules give the same games and tensors bit for bit
(tests/test_compiled.py plays both and compares).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import ModuleType

# What a learning agent's step runs most: the rules' moves and the observation of the two games
# whose steps cost most, and the tensors helpers both use.
MODULES: tuple[str, ...] = (
    "bodoge.core.tensors",
    "bodoge.games.tokkuri.observation",
    "bodoge.games.tokkuri.play",
    "bodoge.games.tokkuri.scoring",
    "bodoge.games.troika.observation",
    "bodoge.games.troika.play",
    "bodoge.games.troika.scoring",
    "bodoge.games.troika.setup",
)

PACKAGE = Path(__file__).resolve().parent  # src/bodoge
SOURCE_ROOT = PACKAGE.parent  # src
MANIFEST = PACKAGE / "compiled.json"
PURE_ENV = "BODOGE_PURE"


def source(module: str) -> Path:
    return SOURCE_ROOT.joinpath(*module.split(".")).with_suffix(".py")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def extensions(module: str) -> list[Path]:
    """The module's compiled files for this Python (the `.so` Python would import before the source)."""
    path = source(module)
    return [path.with_name(path.stem + suffix) for suffix in importlib.machinery.EXTENSION_SUFFIXES]


def built() -> bool:
    """Whether any module of the list has a compiled file beside its source."""
    return any(p.exists() for m in MODULES for p in extensions(m))


def stale() -> list[str]:
    """The modules whose compiled file is missing or whose source changed since the build (by the
    hashes the build recorded); every module when there is no readable record."""
    try:
        record = json.loads(MANIFEST.read_text(encoding="utf-8"))
        hashes = record["sources"]
    except (OSError, ValueError, KeyError, TypeError):
        return list(MODULES)
    return [
        m
        for m in MODULES
        if not isinstance(hashes, dict)
        or hashes.get(m) != digest(source(m))
        or not any(p.exists() for p in extensions(m))
    ]


class _PureFinder(importlib.abc.MetaPathFinder):
    """Imports the listed modules from their `.py`, ahead of the compiled files beside them."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MODULES:
            return None
        return importlib.util.spec_from_file_location(fullname, source(fullname))


_reason = "not built"


def guard() -> None:
    """Called by `import bodoge` before any game is imported: the compiled modules only if all are
    current and `BODOGE_PURE` is not set."""
    global _reason
    if not built():
        _reason = "not built (bodoge compile)"
        return
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        _reason = f"{PURE_ENV} is set"
    else:
        changed = stale()
        if not changed:
            _reason = "compiled"
            return
        _reason = "changed since the build: " + ", ".join(changed) + " (bodoge compile)"
    if not any(isinstance(f, _PureFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _PureFinder())


def in_use() -> bool:
    """Whether the compiled modules are the ones this process runs."""
    return _reason == "compiled"


def status() -> str:
    """'compiled', or why the pure-Python modules run."""
    return _reason if _reason == "compiled" else "pure Python: " + _reason


# The build, in a child process run from src/ (mypyc names the modules by their paths from there).
_BUILD = """
import json, sys
from setuptools import setup
from mypyc.build import mypycify
job = json.loads(sys.argv[1])
modules = mypycify(job["modules"], opt_level="3", separate=True, target_dir=job["c"])
setup(name="bodoge-compiled", packages=[], script_args=job["args"], ext_modules=modules)
"""


def build(force: bool = False) -> int:
    """Compile the modules in place (a child process, so that this one's imports do not matter) and
    record their sources' hashes. 0 when compiled or already current; 1 when it could not be. Two
    builds at once take turns (a lock in the build folder): the second finds the first's current."""
    if not (force or stale()):
        print("compiled modules: current")
        return 0
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if compiler is None or not all(importlib.util.find_spec(m) for m in ("mypyc", "setuptools")):
        print("compiled modules: no C compiler, mypyc or setuptools here; the pure-Python modules will run")
        return 1
    with building():
        if not force and not stale():  # built by another process while this one waited
            print("compiled modules: current")
            return 0
        return _build()


WORK = SOURCE_ROOT.parent / "build" / "mypyc"  # the build's C files, objects and lock


@contextlib.contextmanager
def building() -> Iterator[None]:
    """The build folder's lock, held while a build runs: a second build waits for it."""
    WORK.mkdir(parents=True, exist_ok=True)
    with (WORK / ".lock").open("w") as lock:
        try:
            import fcntl
        except ImportError:  # (Windows: builds there are not locked)
            yield
            return
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        yield


def _build() -> int:
    hashes = {m: digest(source(m)) for m in MODULES}
    job = {
        "modules": [str(source(m).relative_to(SOURCE_ROOT)) for m in MODULES],
        "args": [
            *("build_ext", "--inplace", "--parallel", str(os.cpu_count() or 1)),
            *("--build-temp", str(WORK / "temp"), "--build-lib", str(WORK / "lib")),
        ],
        "c": str(WORK / "c"),
    }
    MANIFEST.unlink(missing_ok=True)  # a build that fails half-way leaves nothing marked current
    done = subprocess.run(
        [sys.executable, "-c", _BUILD, json.dumps(job)],
        cwd=SOURCE_ROOT,
        env={**os.environ, "PYTHONPATH": str(SOURCE_ROOT), PURE_ENV: "1"},
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        print(done.stdout[-4000:] + done.stderr[-4000:], file=sys.stderr)
        print("compiled modules: the build failed (above); the pure-Python modules will run")
        return 1
    MANIFEST.write_text(json.dumps({"sources": hashes}, indent=1) + "\n", encoding="utf-8")
    print(f"compiled modules: {len(MODULES)} built")
    return 0


def clean() -> None:
    """Remove the compiled files and the record."""
    for m in MODULES:
        for p in extensions(m):
            p.unlink(missing_ok=True)
    for p in SOURCE_ROOT.rglob("*__mypyc*"):
        p.unlink()
    MANIFEST.unlink(missing_ok=True)
