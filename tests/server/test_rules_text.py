"""The games' rules for players (issue #56, fault 9): every game has its rules text
(texts/rules_LANG.md, read by core/guide.py) in both languages with the same sections, in the
board's words (no codes), citing only rule ids that its spec (docs/rules/GAME.md) has, and pictures
of lesson steps that exist; GET /api/games/GAME/rules serves it, 404 for an unknown game or one
without such a text. The page that draws it: test_rules_page_browser.py."""

from __future__ import annotations

import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from server_helpers import TOY, ThreadServer, make_config, real_games

from bodoge.core.registry import game_class

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"
LANGS = ("en", "ja")
#: What a player needs, in this order: every game's text has these sections (other ids may come too).
SECTIONS = ("goal", "components", "setup", "turn", "special", "scoring", "end", "variants")

# Codes the board never shows, from the games' notation (docs/rules/GAME.md): re.ASCII, so that a
# code runs into Japanese ("P1の") and is still found, as a browser's \b finds it.
COMMON_CODES = [
    r"\bP\d\b",  # seats: P0, P2
    r"\b(?:TK|TT|HO|TR)-[0-9D]",  # rule ids in the words (the chips carry them)
    r"\b[a-z]+_[a-z_]+\b",  # identifiers: option names (max_tokkuri), keys
    r"[`{}\[\]]",  # code spans, JSON, templates
]
CODES: dict[str, list[str]] = {
    "tokkuri": [
        r"\bT\d+\.\d+\b",
        r"~\d+=\d",
        r"\b(?:place|drink|target|victim|give) (?:T\d|P\d|\d|dummy|trouble)",
    ],
    "tottarot": [
        r"\b(?:WORLD|SUN|LOVERS|WHEEL|MOON|TOWER|DEVIL|SHARE|PEEK|EXPOSE|INVERT)\b",
        r"\b(?:bid|steal|share|peek) (?:P?\d|none)\b",
    ],
    "hangover": [
        r"\b[RBYG][1-7]\b",
        r"\^",
        r"[+-]\d/[+-]\d",
        r"\b(?:play|discard|flip|arrange) [RBYG+-]",
    ],
    "troika": [r"\b(?:take|return hand|return container) \d", r"\bdraw\b \d"],
}


def codes_in(game: str, text: str) -> list[str]:
    """Every code of the game's notation (and the common ones) found in `text`."""
    found = []
    for pattern in COMMON_CODES + CODES.get(game, []):
        found += [m.group(0) for m in re.finditer(pattern, text, re.ASCII)]
    return found


def guide_of(game: str, lang: str) -> dict[str, Any]:
    from bodoge.core.guide import game_guide

    guide = game_guide(game_class(game), lang)
    assert guide is not None, f"{game} has no rules text in {lang}"
    return guide


def runs(text: list[Any]) -> str:
    return "".join(r if isinstance(r, str) else r["b"] for r in text)


def words_of(guide: dict[str, Any]) -> Iterator[str]:
    """Every piece of words a player reads: title, introduction, headings, paragraphs, list items,
    captions."""
    yield guide["title"]

    def blocks(items: list[dict[str, Any]]) -> Iterator[str]:
        for b in items:
            if "text" in b:
                yield runs(b["text"])
            for item in b.get("items", []):
                yield runs(item)

    yield from blocks(guide["intro"])
    for s in guide["sections"]:
        yield s["heading"]
        yield from blocks(s["blocks"])
        if s["figure"]:
            yield runs(s["figure"]["caption"])


def shape(guide: dict[str, Any]) -> list[tuple[Any, ...]]:
    """What every language shares: the sections' ids, rule ids and pictures."""
    return [
        (s["id"], tuple(s["rules"]), s["figure"] and (s["figure"]["lesson"], s["figure"]["step"]))
        for s in guide["sections"]
    ]


