"""A game's words as data: one table per language, `texts/<lang>.toml` in the game's package.

Each table maps dotted keys (`event.flip`, `decision.bid`, `name.tile.7`) to a `str.format` template
with named fields. The game's `text.py` decides which key an event or decision takes and works out its
fields (numbers, seat names, card names looked up in the same table); the words themselves live only
in the tables, so that a translator can work on them without reading Python and a test can check that
every key exists in every language with matching fields (`Texts.problems`).

    TEXTS = Texts(__package__)                        # in bodoge/games/troika/text.py
    TEXTS.say("ja", "event.flip", seat=2, tile=7)     # -> 'P2がタイル7を表向きにしました。'
"""

from __future__ import annotations

import string
import tomllib
from collections.abc import Callable, Mapping
from functools import cached_property
from importlib import resources
from typing import Any

#: The languages every game speaks: views carry "text" (English) and "text_ja" (Japanese).
LANGUAGES = ("en", "ja")
#: Keys whose English lives in code, not in en.toml: the options' words (an option spec's `help` and
#: `allowed`, which errors quote). Other languages give them as plain texts (`option.<name>.help`).
ENGLISH_IN_CODE = ("option.",)


class Texts:
    """The tables of one game package, read at first use."""

    def __init__(self, package: str, languages: tuple[str, ...] = LANGUAGES) -> None:
        self.package = package
        self.languages = languages

    @cached_property
    def tables(self) -> dict[str, dict[str, str]]:
        """{lang: {dotted key: template}}, flattened from each language's TOML file."""
        folder = resources.files(self.package).joinpath("texts")
        out = {}
        for lang in self.languages:
            with folder.joinpath(f"{lang}.toml").open("rb") as f:
                out[lang] = _flatten(tomllib.load(f))
        return out

    def say(self, lang: str, key: str, /, **fields: Any) -> str:
        """The template `key` of `lang`, filled with `fields`."""
        return self.tables[lang][key].format_map(fields)

    def option_words(self, lang: str, spec: Any) -> tuple[str, str] | None:
        """An option's (help, allowed) in `lang` (not English: that is the spec's own), or None
        where the tables lack it."""
        table = self.tables[lang]
        help_, allowed = table.get(f"option.{spec.name}.help"), table.get(f"option.{spec.name}.allowed")
        return None if help_ is None or allowed is None else (help_, allowed)

    def get(self, lang: str, key: str, default: str) -> str:
        """The plain text `key` of `lang` (a name, a word), or `default` where the table has none."""
        return self.tables[lang].get(key, default)

    def problems(self) -> list[str]:
        """Every key missing from a language, every template that does not parse, and every pair of
        languages whose templates of one key each use a field the other lacks (a misspelt field: a
        language may leave a fact out, as Japanese leaves out articles, but not name another one).
        A test asserts this is empty for every game."""
        found = []
        tables = self.tables
        keys = set().union(*(t.keys() for t in tables.values()))
        for key in sorted(keys):
            fields: dict[str, set[str]] = {}
            for lang, table in tables.items():
                if key.startswith(ENGLISH_IN_CODE):
                    if lang == "en" and key in table:
                        found.append(f"{self.package}: {key!r}'s English is the option spec's own")
                    continue  # plain texts, not templates
                if key not in table:
                    found.append(f"{self.package}: {key!r} has no {lang} text")
                    continue
                try:
                    fields[lang] = template_fields(table[key])
                except ValueError as exc:
                    found.append(f"{self.package}: {key!r} in {lang} does not parse: {exc}")
            langs = sorted(fields)
            for i, a in enumerate(langs):
                for b in langs[i + 1 :]:
                    if fields[a] - fields[b] and fields[b] - fields[a]:
                        found.append(
                            f"{self.package}: {key!r} uses fields {fields[a]} in {a} but {fields[b]} in {b}"
                        )
        return found


def action_words(
    texts: Texts, lang: str, text: str, rest: Callable[[str, str], str] | None = None
) -> str | None:
    """An action's English `text` in `lang`, from the game's `action` table: the longest run of
    leading words with a key (`return hand 7` -> `action.return_hand`), filled with the words after
    it (`{rest}`: cards, tiles and seats, written alike in every language, or put in words by the
    game's `rest(words, lang)`: `R4^` -> `red 4 △`). None if no key fits."""
    words = text.split()
    table = texts.tables[lang]
    for k in range(len(words), 0, -1):
        template = table.get("action." + "_".join(words[:k]))
        if template is not None:
            after = " ".join(words[k:])
            return template.format_map({"rest": rest(after, lang) if rest is not None else after})
    return None


def template_fields(template: str) -> set[str]:
    """The names of a template's format fields (`{seat}` and `{tile:>2}` -> {'seat', 'tile'})."""
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(template) if name}


def _flatten(table: Mapping[str, Any], prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in table.items():
        if isinstance(value, Mapping):
            out.update(_flatten(value, f"{prefix}{key}."))
        elif isinstance(value, str):
            out[prefix + key] = value
        else:
            raise TypeError(f"text {prefix}{key} is {type(value).__name__}, not a string")
    return out
