"""The engine's import graph: no cycles, and nothing from Django or the trainer (the whole
project's cycles, and the script itself: ``tests/test_import_graph.py``)."""

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _script():
    spec = importlib.util.spec_from_file_location("import_graph", ROOT / "scripts/import_graph.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("import_graph", module)
    spec.loader.exec_module(module)
    return module


graph_script = _script()


def test_engine_modules_import_each_other_without_cycles():
    graph = graph_script.import_graph(["engine"])
    assert "engine.cli" in graph and "engine.signals.decoder" in graph
    assert graph_script.cycles(graph) == []


def test_engine_packages_import_each_other_without_cycles():
    assert graph_script.cycles(graph_script.collapse(graph_script.import_graph(["engine"]))) == []


def test_the_engine_imports_nothing_from_django_or_the_trainer():
    imports = graph_script.external_imports(["engine"])
    offenders = {
        m: sorted(names & {"django", "trainer", "concerto_site"})
        for m, names in imports.items()
        if names & {"django", "trainer", "concerto_site"}
    }
    assert offenders == {}


def test_the_command_line_imports_its_command_modules_one_way():
    graph = graph_script.import_graph(["engine"])
    assert {"engine.commands", "engine.signals.commands", "engine.drills.commands"} <= (
        graph["engine.cli"]
    )
    for module in ("engine.commands", "engine.signals.commands", "engine.drills.commands"):
        assert "engine.cli" not in graph[module]
