"""`bodoge games` (the registered games) and `bodoge rules GAME` (a summary of a game's rules and its
options)."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from bodoge.cli.common import GameName, check_lang, console, fail
from bodoge.core.options import allowed_text
from bodoge.core.registry import game_class
from bodoge.core.registry import games as game_names
from bodoge.errors import BodogeError

# The `rules` options table's own words.
RULES_TABLE = {
    "en": {
        "title": "Options (bodoge play/sim --set name=value)",
        "option": "option",
        "default": "default",
        "allowed": "allowed",
        "help": "what it changes",
    },
    "ja": {
        "title": "オプション（bodoge play/sim --set 名前=値）",
        "option": "オプション",
        "default": "既定値",
        "allowed": "とりうる値",
        "help": "変わること",
    },
}


def list_games() -> None:
    """List the games with their player counts."""
    table = Table("game", "title", "players", "options")
    for name in game_names():
        cls = game_class(name)
        table.add_row(
            name,
            f"{cls.title['en']} ({cls.title['ja']})",
            f"{cls.min_players}–{cls.max_players}",
            ", ".join(spec.name for spec in cls.option_specs),
        )
    console.print(table)


def rules(
    game: GameName,
    lang: Annotated[str, typer.Option(help="Language: en or ja.")] = "en",
) -> None:
    """Print a readable summary of a game's rules and its options."""
    check_lang(lang)
    try:
        cls = game_class(game)
    except BodogeError as exc:
        fail(str(exc))
    console.print(cls.rules_summary(lang), markup=False)
    words = RULES_TABLE[lang]
    table = Table(title=words["title"])
    # An option's name is what one types: never cut it; the other columns wrap instead.
    width = max((len(spec.name) for spec in cls.option_specs), default=6)
    table.add_column(words["option"], no_wrap=True, min_width=width)
    table.add_column(words["default"], overflow="fold")
    table.add_column(words["allowed"], overflow="fold")
    table.add_column(words["help"], overflow="fold")
    texts = cls.needed_part("text").TEXTS if lang != "en" else None
    for spec in cls.option_specs:
        said = None if texts is None else texts.option_words(lang, spec)
        help_, allowed = said or (spec.help, allowed_text(spec))
        table.add_row(
            spec.name,
            json.dumps(spec.to_json(spec.convert(spec.default)), ensure_ascii=False),
            escape(allowed),
            escape(help_),
            end_section=False,
        )
    console.print(table)
