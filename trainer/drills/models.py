"""Curated drill sets, loaded from ``seeds/`` by ``manage.py seed``.

An entry names a drill by ``(kind, seed, params)`` only; its answer is always computed by the
engine. The loader checks each entry against the engine (see :mod:`trainer.drills.seed_loaders`).
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from engine.drills import KINDS, DrillParams

#: The drill kinds as plain strings (what the database and the migrations hold).
KIND_NAMES = [str(k) for k in KINDS]


class DrillSet(models.Model):
    slug = models.SlugField(max_length=80, unique=True)
    title = models.CharField(max_length=120)
    description = models.TextField(blank=True)
    #: Order in lists (the onboarding path and menus show sets in this order).
    position = models.PositiveIntegerField(default=0)

    class Meta:
        db_table = "trainer_drillset"  # the table made before the app split
        ordering = ["position", "title"]

    def __str__(self) -> str:
        return self.title


class DrillSetEntry(models.Model):
    drill_set = models.ForeignKey(DrillSet, on_delete=models.CASCADE, related_name="entries")
    position = models.PositiveIntegerField()
    kind = models.CharField(max_length=16)
    seed = models.PositiveBigIntegerField()
    params = models.CharField(max_length=255, blank=True, default="")

    class Meta:
        db_table = "trainer_drillsetentry"  # the table made before the app split
        ordering = ["drill_set", "position"]
        constraints = [
            models.UniqueConstraint(fields=["drill_set", "position"], name="entry_position_once"),
            models.CheckConstraint(condition=Q(kind__in=KIND_NAMES), name="entry_kind_known"),
        ]

    def __str__(self) -> str:
        return f"{self.drill_set.slug} #{self.position}: {self.kind}/{self.seed}"

    @property
    def drill_params(self) -> DrillParams:
        """The entry's drill settings. A curated entry names a drill of the current generator
        (the seed loader rebuilds and re-checks every entry), so params stored without ``v``
        are read as the current version's, unlike a drill's own address."""
        return DrillParams.from_query(self.params)
