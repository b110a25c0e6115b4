import doctest

import pytest

import engine.bots
import engine.game
import engine.scoring
import engine.table


@pytest.mark.parametrize("module", [engine.table, engine.scoring, engine.game, engine.bots])
def test_docstring_examples_hold(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
