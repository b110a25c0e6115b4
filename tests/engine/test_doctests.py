import doctest
import importlib
import pkgutil

import pytest

import engine

#: Every engine module outside engine.signals (whose examples tests/engine/signals runs).
MODULES = [
    name
    for name in ["engine", *(m.name for m in pkgutil.walk_packages(engine.__path__, "engine."))]
    if name != "engine.__main__" and not name.startswith("engine.signals")
]
#: Modules whose docstrings must hold examples.
WITH_EXAMPLES = {
    "engine",
    "engine.seats",
    "engine.scoring",
    "engine.game",
    "engine.cards",
    "engine.errors",
    "engine.hand",
    "engine.drills",
    "engine.drills.model",
}


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0 or name not in WITH_EXAMPLES
