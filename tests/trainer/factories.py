"""Small factories for trainer tests (no fixture files)."""

from __future__ import annotations

import itertools
import uuid
from datetime import datetime

from django.contrib.auth import get_user_model

from engine.drills import DrillParams, grade, make_drill, parse_answer
from trainer.progress import services

_names = itertools.count(1)


def user(username: str | None = None, password: str = "pass-word-123"):
    return get_user_model().objects.create_user(
        username or f"user{next(_names)}", password=password
    )


def right_option(drill) -> str:
    return next(
        str(o.key)
        for o in drill.options
        if grade(drill, parse_answer(drill, {"option": o.key})).correct
    )


def wrong_option(drill) -> str:
    return next(
        str(o.key)
        for o in drill.options
        if not grade(drill, parse_answer(drill, {"option": o.key})).correct
    )


def answer(
    who,
    *,
    kind: str = "checklist",
    seed: int = 1,
    correct: bool = True,
    params: DrillParams | None = None,
    now: datetime | None = None,
):
    """Record an answer to a real drill through the service, right or wrong as asked."""
    drill = make_drill(kind, seed, params or DrillParams())
    key = right_option(drill) if correct else wrong_option(drill)
    ans = parse_answer(drill, {"option": key})
    return services.attempt_record(
        user=who,
        drill=drill,
        answer=ans,
        showing=services.Showing(uuid.uuid4(), 0),
        now=now,
    ).attempt
