"""Writes for clubs' cards. Keyword-only; each checks who acts, whatever the view did.

A card is written only when the engine's checker passes it (``check_card``: no error, every
encoder play read back); an invalid card raises :class:`~django.core.exceptions.ValidationError`
listing the checker's messages, and nothing is written. Versions are never changed: an edit is
a new version, so attempts and played deals keep the card they were made with.

"What is it worth" runs on the task queue (:mod:`trainer.core.infra.tasks`): one message per
chunk of boards to the actor in :mod:`trainer.cards.tasks`, each chunk written once by whichever
worker plays it (:mod:`trainer.cards.work`), the result merged when the last chunk is in. Each
start costs the workers minutes, so starts are limited (:func:`_check_limits`): per organiser
and per club or class, evaluations waiting or running at once and started in the last 24 hours,
and site-wide the evaluations waiting or running.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.utils import formats, timezone
from django.utils.translation import gettext, ngettext

from engine.signals import CONVENTIONS, Convention
from engine.signals.cardfile import InvalidCardError, load_convention
from trainer.cards import evaluation as plan
from trainer.cards import selectors, work
from trainer.cards import tasks as card_tasks
from trainer.cards.models import (
    CardEvaluation,
    CardVersion,
    ClubCard,
    EvaluationStart,
)
from trainer.cards.selectors import Owner
from trainer.cards.wording import error_texts, row_titles
from trainer.classes.models import ClassMembership, Classroom
from trainer.clubs import services as club_services
from trainer.clubs.models import Club, ClubMembership
from trainer.core.infra import tasks

logger = logging.getLogger(__name__)


def _require_editor(*, actor: AbstractBaseUser, owner: Owner) -> None:
    if owner.club is not None:
        allowed = ClubMembership.objects.filter(
            club=owner.club, user_id=actor.pk, role=ClubMembership.Role.ORGANISER
        ).exists()
    else:
        allowed = ClassMembership.objects.filter(
            classroom=owner.classroom, user_id=actor.pk, role=ClassMembership.Role.TEACHER
        ).exists()
    if not allowed:
        raise PermissionDenied(gettext("Only the club's organisers or the class's teachers can."))


def checked_card(data: dict[str, Any], name: str) -> Convention:
    """The card of ``data`` called ``name``, when the engine's checker passes it; else a
    :class:`ValidationError` with the checker's messages."""
    titles = row_titles(data.get("rows") or [])
    try:
        conv = load_convention({**data, "name": name})
    except InvalidCardError as exc:
        errors = [e.to_json() for e in exc.errors]
        raise ValidationError(error_texts(errors, titles), code="invalid_card") from None
    report = selectors.card_check(conv)
    if not report["valid"]:
        messages = error_texts(report["errors"], titles)
        failed = (report["roundtrip"] or {}).get("failed", 0)
        if failed:
            messages.append(
                ngettext(
                    "%(count)s play is not read back as the hand's item.",
                    "%(count)s plays are not read back as the hand's item.",
                    failed,
                )
                % {"count": failed}
            )
        raise ValidationError(messages, code="invalid_card")
    return conv


def _version_of(data: dict[str, Any], card_id: int) -> tuple[str, dict[str, Any]]:
    """The content hash of ``data`` as card ``club-<id>`` (checked), and its JSON under the
    version's own name ``club-<id>-<version>``."""
    version = checked_card(data, f"club-{card_id}").version
    named = checked_card(data, f"club-{card_id}-{version}")
    return version, named.to_json()


@transaction.atomic
def card_create(
    *, actor: AbstractBaseUser, owner: Owner, derived_from: str, data: dict[str, Any]
) -> CardVersion:
    """A new card of ``owner`` (a club or class ``actor`` organises or teaches), derived from
    the shipped card ``derived_from``, its first version ``data``."""
    _require_editor(actor=actor, owner=owner)
    if derived_from not in CONVENTIONS:
        raise ValidationError(gettext("Start from one of the published cards."), code="base")
    title = str(data.get("title", "")).strip()[:120]
    card = ClubCard.objects.create(
        club=owner.club,
        classroom=owner.classroom,
        title=title or CONVENTIONS[derived_from].title,
        derived_from=derived_from,
        created_by_id=actor.pk,
    )
    version, named = _version_of(data, card.pk)  # raises: the transaction writes nothing
    return CardVersion.objects.create(
        card=card, number=1, version=version, data=named, created_by_id=actor.pk
    )


