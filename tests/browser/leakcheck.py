"""Which cards a page or a socket frame names, fast enough to read every frame of a whole deal
(the live tables' browser tests and ``benchmarks/bench_tables.py``).

:func:`shows` answers with the play tests' own check (``tests.trainer.play.conftest.leaks``:
codes such as ``"7H"``, labels such as ``7 of hearts``, symbols such as ``7♥``, in the text and
in the text without its tags); ``leaks`` first looks which cards the text might name at all
(``named``, three passes), then reads for those few only.
"""

from __future__ import annotations

import re

from engine.cards import Card
from tests.trainer.play.conftest import leaks

_TAG = re.compile(r"<[^>]+>")


def shows(body: str, cards: set[Card]) -> list[str]:
    """The cards of ``cards`` that ``body`` names, by ``leaks``, tags dropped too."""
    return leaks(body, cards) + leaks(_TAG.sub("", body), cards)
