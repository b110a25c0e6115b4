"""Where the core asks the features: one registry, named in settings.

The core depends on no feature, yet a few of its pages need a feature's answer: the "drill 3 of
10" frame of a drill played in a path step, an assignment, today's review or a practice set; a
user's club house rules; the lesson that teaches a skill; the deals a student finished for an
assignment; a club's own convention cards. Each such question is an *extension point* here,
and ``settings.CONCERTO_EXTENSIONS`` names the function (dotted path) that answers it, so every
edge from the core to a feature is written in one place a maintainer can read::

    CONCERTO_EXTENSIONS = {
        "house_rules": "trainer.clubs.selectors.house_rules_for",
        "drill_sessions": ["trainer.drills.drill_sessions.practice_session", ...],
        ...
    }

A point left out (or set to ``None`` / ``[]``) answers "nothing": the core's callers each
have a neutral answer (no frame, no house rules, no links, no deals, no own cards). The
functions are imported on first use and cached; changing the setting (``override_settings``
in a test) clears the cache.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.utils.module_loading import import_string

#: Every extension point, with what its function is given and returns.
POINTS: dict[str, str] = {
    "drill_sessions": "[(request, resolver_match) -> DrillSession | None], asked in order",
    "house_rules": "(user=…) -> {'convention': …, 'rule': …}",
    "teaching_links": "(kind, skill, convention) -> [TeachingLink]",
    "lessons": "([(kind, skill)]) -> {(kind, skill): LessonRef}",
    "deals_played": "(assignment_ids) -> {(assignment_id, user_id): deals finished}",
    "deal_links": "(assignment_id) -> {user_id: [DealLink]}",
    "deal_urls": "(game_ids) -> {game_id: the deal's page for a teacher of its players}",
    "owned_cards": "(club=…, classroom=…) -> [(name, title)]",
    "convention_resolver": "(name) -> Convention | None, for names no shipped card has",
    "user_language": "(user) -> the user's saved, class or club language, or None",
}


class UnknownExtensionPoint(KeyError):
    """Asked for a point :data:`POINTS` does not list (a typo in the core)."""


def _configured(point: str) -> Any:
    if point not in POINTS:
        raise UnknownExtensionPoint(point)
    return getattr(settings, "CONCERTO_EXTENSIONS", {}).get(point)


@cache
def one(point: str) -> Callable[..., Any] | None:
    """The function answering ``point``, or None when no feature answers it."""
    path = _configured(point)
    return import_string(path) if path else None


@cache
def every(point: str) -> tuple[Callable[..., Any], ...]:
    """The functions answering ``point``, in the order settings lists them."""
    return tuple(import_string(path) for path in _configured(point) or ())


def _forget(*, setting: str, **_: object) -> None:
    if setting == "CONCERTO_EXTENSIONS":
        one.cache_clear()
        every.cache_clear()


setting_changed.connect(_forget)
