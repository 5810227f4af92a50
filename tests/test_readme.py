"""The README works as written on a fresh clone (issue #16): every shell block and every Python block
of README.md runs, in a fresh folder, with `.venv/bin` first on PATH as the README says, and every
relative link of README.md and docs/*.md leads to a file the repository has.

A block the test must not run (a server that runs until stopped, hours of simulation) carries a
marker on the line before its fence, with the reason: `<!-- readme-test: skip (why) -->`.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
BLOCK = re.compile(
    r"(?:<!-- readme-test: (?P<mark>[^\n]*?) -->\n)?^```(?P<lang>[a-z]*)\n(?P<body>.*?)^```",
    re.MULTILINE | re.DOTALL,
)
SHELLS = ("sh", "bash", "shell", "console")
SKIP = re.compile(r"^skip \((?P<why>[^)]+)\)$")
LINK = re.compile(r"\]\((?P<target>[^)\s]+)\)")
BLOCK_TIMEOUT = 240.0


def blocks(path: Path) -> list[tuple[str, str, str | None]]:
    """(language, body, why it is skipped or None) of every fenced block of a Markdown file."""
    found = []
    for m in BLOCK.finditer(path.read_text(encoding="utf-8")):
        why = None
        if m["mark"] is not None:
            skip = SKIP.match(m["mark"])
            assert skip, f"{path.name}: a readme-test marker is 'skip (why)', not {m['mark']!r}"
            why = skip["why"]
        found.append((m["lang"], m["body"], why))
    return found


def run_here(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """A command as a reader runs it: in a fresh folder, with no input, within the block timeout."""
    return subprocess.run(
        argv,
        cwd=cwd,
        env=environment(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=BLOCK_TIMEOUT,
    )


def environment() -> dict[str, str]:
    """A reader's shell after `. .venv/bin/activate`: the project's commands first on PATH."""
    bin_dir = Path(sys.executable).parent
    return dict(
        os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", VIRTUAL_ENV=str(bin_dir.parent)
    )


SHELL_BLOCKS = [
    (i, body) for i, (lang, body, why) in enumerate(blocks(README)) if lang in SHELLS and why is None
]


def test_every_skipped_block_says_why() -> None:
    skipped = [(lang, why) for lang, _body, why in blocks(README) if why is not None]
    assert all(why.strip() for _lang, why in skipped)
    # Skips are few: each one is a server or a long run, not a block that fails.
    assert len(skipped) <= 6, skipped


@pytest.mark.parametrize(("index", "body"), SHELL_BLOCKS, ids=[f"block{i}" for i, _ in SHELL_BLOCKS])
def test_shell_block_runs(index: int, body: str, tmp_path: Path) -> None:
    # `. .venv/bin/activate` is the reader's first line: here the environment already is active.
    script = "\n".join(line for line in body.splitlines() if line.strip() != ". .venv/bin/activate")
    done = run_here(["bash", "-euo", "pipefail", "-c", script], tmp_path)
    assert done.returncode == 0, (
        f"README block {index} failed:\n{body}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    )


def test_python_blocks_run_in_order(tmp_path: Path) -> None:
    """As a reader pastes them: one interpreter, one namespace, the blocks in the page's order."""
    code = [body for lang, body, why in blocks(README) if lang == "python" and why is None]
    assert len(code) >= 3
    script = "\n".join(f"print('--- block {i}', flush=True)\n{body}" for i, body in enumerate(code))
    done = run_here([sys.executable, "-c", script], tmp_path)
    assert done.returncode == 0, f"{done.stdout[-1500:]}\n{done.stderr[-3000:]}"


@pytest.mark.parametrize("path", [README, *sorted((ROOT / "docs").glob("*.md"))], ids=lambda p: p.name)
def test_relative_links_lead_somewhere(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    missing = []
    for m in LINK.finditer(text):
        target = m["target"].split("#")[0]
        if not target or re.match(r"^[a-z]+:", target):  # a web address, or a link within the page
            continue
        if not (path.parent / target).exists():
            missing.append(target)
    assert missing == [], f"{path.name} links to files the repository lacks: {missing}"
