"""The import graph between the trainer's apps: a small core that depends on no feature,
features over the core, no cycles. A new edge is a decision: add it here, and to
docs/architecture.md, on purpose."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

APPS = (
    "core",
    "accounts",
    "drills",
    "progress",
    "learn",
    "clubs",
    "classes",
    "play",
    "duplicate",
    "teaching",
    "ratings",
    "cards",
    "languages",
    "wording",
)

#: app → the apps it may import ("site" is ``trainer`` itself: home page, demo data).
ALLOWED = {
    "core": set(),
    "accounts": {"core"},
    # First answers feed the ratings (trainer.ratings, over the core).
    "progress": {"core", "ratings"},
    "drills": {"core", "progress", "ratings", "wording"},
    "clubs": {"core", "drills", "progress", "ratings"},
    "classes": {"core", "drills", "progress", "ratings", "wording"},
    "learn": {"core", "clubs", "wording"},
    # Play counts towards class assignments; classes reach play only through core.playlog.
    # Live tables: a club's organiser may watch its members' tables (trainer.play.live).
    "play": {"core", "progress", "classes", "clubs", "wording"},
    # Club nights: a club's duplicate sessions, each board a solo deal of play.
    "duplicate": {"core", "clubs", "classes", "play", "wording"},
    # Teaching tables: a class's board sets, dealt as the class's duplicate sessions.
    "teaching": {"core", "classes", "duplicate", "play", "wording"},
    # A user's language: their saved choice, else their class's or club's default.
    "languages": {"core", "clubs", "classes"},
    # Engine messages in words (the catalog of what the engine says); features print through it.
    "wording": {"core"},
    # Glicko-2 ratings of drill families and learners: fed by progress, read by the features.
    "ratings": {"core"},
    # A club's (class's) own card: owned by a club or a class, the club's house card set
    # through the clubs' service. Clubs and classes reach cards only through core hooks
    # (core.conventions; the engine's convention resolver).
    "cards": {"core", "clubs", "classes", "wording"},
    "site": {"core", "drills", "progress", "learn", "clubs", "classes", "languages"},
}


def _app(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "trainer":
        return None
    return parts[1] if len(parts) > 1 and parts[1] in APPS else "site"


def _graph() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = defaultdict(set)
    root = Path(settings.BASE_DIR) / "trainer"
    for path in root.rglob("*.py"):
        relative = path.relative_to(settings.BASE_DIR).with_suffix("")
        if "migrations" in relative.parts:
            continue
        source = _app(".".join(relative.parts))
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for name in names:
                target = _app(name)
                if target and target != source and name != "trainer":
                    edges[source].add(target)
    return edges


def test_the_core_depends_on_no_feature():
    assert _graph()["core"] == set()


def test_apps_import_only_what_the_layering_allows():
    graph = _graph()
    extra = {app: graph[app] - ALLOWED[app] for app in graph if graph[app] - ALLOWED[app]}
    assert extra == {}


def test_the_app_graph_has_no_cycles():
    graph = _graph()
    done: set[str] = set()

    def visit(app: str, path: tuple[str, ...]) -> None:
        assert app not in path, " -> ".join((*path, app))
        if app in done:
            return
        for target in graph[app]:
            visit(target, (*path, app))
        done.add(app)

    for app in list(graph):
        visit(app, ())


@pytest.mark.django_db
def test_models_and_migrations_agree(capsys):
    call_command("makemigrations", "--check", "--dry-run", verbosity=1)
    assert "No changes detected" in capsys.readouterr().out
