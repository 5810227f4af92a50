"""Checks that a report written in Japanese has no English left in its sentences (the `--lang ja`
reports of `bodoge sim`), shared by the arena's report tests."""

from __future__ import annotations

import re

#: What a Japanese report keeps as it is: command blocks, code spans (agent specs, option settings,
#: the names of numbers in summary.json), image links (file names) and quotes of the rules spec's own
#: words (“…”; docs/rules/ is written in English).
_KEPT = [
    re.compile(r"^ *```.*?^ *```", re.M | re.S),
    re.compile(r"`[^`\n]*`"),
    re.compile(r"!\[[^\]]*\]\([^)]*\)"),
    re.compile(r"\u201c[^\u201d]*\u201d"),
]
#: A run of three or more English words, with nothing but spaces and light punctuation between them.
_RUN = re.compile(r"[A-Za-z][A-Za-z'’-]*(?:[ ,;:()]+[A-Za-z][A-Za-z'’-]*){2,}")


def english_runs(text: str) -> list[str]:
    """Every run of three or more English words in the text outside what a translation keeps."""
    for kept in _KEPT:
        text = kept.sub(" ", text)
    return [m[0] for m in _RUN.finditer(text)]


def assert_translated(text: str) -> None:
    runs = english_runs(text)
    assert not runs, f"untranslated English: {runs[:10]}"