@pytest.mark.parametrize("game", real_games())
def test_every_game_has_its_rules_in_both_languages_with_the_same_sections(game: str) -> None:
    guides = {lang: guide_of(game, lang) for lang in LANGS}
    en, ja = guides["en"], guides["ja"]
    assert shape(en) == shape(ja)
    ids = [s["id"] for s in en["sections"]]
    assert [i for i in ids if i in SECTIONS] == list(SECTIONS), ids
    for lang, guide in guides.items():
        assert guide["title"] and guide["intro"], (game, lang)
        for s in guide["sections"]:
            assert s["heading"].strip() and s["blocks"], (game, lang, s["id"])
            if s["figure"]:
                assert runs(s["figure"]["caption"]).strip(), (game, lang, s["id"], "a picture without words")
        # the headings are the language's own, not the other's
        assert {s["heading"] for s in guide["sections"]}.isdisjoint(
            {s["heading"] for s in guides["ja" if lang == "en" else "en"]["sections"]}
        )
    # Japanese is written in Japanese
    assert all(re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", s["heading"]) for s in ja["sections"])


@pytest.mark.parametrize("game", real_games())
@pytest.mark.parametrize("lang", LANGS)
def test_the_rules_speak_in_the_boards_words_not_codes(game: str, lang: str) -> None:
    found = [(text[:60], codes_in(game, text)) for text in words_of(guide_of(game, lang))]
    assert [f for f in found if f[1]] == []


def test_the_code_patterns_find_the_codes_of_todays_summary() -> None:
    # The patterns would have caught the terminal's summary that /rules/GAME showed before.
    assert "T2.1" in codes_in("tokkuri", "their first tokkuri (T<seat>.1); target T2.1")
    assert {"R5", "^", "`"} <= set(codes_in("hangover", "a △ copy (code R5^) … (`play R5`)"))
    assert {"P2", "SHARE", "share P2"} <= set(codes_in("tottarot", "SHARE `share P2`"))
    assert {"hand_limit", "take 7"} <= set(codes_in("troika", "take 7 and hand_limit"))
    assert codes_in("tokkuri", "P1の手札") == ["P1"]
    assert codes_in("hangover", "赤の5、−2と+2、3 × 2 = 6 VP") == []


@pytest.mark.parametrize("game", real_games())
def test_the_rule_ids_cited_exist_in_the_spec(game: str) -> None:
    spec = (DOCS / f"{game}.md").read_text(encoding="utf-8")
    cited = {r for s in guide_of(game, "en")["sections"] for r in s["rules"]}
    assert cited
    missing = [r for r in sorted(cited) if not re.search(rf"(?<![\w.-]){re.escape(r)}(?![\w]|\.\d)", spec)]
    assert missing == [], f"{game}: {missing} are not in docs/rules/{game}.md"


@pytest.mark.parametrize("game", real_games())
def test_the_pictures_are_steps_of_the_games_lessons(game: str) -> None:
    from bodoge.learn.lessons import load_lessons

    lessons = {lesson.id: lesson for lesson in load_lessons(game)}
    figures = [s["figure"] for s in guide_of(game, "en")["sections"] if s["figure"]]
    assert 1 <= len(figures) <= 5  # a few pictures, at most one a section
    for f in figures:
        assert f["lesson"] in lessons, f
        assert 1 <= f["step"] <= len(lessons[f["lesson"]].steps), f


def test_a_broken_rules_file_is_refused_plainly() -> None:
    from bodoge.core.guide import GuideError, parse_guide

    good = "# T\n\nIntro.\n\n## Goal {#goal}\n@rules TK-1.1\nWin **now**.\n- one\n  more\n- two\n"
    guide = parse_guide(good)
    assert guide["sections"][0]["blocks"] == [
        {"kind": "p", "text": ["Win ", {"b": "now"}, "."]},
        {"kind": "ul", "items": [["one more"], ["two"]]},
    ]
    for bad, why in [
        ("## Goal\ntext\n", "heading"),
        ("# T\n## Goal {#goal}\n@rules R5\ntext\n", "rule ids"),
        ("# T\n## Goal {#goal}\n@colour red\ntext\n", "unknown"),
        ("# T\n## Goal {#goal}\n@figure lesson\ntext\n", "figure"),
        ("# T\n## Goal {#goal}\n", "no text"),
        ("# T\n## A {#a}\nx\n## B {#a}\ny\n", "twice"),
    ]:
        with pytest.raises(GuideError, match=why):
            parse_guide(bad)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    db = tmp_path_factory.mktemp("rules") / "bodoge.db"
    with ThreadServer(make_config(f"sqlite:///{db}")) as live:
        yield live


def test_the_api_answers_the_rules_of_each_game_and_language(server: ThreadServer) -> None:
    with server.http() as http:
        for game in real_games():
            for lang in LANGS:
                answer = http.get(f"/api/games/{game}/rules", params={"lang": lang})
                assert answer.status_code == 200, (game, lang, answer.text)
                body = answer.json()
                assert body["game"] == game and body["lang"] == lang
                assert shape(body) == shape(guide_of(game, "en"))
                assert body["title"] == guide_of(game, lang)["title"]
                assert len(answer.content) < 64_000
                assert "max-age" in answer.headers.get("cache-control", "")
        assert http.get("/api/games/tokkuri/rules").json()["lang"] == "en"  # English unless asked
        unknown = http.get("/api/games/nosuchgame/rules", params={"lang": "en"})
        assert unknown.status_code == 404 and "nosuchgame" in unknown.json()["detail"]
        assert http.get("/api/games/" + "x" * 5000 + "/rules").status_code == 404
        assert http.get(f"/api/games/{TOY}/rules").status_code == 404  # a game without rules for players
        assert http.get("/api/games/tokkuri/rules", params={"lang": "fr"}).status_code == 400
        # The worst of inputs: a huge language, bytes that are no UTF-8, the same asked many times at once.
        huge = http.get("/api/games/tokkuri/rules", params={"lang": "j" * 20_000})
        assert huge.status_code == 400 and len(huge.content) < 1_000
        for path in (
            "/api/games/tokkuri/rules?lang=%ff%fe",
            "/api/games/%ff%fe/rules",
            "/api/games/toк/rules",
        ):
            assert http.get(path).status_code in (400, 404), path
    with ThreadPoolExecutor(8) as pool, server.http() as http:
        answers = list(
            pool.map(lambda _: http.get("/api/games/hangover/rules", params={"lang": "ja"}), range(16))
        )
    assert {a.status_code for a in answers} == {200} and len({a.content for a in answers}) == 1
