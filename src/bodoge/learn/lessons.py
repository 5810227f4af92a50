"""Lessons as data: `lessons/<game>.json`, one JSON list of lessons per game, read and checked here.

A lesson (docs/learn.md has the format) is a position — a bodoge record, its `setup` — and the
steps that follow it: what the coach says, which rules it teaches, and the move that comes next
(`expect`, an action text), or none where the step only explains. Every move after the setup is
some step's `expect`, in order, so a lesson is a short game record with words around it. A step whose
words allow more than one move (Hangover's "put -1/-2 first and +1/+2 second": the last two columns
are the learner's to order) lists the moves it takes in `accept`: the beginnings of their texts.

Loading checks everything a lesson's reader relies on, and names the file, the lesson and the step
of anything wrong: the fields and their types, both languages of every text, and the replay — the
setup must replay (`bodoge.replay`), and each `expect` must be legal where it comes. Each step
learns there whose move it is (`Step.mover`): the learner's own, another seat's that the coach
plays, or nobody's (an explanation); each move a step accepts must leave the rest of the lesson legal.

The coach names the seats as the lesson page's board does (`seat_names`): the learner is "you", the
others have names, the first of them the player on the learner's left.
"""

from __future__ import annotations

import json
import os
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bodoge.core.game import State
from bodoge.core.records import replay
from bodoge.core.registry import games as game_names
from bodoge.core.text import LANGUAGES
from bodoge.errors import BadOption, BadRecord, BodogeError, IllegalAction, is_int_in

#: The lessons that ship with bodoge (written by hand, one file per game).
PACKAGED = Path(__file__).parent / "lessons"
#: Where lessons are read from instead of PACKAGED when set (tests, or someone writing lessons).
DIR_VARIABLE = "BODOGE_LESSONS_DIR"

ID = re.compile(r"[a-z0-9-]{1,64}")
MAX_LESSONS = 100  # per game
MAX_STEPS = 200  # per lesson
MAX_TEXT = 2000  # characters of one coach's text
POINT = re.compile(r"[A-Za-z0-9_:.\-]{1,64}")
LESSON_KEYS = {"id", "title", "seat", "setup", "steps"}

#: The places a step may point at, per game: the names the game's board gives its pieces (their
#: data-place in static/boards/GAME.js; P is a seat, C a column of Hangover's snacks, counted from 1),
#: its piles (data-pile), and "seat:P", a seat's whole box (the lesson page's own name). The lesson
#: page rings what lies there; tests/learn/test_board_places.py checks the boards draw these names.
BOARD_PLACES: dict[str, tuple[str, ...]] = {
    "hangover": ("hand:P", "trick:P", "col:P:C", "flipped:P", "snacks:P", "seat:P"),
    "tokkuri": ("hand:P", "table:P", "captured:P", "discard", "deck", "seat:P"),
    "tottarot": ("declared:P", "row:P", "bid:P", "will:P", "spent:P", "discard", "deck", "seat:P"),
    "troika": ("hand:P", "container:P", "mine", "pool", "seat:P"),
}
MAX_COLUMN = 9  # Hangover's snack columns are far fewer
STEP_KEYS = {"say", "rules", "expect", "hint", "point", "accept"}
MAX_ACCEPTED = 24  # moves one step may accept (Hangover's 4 snacks have 24 orders)

#: What the lesson page and the terminal call the seats, per language: the learner, then the others
#: clockwise from the learner's left (the board draws the first of them on the left). The lessons'
#: words use these names (tests/learn/test_lesson_words.py).
YOU = {"en": "You", "ja": "あなた"}
OTHERS = {
    "en": ("Ken", "Mia", "Sam", "Lea", "Tom"),
    "ja": ("ケン", "ミア", "サム", "レア", "トム"),
}


def seat_names(players: int, seat: int) -> dict[str, list[str]]:
    """The seats' names in each language, by seat: the learner's `seat` is "you"."""
    return {
        lang: [YOU[lang] if p == seat else OTHERS[lang][(p - seat) % players - 1] for p in range(players)]
        for lang in LANGUAGES
    }


class LessonError(BodogeError, ValueError):
    """A lesson file that cannot be used: says which file, lesson and step, what is wrong, and what
    is allowed."""


