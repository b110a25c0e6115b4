"""A drill kind is decided in one place: its class in ``engine/drills/kinds/`` and its template
``templates/trainer/drills/kinds/<kind>.html`` (docs/drill-kinds.md).

Everywhere else code looks a kind up (``spec_for(kind)``, ``kind_template(kind, part)``) instead
of branching on its name. This test reads the code outside those places and fails on a kind's
name used as a branch or a key: ``kind == "lead"``, ``kind in ("read", "reply")``, a table
``{"score": …, "lead": …}``, ``Q(kind="lead")``, ``case "lead":``,
``drill.kind == DrillKind.LEAD`` in Python, and ``{% if drill.kind == "lead" %}`` or
``kind="read"`` in templates. Naming a kind as a value (``make_drill(DrillKind.READ, …)``, a
docstring's example) is fine; so are the words "read", "lead" or "score" in ordinary text, and
one of them alone as a JSON field (``{"checklist": …, "rows": …}``).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from engine.drills import KINDS

ROOT = Path(__file__).resolve().parent.parent
KIND_NAMES = frozenset(str(k) for k in KINDS)
#: Where a kind is decided: the kinds' classes and the kinds' templates.
KIND_HOMES = (ROOT / "engine" / "drills" / "kinds", ROOT / "templates" / "trainer" / "drills")
#: Words that are kind names but mean something else there: ``(file, word)``: why.
NOT_KINDS = {
    ("trainer/learn/examples.py", "score"): "a lesson example block ({% example score %})",
    ("trainer/learn/examples.py", "reply"): "a lesson example block ({% example reply %})",
    ("trainer/play/presenters.py", "read"): "a hand's read quiz, a template value",
    ("trainer/play/presenters.py", "lead"): "a hand's lead, a template value",
}

_NAMES = "|".join(sorted(KIND_NAMES))
#: Template code comparing with a kind's name or passing one as ``kind``.
TEMPLATE_PATTERNS = (
    re.compile(rf"""(?:==|!=)\s*["']({_NAMES})["']"""),
    re.compile(rf"""["']({_NAMES})["']\s*(?:==|!=)"""),
    re.compile(rf"""\bkind\s*=\s*["']({_NAMES})["']"""),
    re.compile(rf"""\bin\s+["']({_NAMES})\b[^"']*["']"""),
)


def _kind_name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and node.value in KIND_NAMES:
        return str(node.value)
    return None


def _kind_member(node: ast.AST) -> str | None:
    """``DrillKind.LEAD`` → ``"lead"``."""
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "DrillKind"
        and node.attr.lower() in KIND_NAMES
    ):
        return node.attr.lower()
    return None


def _compared(node: ast.AST) -> list[str]:
    """Kind names an operand of a comparison names: itself, or a literal collection's items."""
    items = node.elts if isinstance(node, ast.Tuple | ast.List | ast.Set) else [node]
    return [name for item in items if (name := _kind_name(item) or _kind_member(item))]


def python_branches(source: str) -> list[tuple[int, str, str]]:
    """``(line, kind name, what)`` for each branch on, or key of, a kind's name in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            for operand in (node.left, *node.comparators):
                found += [(node.lineno, name, "compared") for name in _compared(operand)]
        elif isinstance(node, ast.Dict):
            # A table by kind has several kinds' keys; one such word alone is a JSON field
            # or a template value ("score", "checklist").
            keys = [(key.lineno, name) for key in node.keys if key and (name := _kind_name(key))]
            if len(keys) > 1:
                found += [(line, name, "a key") for line, name in keys]
        elif isinstance(node, ast.keyword) and node.arg in ("kind", "kind__in"):
            for name in _compared(node.value):
                if _kind_name(node.value) or isinstance(node.value, ast.Tuple | ast.List):
                    found.append((node.value.lineno, name, f"{node.arg}="))
        elif isinstance(node, ast.MatchValue) and (name := _kind_name(node.value)):
            found.append((node.lineno, name, "a case"))
    return found


def template_branches(text: str) -> list[tuple[int, str, str]]:
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        for pattern in TEMPLATE_PATTERNS:
            found += [(number, m[1], "in a template") for m in pattern.finditer(line)]
    return found


def _outside_kind_homes(paths):
    for path in sorted(paths):
        if not any(path.is_relative_to(home) for home in KIND_HOMES) and "migrations" not in (
            path.parts
        ):
            yield path


def _code_files():
    yield from _outside_kind_homes((ROOT / "trainer").rglob("*.py"))
    yield from _outside_kind_homes((ROOT / "engine").rglob("*.py"))
    yield from _outside_kind_homes((ROOT / "templates").rglob("*.html"))
    yield from _outside_kind_homes((ROOT / "trainer").rglob("templates/**/*.html"))


def branches_on_kind_names() -> list[str]:
    out = []
    for path in _code_files():
        relative = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        found = python_branches(text) if path.suffix == ".py" else template_branches(text)
        for line, name, what in found:
            if (relative, name) not in NOT_KINDS:
                out.append(f"{relative}:{line}: the kind {name!r} {what}")
    return out


def test_no_code_outside_a_kinds_home_branches_on_a_kinds_name():
    assert branches_on_kind_names() == [], (
        "look the kind up instead (spec_for(kind), trainer.core.game.kinds.kind_template): "
        "see docs/drill-kinds.md"
    )


def test_every_exception_is_still_there():
    """An entry of ``NOT_KINDS`` whose file no longer uses the word is stale:
    remove it."""
    for relative, name in NOT_KINDS:
        path = ROOT / relative
        assert path.exists() and re.search(rf"""["']{name}["']""", path.read_text()), relative


@pytest.mark.parametrize(
    "code",
    [
        'if drill.kind == "lead": pass',
        "if 'reply' != kind: pass",
        'ok = kind in ("lead", "read", "reply")',
        'NAMES = {"score": "Score drill", "lead": "Lead drill"}',
        'rows = Attempt.objects.filter(kind="read")',
        'rows = Attempt.objects.filter(kind__in=["read", "lead"])',
        "if drill.kind is DrillKind.SCORE: pass",
        "if drill.kind in (DrillKind.LEAD, DrillKind.CHECKLIST): pass",
        'match kind:\n    case "checklist":\n        pass',
    ],
)
def test_the_check_finds_a_branch_on_a_kinds_name_in_python(code):
    assert python_branches(code)


@pytest.mark.parametrize(
    "code",
    [
        '"""Read the signal: ``make_drill("read", 7)``."""',
        'drill = make_drill(DrillKind.READ, 7)\nurl = drill_url("lead", None)',
        'rows = Attempt.objects.filter(kind=DrillKind.LEAD)\nwords = "lead the read"',
        "if spec_for(kind).topic is Topic.SIGNALS: pass",
        'card = {"checklist": items, "rows": rows}',
    ],
)
def test_the_check_leaves_names_as_values_and_ordinary_words_alone(code):
    assert python_branches(code) == []


@pytest.mark.parametrize(
    "code",
    [
        '{% if drill.kind == "lead" %}x{% endif %}',
        "{% if drill.kind != 'score' %}x{% endif %}",
        '{% include "x.html" with kind="read" %}',
        '{% if kind in "lead read" %}x{% endif %}',
    ],
)
def test_the_check_finds_a_branch_on_a_kinds_name_in_a_template(code):
    assert template_branches(code)


def test_the_check_leaves_words_in_a_template_alone():
    text = '<p class="lead">Read the lead, then reply. {% if rule == "classic" %}x{% endif %}</p>'
    assert template_branches(text) == []
