"""The ``demo`` seed kind: a lived-in site for ``make run`` (``seeds/demo/``).

Creates users with a known password, a club with them as organiser and members, a class with a
teacher and students and an assignment from a curated drill set (through the classes services),
and answers: each answer is a real attempt recorded through :func:`trainer.progress.services.
attempt_record`, answered with the engine's own right answer (or one it grades wrong), so the
progress pages, the club's path table and the class's results all agree with the engine.

Idempotent: users, club and class are looked up before they are made, and every attempt has a
fixed token, so seeding again records nothing new.

Known passwords must never reach a real site: the loader does nothing unless ``DEBUG`` is on,
or the ``TRAINER_DEMO_DATA`` setting (or environment variable) says yes.
"""

from __future__ import annotations

import os
import random
import uuid
from collections.abc import Iterator, Mapping
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import timezone

from engine.drills import KINDS, make_drill
from trainer.classes import services as class_services
from trainer.classes.models import Assignment, Classroom
from trainer.clubs import services as club_services
from trainer.clubs.curriculum import get_step
from trainer.clubs.models import Club, ClubMembership
from trainer.core.seeding import SeedError, load_file, register, seed_files
from trainer.drills.curation import right_answer, wrong_answer
from trainer.drills.models import DrillSet, DrillSetEntry
from trainer.progress import services

_TOKEN_NAMESPACE = uuid.UUID("6f1c1d4e-8a51-4c1e-9d7a-3c2f6a0b9e11")


def demo_enabled() -> bool:
    configured = getattr(settings, "TRAINER_DEMO_DATA", None)
    if configured is None:
        configured = settings.DEBUG or os.environ.get("TRAINER_DEMO_DATA", "").lower() in (
            "1",
            "true",
            "yes",
            "on",
        )
    return bool(configured)


def _users(data: Mapping[str, Any], source: Path) -> dict[str, Any]:
    password = data.get("password")
    if not password or not isinstance(data.get("users"), list):
        raise SeedError(f"{source}: a demo needs a password and a list of users")
    user_model = get_user_model()
    users = {}
    for raw in data["users"]:
        username = raw["username"]
        user, created = user_model.objects.get_or_create(
            username=username,
            defaults={
                "email": raw.get("email", ""),
                "first_name": raw.get("first_name", ""),
                "last_name": raw.get("last_name", ""),
            },
        )
        if created:
            user.set_password(password)
            user.save(update_fields=["password"])
        users[username] = user
    return users


def _club(raw: Mapping[str, Any], users: dict[str, Any], source: Path) -> Club:
    organisers = list(raw.get("organisers", []))
    if not organisers:
        raise SeedError(f"{source}: the demo club needs an organiser")
    club = Club.objects.filter(slug=raw["slug"]).first()
    if club is None:
        club = club_services.club_create(
            user=users[organisers[0]],
            name=raw["name"],
            slug=raw["slug"],
            convention=raw.get("convention", "parlett-2008"),
            rule=raw.get("rule", "classic"),
        )
    for username in organisers[1:]:
        ClubMembership.objects.get_or_create(
            club=club,
            user=users[username],
            defaults={"role": ClubMembership.Role.ORGANISER},
        )
    for username in raw.get("members", []):
        club_services.club_join(user=users[username], club=club)
    return club


def _classroom(raw: Mapping[str, Any], users: dict[str, Any], source: Path) -> int:
    """The demo class and its assignment, through the classes services."""
    teacher = users[raw["teacher"]]
    classroom = Classroom.objects.filter(
        name=raw["name"], memberships__user=teacher, memberships__role="teacher"
    ).first()
    if classroom is None:
        classroom = class_services.classroom_create(name=raw["name"], teacher=teacher)
    # The students joined before their (back-dated) answers: a teacher sees answers given since
    # a student joined the class.
    joined = timezone.now() - timedelta(days=30)
    for username in raw.get("students", []):
        class_services.classroom_join(code=classroom.join_code, user=users[username], now=joined)
    count = 1
    for spec in raw.get("assignments", []):
        drill_set = DrillSet.objects.filter(slug=spec["drill_set"]).first()
        if drill_set is None:
            raise SeedError(f"{source}: no drill set {spec['drill_set']!r} (seed it first)")
        if not Assignment.objects.filter(classroom=classroom, title=spec["title"]).exists():
            # Set before the demo answers (which are spread over past days), so they count.
            class_services.assignment_create(
                classroom=classroom,
                by=teacher,
                title=spec["title"],
                drill_set=drill_set,
                due_on=timezone.localdate() + timedelta(days=int(spec.get("due_in_days", 7))),
                now=timezone.now() - timedelta(days=int(spec.get("set_days_ago", 21))),
            )
        count += 1
    return count