@dataclass(frozen=True)
class Step:
    say: dict[str, str]
    rules: tuple[str, ...]
    expect: str | None
    hint: dict[str, str] | None = None
    point: tuple[str, ...] = ()
    #: Whose move `expect` is (the state's current player there); None for an explaining step.
    mover: int | None = None
    #: The beginnings of the texts of the moves this step takes besides `expect` (whole words): a
    #: legal move whose text is one of them, or starts with one and a space, is taken.
    accept: tuple[str, ...] = ()

    def accepts(self, text: str) -> bool:
        """Whether the move whose text is `text` (legal where the step comes) is one this step takes."""
        if text == self.expect:
            return True
        return any(text == a or text.startswith(a + " ") for a in self.accept)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "say": dict(self.say),
            "rules": list(self.rules),
            "expect": self.expect,
            "mover": self.mover,
        }
        if self.hint is not None:
            out["hint"] = dict(self.hint)
        if self.point:
            out["point"] = list(self.point)
        if self.accept:
            out["accept"] = list(self.accept)
        return out


@dataclass(frozen=True)
class Lesson:
    game: str
    id: str
    title: dict[str, str]
    seat: int
    setup: dict[str, Any]
    steps: tuple[Step, ...]
    players: int = 0
    source: str = field(default="", compare=False)

    def start(self) -> State:
        """The lesson's first position: its setup replayed (a fresh state each call)."""
        return replay(self.setup)

    def learner_steps(self) -> int:
        return sum(1 for s in self.steps if s.expect is not None and s.mover == self.seat)

    def to_json(self) -> dict[str, Any]:
        """What the pages read (GET /api/games/{game}/lessons): everything but the setup's record,
        whose position the server replays for them."""
        return {
            "id": self.id,
            "game": self.game,
            "title": dict(self.title),
            "seat": self.seat,
            "players": self.players,
            "names": seat_names(self.players, self.seat),
            "steps": [s.to_json() for s in self.steps],
        }


def lessons_dir() -> Path:
    """Where lessons are read from: $BODOGE_LESSONS_DIR if set, else the packaged ones."""
    override = os.environ.get(DIR_VARIABLE)
    return Path(override) if override else PACKAGED


_cache: dict[tuple[str, str], tuple[float, list[Lesson]]] = {}
_lock = threading.Lock()


def load_lessons(game: str, directory: Path | str | None = None) -> list[Lesson]:
    """The lessons of `game` (checked; [] where the game has no lesson file yet). BadOption for a
    game bodoge does not have; LessonError for a file that is not a good lesson list. Kept once read,
    until the file changes."""
    if game not in game_names():
        raise BadOption("game", game, "one of " + ", ".join(game_names()))
    folder = Path(directory) if directory is not None else lessons_dir()
    path = folder / f"{game}.json"
    try:
        stamp = path.stat().st_mtime
    except FileNotFoundError:
        return []
    key = (str(folder.resolve()), game)
    with _lock:
        kept = _cache.get(key)
        if kept is not None and kept[0] == stamp:
            return kept[1]
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise LessonError(f"{path.name}: not a readable JSON file: {exc}") from None
    lessons = parse_lessons(game, data, path.name)
    with _lock:
        _cache[key] = (stamp, lessons)
    return lessons


def find_lesson(game: str, lesson_id: str, directory: Path | str | None = None) -> Lesson:
    """One lesson by its id; LessonError naming the ids there are if there is no such lesson."""
    lessons = load_lessons(game, directory)
    for lesson in lessons:
        if lesson.id == lesson_id:
            return lesson
    have = ", ".join(lesson.id for lesson in lessons) or "none yet"
    raise LessonError(f"{game} has no lesson {str(lesson_id)[:64]!r}; its lessons: {have}")


def parse_lessons(game: str, data: Any, source: str = "lessons") -> list[Lesson]:
    """A game's lesson list from its JSON, checked (LessonError names the lesson and step)."""
    if not isinstance(data, list):
        raise LessonError(f"{source}: a lesson file is a JSON list of lessons, not {type(data).__name__}")
    if len(data) > MAX_LESSONS:
        raise LessonError(f"{source}: at most {MAX_LESSONS} lessons per game, not {len(data)}")
    lessons: list[Lesson] = []
    seen: set[str] = set()
    for i, raw in enumerate(data):
        lesson = parse_lesson(game, raw, f"{source}: lesson {i}")
        if lesson.id in seen:
            raise LessonError(f"{source}: lesson {i}: the id {lesson.id!r} is used twice (ids are unique)")
        seen.add(lesson.id)
        lessons.append(lesson)
    return lessons


