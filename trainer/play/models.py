"""Deals and games played at the table: the learner South, a ``signal`` bot partner North.

A :class:`Game` row is a *record*, not a position: the setup (``engine.play.PlaySetup`` as
JSON: the seed and the settings) and the list of actions taken so far, bots' and learner's, in
order. The engine rebuilds the table from the two on every request, so no card list is ever
copied into a row. ``version`` counts the actions; a write names the version it read
(``UPDATE … WHERE version = n``), so two tabs posting at once record one action.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy, pgettext_lazy


class Game(models.Model):
    """One deal, or a whole game of up to four deals, played by ``owner`` from South."""

    class Status(models.TextChoices):
        PLAYING = "playing", pgettext_lazy("game status", "In play")
        FINISHED = "finished", pgettext_lazy("game status", "Finished")

    class Coach(models.TextChoices):
        ON = "on", gettext_lazy("On: advice, quiz and a line after each hand")
        ON_REQUEST = "request", gettext_lazy("On request: ask when you want it")
        OFF = "off", gettext_lazy("Off: play on your own")

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="play_games"
    )
    #: ``PlaySetup.to_json()``: the seed and the settings. The seed reveals every hand, so no
    #: page shows it before the deal or game is over.
    setup = models.JSONField()
    #: Every action so far (``"7H"``, ``"pass"``, ``"force"``), bots' and the learner's.
    actions = models.JSONField(default=list, blank=True)
    #: The number of actions recorded: a write must name the version it read.
    version = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    coach = models.CharField(max_length=10, choices=Coach.choices, default=Coach.ON)
    #: Hands (``"deal:hand"``) whose lead the coach's advice was asked for before the learner
    #: led: those leads are not counted as the learner's own answers.
    helped = models.JSONField(default=list, blank=True)
    #: The read-only review link's key, made when the deal or game is over (never before).
    share_token = models.UUIDField(null=True, blank=True, unique=True)
    #: The class assignment this deal counts towards, if any (its teacher may look on).
    assignment = models.ForeignKey(
        "classes.Assignment",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="play_games",
    )
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-updated_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["playing", "finished"]), name="play_game_status_known"
            ),
            models.CheckConstraint(
                condition=Q(coach__in=["on", "request", "off"]), name="play_game_coach_known"
            ),
            models.CheckConstraint(
                condition=Q(share_token__isnull=True) | Q(status="finished"),
                name="play_game_shared_only_when_finished",
            ),
        ]
        indexes = [
            models.Index(fields=["owner", "-updated_at"], name="play_game_owner_recent"),
            models.Index(fields=["assignment", "owner"], name="play_game_assignment"),
        ]

    def __str__(self) -> str:
        return f"{self.owner} game {self.pk} ({self.status})"

    def get_absolute_url(self) -> str:
        return reverse("play:table", args=[self.pk])

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED

    @property
    def is_game(self) -> bool:
        """A whole game (four deals or first to 100) rather than one deal."""
        return bool(self.setup.get("game"))

    def attempt_token(self, kind: str, deal_number: int, hand_number: int) -> uuid.UUID:
        """The token of the learner's lead or quiz answer in one hand of this game: one
        attempt per hand, however often it is posted."""
        name = f"concerto-play:{self.pk}:{kind}:{hand_key(deal_number, hand_number)}"
        return uuid.uuid5(uuid.NAMESPACE_URL, name)


def hand_key(deal_number: int, hand_number: int) -> str:
    """How a hand is named in ``Game.helped``: ``"1:3"`` (deal 1, hand 3)."""
    return f"{deal_number}:{hand_number}"
