"""Which cards a page or a socket frame names, fast enough to read every frame of a whole deal
(the live tables' browser tests and ``benchmarks/bench_tables.py``).

:func:`shows` answers with the play tests' own check (``tests.trainer.play.conftest.leaks``:
codes such as ``"7H"``, labels such as ``7 of hearts``, symbols such as ``7♥``, in the text and
in the text without its tags). ``leaks`` reads the text twice per card; a first look in three
passes (:func:`named`, which finds a superset of what ``leaks`` finds: any case, any delimiter)
tells it which few cards to read for.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from engine.cards import DECK, Card
from tests.trainer.play.conftest import leaks


def _forms(text: Callable[[Card], str]) -> dict[str, Card]:
    return {text(c).lower(): c for c in DECK}


def _either(forms: dict[str, Card]) -> str:
    return "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))


_CODES, _LABELS, _SYMBOLS = _forms(str), _forms(lambda c: c.label), _forms(lambda c: c.symbol)
_NAMED = (
    (re.compile(rf"(?<=[\"'>])(?:{_either(_CODES)})(?=[\"'<])", re.IGNORECASE), _CODES),
    (re.compile(rf"\b(?:{_either(_LABELS)})\b", re.IGNORECASE), _LABELS),
    (re.compile(rf"(?<![0-9A-Za-z])(?:{_either(_SYMBOLS)})"), _SYMBOLS),
)
_TAG = re.compile(r"<[^>]+>")


def named(text: str) -> set[Card]:
    """Every card ``text`` might name, in any of the forms ``leaks`` looks for."""
    return {forms[m[0].lower()] for pattern, forms in _NAMED for m in pattern.finditer(text)}


def shows(body: str, cards: set[Card]) -> list[str]:
    """The cards of ``cards`` that ``body`` names, by ``leaks``, tags dropped too."""
    stripped = _TAG.sub("", body)
    candidates = (named(body) | named(stripped)) & cards
    if not candidates:
        return []
    return leaks(body, candidates) + leaks(stripped, candidates)
