"""Learning to play: lessons as data, a coach that walks them on the real engine, hints at practice
tables. docs/learn.md says how to write a lesson and where lessons are shown."""

from __future__ import annotations

from bodoge.learn.coach import Answer, Coach
from bodoge.learn.lessons import (
    Lesson,
    LessonError,
    Step,
    find_lesson,
    lessons_dir,
    load_lessons,
    parse_lessons,
)

__all__ = [
    "Answer",
    "Coach",
    "Lesson",
    "LessonError",
    "Step",
    "find_lesson",
    "lessons_dir",
    "load_lessons",
    "parse_lessons",
]
