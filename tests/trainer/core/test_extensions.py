"""The core reaches features only through ``settings.CONCERTO_EXTENSIONS``: every point is
named there, resolves, and a missing feature gives the neutral answer; nothing installs a
hook behind the call sites' backs."""

from __future__ import annotations

import ast
import pathlib

import pytest
from django.conf import settings
from django.test import RequestFactory, override_settings

from engine.errors import ConcertoError
from engine.signals import get_convention
from trainer.core import extensions, playlog, preferences, teaching
from trainer.core.game import conventions

ROOT = pathlib.Path(__file__).resolve().parents[3]


def test_every_point_is_named_in_settings_and_imports():
    assert set(settings.CONCERTO_EXTENSIONS) == set(extensions.POINTS)
    for point in extensions.POINTS:
        found = extensions.every(point) if point == "drill_sessions" else [extensions.one(point)]
        assert found and all(callable(f) for f in found), point


def test_an_unknown_point_is_a_loud_error():
    with pytest.raises(extensions.UnknownExtensionPoint):
        extensions.one("house_rule")


@pytest.mark.django_db
def test_without_the_features_the_core_answers_nothing():
    from tests.trainer import factories
    from tests.trainer.clubs import factories as clubs

    organiser = factories.user("org")
    club = clubs.club(organiser)
    request = RequestFactory().get("/")
    request.user = organiser
    with override_settings(CONCERTO_EXTENSIONS={}):
        assert preferences.house_rules(request) == {}
        assert teaching.links_for("lead", "two_pair", "parlett-2008") == []
        assert teaching.lessons_for([("lead", "two_pair")]) == {}
        assert playlog.deals_played([1, 2]) == {}
        assert playlog.deal_links(1) == {}
        assert playlog.deal_urls([1]) == {}
        assert conventions.owned_cards(club=club) == []
        with pytest.raises((ConcertoError, ValueError)):
            get_convention("club-1-1")
    # and the real registry is back once the override ends
    assert extensions.one("house_rules") is not None


def test_with_the_features_the_lessons_answer():
    links = teaching.links_for("lead", "two_pair", "parlett-2008")
    assert links[0].url.startswith("/learn/weak-signals/")


def _setters(path: pathlib.Path) -> list[str]:
    tree = ast.parse(path.read_text())
    return [
        f"{path}: {node.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef) and node.name.startswith(("set_", "add_provider"))
    ]


def test_no_feature_installs_a_hook_at_start_up():
    """A feature's ``ready()`` may connect Django signals or import its own modules, never
    hand the core a function; the core has no setters left to hand one to."""
    core = ROOT / "trainer" / "core"
    assert [hit for p in core.rglob("*.py") for hit in _setters(p)] == []
    for apps in (ROOT / "trainer").glob("*/apps.py"):
        text = apps.read_text()
        assert "trainer.core" not in text or apps.parent.name == "core", apps
