"""Each component's rule, for the board's tooltips (issue #56): every game's [tip] table in its texts has
the same keys in English and Japanese, each a plain text (no template field), the server gives them with
the game's info (/api/games), and every key a board names is there: the literal keys of the boards'
scripts, Tokkuri's card kinds and effects and Tottarot's icons for every card of the default decks.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bodoge.core.registry import game_class
from bodoge.core.text import template_fields
from bodoge.games.tokkuri.cards import DEFAULT_DECK as TOKKURI_DECK
from bodoge.games.tottarot.cards import DEFAULT_DECK as TOTTAROT_DECK

pytest.importorskip("fastapi", reason="the server extra is not installed")
from bodoge.server.app import game_info

GAMES = ["troika", "tokkuri", "tottarot", "hangover"]
BOARDS = Path(__file__).resolve().parents[2] / "src/bodoge/server/static/boards"
# Where a board names a rule's key: `tip: <expression>` up to the object's end (its string literals),
# `dataset: { tip: "vp" }`, `tipOn(node, "chips", ctx.game)`, a `return "card_multi"` of Tokkuri's tipOf.
TIP_EXPR = re.compile(r"\btip: ([^}\n]*)")
TIP_ON = re.compile(r"tipOn\((?:[^;]|\n)*?\"(\w+)\", ctx\.game\)")
TIP_RETURN = re.compile(r"return [^;\n]*\"card_\w+\"[^;\n]*")
LITERAL = re.compile(r"\"(\w+)\"")


def tips(game: str) -> dict[str, dict[str, str]]:
    texts = game_class(game).part("text").TEXTS  # type: ignore[union-attr]
    return {
        lang: {k[4:]: v for k, v in table.items() if k.startswith("tip.")}
        for lang, table in texts.tables.items()
    }


@pytest.mark.parametrize("game", GAMES)
def test_every_tip_in_both_languages_and_served(game: str) -> None:
    found = tips(game)
    assert set(found) == {"en", "ja"}
    assert found["en"], f"{game} has no [tip] table"
    assert set(found["en"]) == set(found["ja"])
    for lang, table in found.items():
        for key, text in table.items():
            assert text.strip(), (game, lang, key)
            assert template_fields(text) == set(), (game, lang, key)  # plain text, said as it is
    assert game_info(game)["tips"] == found


def board_keys(game: str) -> set[str]:
    """The literal keys the board's script names."""
    # (A key made in a template literal, `card_${icon}`, is the decks' test below: they are left out.)
    source = re.sub(r"`[^`]*`", "``", (BOARDS / f"{game}.js").read_text(encoding="utf-8"))
    keys = {key for expr in TIP_EXPR.findall(source) for key in LITERAL.findall(expr)}
    keys |= set(TIP_ON.findall(source))
    keys |= {
        key for line in TIP_RETURN.findall(source) for key in LITERAL.findall(line) if key.startswith("card_")
    }
    return keys - {"^"}


@pytest.mark.parametrize("game", GAMES)
def test_every_key_a_board_names_has_its_rule(game: str) -> None:
    keys = board_keys(game)
    assert keys, f"the {game} board names no rule"
    assert keys - set(tips(game)["en"]) == set()


def tokkuri_key(card: dict[str, Any]) -> str:
    """boards/tokkuri.js's tipOf: by the card's effect, else its kind, a number card of several apart."""
    if card.get("effect", "none") != "none":
        return f"card_{card['effect']}"
    if card["kind"] != "number":
        return f"card_{card['kind']}"
    return "card_multi" if len(card["slots"]) > 1 else "card_number"


def test_every_card_of_the_default_decks_has_its_rule() -> None:
    tokkuri = {tokkuri_key(card) for card in TOKKURI_DECK}
    assert tokkuri - set(tips("tokkuri")["en"]) == set()
    assert len(tokkuri) == 8  # number, several numbers, the four effects, dummy, trouble
    tottarot = {f"card_{card.icon or 'plain'}" for card in TOTTAROT_DECK}  # boards/tottarot.js
    assert tottarot - set(tips("tottarot")["en"]) == set()
    assert len(tottarot) == 5
