"""The lessons over HTTP (docs/learn.md): the list of a game's lessons, and a stateless step.

    GET  /api/games/{game}/lessons              the lessons (without their setups' records)
    POST /api/games/{game}/lessons/{id}/step    {"actions": [...], "move": ...} -> the learner's view
    GET  /api/games/{game}/lessons/{id}/views   the learner's view at every step (the rules page)

The server keeps nothing between steps: the page sends the lesson's moves so far (every one must be
the lesson's own, in order: a step's `expect`, or a move the step `accept`s that the learner played),
and with `move` the learner's try at the step after them; `played` in the answer is the moves as
taken, the learner's try included when it was. The answer is
the position as the learner's seat sees it — the same `view(seat)` a table sends — so the page draws
it with the real board. Replays run in a worker thread: a lesson is short, but the loop only moves
messages.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StringConstraints

from bodoge.core.registry import games as game_names
from bodoge.learn.coach import Coach
from bodoge.learn.lessons import MAX_STEPS, Lesson, LessonError, find_lesson, load_lessons
from bodoge.server.guard import json_body

MAX_ACTION_TEXT = 200

ActionText = Annotated[str, StringConstraints(strict=True, max_length=MAX_ACTION_TEXT)]


class StepIn(BaseModel):
    """A lesson's moves so far (action texts or ids, the lesson's own in order) and the learner's
    try at the next step, if any."""

    model_config = ConfigDict(extra="forbid")

    actions: list[StrictInt | ActionText] = Field(default_factory=list, max_length=MAX_STEPS)
    move: StrictInt | ActionText | None = None


def known_game(game: str) -> str:
    if game not in game_names():
        raise HTTPException(404, f"no game {game[:40]!r}; the games are {', '.join(game_names())}")
    return game


def lesson_or_404(game: str, lesson_id: str) -> Lesson:
    try:
        return find_lesson(known_game(game), lesson_id)
    except LessonError as exc:
        raise HTTPException(404, str(exc)) from None


def step(lesson: Lesson, body: StepIn) -> dict[str, Any]:
    """The learner's view after the lesson's moves `body.actions`, and after `body.move` if the
    lesson takes it there. LessonError for moves that are not the lesson's."""
    coach = Coach(lesson)
    coach.follow(body.actions)
    answer: dict[str, Any] = {"accepted": None, "message": None}
    if body.move is not None:
        coach.skip_explanations()
        said = coach.try_move(body.move)
        answer = {"accepted": said.ok, "message": said.message}
    return {
        "lesson": lesson.id,
        "moves": len(coach.played),
        "played": list(coach.played),
        "view": coach.view(),
        **answer,
    }


def views(lesson: Lesson) -> list[dict[str, Any]]:
    """The learner's view at each step (before that step's move)."""
    coach = Coach(lesson)
    out = []
    while not coach.done:
        out.append(coach.view())
        step_ = coach.step
        assert step_ is not None
        if coach.learners_turn and step_.expect is not None:
            coach.try_move(step_.expect)
        else:
            coach.next()
    return out


def router() -> APIRouter:
    api = APIRouter()

    @api.get("/api/games/{game}/lessons")
    async def list_lessons(game: str) -> list[dict[str, Any]]:
        try:
            lessons = await asyncio.to_thread(load_lessons, known_game(game))
        except LessonError as exc:  # a broken lesson file is the server's fault, said plainly
            raise HTTPException(500, f"the lessons of {game} cannot be read: {exc}") from None
        return [lesson.to_json() for lesson in lessons]

    @api.post("/api/games/{game}/lessons/{lesson_id}/step")
    async def step_lesson(request: Request, game: str, lesson_id: str) -> dict[str, Any]:
        body = await json_body(
            request, StepIn, "a step is asked with a JSON body (Content-Type: application/json)"
        )
        lesson = lesson_or_404(game, lesson_id)
        try:
            return await asyncio.to_thread(step, lesson, body)
        except LessonError as exc:
            raise HTTPException(400, f"lesson {lesson.id}: {exc}") from None

    @api.get("/api/games/{game}/lessons/{lesson_id}/views")
    async def lesson_views(game: str, lesson_id: str) -> dict[str, Any]:
        lesson = lesson_or_404(game, lesson_id)
        return {"lesson": lesson.id, "views": await asyncio.to_thread(views, lesson)}

    return api
