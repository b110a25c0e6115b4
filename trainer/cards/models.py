"""A club's (or a class's) own convention card, its versions and what each version is worth.

A :class:`ClubCard` belongs to one club or one class and was derived from a shipped card. Its
content lives in :class:`CardVersion` rows, never changed once written: saving an edit makes a
new version, so an answer or a played deal keeps the card it was made with. A version is
known to the engine as ``club-<card id>-<version>`` (:attr:`CardVersion.name`), ``version``
being the engine's content hash of the card (``Convention.version`` of the card named
``club-<card id>``). :class:`CardEvaluation` is one run of "what is it worth" for a version,
its boards played in chunks (:class:`EvaluationChunk`) by the task queue's workers; each time
one is sent to the queue is an :class:`EvaluationStart` (what the daily limits count).
"""

from __future__ import annotations

import re

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from engine.signals import CONVENTIONS

#: What a version's engine name looks like: ``club-12-0123456789ab``.
NAME_PATTERN = re.compile(r"club-([1-9][0-9]{0,17})-([0-9a-f]{12})")


def version_name(card_id: int, version: str) -> str:
    """The engine's name of a version: ``club-<card id>-<version>``."""
    return f"club-{card_id}-{version}"


class ClubCard(models.Model):
    """A card owned by exactly one club or one class."""

    club = models.ForeignKey(
        "clubs.Club", on_delete=models.CASCADE, null=True, blank=True, related_name="cards"
    )
    classroom = models.ForeignKey(
        "classes.Classroom", on_delete=models.CASCADE, null=True, blank=True, related_name="cards"
    )
    #: The title of its newest version (what lists show).
    title = models.CharField(max_length=120)
    #: The shipped card it was derived from (the base of its diff and of its evaluation).
    derived_from = models.CharField(max_length=40)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["title", "id"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(club__isnull=False) & Q(classroom__isnull=True))
                | (Q(club__isnull=True) & Q(classroom__isnull=False)),
                name="clubcard_one_owner",
            ),
            models.CheckConstraint(
                condition=Q(derived_from__in=list(CONVENTIONS)), name="clubcard_derived_known"
            ),
            models.CheckConstraint(condition=~Q(title=""), name="clubcard_title_not_empty"),
        ]

    def __str__(self) -> str:
        return self.title

    @property
    def derived_title(self) -> str:
        """The title of the shipped card this one was derived from ("Parlett 2008")."""
        return (
            CONVENTIONS[self.derived_from].title
            if self.derived_from in CONVENTIONS
            else (self.derived_from)
        )

    @property
    def owner(self) -> models.Model:
        return self.club if self.club_id is not None else self.classroom  # type: ignore[return-value]


class CardVersion(models.Model):
    """One version of a card: its JSON (named :attr:`name`), numbered 1, 2, … per card."""

    card = models.ForeignKey(ClubCard, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    version = models.CharField(max_length=12)
    data = models.JSONField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["card", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["card", "number"], name="cardversion_number_once"),
            models.UniqueConstraint(fields=["card", "version"], name="cardversion_version_once"),
            models.CheckConstraint(
                condition=Q(version__regex=r"^[0-9a-f]{12}$"), name="cardversion_version_shape"
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="cardversion_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.card} v{self.number}"

    @property
    def name(self) -> str:
        return version_name(self.card_id, self.version)


class CardEvaluation(models.Model):
    """One version's worth: duplicate tournaments of the card against the card it came from
    and against the greedy bot, over the same seeded deals ("what is it worth")."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Waiting for a worker")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    version = models.ForeignKey(CardVersion, on_delete=models.CASCADE, related_name="evaluations")
    rule = models.CharField(max_length=20)
    deals = models.PositiveIntegerField()
    seed = models.PositiveIntegerField()
    chunk_size = models.PositiveIntegerField()
    chunks_total = models.PositiveIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    #: ``{"base": TournamentResult JSON, "greedy": …}`` once done (without timings).
    result = models.JSONField(null=True, blank=True)
    #: CPU seconds the workers spent on its chunks.
    cpu_seconds = models.FloatField(default=0.0)
    error = models.TextField(blank=True, default="")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    #: Who last sent it to the queue, and when (its first start, or the last time it was run
    #: again): whose "waiting or running" limit it takes a place in.
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    started_at = models.DateTimeField(default=timezone.now)
    #: When the last chunk came in, or the evaluation was (re)sent to the queue.
    updated_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status", "updated_at"], name="cardevaluation_active")]
        constraints = [
            models.UniqueConstraint(
                fields=["version", "rule", "deals", "seed"], name="cardevaluation_once"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["queued", "running", "done", "failed"]),
                name="cardevaluation_status_known",
            ),
            models.CheckConstraint(condition=Q(deals__gte=1), name="cardevaluation_deals"),
            models.CheckConstraint(condition=Q(chunk_size__gte=1), name="cardevaluation_chunk"),
        ]

    def __str__(self) -> str:
        return f"{self.version} over {self.deals} deals ({self.status})"


class EvaluationStart(models.Model):
    """One time an evaluation was sent to the queue — its first start or a run again — by
    ``user`` for a card of ``club`` or ``classroom``: what the daily limits count. Kept when the
    evaluation, its card or its club goes (the link is emptied), so a deletion gives no start
    back."""

    evaluation = models.ForeignKey(
        CardEvaluation, on_delete=models.SET_NULL, null=True, blank=True, related_name="starts"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    club = models.ForeignKey(
        "clubs.Club", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    classroom = models.ForeignKey(
        "classes.Classroom", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    started_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-started_at", "-id"]
        indexes = [
            models.Index(fields=["user", "started_at"], name="evaluationstart_user"),
            models.Index(fields=["club", "started_at"], name="evaluationstart_club"),
            models.Index(fields=["classroom", "started_at"], name="evaluationstart_class"),
        ]

    def __str__(self) -> str:
        return f"evaluation {self.evaluation_id} started {self.started_at:%Y-%m-%d %H:%M}"


class EvaluationChunk(models.Model):
    """The boards ``start``..``stop - 1`` of one of an evaluation's tournaments, as played by a
    worker (:meth:`engine.tournament.BoardResult.to_json` each). Written once: a chunk played
    again (its worker died before acknowledging it) finds its row there."""

    class Opponent(models.TextChoices):
        BASE = "base", _("The card it came from")
        GREEDY = "greedy", _("The greedy bot")

    evaluation = models.ForeignKey(CardEvaluation, on_delete=models.CASCADE, related_name="chunks")
    opponent = models.CharField(max_length=8, choices=Opponent.choices)
    start = models.PositiveIntegerField()
    stop = models.PositiveIntegerField()
    boards = models.JSONField()
    cpu_seconds = models.FloatField(default=0.0)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["evaluation", "opponent", "start"]
        constraints = [
            models.UniqueConstraint(
                fields=["evaluation", "opponent", "start"], name="evaluationchunk_once"
            ),
            models.CheckConstraint(
                condition=Q(opponent__in=["base", "greedy"]), name="evaluationchunk_opponent"
            ),
            models.CheckConstraint(
                condition=Q(stop__gt=models.F("start")), name="evaluationchunk_span"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.evaluation_id}/{self.opponent} {self.start}..{self.stop}"
