"""Writes for classes. Keyword-only and atomic; each checks who acts, whatever the view did.

Business rules are refused with :class:`~django.core.exceptions.ValidationError` (a message for
the person, and a ``code``); acting on a class one does not teach raises ``PermissionDenied``.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import date, datetime

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from engine.scoring import SCORING_RULES
from engine.signals import CONVENTIONS
from trainer.classes.models import (
    Assignment,
    AssignmentDrill,
    ClassMembership,
    Classroom,
    new_join_code,
    normalize_join_code,
)
from trainer.classes.specs import BuiltSpec, PlannedDrill, SpecError, max_drills
from trainer.core.game import conventions
from trainer.core.infra.dbretry import retry_on_lock
from trainer.drills.models import DrillSet

Role = ClassMembership.Role
#: Deals a "play N deals" assignment may ask for.
MAX_PLAY_DEALS = 10


@dataclass(frozen=True, slots=True)
class PlaySpec:
    """A "play N deals" assignment: how many, with which convention and scoring rule."""

    deals: int
    convention: str
    rule: str


#: Base seeds of built assignments are drawn below this (drill pages accept far larger seeds).
BASE_SEED_RANGE = 10**9
_CODE_TRIES = 8


def _require_teacher(classroom: Classroom, user: User) -> None:
    if not ClassMembership.objects.filter(
        classroom=classroom, user_id=user.pk, role=Role.TEACHER
    ).exists():
        raise PermissionDenied(gettext("Only the class's teachers can do that."))


def _require_open(classroom: Classroom) -> None:
    if classroom.is_archived:
        raise ValidationError(
            gettext("This class is archived, so it cannot be changed."), code="archived"
        )


def _unused_join_code() -> str:
    for _ in range(_CODE_TRIES):
        code = new_join_code()
        if not Classroom.objects.filter(join_code=code).exists():
            return code
    raise RuntimeError("could not draw an unused join code")  # pragma: no cover - 31**10 codes


@transaction.atomic
def classroom_create(*, name: str, teacher: User, now: datetime | None = None) -> Classroom:
    """A new class taught by ``teacher``, with a fresh join code."""
    now = now or timezone.now()
    name = name.strip()
    if not name:
        raise ValidationError(gettext("Give the class a name."), code="name")
    classroom = Classroom.objects.create(name=name, join_code=_unused_join_code(), created_at=now)
    ClassMembership.objects.create(
        classroom=classroom, user=teacher, role=Role.TEACHER, joined_at=now
    )
    return classroom


@retry_on_lock  # idempotent: safe to run again if SQLite stays locked
@transaction.atomic
def classroom_join(
    *, code: str, user: User, now: datetime | None = None
) -> tuple[ClassMembership, bool]:
    """Join the class whose code this is, as a student; returns ``(membership, created)``.

    Joining a class one already belongs to (as teacher or student) changes nothing. Raises
    ``ValidationError`` with code ``unknown_code`` (which the view counts as a failed guess)
    or ``archived``.
    """
    classroom = Classroom.objects.filter(join_code=normalize_join_code(code)).first()
    if classroom is None:
        raise ValidationError(
            gettext("No class has that join code. Check it with your teacher."),
            code="unknown_code",
        )
    existing = ClassMembership.objects.filter(classroom=classroom, user_id=user.pk).first()
    if existing is not None:
        return existing, False
    _require_open(classroom)
    try:
        with transaction.atomic():
            membership = ClassMembership.objects.create(
                classroom=classroom,
                user=user,
                role=Role.STUDENT,
                joined_at=now or timezone.now(),
            )
    except IntegrityError:  # a double submit raced us
        return ClassMembership.objects.get(classroom=classroom, user_id=user.pk), False
    return membership, True


@transaction.atomic
def student_remove(*, classroom: Classroom, student: User, by: User) -> None:
    """Take a student out of the class; the teacher no longer sees their answers."""
    _require_teacher(classroom, by)
    _require_open(classroom)
    deleted, _ = ClassMembership.objects.filter(
        classroom=classroom, user_id=student.pk, role=Role.STUDENT
    ).delete()
    if not deleted:
        raise ValidationError("That person is not a student in this class.", code="not_student")


@transaction.atomic
def co_teacher_add(
    *, classroom: Classroom, username: str, by: User, now: datetime | None = None
) -> ClassMembership:
    """Make an existing user, found by username, another teacher of the class."""
    _require_teacher(classroom, by)
    _require_open(classroom)
    user_model = get_user_model()
    username = username.strip()
    user = user_model._default_manager.filter(**{user_model.USERNAME_FIELD: username}).first()
    if user is None:
        raise ValidationError(
            gettext("There is no account called “%(name)s”.") % {"name": username},
            code="unknown_user",
        )
    existing = ClassMembership.objects.filter(classroom=classroom, user=user).first()
    if existing is not None and existing.role == Role.TEACHER:
        raise ValidationError(
            gettext("%(name)s already teaches this class.") % {"name": username},
            code="already_teacher",
        )
    if existing is not None:
        raise ValidationError(
            gettext(
                "%(name)s is a student in this class. Remove them as a student first if they "
                "should teach it."
            )
            % {"name": username},
            code="is_student",
        )
    return ClassMembership.objects.create(
        classroom=classroom, user=user, role=Role.TEACHER, joined_at=now or timezone.now()
    )


@transaction.atomic
def membership_leave(*, classroom: Classroom, user: User) -> None:
    """Leave a class. The last teacher cannot leave (archive the class instead)."""
    membership = (
        ClassMembership.objects.select_for_update()
        .filter(classroom=classroom, user_id=user.pk)
        .first()
    )
    if membership is None:
        raise ValidationError(gettext("You are not in this class."), code="not_member")
    if (
        membership.role == Role.TEACHER
        and not ClassMembership.objects.filter(classroom=classroom, role=Role.TEACHER)
        .exclude(pk=membership.pk)
        .exists()
    ):
        raise ValidationError(
            gettext("A class needs a teacher: archive it instead of leaving."),
            code="last_teacher",
        )
    membership.delete()


@transaction.atomic
def classroom_archive(*, classroom: Classroom, by: User, now: datetime | None = None) -> Classroom:
    """Make the class read-only: no joins, no new assignments, no membership changes."""
    _require_teacher(classroom, by)
    if not classroom.is_archived:
        classroom.archived_at = now or timezone.now()
        classroom.save(update_fields=["archived_at"])
    return classroom


@transaction.atomic
def classroom_restore(*, classroom: Classroom, by: User) -> Classroom:
    """Undo :func:`classroom_archive`."""
    _require_teacher(classroom, by)
    if classroom.is_archived:
        classroom.archived_at = None
        classroom.save(update_fields=["archived_at"])
    return classroom


@transaction.atomic
def join_code_rotate(*, classroom: Classroom, by: User) -> Classroom:
    """A new join code; the old code and link stop working at once."""
    _require_teacher(classroom, by)
    _require_open(classroom)
    classroom.join_code = _unused_join_code()
    classroom.save(update_fields=["join_code"])
    return classroom


def _drill_set_plan(drill_set: DrillSet) -> list[PlannedDrill]:
    """A curated set's entries in order, params made canonical, repeats dropped."""
    planned: list[PlannedDrill] = []
    seen: set[tuple[str, int, str]] = set()
    for entry in drill_set.entries.order_by("position"):
        key = entry.drill_params.key()
        if (entry.kind, entry.seed, key) not in seen:
            seen.add((entry.kind, entry.seed, key))
            planned.append(PlannedDrill(entry.kind, entry.seed, key))
    return planned