@transaction.atomic
def card_save(*, actor: User, card: ClubCard, data: dict[str, Any]) -> CardVersion:
    """Save an edit of ``card``: a new version, unless it is the newest one unchanged. Where the
    owner's default card was an older version of this card, it becomes the new one."""
    owner = selectors.owner_of(card)
    _require_editor(actor=actor, owner=owner)
    card = ClubCard.objects.select_for_update().get(pk=card.pk)
    version, named = _version_of(data, card.pk)
    newest = selectors.newest_version(card)
    if newest.version == version:
        return newest
    old = CardVersion.objects.filter(card=card, version=version).first()
    number = newest.number + 1
    if old is not None:  # back to an earlier content: that version, made the newest again
        old.number = number
        old.save(update_fields=["number"])
        saved = old
    else:
        saved = CardVersion.objects.create(
            card=card, number=number, version=version, data=named, created_by_id=actor.pk
        )
    card.title = named["title"][:120]
    card.save(update_fields=["title"])
    club = owner.club
    if club is not None and club.convention.startswith(f"club-{card.pk}-"):
        club_services.house_rules_set(actor=actor, club=club, convention=saved.name, rule=club.rule)
    return saved


def default_set(*, actor: User, version: CardVersion) -> None:
    """Make ``version`` the default card of the club that owns it (its house rules)."""
    owner = selectors.owner_of(version.card)
    _require_editor(actor=actor, owner=owner)
    if owner.club is None:
        raise ValidationError(
            gettext("A class uses its card in assignments: choose it when you set one."),
            code="class_default",
        )
    club_services.house_rules_set(
        actor=actor, club=owner.club, convention=version.name, rule=owner.club.rule
    )


# ---------------------------------------------------------------------------------------------
# What is it worth


#: How far back the daily limits look.
DAY = timedelta(hours=24)


def _waiting_or_running() -> QuerySet[CardEvaluation]:
    """The evaluations that hold a place in the limits: queued or running, and not stale
    (:func:`selectors.is_stale`: a stale one's messages were lost, it holds no place)."""
    fresh = timezone.now() - timedelta(seconds=settings.CARDS_EVALUATION_STALE_SECONDS)
    return CardEvaluation.objects.filter(
        status__in=[CardEvaluation.Status.QUEUED, CardEvaluation.Status.RUNNING],
        updated_at__gte=fresh,
    )


def _lock(*, actor: AbstractBaseUser, owner: Owner) -> None:
    """Hold the organiser's row and the club's (class's) row to the end of the transaction, so
    two starts by one organiser, or for one owner, are counted one after the other (PostgreSQL
    locks the rows; a SQLite transaction holds the database's write lock from its start)."""
    users = get_user_model().objects.select_for_update().filter(pk=actor.pk)
    list(users.values_list("pk", flat=True))
    if owner.club is not None:
        owners: QuerySet[Any] = Club.objects.filter(pk=owner.club.pk)
    else:
        assert owner.classroom is not None
        owners = Classroom.objects.filter(pk=owner.classroom.pk)
    list(owners.select_for_update().values_list("pk", flat=True))


def _next_start(starts: QuerySet[EvaluationStart], limit: int) -> tuple[int, datetime] | None:
    """``None`` when fewer than ``limit`` of ``starts`` were in the last 24 hours; else how many
    were, and when the next start is allowed (the minute the oldest one that must go leaves
    the window)."""
    now = timezone.now()
    recent = starts.filter(started_at__gt=now - DAY)
    count = recent.count()
    if count < limit:
        return None
    if limit >= 1:
        newest = recent.order_by("-started_at").values_list("started_at", flat=True)
        when = newest[limit - 1] + DAY
    else:  # a limit of 0: no start is allowed
        when = now + DAY
    if when.second or when.microsecond:
        when = when.replace(second=0, microsecond=0) + timedelta(minutes=1)
    return count, when


def _at(when: datetime) -> str:
    """A time of the next 24 hours as the messages give it: ``14:05 UTC`` (the site's zone)."""
    return formats.time_format(timezone.localtime(when), "H:i T")


