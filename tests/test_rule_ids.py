"""Every rule id a design note or the findings cite resolves in the rules specs that ship with the
project (docs/rules/, issue #54): a designer can look each one up."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PREFIX = {"HO": "hangover", "TK": "tokkuri", "TT": "tottarot", "TR": "troika"}
ID = re.compile(r"\b(HO|TK|TT|TR)-((?:D|E)?\d+(?:\.\d+)*)\b")
CITING = [
    *sorted((ROOT / "docs" / "design-notes").glob("*.md")),
    ROOT / "docs" / "findings.md",
    ROOT / "README.md",
]


def defined(game: str) -> set[str]:
    text = (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
    return {f"{m[1]}-{m[2]}" for m in ID.finditer(text)}


@pytest.mark.parametrize("page", CITING, ids=lambda p: p.name)
def test_every_rule_id_cited_is_in_the_shipped_spec(page: Path) -> None:
    ids = {f"{m[1]}-{m[2]}" for m in ID.finditer(page.read_text(encoding="utf-8"))}
    for rule in sorted(ids):
        game = PREFIX[rule[:2]]
        assert rule in defined(game), f"{page.name} cites {rule}, which docs/rules/{game}.md does not have"


def test_the_specs_ship_without_pointing_outside_the_project() -> None:
    for spec in (ROOT / "docs" / "rules").glob("*.md"):
        assert "shared/" not in spec.read_text(encoding="utf-8"), spec.name
