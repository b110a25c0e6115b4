"""Where a drill's skill is taught: links from drill feedback to a lesson section and a
cheat-sheet row.

The core knows no lessons; :mod:`trainer.learn` installs the source in ``LearnConfig.ready()``
(like the clubs' house rules in :mod:`trainer.core.preferences`), and the drill pages ask
:func:`links_for`.

    >>> links_for("lead", "fours", "parlett-2008")  # doctest: +SKIP
    [TeachingLink(label='Lesson: Strong signals — Fours', url='/learn/strong-signals/#fours'), ...]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TeachingLink:
    label: str
    url: str


Source = Callable[[str, str, str], list[TeachingLink]]
_source: Source | None = None


def set_source(source: Source | None) -> None:
    """Install the function giving the links for ``(kind, skill, convention name)``
    (``None``: no links)."""
    global _source
    _source = source


def links_for(kind: str, skill: str, convention: str) -> list[TeachingLink]:
    """The lesson section and cheat-sheet row that teach ``skill`` in drills of ``kind``
    under ``convention`` (its name)."""
    return _source(kind, skill, convention) if _source is not None else []


@dataclass(frozen=True, slots=True)
class LessonRef:
    """The lesson that teaches a skill: its address, title and place on the lessons page."""

    slug: str
    title: str
    url: str
    position: int


#: ``[(kind, skill), …]`` → the lesson teaching each pair it knows.
LessonSource = Callable[[Sequence[tuple[str, str]]], dict[tuple[str, str], LessonRef]]
_lesson_source: LessonSource | None = None


def set_lesson_source(source: LessonSource | None) -> None:
    """Install the function naming the lesson that teaches each ``(kind, skill)``."""
    global _lesson_source
    _lesson_source = source


def lessons_for(skills: Sequence[tuple[str, str]]) -> dict[tuple[str, str], LessonRef]:
    """The lesson teaching each ``(kind, skill)`` (pairs no lesson teaches are left out)."""
    return _lesson_source(skills) if _lesson_source is not None else {}