def parse_lesson(game: str, raw: Any, where: str = "lesson") -> Lesson:
    """One lesson, checked and replayed (LessonError says where and what)."""
    if not isinstance(raw, dict):
        raise LessonError(f"{where}: a lesson is a JSON object, not {type(raw).__name__}")
    if isinstance(raw.get("id"), str):
        where = f"{where} ({raw['id'][:64]!r})"
    missing = sorted({"id", "title", "seat", "setup", "steps"} - raw.keys())
    if missing:
        raise LessonError(
            f"{where}: missing {', '.join(missing)}; a lesson has {', '.join(sorted(LESSON_KEYS))}"
        )
    extra = sorted(raw.keys() - LESSON_KEYS)
    if extra:
        raise LessonError(
            f"{where}: unknown field(s) {', '.join(extra)}; allowed: {', '.join(sorted(LESSON_KEYS))}"
        )
    lesson_id = raw["id"]
    if not isinstance(lesson_id, str) or not ID.fullmatch(lesson_id):
        raise LessonError(f"{where}: id is 1 to 64 of a-z, 0-9 and '-', not {lesson_id!r:.80}")
    title = _texts(raw["title"], f"{where}: title")
    setup = raw["setup"]
    if not isinstance(setup, dict):
        raise LessonError(f"{where}: setup is a bodoge record (a JSON object), not {type(setup).__name__}")
    if setup.get("game") != game:
        raise LessonError(
            f"{where}: setup is a record of {setup.get('game')!r:.40}, but this file is {game}'s"
        )
    try:
        state = replay(setup)
    except BadRecord as exc:
        raise LessonError(f"{where}: setup does not replay: {exc}") from None
    seat = raw["seat"]
    players = state.game.num_players
    if not is_int_in(seat, 0, players - 1):
        raise LessonError(
            f"{where}: seat is the learner's seat, an integer from 0 to {players - 1}, not {seat!r:.40}"
        )
    steps_raw = raw["steps"]
    if not isinstance(steps_raw, list) or not steps_raw:
        raise LessonError(f"{where}: steps is a non-empty list of steps")
    if len(steps_raw) > MAX_STEPS:
        raise LessonError(f"{where}: at most {MAX_STEPS} steps, not {len(steps_raw)}")
    steps = tuple(_step(state, step, f"{where}: step {j}") for j, step in enumerate(steps_raw))
    _check_alternatives(replay(setup), steps, where)
    return Lesson(game, lesson_id, title, seat, setup, steps, players, where)


def _check_alternatives(state: State, steps: tuple[Step, ...], where: str) -> None:
    """Every move a step accepts besides its `expect` must leave the lesson's later moves legal (the
    lesson goes on from the move the learner played)."""
    for j, step in enumerate(steps):
        if step.expect is None:
            continue
        for text in alternatives(state, step):
            other = state.clone()
            other.apply(other.parse_action(text))
            for k, later in enumerate(steps[j + 1 :], j + 1):
                if later.expect is None:
                    continue
                try:
                    other.apply(other.parse_action(later.expect))
                except IllegalAction as exc:
                    raise LessonError(
                        f"{where}: step {j} accepts {text!r}, after which step {k}'s expect "
                        f"{later.expect!r} is not legal: {exc}"
                    ) from None
        state.apply(state.parse_action(step.expect))


def alternatives(state: State, step: Step) -> list[str]:
    """The texts of the legal moves at `state` that `step` takes besides its `expect`."""
    if not step.accept:
        return []
    texts = (state.action_text(a) for a in state.legal_actions())
    return [t for t in texts if t != step.expect and step.accepts(t)]


