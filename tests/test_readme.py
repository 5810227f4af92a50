"""The documentation works as written on a fresh clone (issues #16 and #34): every shell block and
every Python block of every page of the site (README.md, its home, and the docs/ pages in
mkdocs.yml's nav) runs, in a fresh folder, with `.venv/bin` first on PATH as the README says; every
relative link leads to a file the repository has; and no page of docs/ is missing from the nav.
(`make test` builds the site with `mkdocs build --strict`, which checks the links as the site has
them; it is not run again here.)

A block the test must not run (a server that runs until stopped, hours of simulation) carries a
marker on the line before its fence, with the reason: `<!-- readme-test: skip (why) -->`.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
BLOCK = re.compile(
    r"(?:<!-- readme-test: (?P<mark>[^\n]*?) -->\n)?^```(?P<lang>[a-z]*)\n(?P<body>.*?)^```",
    re.MULTILINE | re.DOTALL,
)
SHELLS = ("sh", "bash", "shell", "console")
SKIP = re.compile(r"^skip \((?P<why>[^)]+)\)$")
LINK = re.compile(r"\]\((?P<target>[^)\s]+)\)")
BLOCK_TIMEOUT = 240.0
# Skips are few: each one is a server or a long run, not a block that fails. A deployment guide is
# mostly commands for another machine (sudo, docker, a database server, a server that runs until
# stopped), so it has more.
MAX_SKIPS = {"README.md": 2, "deploy.md": 12}
MAX_SKIPS_ELSEWHERE = 4


def nav_pages(nav: Any) -> list[str]:
    """The pages (paths under docs/) that mkdocs.yml's nav lists, at any depth."""
    if isinstance(nav, str):
        return [] if re.match(r"^[a-z]+:", nav) else [nav]
    if isinstance(nav, list):
        return [page for entry in nav for page in nav_pages(entry)]
    if isinstance(nav, dict):
        return [page for value in nav.values() for page in nav_pages(value)]
    return []


def site_config() -> dict[str, Any]:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    assert isinstance(config, dict)
    return config


def site_pages() -> list[Path]:
    """Every page of the site, as files of the repository: the home page is the README."""
    return [README if page == "index.md" else DOCS / page for page in nav_pages(site_config()["nav"])]


def docs_pages() -> list[Path]:
    """The Markdown files under docs/ (the hooks' folder holds code, not pages)."""
    return sorted(p for p in DOCS.rglob("*.md") if "hooks" not in p.relative_to(DOCS).parts)


def page_id(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


PAGES = site_pages()

#: Pages whose commands tests/arena/test_docs_commands.py runs as written but with a few games (their
#: own runs take minutes): here they are in the nav and their links are checked, not their blocks run.
SCALED = [DOCS / "findings.md", *sorted((DOCS / "design-notes").glob("*.md"))]


def blocks(path: Path) -> list[tuple[str, str, str | None]]:
    """(language, body, why it is skipped or None) of every fenced block of a Markdown file."""
    found = []
    for m in BLOCK.finditer(path.read_text(encoding="utf-8")):
        why = None
        if m["mark"] is not None:
            skip = SKIP.match(m["mark"])
            assert skip, f"{page_id(path)}: a readme-test marker is 'skip (why)', not {m['mark']!r}"
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
    (page, i, body)
    for page in PAGES
    if page not in SCALED
    for i, (lang, body, why) in enumerate(blocks(page))
    if lang in SHELLS and why is None
]
PYTHON_PAGES = [
    page for page in PAGES if any(lang == "python" and why is None for lang, _, why in blocks(page))
]


def test_the_site_has_the_pages_the_readme_links() -> None:
    """The nav is read right (else every test below would pass on no page at all)."""
    assert PAGES[0] == README
    linked = {
        DOCS / m["target"].removeprefix("docs/").split("#")[0] for m in LINK.finditer(README.read_text())
    }
    assert {p for p in linked if p.suffix == ".md"} <= set(PAGES)
    assert len(SHELL_BLOCKS) >= 10 and len(PYTHON_PAGES) >= 3


