"""The error pages (400, 403, 404, 429, 500, 503) in Japanese: no English from the catalog,
the page's language declared; the 500 and 503 pages are rendered without request context,
as the handlers do."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.utils import translation

from tests.trainer.i18n.test_japanese_pages import ALLOWED, english_on, english_phrases

PAGES = {
    "400": ("400.html", {}),
    "403": ("403.html", {}),
    "404": ("404.html", {}),
    "429": ("classes/join.html", {"blocked": True, "window_minutes": 15}),
    "500": ("500.html", {}),
    "503": ("503.html", {}),
}


@pytest.mark.django_db
@pytest.mark.parametrize("status", sorted(PAGES))
def test_error_pages_in_japanese_show_no_english(status: str):
    template, context = PAGES[status]
    request = RequestFactory().get("/somewhere/")
    request.user = AnonymousUser()
    request.session = {}
    with translation.override("ja"):
        with_request = render_to_string(template, context, request=request)
        bare = render_to_string(template, context) if status in ("500", "503") else ""
    for html in filter(None, (with_request, bare)):
        assert '<html lang="ja">' in html
        assert english_on(html, english_phrases(), set(ALLOWED)) == []


def test_the_english_error_pages_are_unchanged():
    with translation.override("en"):
        assert "That page is not here" in render_to_string("404.html")
        assert "Back in a moment" in render_to_string("503.html")


@pytest.mark.django_db
def test_bad_input_is_refused_in_the_browsers_language(client):
    response = client.get("/drills/?q=" + "x" * 5000, HTTP_ACCEPT_LANGUAGE="ja")
    assert response.status_code == 400
    html = response.content.decode()
    assert '<html lang="ja">' in html
    assert "クエリ文字列の値が長すぎます" in html
    english = client.get("/drills/?q=" + "x" * 5000)
    assert "A value in the query string is too long" in english.content.decode()