def _step(state: State, raw: Any, where: str) -> Step:
    """One step, checked against the lesson's position there; a step with a move takes it on `state`."""
    if not isinstance(raw, dict):
        raise LessonError(f"{where}: a step is a JSON object, not {type(raw).__name__}")
    extra = sorted(raw.keys() - STEP_KEYS)
    if extra:
        raise LessonError(
            f"{where}: unknown field(s) {', '.join(extra)}; allowed: {', '.join(sorted(STEP_KEYS))}"
        )
    if "say" not in raw:
        raise LessonError(f"{where}: a step says something: it has no 'say'")
    say = _texts(raw["say"], f"{where}: say")
    rules = raw.get("rules", [])
    if not isinstance(rules, list) or not all(isinstance(r, str) and 0 < len(r) <= 32 for r in rules):
        raise LessonError(f"{where}: rules is a list of rule ids such as 'TK-4.1', not {rules!r:.80}")
    hint = None if raw.get("hint") is None else _texts(raw["hint"], f"{where}: hint")
    point = raw.get("point", [])
    if not isinstance(point, list) or not all(isinstance(p, str) and POINT.fullmatch(p) for p in point):
        raise LessonError(f"{where}: point is a list of board places such as 'seat:0', not {point!r:.80}")
    places = BOARD_PLACES.get(state.game.name, ("seat:P",))
    for place in point:
        if not is_board_place(place, places, state.game.num_players):
            raise LessonError(
                f"{where}: point {place!r} is no place on {state.game.name}'s board; its places are "
                f"{', '.join(places)} (P a seat from 0 to {state.game.num_players - 1})"
            )
    if "expect" not in raw:
        raise LessonError(f"{where}: a step says what comes next: 'expect' is an action text, or null")
    expect = raw["expect"]
    mover = None
    if expect is not None:
        if not isinstance(expect, str) or not expect.strip():
            raise LessonError(
                f"{where}: expect is an action text such as 'take 7', or null, not {expect!r:.80}"
            )
        mover = state.current_player
        try:
            action = state.parse_action(expect)
        except IllegalAction as exc:
            raise LessonError(f"{where}: expect {expect!r} is not legal there: {exc}") from None
        accept = _accept(raw.get("accept", []), state, state.action_text(action), where)
        state.apply(action)
    elif hint is not None:
        raise LessonError(
            f"{where}: a hint is said when the learner plays another move; this step expects none"
        )
    elif raw.get("accept", []) != []:
        raise LessonError(f"{where}: accept lists the moves a step takes; this step expects none")
    else:
        accept = ()
    return Step(say, tuple(rules), expect, hint, tuple(point), mover, accept)


def _accept(raw: Any, state: State, expect: str, where: str) -> tuple[str, ...]:
    """A step's `accept`: beginnings of action texts, each of some legal move at `state` (where the
    step comes), one of them of the step's `expect` (written as the game writes it)."""
    if raw == []:
        return ()
    if not isinstance(raw, list) or not all(isinstance(a, str) and a.strip() for a in raw):
        raise LessonError(f"{where}: accept is a list of the beginnings of action texts, not {raw!r:.80}")
    accept = tuple(" ".join(a.split()) for a in raw)
    if not any(expect == a or expect.startswith(a + " ") for a in accept):
        raise LessonError(
            f"{where}: expect {expect!r} is not among the moves accept takes ({', '.join(accept)})"
        )
    texts = [state.action_text(a) for a in state.legal_actions()]
    for a in accept:
        if not any(t == a or t.startswith(a + " ") for t in texts):
            raise LessonError(f"{where}: accept {a!r} begins no legal move's text there")
    taken = sum(1 for t in texts if any(t == a or t.startswith(a + " ") for a in accept))
    if taken > MAX_ACCEPTED:
        raise LessonError(f"{where}: accept takes {taken} moves; at most {MAX_ACCEPTED}")
    return accept


def is_board_place(place: str, places: tuple[str, ...], players: int) -> bool:
    """Whether `place` is one of `places` ("hand:P") with its seat and column numbers filled in."""
    parts = place.split(":")
    for pattern in places:
        wanted = pattern.split(":")
        if len(wanted) != len(parts):
            continue
        if all(_fits(part, w, players) for part, w in zip(parts, wanted, strict=True)):
            return True
    return False


def _fits(part: str, wanted: str, players: int) -> bool:
    if wanted in ("P", "C"):
        if not part.isdigit() or part != str(int(part)):
            return False
        return 0 <= int(part) < players if wanted == "P" else 1 <= int(part) <= MAX_COLUMN
    return part == wanted


def _texts(raw: Any, where: str) -> dict[str, str]:
    """A text in every language bodoge speaks: {"en": ..., "ja": ...}."""
    if not isinstance(raw, dict):
        raise LessonError(f"{where} is a text in each language, {{{', '.join(map(repr, LANGUAGES))}: ...}}")
    missing = [lang for lang in LANGUAGES if not isinstance(raw.get(lang), str) or not raw[lang].strip()]
    if missing:
        raise LessonError(
            f"{where} has no text in {', '.join(missing)} (every text is in {', '.join(LANGUAGES)})"
        )
    extra = sorted(raw.keys() - set(LANGUAGES))
    if extra:
        raise LessonError(f"{where}: unknown language(s) {', '.join(extra)}; allowed: {', '.join(LANGUAGES)}")
    long = [lang for lang in LANGUAGES if len(raw[lang]) > MAX_TEXT]
    if long:
        raise LessonError(f"{where}: at most {MAX_TEXT} characters, and its {long[0]} text is longer")
    return {lang: raw[lang] for lang in LANGUAGES}
