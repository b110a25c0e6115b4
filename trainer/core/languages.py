"""The site's languages (``settings.LANGUAGES``) for forms and checks, in one place."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils.functional import Promise
from django.utils.translation import get_language_info
from django.utils.translation import gettext_lazy as _


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
