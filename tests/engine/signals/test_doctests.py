import doctest

import pytest

import engine.signals
import engine.signals.cheat_sheet
import engine.signals.checklist
import engine.signals.conventions
import engine.signals.decoder
import engine.signals.encoder
import engine.signals.relations
import engine.signals.reply
import engine.signals.signal

MODULES = [
    engine.signals,
    engine.signals.cheat_sheet,
    engine.signals.checklist,
    engine.signals.conventions,
    engine.signals.decoder,
    engine.signals.encoder,
    engine.signals.relations,
    engine.signals.reply,
    engine.signals.signal,
]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_docstring_examples_hold(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
