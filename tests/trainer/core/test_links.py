"""``safe_next``: where a ``next`` value may send a visitor."""

import pytest
from django.test import RequestFactory

from trainer.core.links import safe_next


@pytest.fixture
def request_():
    return RequestFactory().get("/", HTTP_HOST="testserver")


@pytest.mark.parametrize(
    ("target", "kept"),
    [
        ("/drills/", "/drills/"),
        ("http://testserver/drills/", "http://testserver/drills/"),
        ("http://elsewhere.example/", "/home/"),
        ("//elsewhere.example/", "/home/"),
        ("drills", "/home/"),
        ("", "/home/"),
    ],
)
def test_a_target_on_this_site_is_kept_and_any_other_gives_the_default(request_, target, kept):
    assert safe_next(request_, target, "/home/") == kept


@pytest.mark.parametrize("target", ["http://testserver/drills/", "https://testserver/drills/"])
def test_local_keeps_only_a_path(request_, target):
    """``local``: a full URL, even of this site, gives the default (the settings and drill
    pages send on to a path only)."""
    assert safe_next(request_, target, "/home/", local=True) == "/home/"
    assert safe_next(request_, "/drills/", "/home/", local=True) == "/drills/"
