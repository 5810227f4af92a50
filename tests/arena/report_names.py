"""Checks that a report defines every name it shows (issue #18), shared by the arena's report tests."""

from __future__ import annotations

import re


def tables(text: str) -> list[tuple[list[str], list[list[str]]]]:
    """The Markdown tables of a report: (header, rows), cells stripped."""
    found = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("|") and i + 1 < len(lines) and lines[i + 1].startswith("|---"):
            header = [c.strip() for c in line.strip("|").split(" | ")]
            rows = []
            for row in lines[i + 2 :]:
                if not row.startswith("|"):
                    break
                rows.append([c.strip() for c in re.split(r"(?<!\\) \| ", row.strip("| "))])
            found.append((header, rows))
    return found


def generic(name: str, agents: list[str]) -> str:
    """A quantity's name with its seat or agent replaced, as the report's definitions list it."""
    name = re.sub(r"^(win share|score) of seat \d+$", r"\1 of seat N", name)
    if name.startswith("win share of ") and name[len("win share of ") :] in agents:
        return "win share of AGENT"
    return name


def assert_every_name_defined(text: str, agents: list[str]) -> None:
    meanings = text.split("## What the numbers mean", 1)[1]
    defined = set(re.findall(r"^- \*\*(.+?)\*\*: \S", meanings, flags=re.M))
    shown = tables(text.split("## What the numbers mean", 1)[0])
    assert shown, "the report has no tables"
    for header, rows in shown:
        for cell in header:
            assert not cell or cell in defined, f"column {cell!r} is not defined"
        if header[0] in ("", "quantity"):  # tables whose rows are named quantities
            for row in rows:
                assert generic(row[0], agents) in defined, f"row {row[0]!r} is not defined"
    if "Seat-balance test" in text:
        assert "seat-balance test" in defined
    assert "(no definition" not in text
