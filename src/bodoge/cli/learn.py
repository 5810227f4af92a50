"""`bodoge learn GAME`: a lesson in the terminal (the lessons and the coach are `bodoge.learn`)."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from bodoge import terminal
from bodoge.cli.common import GameName, check_lang, console, fail
from bodoge.errors import BodogeError


def learn(
    game: GameName,
    lesson: Annotated[
        str | None, typer.Option(help="The lesson's id (the game's first lesson if omitted).")
    ] = None,
    lang: Annotated[str, typer.Option(help="Language of the lesson: en or ja.")] = "en",
) -> None:
    """Learn a game by a lesson: the coach explains, you play the moves it asks for.

    Your move is typed as in bodoge play (a number from the list, or the move's text); another move
    than the lesson's is refused with a hint. The other players' moves are played for them.
    The same lessons are at /learn/GAME of bodoge serve.
    """
    from bodoge.learn import Coach, find_lesson, load_lessons
    from bodoge.learn.terminal import LessonSession

    check_lang(lang)
    try:
        lessons = load_lessons(game)
        if not lessons:
            fail(f"{game} has no lessons yet")
        chosen = lessons[0] if lesson is None else find_lesson(game, lesson)
    except BodogeError as exc:
        fail(str(exc))
    terminal.read_any_bytes(sys.stdin)
    ending = LessonSession(console, Coach(chosen), lang).run()
    if ending is terminal.Ending.INTERRUPTED:
        raise typer.Exit(130)
