"""Print the import graph of the first-party packages and find import cycles.

Reads the source with :mod:`ast` (nothing is imported), so it also sees imports inside
functions, ``importlib.import_module("…")`` calls and any string literal that is exactly a
first-party module's name (a dynamic import such as ``COMMAND_MODULES``); imports under
``if TYPE_CHECKING:`` are left out (they never run). Usage::

    .venv/bin/python scripts/import_graph.py                  # every module edge, then cycles
    .venv/bin/python scripts/import_graph.py --root engine    # the engine only
    .venv/bin/python scripts/import_graph.py --packages       # edges between packages

Prints one ``a -> b`` line per edge, then ``cycle: a -> b -> a`` per cycle (or ``no cycles``).
Exits 1 when there is a cycle.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIRST_PARTY = ("engine", "trainer", "concerto_site")


def module_files(roots: Iterable[str], base: Path = ROOT) -> dict[str, Path]:
    """``{module name: file}`` for every ``.py`` file under the given top-level packages."""
    found: dict[str, Path] = {}
    for root in roots:
        for path in sorted((base / root).rglob("*.py")):
            parts = list(path.relative_to(base).with_suffix("").parts)
            if "migrations" in parts:
                continue
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _walk(node: ast.AST) -> Iterator[ast.AST]:
    """Every node below ``node``, skipping the body of ``if TYPE_CHECKING:``."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _is_type_checking(child.test):
            for other in child.orelse:
                yield other
                yield from _walk(other)
            continue
        yield child
        yield from _walk(child)


def imported_names(module: str, path: Path) -> set[str]:
    """Every module name ``module`` imports (absolute; ``from a import b`` gives ``a`` and
    ``a.b``: the caller keeps the ones that are modules)."""
    is_package = path.name == "__init__.py"
    package = module if is_package else module.rpartition(".")[0]
    names: set[str] = set()
    for node in _walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                source = ".".join([*base, node.module] if node.module else base)
            else:
                source = node.module or ""
            names.add(source)
            names.update(f"{source}.{alias.name}" for alias in node.names)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id)
            == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            names.add(node.args[0].value)
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and (node.value.isidentifier() or ("." in node.value and " " not in node.value))
            # A package holding ``module`` is imported before it, so a string naming one
            # (``CONTEXT = "engine"`` in ``engine.messages``) is a word, not an import.
            and not module.startswith(f"{node.value}.")
        ):
            # A string naming a module (``COMMAND_MODULES = ["engine.commands"]``, Django's
            # dotted paths) is a dynamic import; the caller keeps those that name a module.
            names.add(node.value)
    return names


def import_graph(roots: Iterable[str] = FIRST_PARTY, base: Path = ROOT) -> dict[str, set[str]]:
    """``{module: first-party modules it imports}`` for the modules under ``roots``."""
    files = module_files(roots, base)
    every = set(module_files(FIRST_PARTY, base)) | set(files)
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        targets = set()
        for name in imported_names(module, path):
            if name in every and name != module:
                targets.add(name)
        graph[module] = targets
    return graph


def external_imports(roots: Iterable[str], base: Path = ROOT) -> dict[str, set[str]]:
    """``{module: every top-level package it imports}`` (first-party or not)."""
    return {
        module: {name.split(".")[0] for name in imported_names(module, path) if name}
        for module, path in module_files(roots, base).items()
    }


def package_of(module: str, depth: int = 2) -> str:
    """The package a module belongs to, ``depth`` names deep: ``engine.signals.decoder`` →
    ``engine.signals``; a top-level module of a package stays itself (``engine.cards``)."""
    return ".".join(module.split(".")[:depth])


def collapse(graph: dict[str, set[str]], depth: int = 2) -> dict[str, set[str]]:
    """The graph between packages (``depth`` names deep), self-edges dropped."""
    out: dict[str, set[str]] = {}
    for module, targets in graph.items():
        src = package_of(module, depth)
        out.setdefault(src, set())
        for target in targets:
            dst = package_of(target, depth)
            if dst != src:
                out[src].add(dst)
    return out


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each as a
    closed path starting at its smallest name, e.g. ``['a', 'b', 'a']``."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(_path(graph, set(component)))

    sys.setrecursionlimit(max(10_000, sys.getrecursionlimit()))
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def _path(graph: dict[str, set[str]], members: set[str]) -> list[str]:
    """A closed path through a component: from its smallest member back to itself."""
    start = min(members)
    # breadth-first from start back to start inside the component
    prev: dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt_frontier = []
        for node in frontier:
            for nxt in sorted(graph.get(node, set()) & members):
                if nxt == start:
                    path = [start]
                    while node != start:
                        path.append(node)
                        node = prev[node]
                    return [start, *reversed(path[1:]), start]
                if nxt not in prev:
                    prev[nxt] = node
                    nxt_frontier.append(nxt)
        frontier = nxt_frontier
    return [start, start]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--root",
        action="append",
        choices=FIRST_PARTY,
        help="a top-level package to graph (repeatable; default: all)",
    )
    parser.add_argument(
        "--packages",
        action="store_true",
        help="edges between packages (two names deep) instead of modules",
    )
    args = parser.parse_args(argv)
    graph = import_graph(args.root or FIRST_PARTY)
    if args.packages:
        graph = collapse(graph)
    for module in sorted(graph):
        for target in sorted(graph[module]):
            print(f"{module} -> {target}")
    found = cycles(graph)
    for cycle in found:
        print("cycle: " + " -> ".join(cycle))
    if not found:
        print("no cycles")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