def _check_limits(*, actor: AbstractBaseUser, owner: Owner, evaluation: CardEvaluation) -> None:
    """Refuse (``ValidationError``) a start of ``evaluation`` by ``actor`` for a card of
    ``owner`` past a limit: evaluations waiting or running at once and started in 24 hours,
    per organiser (``CARDS_EVALUATION_ACTIVE_PER_USER``, ``…_PER_DAY_PER_USER``) and per club
    or class (``…_ACTIVE_PER_OWNER``, ``…_PER_DAY_PER_OWNER``), and waiting or running on the
    whole site (``CARDS_EVALUATION_QUEUE_LIMIT``). Called with the rows of :func:`_lock` held."""
    active = _waiting_or_running().exclude(pk=evaluation.pk)
    count = active.filter(started_by_id=actor.pk).count()
    if count >= settings.CARDS_EVALUATION_ACTIVE_PER_USER:
        raise ValidationError(
            ngettext(
                "You already have an evaluation waiting or running: wait for it to finish.",
                "You already have %(count)s evaluations waiting or running: "
                "wait for one to finish.",
                count,
            )
            % {"count": count},
            code="evaluation_user_active",
        )
    full = _next_start(
        EvaluationStart.objects.filter(user_id=actor.pk), settings.CARDS_EVALUATION_PER_DAY_PER_USER
    )
    if full is not None:
        count, when = full
        raise ValidationError(
            ngettext(
                "You have started an evaluation in the last 24 hours: "
                "the next one can start at %(time)s.",
                "You have started %(count)s evaluations in the last 24 hours: "
                "the next one can start at %(time)s.",
                count,
            )
            % {"count": count, "time": _at(when)},
            code="evaluation_user_day",
        )
    if owner.club is not None:
        owned = active.filter(version__card__club=owner.club)
        starts = EvaluationStart.objects.filter(club=owner.club)
    else:
        owned = active.filter(version__card__classroom=owner.classroom)
        starts = EvaluationStart.objects.filter(classroom=owner.classroom)
    count = owned.count()
    if count >= settings.CARDS_EVALUATION_ACTIVE_PER_OWNER:
        raise ValidationError(
            ngettext(
                "%(owner)s already has an evaluation waiting or running: wait for it to finish.",
                "%(owner)s already has %(count)s evaluations waiting or running: "
                "wait for one to finish.",
                count,
            )
            % {"owner": owner.name, "count": count},
            code="evaluation_owner_active",
        )
    full = _next_start(starts, settings.CARDS_EVALUATION_PER_DAY_PER_OWNER)
    if full is not None:
        count, when = full
        raise ValidationError(
            ngettext(
                "%(owner)s has started an evaluation in the last 24 hours: "
                "the next one can start at %(time)s.",
                "%(owner)s has started %(count)s evaluations in the last 24 hours: "
                "the next one can start at %(time)s.",
                count,
            )
            % {"owner": owner.name, "count": count, "time": _at(when)},
            code="evaluation_owner_day",
        )
    if active.count() >= settings.CARDS_EVALUATION_QUEUE_LIMIT:
        raise ValidationError(
            gettext("The evaluation queue is full right now: try again in a few minutes."),
            code="evaluation_queue_full",
        )


def evaluation_start(*, actor: AbstractBaseUser, version: CardVersion) -> CardEvaluation:
    """Run "what is it worth" for ``version`` in the background (nothing is played here).

    The card is checked first, so a bad card never reaches a worker. An evaluation that is
    done, or running with chunks coming in, is returned as it is (no limit refuses it, and it
    counts as no start); a failed or stale one (its messages lost) is sent again, the chunks
    already played kept. A start (a first one or a run again) past one of the limits of
    :func:`_check_limits` raises ``ValidationError`` saying which, and when to try again; it
    writes nothing and sends nothing.
    """
    owner = selectors.owner_of(version.card)
    _require_editor(actor=actor, owner=owner)
    checked_card(version.data, version.name)
    with transaction.atomic():
        _lock(actor=actor, owner=owner)
        evaluation, created = CardEvaluation.objects.select_for_update().get_or_create(
            version=version,
            rule=owner.rule,
            deals=settings.CARDS_EVALUATION_DEALS,
            seed=settings.CARDS_EVALUATION_SEED,
            defaults={
                "chunk_size": settings.CARDS_EVALUATION_CHUNK,
                "chunks_total": 0,
                "created_by_id": actor.pk,
            },
        )
        if not created and (
            evaluation.status == CardEvaluation.Status.DONE
            or (
                evaluation.status != CardEvaluation.Status.FAILED
                and not selectors.is_stale(evaluation)
            )
        ):
            return evaluation
        _check_limits(actor=actor, owner=owner, evaluation=evaluation)  # raises: nothing written
        now = timezone.now()
        if created:
            evaluation.chunks_total = len(plan.chunks_of(evaluation))
        evaluation.status = CardEvaluation.Status.QUEUED
        evaluation.error = ""
        evaluation.started_by_id = actor.pk
        evaluation.started_at = evaluation.updated_at = now
        fields = ["chunks_total", "status", "error", "started_by", "started_at", "updated_at"]
        evaluation.save(update_fields=fields)
        EvaluationStart.objects.create(
            evaluation=evaluation,
            user_id=actor.pk,
            club=owner.club,
            classroom=owner.classroom,
            started_at=now,
        )
        played = set(evaluation.chunks.values_list("opponent", "start"))
        missing = [c for c in plan.chunks_of(evaluation) if (c[0], c[1]) not in played]
        transaction.on_commit(lambda: _send(evaluation.pk, missing))
    return evaluation


def _send(evaluation_id: int, chunks: list[tuple[str, int, int]]) -> None:
    """One message per chunk; a queue that cannot be reached fails the evaluation (it can be
    run again) rather than the page."""
    from dramatiq.errors import DramatiqError
    from redis.exceptions import RedisError

    try:
        for opponent, start, stop in chunks:
            tasks.send(card_tasks.evaluate_chunk, evaluation_id, opponent, start, stop)
    except (DramatiqError, RedisError) as exc:
        work.evaluation_fail(evaluation_id=evaluation_id, error=f"the task queue: {exc}")
