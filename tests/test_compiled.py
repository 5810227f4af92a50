"""The modules compiled with mypyc (bodoge.compiled): built by `make test` wherever a C compiler is,
the same games and tensors as the pure-Python modules bit for bit, and never run stale."""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bodoge import compiled
from bodoge.cli import app

runner = CliRunner()

# Random games of each compiled game, every mover's observation tensor at every step, the legal
# actions and the returns, hashed: what a learning run reads of the rules and the tensors.
PLAY = """
import hashlib, random, sys
import numpy as np
import bodoge
from bodoge import compiled
h = hashlib.sha256()
for name, players, options in [("tokkuri", 2, {}), ("tokkuri", 3, {}), ("tokkuri", 4, {}), ("troika", 2, {}),
                               ("troika", 4, {}), ("troika", 5, {}), ("troika", 3, {"rounds": 1})]:
    game = bodoge.make(name, players, **options)
    rng = random.Random(7)
    out = np.empty(game.observation_shape, dtype=np.float32)
    for seed in range(12):
        state = game.new_state(seed=seed)
        while state.current_player is not None:
            state.observation_tensor(state.current_player, out=out)
            h.update(out.tobytes())
            legal = state.legal_actions()
            h.update(repr(legal).encode())
            state.apply(rng.choice(legal))
        h.update(repr((state.returns(), state.scores(), state.winners())).encode())
print(compiled.status())
print(h.hexdigest())
"""


def run_python(code: str, **env: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return done.stdout.split("\n")


def can_compile() -> bool:
    tools = all(importlib.util.find_spec(m) is not None for m in ("mypyc", "setuptools"))
    return bool(shutil.which("cc") or shutil.which("gcc")) and tools


@pytest.mark.skipif(
    not can_compile(), reason="no C compiler, mypyc or setuptools: the pure-Python modules run"
)
def test_the_hot_modules_run_compiled_where_they_can_be() -> None:
    # `make test` builds them first; run alone after an edit to one of them, this says what to do.
    assert compiled.in_use(), f"{compiled.status()}: run `make compiled` (or `bodoge compile`)"
    for name in compiled.MODULES:
        assert not str(importlib.import_module(name).__file__).endswith(".py"), name


def test_the_compiled_and_the_pure_modules_play_the_same_games() -> None:
    fast_status, fast = run_python(PLAY)[:2]
    pure_status, pure = run_python(PLAY, BODOGE_PURE="1")[:2]
    assert pure_status == "pure Python: BODOGE_PURE is set"
    if compiled.built():
        assert fast_status == "compiled"
    assert fast == pure


def test_bodoge_pure_imports_every_listed_module_from_its_source() -> None:
    code = "import importlib, bodoge, bodoge.rl\n" + "".join(
        f"print(importlib.import_module({m!r}).__file__)\n" for m in compiled.MODULES
    )
    files = [line for line in run_python(code, BODOGE_PURE="1") if line]
    assert len(files) == len(compiled.MODULES)
    assert all(f.endswith(".py") for f in files)


def test_a_source_changed_since_the_build_makes_every_module_stale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = tmp_path / "compiled.json"
    monkeypatch.setattr(compiled, "MANIFEST", record)
    assert compiled.stale() == list(compiled.MODULES)  # no record at all
    record.write_text("{not json", encoding="utf-8")
    assert compiled.stale() == list(compiled.MODULES)
    hashes = {m: compiled.digest(compiled.source(m)) for m in compiled.MODULES}
    hashes[compiled.MODULES[1]] = hashlib.sha256(b"the source before an edit").hexdigest()
    record.write_text(json.dumps({"sources": hashes}), encoding="utf-8")
    changed = compiled.stale()
    assert compiled.MODULES[1] in changed
    if compiled.built():
        assert changed == [compiled.MODULES[1]]


def test_the_guard_serves_the_sources_when_a_module_is_stale(tmp_path: Path) -> None:
    """A copy of the package whose record names another source: `import bodoge` runs pure Python."""
    if not compiled.built():
        pytest.skip("nothing compiled here")
    copy = tmp_path / "src"
    shutil.copytree(compiled.SOURCE_ROOT / "bodoge", copy / "bodoge")
    record = json.loads((copy / "bodoge" / "compiled.json").read_text(encoding="utf-8"))
    record["sources"]["bodoge.games.troika.play"] = "0" * 64
    (copy / "bodoge" / "compiled.json").write_text(json.dumps(record), encoding="utf-8")
    code = (
        "import importlib\nfrom bodoge import compiled\n"
        "print(compiled.status())\nprint(importlib.import_module('bodoge.games.troika.play').__file__)"
    )
    status, file = run_python(code, PYTHONPATH=str(copy))[:2]
    assert status.startswith("pure Python: changed since the build: bodoge.games.troika.play")
    assert file == str(copy / "bodoge" / "games" / "troika" / "play.py")


def test_bodoge_compile_status_and_its_refusals() -> None:
    result = runner.invoke(app, ["compile", "--status"])
    assert result.exit_code == 0
    assert result.output.strip() == compiled.status()
    result = runner.invoke(app, ["compile", "--status", "--clean"])
    assert result.exit_code == 2
    assert "at most one" in result.output


def test_without_a_compiler_the_build_says_so_and_changes_nothing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    before = compiled.MANIFEST.read_bytes() if compiled.MANIFEST.exists() else None
    monkeypatch.delenv("CC", raising=False)
    monkeypatch.setattr(compiled.shutil, "which", lambda name: None)
    assert compiled.build(force=True) == 1
    assert "no C compiler" in capsys.readouterr().out
    assert (compiled.MANIFEST.read_bytes() if compiled.MANIFEST.exists() else None) == before


def test_a_second_build_waits_for_the_one_running() -> None:
    """`bodoge compile` twice at once (two `make` targets in two shells): the build folder's lock,
    which `build` holds while it builds, keeps the second waiting until the first is done."""
    pytest.importorskip("fcntl", reason="builds are locked where fcntl is (not Windows)")
    code = "from bodoge import compiled\nwith compiled.building():\n    print('my turn')\n"
    with compiled.building():  # a build running
        second = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
        with pytest.raises(subprocess.TimeoutExpired):
            second.wait(timeout=3)  # it waits
    said = second.communicate(timeout=60)[0]
    assert second.returncode == 0 and said == "my turn\n"
