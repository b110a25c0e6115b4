"""Curated drill sets, loaded from ``seeds/`` by ``manage.py seed``.

An entry names a drill by ``(kind, seed, params)`` only; its answer is always computed by the
engine. The loader checks each entry against the engine (see :mod:`trainer.seed_loaders`).
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from engine.drills import KINDS, DrillParams


class DrillSet(models.Model):
    slug = models.SlugField(max_length=80, unique=True)
    title = models.CharField(max_length=120)
    description = models.TextField(blank=True)
    #: Order in lists (the onboarding path and menus show sets in this order).
    position = models.PositiveIntegerField(default=0)

    class Meta:
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
        ordering = ["drill_set", "position"]
        constraints = [
            models.UniqueConstraint(fields=["drill_set", "position"], name="entry_position_once"),
            models.CheckConstraint(condition=Q(kind__in=KINDS), name="entry_kind_known"),
        ]

    def __str__(self) -> str:
        return f"{self.drill_set.slug} #{self.position}: {self.kind}/{self.seed}"

    @property
    def drill_params(self) -> DrillParams:
        from urllib.parse import parse_qsl

        return DrillParams.from_query(dict(parse_qsl(self.params)))
