"""Reads for the lesson pages.

Lessons are read in a language: each slug's lesson in that language where it is translated,
else in the source language (``settings.LANGUAGE_CODE``, English), marked as a fallback. The
English lessons decide which lessons exist and their order.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.utils import translation

from trainer.learn.models import Lesson


def source_language() -> str:
    """The language every lesson is written in first (English)."""
    return str(settings.LANGUAGE_CODE)


def active_language() -> str:
    """The language of the current request (``get_language()``), as a lesson folder code."""
    return translation.get_language() or source_language()


def _language_chain(language: str) -> list[str]:
    """Languages to look in, best first: ``pt-br`` → ``pt-br``, ``pt``, then the source."""
    chain = [language]
    if "-" in language:
        chain.append(language.split("-")[0])
    if source_language() not in chain:
        chain.append(source_language())
    return chain


def _pick(rows: list[Lesson], language: str) -> list[Lesson]:
    """One row per slug, in the best language of the chain, in the source lessons' order."""
    chain = _language_chain(language)
    best: dict[str, Lesson] = {}
    for row in rows:
        held = best.get(row.slug)
        if row.language in chain and (
            held is None or chain.index(row.language) < chain.index(held.language)
        ):
            best[row.slug] = row
    order = {r.slug: (r.position, r.title) for r in rows if r.language == source_language()}
    return sorted(best.values(), key=lambda r: (*order.get(r.slug, (r.position, r.title)), r.slug))


def lessons(language: str | None = None) -> list[Lesson]:
    """Every lesson, in reading order, each in ``language`` (default: the active language)
    where translated, else in English (``lesson.language`` tells which)."""
    language = language or active_language()
    rows = list(Lesson.objects.filter(language__in=_language_chain(language)))
    return _pick(rows, language)


@dataclass(frozen=True, slots=True)
class LessonPlace:
    """A lesson with the ones before and after it in reading order (None at either end).

    ``translated`` is False when the visitor's language has no version of this lesson and the
    English one is shown instead."""

    lesson: Lesson
    previous: Lesson | None
    next: Lesson | None
    translated: bool = True


def lesson_place(slug: str, language: str | None = None) -> LessonPlace | None:
    """The lesson called ``slug`` in ``language`` (else English) and its neighbours, or None.
    One query."""
    language = language or active_language()
    rows = list(
        Lesson.objects.filter(language__in=_language_chain(language)).only(
            "slug", "title", "position", "language", "step", "summary", "body"
        )
    )
    siblings = _pick(rows, language)
    index = next((i for i, s in enumerate(siblings) if s.slug == slug), None)
    if index is None:
        return None
    lesson = siblings[index]
    return LessonPlace(
        lesson,
        siblings[index - 1] if index > 0 else None,
        siblings[index + 1] if index + 1 < len(siblings) else None,
        translated=lesson.language != source_language()
        or language.split("-")[0] == source_language(),
    )
