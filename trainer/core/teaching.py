"""Where a drill's skill is taught: links from drill feedback to a lesson section and a
cheat-sheet row.

The core knows no lessons; :mod:`trainer.learn` installs the source in ``LearnConfig.ready()``
(like the clubs' house rules in :mod:`trainer.core.preferences`), and the drill pages ask
:func:`links_for`.

    >>> links_for("lead", "fours", "parlett-2008")  # doctest: +SKIP
    [TeachingLink(label='Lesson: Strong signals — Fours', url='/learn/strong-signals/#fours'), ...]
"""

from __future__ import annotations

from collections.abc import Callable
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
