"""Reads for the lesson pages."""

from __future__ import annotations

from dataclasses import dataclass

from trainer.learn.models import Lesson


def lessons() -> list[Lesson]:
    """Every lesson, in reading order."""
    return list(Lesson.objects.all())


@dataclass(frozen=True, slots=True)
class LessonPlace:
    """A lesson with the ones before and after it in reading order (None at either end)."""

    lesson: Lesson
    previous: Lesson | None
    next: Lesson | None


def lesson_place(slug: str) -> LessonPlace | None:
    """The lesson called ``slug`` and its neighbours, or None. Two queries."""
    lesson = Lesson.objects.filter(slug=slug).first()
    if lesson is None:
        return None
    siblings = list(Lesson.objects.only("slug", "title", "position"))
    index = next(i for i, s in enumerate(siblings) if s.pk == lesson.pk)
    return LessonPlace(
        lesson,
        siblings[index - 1] if index > 0 else None,
        siblings[index + 1] if index + 1 < len(siblings) else None,
    )
