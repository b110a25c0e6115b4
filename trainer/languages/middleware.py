"""Apply a signed-in user's language (saved, or their class's or club's default).

Sits after ``AuthenticationMiddleware`` (and so after Django's ``LocaleMiddleware``, which has
already chosen from the language cookie and ``Accept-Language``). The user's language is worked
out when they sign in (and when they use the switcher) and kept in their session, so a page
costs no query for it; when the user or one of their groups chose a language, it replaces
Django's choice for the request, and ``LocaleMiddleware`` sets ``Content-Language`` from it on
the way out. A session from before this (no key yet) is filled in on its next request.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation

from trainer.core.languages import language_codes
from trainer.languages.selectors import SESSION_KEY, remember_language


class UserLanguageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        session = getattr(request, "session", None)
        if user is not None and session is not None and user.is_authenticated:
            if SESSION_KEY not in session:
                remember_language(request, user)
            language = session.get(SESSION_KEY)
            if language in language_codes() and language != translation.get_language():
                translation.activate(language)
                request.LANGUAGE_CODE = language
        return self.get_response(request)
