"""A signed-in user's saved language (one row per user who chose one)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class LanguagePreference(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="language_preference"
    )
    #: One of ``settings.LANGUAGES`` (checked by the service; no choices, so a new language
    #: needs no migration).
    language = models.CharField(_("language"), max_length=10)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("language preference")
        verbose_name_plural = _("language preferences")
        constraints = [
            models.CheckConstraint(condition=~Q(language=""), name="language_preference_not_empty"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.language}"


class ClassroomLanguage(models.Model):
    """A class's default language: what its students see until they choose one. Kept here,
    beside the users' choices, so the classes app needs no field for it."""

    classroom = models.OneToOneField(
        "classes.Classroom", on_delete=models.CASCADE, related_name="language_default"
    )
    #: One of ``settings.LANGUAGES`` ("" is stored as no row).
    language = models.CharField(_("language"), max_length=10)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("class language")
        verbose_name_plural = _("class languages")
        constraints = [
            models.CheckConstraint(condition=~Q(language=""), name="classroom_language_not_empty"),
        ]

    def __str__(self) -> str:
        return f"{self.classroom_id}: {self.language}"
