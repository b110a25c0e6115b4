"""Print the import graph of the first-party packages and find import cycles.

Reads the source with :mod:`ast` (nothing is imported), so it sees every import wherever it
is: at module level, inside functions, under ``if TYPE_CHECKING:`` (a cycle there is still two
modules that need each other, only hidden from the interpreter), ``importlib.import_module("…")``
calls and any string literal that is exactly a first-party module's name (a dynamic import such
as ``COMMAND_MODULES``). Usage::

    .venv/bin/python scripts/import_graph.py                  # engine, trainer, concerto_site
    .venv/bin/python scripts/import_graph.py --root engine    # the engine only
    .venv/bin/python scripts/import_graph.py --packages       # edges between packages

Prints one ``a -> b`` line per edge, then ``cycle: a -> b -> a`` per cycle (or ``no cycles``).
Exits 1 when there is a cycle; ``tests/test_import_graph.py`` runs it on the whole project.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterable
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


def imported_names(module: str, path: Path) -> set[str]:
    """Every module name ``module`` imports (absolute; ``from a import b`` gives ``a`` and
    ``a.b``: the caller keeps the ones that are modules)."""
    is_package = path.name == "__init__.py"
    package = module if is_package else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
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
    """Every cycle, as a closed path starting at its smallest name (``['a', 'b', 'a']``): for
    each strongly connected component with more than one module (Tarjan), a shortest cycle
    through each of its modules, so every module caught in a cycle is named in one."""
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
                members = set(component)
                for member in sorted(members):
                    path = _path(graph, members, member)
                    if path not in found:
                        found.append(path)

    sys.setrecursionlimit(max(10_000, sys.getrecursionlimit()))
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def _path(graph: dict[str, set[str]], members: set[str], start: str) -> list[str]:
    """A shortest closed path from ``start`` back to itself inside a component, turned to
    begin at its smallest module."""
    prev: dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt_frontier = []
        for node in frontier:
            for nxt in sorted(graph.get(node, set()) & members):
                if nxt == start:
                    path = [node]
                    while node != start:
                        node = prev[node]
                        path.append(node)
                    loop = path[::-1]  # start … node
                    first = loop.index(min(loop))
                    loop = loop[first:] + loop[:first]
                    return [*loop, loop[0]]
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
