"""The lessons speak in the words the board shows (issue #56, fault 2), not the engine's codes.

Every text of every packaged lesson — titles, what the coach says, hints, in each language — names
cards, tiles and seats as the lesson page's board does: "your red 5", "Ken's tokkuri", "Mia", never
"R5", "T2.1" or "P2". The codes are the games' own notation, read from the games here (the decks
a lesson's position holds, its tokkuri's ids), not listed by hand. A step never tells what the
learner cannot see (another seat's snack arrangement, its declared fate), and a step that asks for
something accepts every move that does what it says (Hangover's first arrangement).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from typing import Any

import pytest

from bodoge.core.game import State
from bodoge.learn import Coach, load_lessons
from bodoge.learn import lessons as lesson_data
from bodoge.learn.lessons import PACKAGED, Lesson

GAMES = ("hangover", "tokkuri", "tottarot", "troika")


def packaged(game: str) -> list[Lesson]:
    return load_lessons(game, PACKAGED)


def every_lesson() -> list[Any]:
    return [pytest.param(lesson, id=f"{g}:{lesson.id}") for g in GAMES for lesson in packaged(g)]


def positions(lesson: Lesson) -> Iterator[tuple[int, State]]:
    """Each step's index with the position after it (after its move, where it has one)."""
    state = lesson.start()
    for i, step in enumerate(lesson.steps):
        if step.expect is not None:
            state.apply(state.parse_action(step.expect))
        yield i, state


def texts(lesson: Lesson) -> Iterator[tuple[str, str]]:
    """Every text of a lesson, in each language, with where it is."""
    for lang, text in lesson.title.items():
        yield f"title ({lang})", text
    for i, step in enumerate(lesson.steps):
        for lang, text in step.say.items():
            yield f"step {i} say ({lang})", text
        for lang, text in (step.hint or {}).items():
            yield f"step {i} hint ({lang})", text


def leaves(data: Any) -> Iterator[str]:
    """The strings of a view, at any depth."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for value in data.values():
            yield from leaves(value)
    elif isinstance(data, list | tuple):
        for value in data:
            yield from leaves(value)


def codes(lesson: Lesson) -> set[str]:
    """The codes a lesson's game writes its components in, from the game itself: the cards of the
    decks its position holds (Hangover's drinks and snacks, Tokkuri's cards, Tottarot's fates) and
    every tokkuri's id on its way. Plain numbers (a Troika tile, a Tokkuri 5) and plain words (a
    dummy) are what the board shows too, and are left out."""
    found: set[str] = set()
    drinks = lesson.setup.get("deck", {}).get("drink", []) if lesson.game == "hangover" else []
    found.update(drinks)
    for _, state in itertools.chain([(-1, lesson.start())], positions(lesson)):
        view = state.view(lesson.seat)
        options = view.get("options", {})
        found.update(c["code"] for c in options.get("deck", []) if isinstance(c, dict))
        found.update(options.get("snack_deck", []))
        found.update(t["id"] for t in view.get("tokkuri", []))
    return {c for c in found if c.isupper() or not (c.isdigit() or c.isalpha())}


def code_pattern(code: str) -> re.Pattern[str]:
    """A code standing on its own in a text (Japanese letters around it do not hide it)."""
    return re.compile(r"(?<![A-Za-z0-9^/+~.-])" + re.escape(code) + r"(?![A-Za-z0-9^/+~])")


#: The games' seats in their texts: "P{seat}" (their texts/en.toml and ja.toml).
SEAT_CODE = re.compile(r"(?<![A-Za-z0-9])P\d+(?![0-9])")


def test_the_codes_are_read_from_the_games() -> None:
    """What the texts are checked against: the games' notation, which the old lessons used."""
    hangover = codes(packaged("hangover")[0])
    assert {"R5", "R1^", "-1/-2", "+1/+2"} <= hangover
    tokkuri = codes(packaged("tokkuri")[1])
    assert {"9+4", "7+7+7", "T2.1", "T0.2"} <= tokkuri and "5" not in tokkuri
    assert {"WORLD", "DEVIL"} <= codes(packaged("tottarot")[0])
    assert code_pattern("R5").search("R5を出しましょう。") and not code_pattern("R5").search("R5^")
    assert code_pattern("-1/-2").search("Put -1/-2 first") and not code_pattern("-1/-2").search("−1/−2")


