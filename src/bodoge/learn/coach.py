"""The coach: walks a lesson's steps on the real engine, the same for the web page and the terminal.

At a step whose move is the learner's, `try_move` takes that move (or one of the moves the step
`accept`s: what its words allow) and nothing else: another move is refused kindly — with the step's
hint, or a plain "this lesson wants X here" — and changes nothing. The lesson goes on from the move
the learner played (`played` has it).
At another seat's step the coach plays the move itself (`next`); a step without a move only explains,
and `next` goes on. `follow` replays the moves of a lesson so far, which lets the server step a lesson
without keeping anything between requests.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bodoge.core.game import State
from bodoge.errors import BodogeError, IllegalAction
from bodoge.learn.lessons import Lesson, LessonError, Step


@dataclass(frozen=True)
class Answer:
    """What the coach says to a try or a Next: `ok` if it went on, and its words in each language."""

    ok: bool
    message: dict[str, str]


class Coach:
    """One learner going through one lesson."""

    def __init__(self, lesson: Lesson) -> None:
        self.lesson = lesson
        self.state: State = lesson.start()
        self.index = 0  # the step shown now; len(steps) once the lesson is over
        self.played: list[str] = []  # the moves since the setup, as the lesson writes them

    # -- where the lesson stands ------------------------------------------------------------------

    @property
    def step(self) -> Step | None:
        steps = self.lesson.steps
        return steps[self.index] if self.index < len(steps) else None

    @property
    def done(self) -> bool:
        return self.index >= len(self.lesson.steps)

    @property
    def learners_turn(self) -> bool:
        """Whether the step shown waits for the learner's move."""
        step = self.step
        return step is not None and step.expect is not None and step.mover == self.lesson.seat

    def view(self) -> dict[str, Any]:
        """The position as the learner's seat sees it (all a learner is ever shown)."""
        return self.state.view(self.lesson.seat)

    # -- going on ---------------------------------------------------------------------------------

    def next(self) -> Answer:
        """Go on past an explaining step, or play another seat's scripted move. At the learner's own
        step nothing happens: the learner plays it (`try_move`)."""
        step = self.step
        if step is None:
            return Answer(False, {"en": "The lesson is over.", "ja": "レッスンは終わりました。"})
        if self.learners_turn:
            return self._wants(step)
        if step.expect is not None:
            self._play(self.state.action_text(self.state.parse_action(step.expect)))
        else:
            self.index += 1
        return Answer(True, dict(step.say))

    def try_move(self, action: int | str) -> Answer:
        """The learner plays `action` (an id or a text). The step's move is taken and the lesson goes
        on; any other is refused with the step's hint, and the position stays as it was."""
        step = self.step
        if step is None:
            return Answer(False, {"en": "The lesson is over.", "ja": "レッスンは終わりました。"})
        if not self.learners_turn:
            return Answer(
                False,
                {
                    "en": "It is not your move yet: press Next to go on.",
                    "ja": "まだあなたの手番ではありません。「次へ」で進んでください。",
                },
            )
        assert step.expect is not None
        taken = self._taken(action, step)
        if taken is not None:
            self._play(taken)
            return Answer(True, {"en": "Well played.", "ja": "その通りです。"})
        return self._wants(step)

    def follow(self, actions: Sequence[Any]) -> None:
        """Replay `actions`, the lesson's moves so far (the learner's and the coach's, in order),
        going on past the explaining steps before each. LessonError says which action is not the
        lesson's own."""
        for i, action in enumerate(actions):
            while self.step is not None and self.step.expect is None:
                self.next()
            step = self.step
            if step is None:
                raise LessonError(f"action {i}: the lesson has only {len(self.played)} moves")
            assert step.expect is not None
            taken = self._taken(action, step)
            if taken is None:
                raise LessonError(
                    f"action {i} is {str(action)[:80]!r}, but the lesson's move there is {step.expect!r}"
                )
            self._play(taken)

    def skip_explanations(self) -> None:
        """Go on to the next step that has a move (or the end)."""
        while self.step is not None and self.step.expect is None:
            self.next()

    def _play(self, text: str) -> None:
        self.state.apply(self.state.parse_action(text))
        self.played.append(text)
        self.index += 1

    # -- words ------------------------------------------------------------------------------------

    def _taken(self, action: Any, step: Step) -> str | None:
        """The text of the move `action` (an id, or a text in any spacing and case) if `step` takes
        it: its `expect`, or a move it `accept`s; else None."""
        assert step.expect is not None
        if isinstance(action, bool) or not isinstance(action, int | str):
            return None
        try:
            wanted = self.state.parse_action(step.expect)
            given = action if isinstance(action, int) else self.state.parse_action(action)
            if given not in self.state.legal_actions():
                return None
            text = self.state.action_text(given)
        except (IllegalAction, BodogeError):
            return None
        return text if given == wanted or step.accepts(text) else None

    def _wants(self, step: Step) -> Answer:
        if step.hint is not None:
            return Answer(False, dict(step.hint))
        assert step.expect is not None
        return Answer(False, wants(self.state, step.expect))


def wants(state: State, expect: str) -> dict[str, str]:
    """The plain refusal: which move the lesson wants here, in each language, in the game's words
    for it (as the choices under the board name it), not its command text."""
    en = ja = expect
    with contextlib.suppress(BodogeError, NotImplementedError):  # a game without such words
        action = state.parse_action(expect)
        en = state.action_text_in(action, "en")
        ja = state.action_text_in(action, "ja")
    return {
        "en": f"This lesson wants you to play {en} here.",
        "ja": f"このレッスンでは、ここで「{ja}」を選んでください。",
    }
