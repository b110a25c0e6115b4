"""Writes for clubs' cards. Keyword-only; each checks who acts, whatever the view did.

A card is written only when the engine's checker passes it (``check_card``: no error, every
encoder play read back); an invalid card raises :class:`~django.core.exceptions.ValidationError`
listing the checker's messages, and nothing is written. Versions are never changed: an edit is
a new version, so attempts and played deals keep the card they were made with.

"What is it worth" runs on the task queue (:mod:`trainer.core.tasks`): one message per chunk of
boards, each chunk written once by whichever worker plays it, the result merged when the last
chunk is in.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from engine.signals import CONVENTIONS, Convention
from engine.signals.cardfile import InvalidCardError, load_convention
from engine.tournament import play_boards
from trainer.cards import evaluation as plan
from trainer.cards import selectors
from trainer.cards.models import CardEvaluation, CardVersion, ClubCard, EvaluationChunk
from trainer.cards.selectors import Owner
from trainer.classes.models import ClassMembership
from trainer.clubs import services as club_services
from trainer.clubs.models import ClubMembership
from trainer.core import tasks

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
    try:
        conv = load_convention({**data, "name": name})
    except InvalidCardError as exc:
        raise ValidationError([e.message for e in exc.errors], code="invalid_card") from None
    report = selectors.card_check(conv)
    if not report["valid"]:
        messages = [e["message"] for e in report["errors"]]
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


def evaluation_start(*, actor: AbstractBaseUser, version: CardVersion) -> CardEvaluation:
    """Run "what is it worth" for ``version`` in the background (nothing is played here).

    The card is checked first, so a bad card never reaches a worker. An evaluation that is
    done, or running with chunks coming in, is returned as it is; a failed or stale one (its
    messages lost) is sent again, the chunks already played kept.
    """
    owner = selectors.owner_of(version.card)
    _require_editor(actor=actor, owner=owner)
    checked_card(version.data, version.name)
    with transaction.atomic():
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
        if created:
            evaluation.chunks_total = len(plan.chunks_of(evaluation))
            evaluation.save(update_fields=["chunks_total"])
        elif evaluation.status == CardEvaluation.Status.DONE or (
            evaluation.status != CardEvaluation.Status.FAILED and not selectors.is_stale(evaluation)
        ):
            return evaluation
        evaluation.status = CardEvaluation.Status.QUEUED
        evaluation.error = ""
        evaluation.updated_at = timezone.now()
        evaluation.save(update_fields=["status", "error", "updated_at"])
        played = set(evaluation.chunks.values_list("opponent", "start"))
        missing = [c for c in plan.chunks_of(evaluation) if (c[0], c[1]) not in played]
        transaction.on_commit(lambda: _send(evaluation.pk, missing))
    return evaluation


def _send(evaluation_id: int, chunks: list[tuple[str, int, int]]) -> None:
    """One message per chunk; a queue that cannot be reached fails the evaluation (it can be
    run again) rather than the page."""
    from dramatiq.errors import DramatiqError
    from redis.exceptions import RedisError

    from trainer.cards.tasks import evaluate_chunk

    try:
        for opponent, start, stop in chunks:
            tasks.send(evaluate_chunk, evaluation_id, opponent, start, stop)
    except (DramatiqError, RedisError) as exc:
        evaluation_fail(evaluation_id=evaluation_id, error=f"the task queue: {exc}")


def chunk_play(*, evaluation_id: int, opponent: str, start: int, stop: int) -> None:
    """Play one chunk of an evaluation and write it (a worker's job). Idempotent: a chunk
    already written is not played again, and the last chunk in merges the result."""
    evaluation = (
        CardEvaluation.objects.select_related("version__card").filter(pk=evaluation_id).first()
    )
    if evaluation is None or evaluation.status == CardEvaluation.Status.DONE:
        return
    if not EvaluationChunk.objects.filter(
        evaluation=evaluation, opponent=opponent, start=start
    ).exists():
        spec = plan.spec_for(evaluation, opponent)
        cpu0 = time.thread_time()
        boards = play_boards(spec, start, stop)
        cpu = time.thread_time() - cpu0
        try:
            with transaction.atomic():
                EvaluationChunk.objects.create(
                    evaluation=evaluation,
                    opponent=opponent,
                    start=start,
                    stop=stop,
                    boards=[b.to_json() for b in boards],
                    cpu_seconds=cpu,
                )
                CardEvaluation.objects.filter(
                    pk=evaluation.pk, status__in=["queued", "running"]
                ).update(status=CardEvaluation.Status.RUNNING, updated_at=timezone.now())
        except IntegrityError:  # another worker wrote it first (a retried chunk): same boards
            pass
    _finish_if_complete(evaluation.pk)


@transaction.atomic
def _finish_if_complete(evaluation_id: int) -> None:
    evaluation = (
        CardEvaluation.objects.select_for_update()
        .select_related("version__card")
        .get(pk=evaluation_id)
    )
    if evaluation.status == CardEvaluation.Status.DONE:
        return
    chunks = list(evaluation.chunks.all())
    if len(chunks) < evaluation.chunks_total:
        return
    evaluation.result = plan.merge(evaluation, chunks)
    evaluation.cpu_seconds = sum(c.cpu_seconds for c in chunks)
    evaluation.status = CardEvaluation.Status.DONE
    evaluation.error = ""
    evaluation.finished_at = evaluation.updated_at = timezone.now()
    evaluation.save()


def evaluation_fail(*, evaluation_id: int, error: str) -> None:
    """Mark an evaluation failed (a chunk raised on every try); "run" sends it again."""
    logger.error("card evaluation %s failed: %s", evaluation_id, error)
    CardEvaluation.objects.filter(pk=evaluation_id).exclude(
        status=CardEvaluation.Status.DONE
    ).update(status=CardEvaluation.Status.FAILED, error=error[:2000], updated_at=timezone.now())
