"""Every action of every game has its words in every language (issue #16: the page's buttons in
Japanese): the game's `action` texts rebuild the English text exactly, and the Japanese one is
Japanese. Random games of every game and player count, every legal action at every decision.
"""

from __future__ import annotations

import random
import re

import pytest
from conformance_games import CASES, CLASSES

import bodoge
from bodoge.core.text import LANGUAGES, action_words

ENGLISH_WORD = re.compile(r"[A-Za-z]{3,}")
GAMES_PER_CASE = 3


def legal_texts(name: str, players: int) -> list[tuple[str, int, dict[str, str]]]:
    """(English text, id, {lang: text}) of every legal action met in a few random games."""
    game = bodoge.make(name, players=players)
    seen = []
    for seed in range(GAMES_PER_CASE):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            for action in state.legal_actions():
                texts = {lang: state.action_text_in(action, lang) for lang in LANGUAGES}
                seen.append((state.action_text(action), action, texts))
            state.apply(rng.choice(state.legal_actions()))
    return seen


@pytest.mark.parametrize(("name", "players"), CASES)
def test_every_action_speaks_every_language(name: str, players: int) -> None:
    texts = CLASSES[name].needed_part("text").TEXTS
    for english, action, said in legal_texts(name, players):
        # The `action` table's English is the text commands parse, to the letter: one vocabulary.
        assert action_words(texts, "en", english) == english, (name, action, english)
        ja = said["ja"]
        assert ja and ja != english, (name, action, english)
        assert not ENGLISH_WORD.search(ja), (name, action, english, ja)


def test_views_offer_the_japanese_beside_the_english() -> None:
    name, players = CASES[0]
    state = bodoge.make(name, players=players).new_state(seed=1)
    seat = state.current_player
    legal = state.view(seat)["legal_actions"]
    assert legal and all(set(a) == {"id", "text", "text_ja", "words"} for a in legal)
    assert [a["text_ja"] for a in legal] == [state.action_text_in(a["id"], "ja") for a in legal]
    assert [a["words"] for a in legal] == [state.action_text_in(a["id"], "en") for a in legal]


RAW = re.compile(r"[\[\]{}]")  # a Python list or dict printed into a sentence


@pytest.mark.parametrize(("name", "players"), CASES)
def test_log_and_decisions_are_sentences(name: str, players: int) -> None:
    """Numbers are written as words (issue #16: Tottarot's round end printed `totals [0, 1, 0, 1]`):
    no log line or decision, in any language, for any seat, holds a raw list or dict."""
    game = bodoge.make(name, players=players)
    for seed in range(GAMES_PER_CASE):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            for said in (state.decision(), state.decision_ja()):
                assert not RAW.search(said), (name, said)
            state.apply(rng.choice(state.legal_actions()))
        for seat in [None, *range(players)]:
            for entry in state.log(seat):
                for key in ("text", "text_ja"):
                    assert not RAW.search(entry[key]), (name, seat, entry)
