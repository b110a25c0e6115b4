"""Lessons: Markdown texts loaded from ``seeds/lessons/`` by ``manage.py seed``.

English lessons sit in ``seeds/lessons/`` itself, each other language's in
``seeds/lessons/<language code>/`` under the same slugs; one row per lesson and language.

The body is Markdown with example blocks (see :mod:`trainer.learn.markdown`); whatever an
example shows about a hand or a signal is computed by the engine when the page is rendered,
never stored here.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q


class Lesson(models.Model):
    slug = models.SlugField(max_length=80)
    #: A code from ``settings.LANGUAGES`` (``en`` for the lessons in ``seeds/lessons/``).
    language = models.CharField(max_length=12, default="en")
    title = models.CharField(max_length=120)
    #: Order on the lessons page.
    position = models.PositiveIntegerField(default=0)
    #: The onboarding step (1..7, see :mod:`trainer.clubs.curriculum`) the lesson belongs to.
    step = models.PositiveSmallIntegerField(null=True, blank=True)
    summary = models.CharField(max_length=240, blank=True, default="")
    body = models.TextField()

    class Meta:
        db_table = "trainer_lesson"  # the table made before the app split
        ordering = ["position", "title"]
        constraints = [
            models.UniqueConstraint(fields=["slug", "language"], name="lesson_slug_language"),
            models.CheckConstraint(
                condition=Q(step__isnull=True) | Q(step__gte=1, step__lte=20),
                name="lesson_step_in_range",
            ),
        ]

    def __str__(self) -> str:
        return self.title
