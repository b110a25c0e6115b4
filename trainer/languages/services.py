"""Saving a signed-in user's language."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.translation import gettext

from trainer.classes.models import ClassMembership, Classroom
from trainer.core.languages import language_codes
from trainer.languages.models import ClassroomLanguage, LanguagePreference


def language_save(*, user: User, language: str) -> bool:
    """Save ``language`` as the user's choice; ``False`` (nothing written) when unknown."""
    if language not in language_codes():
        return False
    LanguagePreference.objects.update_or_create(user_id=user.pk, defaults={"language": language})
    return True


def classroom_language_set(*, actor: User, classroom: Classroom, language: str) -> str:
    """Set the class's default language ("" for none: each student's browser decides). Only
    its teachers may, and not while the class is archived."""
    is_teacher = ClassMembership.objects.filter(
        classroom=classroom, user_id=actor.pk, role=ClassMembership.Role.TEACHER
    ).exists()
    if not is_teacher:
        raise PermissionDenied(gettext("Only the class's teachers can do that."))
    if classroom.archived_at is not None:
        raise ValidationError(gettext("This class is archived, so it cannot be changed."))
    if language and language not in language_codes():
        raise ValidationError(gettext("Choose one of the listed languages."))
    if language:
        ClassroomLanguage.objects.update_or_create(
            classroom=classroom, defaults={"language": language}
        )
    else:
        ClassroomLanguage.objects.filter(classroom=classroom).delete()
    return language
