"""MkDocs hooks (mkdocs.yml `hooks:`): the README is the site's home page, as it is the repository's.

The pages are written to be read on the repository too, so their links are the repository's paths:
the README links `docs/tuning.md`, and a page may link a file outside docs/ (`../deploy/Dockerfile`).
Here each link is taken back to the repository's path it names: a page of the site is linked where
the site has it, and a file the site does not carry is named as its path in the repository (so that
`mkdocs build --strict` finds no broken link, and the reader still learns where the file is).
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
DOCS = "docs"
HOME = "index.md"  # the README's place in the site
LINK = re.compile(r"(?P<bang>!?)\[(?P<text>[^\]\n]*)\]\((?P<target>[^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)


def on_files(files: Any, config: Any) -> Any:
    """Add the README to the site as its home page (`index.md`), read from the repository's root."""
    from mkdocs.structure.files import File

    files.append(File.generated(config, HOME, abs_src_path=str(ROOT / "README.md")))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    return site_links(markdown, page.file.src_uri)


def repo_path(src_uri: str) -> str:
    """Where a page of the site lives in the repository: the home page is the README."""
    return "README.md" if src_uri == HOME else f"{DOCS}/{src_uri}"


def site_links(markdown: str, src_uri: str) -> str:
    """The page's Markdown with every relative link, written for the repository, made right for the site."""
    here = posixpath.dirname(repo_path(src_uri))
    site_here = posixpath.dirname(src_uri)

    def relink(m: re.Match[str]) -> str:
        target, _, anchor = m["target"].partition("#")
        if not target or re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("/"):
            return m[0]  # a link within the page, a web address, or an absolute one: as written
        path = posixpath.normpath(posixpath.join(here, target))
        if path == "README.md":
            path = f"{DOCS}/{HOME}"
        if path.startswith(f"{DOCS}/"):
            new = posixpath.relpath(path.removeprefix(f"{DOCS}/"), site_here or ".")
            return f"{m['bang']}[{m['text']}]({new}{'#' + anchor if anchor else ''})"
        # A file of the repository that the site does not carry: name it.
        if m["text"].strip("`").rstrip("/") == path:  # `deploy/` names the folder deploy
            return f"`{path}`"
        return f"{m['text']} (`{path}`)"

    # Code blocks are left as they are: a `](x)` in a block is code, not a link.
    out, last = [], 0
    for block in FENCE.finditer(markdown):
        out.append(LINK.sub(relink, markdown[last : block.start()]))
        out.append(block[0])
        last = block.end()
    out.append(LINK.sub(relink, markdown[last:]))
    return "".join(out)
