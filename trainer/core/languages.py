"""The site's languages (``settings.LANGUAGES``) for forms and checks, in one place."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.conf import settings
from django.utils.functional import Promise
from django.utils.translation import get_language_info
from django.utils.translation import gettext_lazy as _
from django.utils.translation.trans_real import (
    get_supported_language_variant,
    parse_accept_lang_header,
)

from trainer.core import extensions


def language_codes() -> list[str]:
    """The codes of ``settings.LANGUAGES`` (``en``, ``ja``)."""
    return [code for code, _name in settings.LANGUAGES]


def group_language_choices() -> list[tuple[str, str | Promise]]:
    """For a class's or club's default: blank (each member's browser decides), then every
    language of the site in its own name (English, 日本語)."""
    return [("", _("Each member's browser decides"))] + [
        (code, get_language_info(code)["name_local"]) for code in language_codes()
    ]


class LanguageSelect(forms.Select):
    """A menu of languages, each option marked with its own ``lang`` (screen readers say
    "English" in English on a Japanese page)."""

    def create_option(self, name: str, value: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option: dict[str, Any] = super().create_option(name, value, *args, **kwargs)
        if value:
            option["attrs"]["lang"] = str(value)
        return option


#: The session key holding the signed-in user's language ("" when neither they nor their
#: groups chose one: the cookie and the browser decide). Written by ``trainer.languages``.
SESSION_KEY = "trainer_language"


def scope_language(scope: Mapping[str, Any]) -> str:
    """A socket's language, by the pages' rule: the signed-in user's (kept in their session,
    else worked out: saved, class or club default), else the language cookie, else the
    browser's ``Accept-Language``, else the site's default. Reads the database: call it from
    a thread (``database_sync_to_async``), once, at connect."""
    codes = language_codes()
    session = scope.get("session")
    if session is not None:
        kept = session.get(SESSION_KEY)
        if kept in codes:
            return str(kept)
    user = scope.get("user")
    user_language = extensions.one("user_language")  # (the languages app's rule)
    if user is not None and user.is_authenticated and user_language is not None:
        chosen = user_language(user)
        if chosen in codes:
            return str(chosen)
    headers = {n.decode("latin-1"): v.decode("latin-1") for n, v in scope.get("headers", [])}
    cookies = dict(scope.get("cookies") or {})
    for part in headers.get("cookie", "").split(";"):
        key, _sep, val = part.strip().partition("=")
        cookies.setdefault(key, val)
    if cookies.get(settings.LANGUAGE_COOKIE_NAME) in codes:
        return str(cookies[settings.LANGUAGE_COOKIE_NAME])
    for code, _q in parse_accept_lang_header(headers.get("accept-language", "")):
        try:
            return get_supported_language_variant(code)
        except LookupError:
            continue
    return str(settings.LANGUAGE_CODE)
