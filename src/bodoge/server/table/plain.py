"""What people write at a table, checked: a seat's name and a chat line are one short line of plain
text (nothing that breaks a line, or hides or reorders the text around it wherever it is shown)."""

from __future__ import annotations

import unicodedata
from typing import Any

from bodoge.server.guard import without_ignorables
from bodoge.server.table.connection import ActionError

MAX_NAME = 40
JOINERS = "\u200c\u200d"  # zero-width (non-)joiners: format characters that emoji and scripts need
# Unicode categories that are not one line of plain text: controls, formats (right-to-left
# overrides), surrogates, unassigned code points, and line and paragraph separators.
NOT_PLAIN = frozenset(("Cc", "Cf", "Cs", "Cn", "Zl", "Zp"))
MAX_CHAT = 300  # characters of one chat line


def chat_line(raw: Any) -> str:
    """A chat line, trimmed; ActionError for one that is not a line of plain text."""
    if not isinstance(raw, str):
        raise ActionError("malformed", '"text" is the chat line, a string')
    text = raw.strip()
    if not 1 <= len(text) <= MAX_CHAT:
        raise ActionError("bad_chat", f"a chat line is 1 to {MAX_CHAT} characters")
    if not plain_line(text):
        raise ActionError("bad_chat", "a chat line is one line of plain text, without control characters")
    return text


def plain_line(text: str) -> bool:
    """One line of plain text: nothing that would break a line, hide or reorder the text around it
    wherever it is shown."""
    return not any(unicodedata.category(ch) in NOT_PLAIN and ch not in JOINERS for ch in text)


def name_key(name: str) -> str:
    """Names that read the same are the same name ("Aki", "ａｋｉ ", "Aki" with a zero-width joiner):
    Unicode's caseless match of identifiers, NFKC_Casefold, which also drops the default-ignorable
    code points (those that show nothing)."""
    folded = unicodedata.normalize("NFKC", without_ignorables(unicodedata.normalize("NFD", name))).casefold()
    return unicodedata.normalize("NFKC", without_ignorables(folded)).strip()


def clean_name(name: Any, where: str = "a name") -> str:
    """A seat's name, trimmed; ValueError for one that is not a short line of plain text."""
    if name is None:
        return ""
    if not isinstance(name, str) or len(name) > MAX_NAME:
        raise ValueError(f"{where} is a text of at most {MAX_NAME} characters")
    if not plain_line(name):
        # Control and format characters (line breaks, right-to-left overrides) would let a name
        # pass for another or rearrange the text around it wherever it is shown.
        raise ValueError(f"{where} has no control or formatting characters")
    if name.strip() and not name_key(name):
        raise ValueError(f"{where} shows nothing: it is made of invisible characters only")
    return name.strip()
