"""A game's options as the lobby's form offers them, in people's words (issue #56): each option's
label in every language, the kind of control that chooses it, and the words of its named values.

The words are the game's own (`WORDS` in the game package's `options` module); an option without
words there, or one whose values are data (a deck, a table per player count), is not offered by the
form, which leaves it at its default (the API and the command line still take every option).
"""

from __future__ import annotations

from typing import Any

from bodoge.core import options as opts

#: The kinds of control: a whole number (`none`: it may be left empty, and what that means), yes or
#: no, one of a few named values (`choices`).
KINDS = ("integer", "boolean", "choice")


def option_form(game_cls: Any, spec: Any) -> dict[str, Any]:
    """The fields GET /api/games adds to an option for the lobby's form: `label` ({lang: words})
    and `kind`, with `none` ({lang: words}) or `choices` ([{value, words}]); {} for an option the
    form does not offer."""
    module = game_cls.part("options")
    words = getattr(module, "WORDS", {}).get(spec.name) if module is not None else None
    if not isinstance(words, dict):
        return {}
    label = {lang: text for lang, text in words.items() if isinstance(text, str)}
    if "choices" in words:
        choices = [{"value": value, "words": dict(said)} for value, said in words["choices"].items()]
        return {"label": label, "kind": "choice", "choices": choices}
    if spec.convert is opts.as_bool:
        return {"label": label, "kind": "boolean"}
    if getattr(spec, "lo", None) is not None and getattr(spec, "hi", None) is not None:
        out: dict[str, Any] = {"label": label, "kind": "integer"}
        if _takes_none(spec):
            out["none"] = dict(words.get("none") or {})
        return out
    return {}


def _takes_none(spec: Any) -> bool:
    """Whether the option may be left without a value (null)."""
    try:
        return spec.convert(None) is None
    except (ValueError, TypeError):
        return False