def _answer(
    user: Any, entry_key: str, kind: str, seed: int, params: Any, right: bool, when: Any
) -> bool:
    drill = make_drill(kind, seed, params)
    rng = random.Random(entry_key)
    answer = right_answer(drill) if right else None
    if answer is None:
        answer = wrong_answer(drill, rng)
    token = uuid.uuid5(_TOKEN_NAMESPACE, entry_key)
    shown_at_ms = int(when.timestamp() * 1000) - rng.randint(4_000, 40_000)
    return services.attempt_record(
        user=user,
        drill=drill,
        answer=answer,
        showing=services.Showing(token, shown_at_ms),
        now=when,
    ).created


def _set_answers(user: Any, drill_set: str, right: int, wrong: int, clock: Any) -> int:
    entries = list(DrillSetEntry.objects.filter(drill_set__slug=drill_set).order_by("position"))
    if not entries:
        return 0
    created = 0
    for n, entry in enumerate(entries[: right + wrong]):
        key = f"demo:{user.username}:{drill_set}:{entry.position}"
        created += _answer(
            user, key, entry.kind, entry.seed, entry.drill_params, n < right, next(clock)
        )
    return created


def _practice(user: Any, count: int, accuracy: float, clock: Any) -> int:
    rng = random.Random(f"demo-practice:{user.username}")
    created = 0
    for n in range(count):
        kind = rng.choice(KINDS)
        seed = rng.randrange(10**6)
        key = f"demo:{user.username}:practice:{n}"
        created += _answer(user, key, kind, seed, None, rng.random() < accuracy, next(clock))
    return created


def _clock(days: int, total: int) -> Iterator[datetime]:
    """``total`` times, evenly spread from ``days`` ago to a little before now, in order."""
    start = timezone.now() - timedelta(days=days)
    gap = timedelta(days=days) * 0.9 / max(total, 1)
    for n in range(total):
        yield start + n * gap


def _plan_size(plan: Mapping[str, Any]) -> int:
    pairs = [*(plan.get("path") or {}).values(), *(plan.get("sets") or {}).values()]
    return int(sum(r + w for r, w in pairs)) + int(plan.get("practice", 0))


def _requirements(data: Mapping[str, Any], source: Path) -> None:
    """Load the seed folders the demo builds on first (``requires:``, relative to the demo
    file), since ``seeds/demo/`` sorts before them. ``load_all`` then skips them: it loads each
    file once per run (and loaders are idempotent, so a second run changes nothing)."""
    for folder in data.get("requires") or []:
        directory = (source.parent / folder).resolve()
        if not directory.is_dir():
            raise SeedError(f"{source}: required seed folder {folder!r} does not exist")
        for path in seed_files(directory):
            load_file(path)


@register("demo")
def load_demo(data: Mapping[str, Any], *, source: Path) -> int:
    if not demo_enabled():
        return 0
    _requirements(data, source)
    users = _users(data, source)
    count = len(users)
    if data.get("club"):
        _club(data["club"], users, source)
        count += 1
    if data.get("class"):
        count += _classroom(data["class"], users, source)
    for username, plan in (data.get("answers") or {}).items():
        user = users[username]
        clock = _clock(int(plan.get("days", 10)), _plan_size(plan))
        for number, (right, wrong) in (plan.get("path") or {}).items():
            step = get_step(int(number))
            if step is None:
                raise SeedError(f"{source}: there is no onboarding step {number}")
            count += _set_answers(user, step.drill_set, right, wrong, clock)
        for slug, (right, wrong) in (plan.get("sets") or {}).items():
            count += _set_answers(user, slug, right, wrong, clock)
        if plan.get("practice"):
            count += _practice(user, int(plan["practice"]), float(plan.get("accuracy", 0.7)), clock)
    return count
