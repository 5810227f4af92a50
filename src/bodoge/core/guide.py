"""A game's rules for players, as a published edition prints them: `texts/rules_<lang>.md` in the
game's package, one file per language, beside the game's `texts/<lang>.toml` (core/text.py).

The files are a small part of Markdown, read here into data that the rules page (/rules/GAME)
draws and `GET /api/games/GAME/rules?lang=` serves:

    # Tokkuri                                   the title (once, first)
    A paragraph or two under the title.         the introduction

    ## What you are trying to do {#goal}        a section: its heading and its id
    @rules TK-6.1 TK-6.6                        the rule ids it follows (docs/rules/GAME.md)
    @figure first-round 5                       the picture: a lesson's position (lesson id, step number from 1)
    @caption The first tokkuri go down.         the picture's words
    A paragraph: lines run on until a blank line; **bold** words.
    - a list item                               (`1.` for a numbered list)
    ### A smaller heading

Every language has the same sections in the same order, with the same ids, rule ids and
pictures; only the words differ (a test checks it, and the ids against the spec). The words are the
board's words: no card codes, seat numbers or action texts.
"""

from __future__ import annotations

import functools
import re
from importlib import resources
from typing import Any

#: The largest rules file read (bytes): the page and its answer stay bounded.
MAX_GUIDE = 64_000

_HEADING = re.compile(r"^##\s+(.+?)\s+\{#([a-z][a-z0-9-]{0,30})\}\s*$")
_RULE_ID = re.compile(r"^[A-Z]{2}-[0-9A-Z][0-9A-Z.]*$")
_LESSON_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,60}$")
_BOLD = re.compile(r"\*\*(.+?)\*\*")


class GuideError(ValueError):
    """A rules file that does not follow the format above."""


def inline(text: str) -> list[Any]:
    """A run of text as the page draws it: plain strings, and {"b": text} for **bold** words."""
    out: list[Any] = []
    pos = 0
    for m in _BOLD.finditer(text):
        if m.start() > pos:
            out.append(text[pos : m.start()])
        out.append({"b": m.group(1)})
        pos = m.end()
    if pos < len(text):
        out.append(text[pos:])
    return out


def _join(a: str, b: str) -> str:
    """Two lines of one paragraph: Japanese runs on without a space, other scripts with one."""
    cjk = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")
    return a + b if cjk.match(a[-1:]) or cjk.match(b[:1]) else f"{a} {b}"


def parse_guide(text: str, where: str = "rules") -> dict[str, Any]:
    """The rules file `text` as {"title", "intro": [block], "sections": [{"id", "heading", "rules",
    "figure": {"lesson", "step", "caption"} | None, "blocks": [block]}]}. A block is
    {"kind": "p" | "h3", "text": inline} or {"kind": "ul" | "ol", "items": [inline]}.
    GuideError names the line that breaks the format."""
    title = ""
    intro: list[dict[str, Any]] = []
    sections: list[dict[str, Any]] = []
    blocks = intro
    para: list[str] | None = None  # the lines of the paragraph or list item being read
    section: dict[str, Any] | None = None

    def close() -> None:
        nonlocal para
        if para is not None:
            joined = para[0]
            for line in para[1:]:
                joined = _join(joined, line)
            last = blocks[-1] if blocks else None
            if last is not None and last.get("open"):
                last["items"][-1] = inline(joined)
                del last["open"]
            else:
                blocks.append({"kind": "p", "text": inline(joined)})
        para = None

    def fail(n: int, why: str) -> GuideError:
        return GuideError(f"{where}, line {n}: {why}")

    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            close()
            continue
        if line.startswith("# ") and not raw.startswith("##"):
            if title or sections or intro:
                raise fail(n, "the title comes once, first")
            title = line[2:].strip()
            continue
        if line.startswith("## "):
            close()
            m = _HEADING.match(line)
            if not m:
                raise fail(n, "a section heading is '## Heading {#id}'")
            if any(s["id"] == m.group(2) for s in sections):
                raise fail(n, f"section {m.group(2)!r} comes twice")
            section = {"id": m.group(2), "heading": m.group(1), "rules": [], "figure": None, "blocks": []}
            sections.append(section)
            blocks = section["blocks"]
            continue
        if line.startswith("@"):
            close()
            key, _, value = line[1:].partition(" ")
            value = value.strip()
            if section is None or section["blocks"]:
                raise fail(n, f"@{key} comes right under a section's heading")
            if key == "rules":
                ids = value.split()
                bad = [r for r in ids if not _RULE_ID.match(r)]
                if not ids or bad:
                    raise fail(n, f"rule ids look like TK-4.3, not {bad or value!r}")
                section["rules"] = ids
            elif key == "figure":
                parts = value.split()
                if (
                    len(parts) != 2
                    or not _LESSON_ID.match(parts[0])
                    or not parts[1].isdigit()
                    or int(parts[1]) < 1
                ):
                    raise fail(n, "a figure is '@figure LESSON-ID STEP' (steps count from 1)")
                section["figure"] = {"lesson": parts[0], "step": int(parts[1]), "caption": []}
            elif key == "caption":
                if section["figure"] is None:
                    raise fail(n, "@caption follows its @figure")
                section["figure"]["caption"] = inline(value)
            else:
                raise fail(n, f"unknown @{key} (the keys are @rules, @figure, @caption)")
            continue
        if line.startswith("### "):
            close()
            blocks.append({"kind": "h3", "text": inline(line[4:].strip())})
            continue
        item = re.match(r"^(-|\d+\.)\s+(.*)$", line)
        if item:
            close()
            kind = "ul" if item.group(1) == "-" else "ol"
            last = blocks[-1] if blocks else None
            if last is None or last["kind"] != kind:
                last = {"kind": kind, "items": []}
                blocks.append(last)
            last["items"].append([])
            last["open"] = True
            para = [item.group(2)]
            continue
        if para is None:
            last = blocks[-1] if blocks else None
            if last is not None and last.get("open"):
                del last["open"]  # a paragraph right under a list starts after it
            para = [line]
        else:
            para.append(line)
    close()
    if not title:
        raise GuideError(f"{where}: no title ('# Title' on the first line)")
    if not sections:
        raise GuideError(f"{where}: no sections")
    for s in sections:
        if not s["blocks"]:
            raise GuideError(f"{where}: section {s['id']!r} has no text")
    return {"title": title, "intro": intro, "sections": sections}


@functools.lru_cache(maxsize=32)
def load_guide(package: str, lang: str) -> dict[str, Any] | None:
    """The rules of the game package `package` in `lang` (parse_guide's data), or None where the
    package has no such file (an outside game, a test's toy game). Read once: the files ship with
    the package and do not change while it runs."""
    try:
        path = resources.files(package).joinpath("texts").joinpath(f"rules_{lang}.md")
        if not path.is_file():
            return None
        data = path.read_bytes()
    except (ModuleNotFoundError, TypeError, FileNotFoundError, NotADirectoryError):
        # TypeError: the game's class lives in a module, not a package (a test's toy game)
        return None
    if len(data) > MAX_GUIDE:
        raise GuideError(f"{package} rules_{lang}.md is over {MAX_GUIDE} bytes")
    return parse_guide(data.decode("utf-8"), f"{package} rules_{lang}.md")


def game_guide(cls: Any, lang: str) -> dict[str, Any] | None:
    """The rules for players of the game class `cls` in `lang`, from its package's texts."""
    package = cls.__module__.rpartition(".")[0] or cls.__module__
    return load_guide(package, lang)
