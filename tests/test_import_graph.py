"""No import cycles anywhere in the project, and ``scripts/import_graph.py`` finds them.

The script reads every import of ``engine``, ``trainer`` and ``concerto_site`` (at module level,
inside functions, under ``if TYPE_CHECKING:``, dynamic ones) and exits 1 on a cycle; this test
runs it as ``make`` or a reader would, on the whole project, between modules and between
packages.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "import_graph.py"


def _script():
    spec = importlib.util.spec_from_file_location("import_graph", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("import_graph", module)
    spec.loader.exec_module(module)
    return module


graph_script = _script()


@pytest.mark.parametrize("options", [[], ["--packages"]], ids=["modules", "packages"])
def test_the_whole_project_has_no_import_cycle(options):
    run = subprocess.run(
        [sys.executable, str(SCRIPT), *options], cwd=ROOT, capture_output=True, text=True
    )
    found = [line for line in run.stdout.splitlines() if line.startswith("cycle: ")]
    assert found == [], "\n".join(found)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[-1] == "no cycles"


def test_the_script_reads_every_first_party_package():
    graph = graph_script.import_graph()
    assert {"engine.cards", "trainer.cards.services", "concerto_site.settings"} <= set(graph)


def _package(base: Path, files: dict[str, str]) -> None:
    pkg = base / "engine"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    for name, text in files.items():
        (pkg / f"{name}.py").write_text(text)


def test_a_cycle_is_found(tmp_path):
    _package(
        tmp_path,
        {
            "a": "from engine import b\n",
            "b": "import importlib\n\ndef f():\n    importlib.import_module('engine.a')\n",
            "c": "import engine.d\n",
            "d": "import sys\n",
        },
    )
    graph = graph_script.import_graph(["engine"], tmp_path)
    assert graph_script.cycles(graph) == [["engine.a", "engine.b", "engine.a"]]
    assert graph["engine.c"] == {"engine.d"}


def test_an_import_for_type_checking_is_an_edge(tmp_path):
    """Two modules that need each other only for annotations are still a cycle: the one
    under ``if TYPE_CHECKING:`` hides it from the interpreter, not from the design."""
    _package(
        tmp_path,
        {
            "a": "from engine.b import B\n\nclass A: ...\n",
            "b": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n    from engine.a import A\n\nclass B: ...\n"
            ),
        },
    )
    graph = graph_script.import_graph(["engine"], tmp_path)
    assert graph["engine.b"] == {"engine.a"}
    assert graph_script.cycles(graph) == [["engine.a", "engine.b", "engine.a"]]


def test_an_import_inside_a_function_is_an_edge(tmp_path):
    _package(
        tmp_path,
        {
            "a": "from engine import b\n",
            "b": "def f():\n    from engine.a import x\n    return x\n",
        },
    )
    graph = graph_script.import_graph(["engine"], tmp_path)
    assert graph_script.cycles(graph) == [["engine.a", "engine.b", "engine.a"]]


def test_every_cycle_of_a_tangle_is_reported(tmp_path):
    """``a`` and ``b`` import each other, and ``b -> c -> a`` closes a second loop: each
    module caught in a cycle is named in one."""
    _package(
        tmp_path,
        {
            "a": "from engine import b\n",
            "b": "from engine import a, c\n",
            "c": "from engine import a\n",
        },
    )
    graph = graph_script.import_graph(["engine"], tmp_path)
    assert graph_script.cycles(graph) == [
        ["engine.a", "engine.b", "engine.a"],
        ["engine.a", "engine.b", "engine.c", "engine.a"],
    ]


def test_the_script_exits_1_on_a_cycle(tmp_path):
    """The script as it runs, on a copy of the project that has a cycle."""
    _package(tmp_path, {"a": "from engine import b\n", "b": "from engine import a\n"})
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "import_graph.py").write_text(SCRIPT.read_text())
    run = subprocess.run(
        [sys.executable, "scripts/import_graph.py"], cwd=tmp_path, capture_output=True, text=True
    )
    assert run.returncode == 1, run.stderr
    assert run.stdout.splitlines()[-1] == "cycle: engine.a -> engine.b -> engine.a"


def test_a_string_naming_the_modules_own_package_is_no_import(tmp_path):
    """``CONTEXT = "engine"`` in a module of ``engine`` is a word: ``engine`` is imported
    before any of its modules, so it cannot close a cycle through them."""
    pkg = tmp_path / "engine"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from engine import a\n")
    (pkg / "a.py").write_text("from engine import b\n")
    (pkg / "b.py").write_text('CONTEXT = "engine"\nMODULES = ["engine.a"]\n')
    graph = graph_script.import_graph(["engine"], tmp_path)
    assert graph["engine.b"] == {"engine.a"}
