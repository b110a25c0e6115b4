"""Which language a signed-in user's pages are shown in, when they or their groups chose one.

Precedence: the user's saved preference, then the default of a class they are a student of,
then the default of a club they belong to (oldest membership first). ``None`` leaves the
choice to Django's ``LocaleMiddleware`` (the language cookie, then ``Accept-Language``).
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.http import HttpRequest

from trainer.classes.models import ClassMembership, Classroom
from trainer.clubs.models import ClubMembership
from trainer.core.languages import SESSION_KEY as CORE_SESSION_KEY
from trainer.core.languages import language_codes
from trainer.languages.models import ClassroomLanguage, LanguagePreference


def saved_language(user: User | AnonymousUser) -> str | None:
    """The language the user saved with the switcher, if any."""
    if not user.is_authenticated:
        return None
    found = (
        LanguagePreference.objects.filter(user_id=user.pk)
        .values_list("language", flat=True)
        .first()
    )
    return found if found in language_codes() else None


def group_language(user: User | AnonymousUser) -> str | None:
    """The default language of the user's class (as a student), else of their club."""
    if not user.is_authenticated:
        return None
    known = language_codes()
    for language in _class_languages(user.pk):
        if language in known:
            return language
    clubs = (
        ClubMembership.objects.filter(user_id=user.pk)
        .exclude(club__language="")
        .order_by("joined_at", "pk")
        .values_list("club__language", flat=True)
    )
    for language in clubs:
        if language in known:
            return language
    return None


def _class_languages(user_id: int) -> list[str]:
    """The defaults of the classes the user is a student of, earliest joined first."""
    return list(
        ClassroomLanguage.objects.filter(
            classroom__memberships__user_id=user_id,
            classroom__memberships__role=ClassMembership.Role.STUDENT,
        )
        .order_by("classroom__memberships__joined_at", "pk")
        .values_list("language", flat=True)
    )


def classroom_language(classroom: Classroom) -> str:
    """The class's default language, "" when it has none."""
    found = (
        ClassroomLanguage.objects.filter(classroom=classroom)
        .values_list("language", flat=True)
        .first()
    )
    return found or ""


def language_for(user: User | AnonymousUser) -> str | None:
    """The saved preference, else the class or club default, else ``None``."""
    return saved_language(user) or group_language(user)


#: (The session key is the core's: sockets read it too.)
SESSION_KEY = CORE_SESSION_KEY


def remember_language(request: HttpRequest, user: User | AnonymousUser) -> str:
    """Work out ``user``'s language now and keep it in the session for the next pages."""
    language = language_for(user) or ""
    request.session[SESSION_KEY] = language
    return language