def test_every_docs_page_is_in_the_nav() -> None:
    listed = [page for page in PAGES if page != README]
    assert sorted(set(listed)) == sorted(listed), "a page is listed twice in mkdocs.yml's nav"
    missing = [page_id(p) for p in listed if not p.exists()]
    assert missing == [], f"mkdocs.yml's nav lists pages that do not exist: {missing}"
    orphans = [page_id(p) for p in docs_pages() if p not in listed]
    assert orphans == [], f"pages of docs/ that mkdocs.yml's nav does not list: {orphans}"


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_every_skipped_block_says_why(page: Path) -> None:
    skipped = [(lang, why) for lang, _body, why in blocks(page) if why is not None]
    assert all(why.strip() for _lang, why in skipped)
    assert len(skipped) <= MAX_SKIPS.get(page.name, MAX_SKIPS_ELSEWHERE), skipped


@pytest.mark.parametrize(
    ("page", "index", "body"), SHELL_BLOCKS, ids=[f"{page_id(p)}-block{i}" for p, i, _ in SHELL_BLOCKS]
)
def test_shell_block_runs(page: Path, index: int, body: str, tmp_path: Path) -> None:
    # `. .venv/bin/activate` is the reader's first line: here the environment already is active.
    script = "\n".join(line for line in body.splitlines() if line.strip() != ". .venv/bin/activate")
    done = run_here(["bash", "-euo", "pipefail", "-c", script], tmp_path)
    assert done.returncode == 0, (
        f"{page_id(page)} block {index} failed:\n{body}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    )


@pytest.mark.parametrize("page", PYTHON_PAGES, ids=page_id)
def test_python_blocks_run_in_order(page: Path, tmp_path: Path) -> None:
    """As a reader pastes them: one interpreter, one namespace, the page's blocks in its order."""
    code = [body for lang, body, why in blocks(page) if lang == "python" and why is None]
    script = "\n".join(f"print('--- block {i}', flush=True)\n{body}" for i, body in enumerate(code))
    done = run_here([sys.executable, "-c", script], tmp_path)
    assert done.returncode == 0, f"{page_id(page)}:\n{done.stdout[-1500:]}\n{done.stderr[-3000:]}"


@pytest.mark.parametrize("path", [README, *docs_pages()], ids=page_id)
def test_relative_links_lead_somewhere(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    missing = []
    for m in LINK.finditer(text):
        target = m["target"].split("#")[0]
        if not target or re.match(r"^[a-z]+:", target):  # a web address, or a link within the page
            continue
        if not (path.parent / target).exists():
            missing.append(target)
    assert missing == [], f"{page_id(path)} links to files the repository lacks: {missing}"


def site_hooks() -> Any:
    spec = importlib.util.spec_from_file_location("docs_site_hooks", DOCS / "hooks" / "site.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_site_maps_repository_links_to_its_own() -> None:
    """The pages link as the repository has them; on the site, the README is the home page."""
    site_links = site_hooks().site_links
    readme = (
        "See [Tuning](docs/tuning.md#goals), ![plot](docs/arena-example/variants.png), [web](https://x.org)."
    )
    assert site_links(readme, "index.md") == (
        "See [Tuning](tuning.md#goals), ![plot](arena-example/variants.png), [web](https://x.org)."
    )
    # A file the site does not carry is named by its path in the repository.
    page = (
        "[`deploy/Dockerfile`](../deploy/Dockerfile), [the image](../deploy/Dockerfile), [home](../README.md)"
    )
    assert (
        site_links(page, "deploy.md")
        == "`deploy/Dockerfile`, the image (`deploy/Dockerfile`), [home](index.md)"
    )
    assert site_links("The files in [`deploy/`](../deploy)", "deploy.md") == "The files in `deploy`"
    # From a page in a folder of docs/, and never inside a code block.
    nested = "[back](../tuning.md)\n```md\n[x](../tuning.md)\n```\n"
    assert site_links(nested, "tuning-example/report.md") == nested
    assert site_links("[r](report.html)", "tuning-example/report.md") == "[r](report.html)"
