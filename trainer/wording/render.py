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
import engine.play
import engine.signals.cardcheck  # noqa: F401
from engine.messages import CONTEXT, Msg, Term, Text, render, templates, term_english


class _Django:
    """Django's catalogs for the active language, as :class:`engine.messages.Translator`."""

    def pgettext(self, context: str, message: str) -> str:
        return translation.pgettext(context, message)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return translation.npgettext(context, msgid1, msgid2, n)


DJANGO = _Django()


#: Parameters that name a seat. Some engine errors give the seat as its letter (``S cannot
#: pass``, which English keeps); another language says the seat's name (``南はパスできません``).
_SEAT_PARAMS = frozenset({"seat", "partner", "leader"})
_SEAT_LETTERS = frozenset("NESW")


def _seats_named(value: Msg) -> Msg:
    """``value`` with each seat given as a letter (:class:`Text`) given as the seat's term."""
    params = {}
    for name, param in value.params.items():
        if name in _SEAT_PARAMS and isinstance(param, Text) and param.value in _SEAT_LETTERS:
            param = Term("seat", param.value)
        elif isinstance(param, Msg):
            param = _seats_named(param)
        params[name] = param
    return Msg(value.id, **params)


def say(value: object) -> str:
    """``value`` in words of the active language: a message rendered through the catalog,
    anything else as its ``str`` (``None`` as nothing)."""
    if value is None:
        return ""
    if isinstance(value, Msg) and value.id in templates() and not _english():
        value = _seats_named(value)
    if isinstance(value, str):
        return render(value, DJANGO)
    return str(value)


def _english() -> bool:
    return (translation.get_language() or "en").split("-")[0] == "en"


def term(kind: str, english: str) -> str:
    """A term's English words in the active language (numbers stay numbers)."""
    if english.isdigit():
        return english
    return translation.pgettext(f"{CONTEXT}:{kind}", english)


__all__ = ["CONTEXT", "DJANGO", "say", "term", "term_english"]