@transaction.atomic
def assignment_create(
    *,
    classroom: Classroom,
    by: User,
    title: str,
    due_on: date,
    drill_set: DrillSet | None = None,
    spec: BuiltSpec | None = None,
    base_seed: int | None = None,
    play: PlaySpec | None = None,
    now: datetime | None = None,
) -> Assignment:
    """Set the class a curated ``drill_set``, a ``spec`` built on the spot, or ``play``: a
    number of deals to play at the table; due ``due_on``.

    The drills are resolved now and stored in order; a built spec is checked drill by drill
    with the engine first, so students never meet a drill that cannot be made. A play
    assignment has no drills: each student's deals count towards it as they finish them.
    """
    _require_teacher(classroom, by)
    _require_open(classroom)
    if sum(x is not None for x in (drill_set, spec, play)) != 1:
        raise ValidationError(
            gettext("Choose a drill set, build the drills, or set deals to play: one of them."),
            code="source",
        )
    title = title.strip()
    if not title:
        raise ValidationError(gettext("Give the assignment a title."), code="title")
    fields: dict[str, object] = {}
    if play is not None:
        if not 1 <= play.deals <= MAX_PLAY_DEALS:
            raise ValidationError(
                gettext("Set between 1 and %(max)s deals to play.") % {"max": MAX_PLAY_DEALS},
                code="deals",
            )
        if play.convention not in CONVENTIONS or play.rule not in SCORING_RULES:
            raise ValidationError(
                gettext("Choose a known convention and scoring rule."), code="spec"
            )
        return Assignment.objects.create(
            classroom=classroom,
            title=title,
            due_on=due_on,
            created_by=by,
            created_at=now or timezone.now(),
            source=Assignment.Source.PLAY,
            count=play.deals,
            convention=play.convention,
            rule=play.rule,
        )
    if spec is not None:
        if not conventions.allowed(spec.convention, classroom=classroom):
            raise ValidationError(
                gettext("Choose a published card or one of the class's own."), code="spec"
            )
        base_seed = secrets.randbelow(BASE_SEED_RANGE) if base_seed is None else base_seed
        try:
            planned = spec.check(base_seed=base_seed)
        except SpecError as exc:
            raise ValidationError(str(exc), code="spec") from exc
        fields = {
            "source": Assignment.Source.BUILT,
            "kinds": ",".join(spec.kinds),
            "items": ",".join(spec.items),
            "count": spec.count,
            "convention": spec.convention,
            "rule": spec.rule,
            "base_seed": base_seed,
        }
    else:
        assert drill_set is not None
        planned = _drill_set_plan(drill_set)
        if not planned:
            raise ValidationError(gettext("That drill set has no drills yet."), code="empty_set")
        if len(planned) > max_drills():
            raise ValidationError(
                gettext("That drill set has more than %(max)s drills.") % {"max": max_drills()},
                code="too_many",
            )
        fields = {"source": Assignment.Source.DRILL_SET, "drill_set": drill_set}
    assignment = Assignment.objects.create(
        classroom=classroom,
        title=title,
        due_on=due_on,
        created_by=by,
        created_at=now or timezone.now(),
        **fields,
    )
    AssignmentDrill.objects.bulk_create(
        [
            AssignmentDrill(
                assignment=assignment, position=n, kind=d.kind, seed=d.seed, params=d.params
            )
            for n, d in enumerate(planned, start=1)
        ]
    )
    return assignment


@transaction.atomic
def assignment_delete(*, assignment: Assignment, by: User) -> None:
    """Withdraw an assignment. Students' answers stay in their own history."""
    _require_teacher(assignment.classroom, by)
    _require_open(assignment.classroom)
    assignment.delete()
