"""Rendering engine messages in the active language.

Each message id's English template (``engine.messages.templates()``) is its gettext msgid, so a
catalog translates it with the same named placeholders (``%(card)s``); sentences about a count
go through ``npgettext``. Every entry has a context of its own (``engine`` for sentences,
``engine:item``, ``engine:suit`` … for terms), so an entry of the site catalog with the same
English never stands in for one of these. The walk over a message's parameters is the
engine's (:func:`engine.messages.render`); this module gives it Django's catalogs.
"""

from __future__ import annotations

from django.utils import translation

# Every module that speaks registers its sentences on import.
import engine.drills
import engine.play  # noqa: F401
from engine.messages import CONTEXT, render, term_english


class _Django:
    """Django's catalogs for the active language, as :class:`engine.messages.Translator`."""

    def pgettext(self, context: str, message: str) -> str:
        return translation.pgettext(context, message)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return translation.npgettext(context, msgid1, msgid2, n)


DJANGO = _Django()


def say(value: object) -> str:
    """``value`` in words of the active language: a message rendered through the catalog,
    anything else as its ``str`` (``None`` as nothing)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return render(value, DJANGO)
    return str(value)


def term(kind: str, english: str) -> str:
    """A term's English words in the active language (numbers stay numbers)."""
    if english.isdigit():
        return english
    return translation.pgettext(f"{CONTEXT}:{kind}", english)


__all__ = ["CONTEXT", "DJANGO", "say", "term", "term_english"]
