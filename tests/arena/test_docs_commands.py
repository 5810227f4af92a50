"""Every command in docs/findings.md and docs/design-notes/ runs as written (issue #35), in a fresh
folder, only smaller: `--games` becomes a few games per seat, `--trials` one trial and a search bot's
`iterations` 8, since the notes' own runs take minutes. A command the notes print must still parse, name real options and agents, and
play; a typing error in a note fails here."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bodoge.cli import app

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "docs" / "findings.md", *sorted((ROOT / "docs" / "design-notes").glob("*.md"))]
BLOCK = re.compile(r"^\s*```(?:sh|bash|console)\n(?P<body>.*?)^\s*```", re.MULTILINE | re.DOTALL)


def commands() -> list[tuple[str, str]]:
    found = []
    for page in PAGES:
        for m in BLOCK.finditer(page.read_text(encoding="utf-8")):
            for line in m["body"].splitlines():
                line = line.strip()
                if line.startswith("bodoge "):
                    found.append((page.name, line))
    return found


def smaller(argv: list[str], out: Path) -> list[str]:
    """The command with a few games (and one trial, its output in `out`), as written otherwise."""
    # a search bot's iterations too: the notes' own runs of ismcts took a 16-core machine minutes
    argv = [re.sub(r"iterations=\d+", "iterations=8", arg) for arg in argv]
    if "--games" in argv:
        players = int(argv[argv.index("--players") + 1]) if "--players" in argv else 4
        argv[argv.index("--games") + 1] = str(2 * players)
    if argv[0] == "tune":
        argv[argv.index("--trials") + 1] = "1"
        argv[argv.index("--out") + 1] = str(out / "tune")
    if argv[0] == "profiles":  # its report has no plots
        return [*argv, "--no-progress", "--jobs", "1"]
    return [*argv, "--no-progress", "--no-plots", "--jobs", "1"]


def test_the_pages_have_commands() -> None:
    pages = {page for page, _ in commands()}
    assert "findings.md" in pages
    assert {"hangover.md", "hangover.ja.md"} <= pages


@pytest.mark.parametrize(
    ("page", "command"), commands(), ids=[f"{p}:{i}" for i, (p, _) in enumerate(commands())]
)
def test_every_command_runs_as_written(
    page: str, command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    argv = shlex.split(command)[1:]
    result = CliRunner().invoke(app, smaller(argv, tmp_path))
    assert result.exit_code == 0, f"{page}: {command}\n{result.output}"