@pytest.mark.parametrize("lesson", every_lesson())
def test_no_text_names_a_card_tile_or_seat_by_its_code(lesson: Lesson) -> None:
    patterns = [(code, code_pattern(code)) for code in sorted(codes(lesson))]
    found = []
    for where, text in texts(lesson):
        found += [f"{where}: {code!r} in {text!r}" for code, p in patterns if p.search(text)]
        found += [f"{where}: seat {m!r} in {text!r}" for m in SEAT_CODE.findall(text)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("lesson", every_lesson())
def test_the_seats_are_named_as_the_board_names_them(lesson: Lesson) -> None:
    """The names the page gives the seats (the lesson's `names`) are the ones the texts use: no name
    of a seat the lesson does not have."""
    assert hasattr(lesson_data, "seat_names"), "the lessons name no seats"
    names = lesson_data.seat_names(lesson.players, lesson.seat)
    assert names["en"][lesson.seat] == "You" and names["ja"][lesson.seat] == "あなた"
    assert lesson.to_json()["names"] == names
    for where, text in texts(lesson):
        lang = "ja" if "(ja)" in where else "en"
        others = lesson_data.OTHERS[lang]
        absent = [n for n in others[lesson.players - 1 :] if re.search(rf"(?<![A-Za-z]){n}(?![a-z])", text)]
        assert not absent, f"{where}: {absent} sit at no seat of this lesson: {text!r}"


#: Hangover's suits in the board's words (boards/hangover.js), in English and Japanese.
SUITS = {"R": ("red", "赤"), "B": ("blue", "青"), "Y": ("yellow", "黄"), "G": ("green", "緑")}


def hidden_words(lesson: Lesson, state: State) -> set[str]:
    """The words for what other seats see and the learner does not: another seat's Hangover cards
    and snacks (in the board's words: "red 5 △", "−1/+1"), another's Tottarot fate ("the Sun").
    A word that also names something the learner sees is left out (two copies of a card)."""
    views = [state.view(p) for p in range(lesson.players)]
    # (The options list every card the game has: what lies where is the rest of a view.)
    seen = [set(leaves({k: v for k, v in view.items() if k != "options"})) for view in views]
    known = seen[lesson.seat]
    others = set().union(*(s for p, s in enumerate(seen) if p != lesson.seat))
    game_codes = codes(lesson)
    deck = {
        c["code"]: c for c in views[lesson.seat].get("options", {}).get("deck", []) if isinstance(c, dict)
    }

    def words(code: str) -> set[str]:
        if lesson.game == "hangover" and "/" in code:  # a snack: "−1 or +1" (the board's words)
            a, b = code.split("/")
            pairs = [(x, y) for x in (a, a.replace("-", "−")) for y in (b, b.replace("-", "−"))]
            return {f"{x}{between}{y}" for x, y in pairs for between in ("/", "／", " or ")}
        if lesson.game == "hangover":  # a drink card: "red 5", "赤の5"; the △ copy "red 5 △" as well
            en, ja = SUITS[code[0]]
            n = code[1:].rstrip("^")
            plain = {f"{en} {n}", f"{ja}の{n}"}
            if not code.endswith("^"):
                return plain
            return plain | {f"{w} △" for w in plain} | {f"{w}△" for w in plain}
        if lesson.game == "tottarot" and code in deck:
            return {deck[code]["name_en"].removeprefix("The "), deck[code]["name_ja"]}
        return set()

    hidden = set().union(*(words(c) for c in (others - known) & game_codes))
    return hidden - set().union(*(words(c) for c in known & game_codes))


@pytest.mark.parametrize(
    "lesson", [p for p in every_lesson() if p.values[0].game in ("hangover", "tottarot")]
)
def test_no_step_tells_what_the_learner_cannot_see(lesson: Lesson) -> None:
    """What a step says is seen on the board by the end of that step: another seat's hidden
    arrangement or fate is never named (the old Hangover lesson spelt out P2's snacks)."""
    found = []
    for i, state in positions(lesson):
        hidden = hidden_words(lesson, state)
        for lang, text in lesson.steps[i].say.items():
            found += [
                f"step {i} ({lang}) names {w!r}: {text!r}"
                for w in hidden
                if re.search(r"(?<![0-9A-Za-z+/−-])" + re.escape(w) + r"(?![0-9/])", text)
            ]
    assert not found, "\n".join(found)


def test_the_hidden_words_are_found() -> None:
    """The check above can fail: at the start of Hangover's first lesson, after the other seats
    arranged, their snacks are hidden words."""
    lesson = packaged("hangover")[0]
    state = lesson.start()
    for step in lesson.steps[:3]:
        assert step.expect is not None
        state.apply(state.parse_action(step.expect))
    hidden = hidden_words(lesson, state)
    others = [c for p in (1, 2) for col in state.view(p)["you"]["columns"] for c in col]
    mine = {c for col in state.view(0)["you"]["columns"] for c in col}
    assert any(c.replace("-", "−").replace("/", " or ") in hidden for c in others if c not in mine)


def hangover_first() -> Lesson:
    return next(lesson for lesson in packaged("hangover") if lesson.id == "first-game")


def test_hangovers_first_step_takes_every_arrangement_its_words_ask_for() -> None:
    """Its words: −1 or −2 in column 1, +1 or +2 in column 2; the other two are the learner's to order.
    Both such arrangements are taken (and the lesson plays on to its end from either); the others
    are refused with the hint, which says the same."""
    lesson = hangover_first()
    step = lesson.steps[0]
    assert "the −1 or −2 snack first, the +1 or +2 snack second" in step.say["en"]
    state = lesson.start()
    arrangements = [state.action_text(a) for a in state.legal_actions()]
    wanted = [t for t in arrangements if t.split()[1:3] == ["-1/-2", "+1/+2"]]
    assert len(arrangements) == 24 and len(wanted) == 2
    for text in arrangements:
        coach = Coach(lesson)
        said = coach.try_move(text)
        assert said.ok == (text in wanted), text
        if not said.ok:
            assert step.hint is not None and said.message == step.hint
            continue
        assert coach.played == [text]
        while not coach.done:
            if coach.learners_turn:
                assert coach.step is not None and coach.step.expect is not None
                assert coach.try_move(coach.step.expect).ok
            else:
                assert coach.next().ok
        assert coach.state.current_player is None  # the game ended as the lesson says


def test_a_step_that_accepts_a_move_is_followed_from_it_over_http_too() -> None:
    """The server steps a lesson from the moves sent: the learner's accepted move among them."""
    from bodoge.server.lessons import StepIn, step

    lesson = hangover_first()
    other = "arrange -1/-2 +1/+2 -4/+4 -3/+3"
    answer = step(lesson, StepIn(actions=[], move=other))
    assert answer["accepted"] and answer["played"] == [other]
    later = step(lesson, StepIn(actions=[other, *[s.expect for s in lesson.steps[1:3]]]))
    assert later["view"]["you"]["columns"][2] == ["-4/+4"]


def test_every_packaged_step_for_the_learner_has_a_hint_in_words() -> None:
    """A refused try is answered with the step's hint (in words), never the bare move."""
    for game in GAMES:
        for lesson in packaged(game):
            for i, step in enumerate(lesson.steps):
                if step.expect is not None and step.mover == lesson.seat:
                    assert step.hint is not None, f"{game}:{lesson.id} step {i} has no hint"


@pytest.mark.parametrize("lesson", every_lesson())
def test_no_text_asks_for_a_mouse(lesson: Lesson) -> None:
    """A lesson is read on a phone too: it asks to choose, never to click (クリック)."""
    said = [f"{where}: {text!r}" for where, text in texts(lesson) if re.search(r"(?i)click|クリック", text)]
    assert not said, "\n".join(said)
