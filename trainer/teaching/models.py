"""Board sets: boards a teacher chose for a class, each a ``deal --seed`` and its dealer.

A board's seed deals every card, so a set is seen by the class's teachers only; students meet
its boards at the table, where the seed stays hidden until the deal is over.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from trainer.classes.models import Classroom
from trainer.core.game import conventions


class BoardSet(models.Model):
    """A named set of boards for a class, found on one convention card."""

    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="board_sets")
    title = models.CharField(max_length=80)
    convention = models.CharField(max_length=40)
    #: What the boards were found by, as the teacher asked (shown beside the set).
    query = models.JSONField(default=dict)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [models.CheckConstraint(condition=~Q(title=""), name="board_set_titled")]

    def __str__(self) -> str:
        return self.title

    @property
    def convention_title(self) -> str:
        return conventions.title(self.convention)


class SetBoard(models.Model):
    """Board ``number`` of a set: dealt by ``engine deal --seed SEED --dealer DEALER``, with
    ``seat`` leading the deal's first hand holding ``item`` and leading ``lead``."""

    board_set = models.ForeignKey(BoardSet, on_delete=models.CASCADE, related_name="boards")
    number = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField()
    dealer = models.CharField(max_length=1)
    seat = models.CharField(max_length=1)
    item = models.CharField(max_length=20)
    shape = models.CharField(max_length=10, blank=True)
    lead = models.CharField(max_length=10)
    #: A board entered by hand: ``{"N": [13 card codes], "E": …, "S": …, "W": …}`` (the seed
    #: then only seeds the bots); None: dealt from the seed.
    hands = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["board_set", "number"]
        constraints = [
            models.UniqueConstraint(fields=["board_set", "number"], name="set_board_number"),
            models.CheckConstraint(condition=Q(dealer__in=list("NESW")), name="set_board_dealer"),
            models.CheckConstraint(condition=Q(seat__in=list("NESW")), name="set_board_seat"),
        ]

    def __str__(self) -> str:
        return f"board {self.number} of {self.board_set}"
