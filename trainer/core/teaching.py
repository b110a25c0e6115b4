"""Where a drill's skill is taught: links from drill feedback to a lesson section and a
cheat-sheet row.

The core knows no lessons; :mod:`trainer.learn` installs the source in ``LearnConfig.ready()``
(like the clubs' house rules in :mod:`trainer.core.preferences`), and the drill pages ask
:func:`links_for`.

    >>> links_for("lead", "fours", "parlett-2008")  # doctest: +SKIP
    [TeachingLink(label='Lesson: Strong signals — Fours', url='/learn/strong-signals/#fours'), ...]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from trainer.core import extensions


@dataclass(frozen=True, slots=True)
class TeachingLink:
    label: str
    url: str


def links_for(kind: str, skill: str, convention: str) -> list[TeachingLink]:
    """The lesson section and cheat-sheet row that teach ``skill`` in drills of ``kind``
    under ``convention`` (its name); the lessons feature answers (``teaching_links``)."""
    source = extensions.one("teaching_links")
    return source(kind, skill, convention) if source is not None else []


@dataclass(frozen=True, slots=True)
class LessonRef:
    """The lesson that teaches a skill: its address, title and place on the lessons page."""

    slug: str
    title: str
    url: str
    position: int


def lessons_for(skills: Sequence[tuple[str, str]]) -> dict[tuple[str, str], LessonRef]:
    """The lesson teaching each ``(kind, skill)`` (pairs no lesson teaches are left out); the
    lessons feature answers (``lessons``)."""
    source = extensions.one("lessons")
    return source(skills) if source is not None else {}
