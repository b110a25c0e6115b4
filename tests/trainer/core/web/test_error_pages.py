"""Styled 403 and 404 pages (the 400, 500 and 503 pages are tested with the faults)."""

import pytest

from tests.trainer import factories as f
from tests.trainer.clubs import factories as cf

pytestmark = pytest.mark.django_db


def test_unknown_address_is_a_styled_404(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    html = response.content.decode()
    assert "That page is not here" in html
    assert 'class="site-header' in html or "<header" in html  # the site's own frame


def test_members_page_for_a_plain_member_is_a_styled_403(client):
    organiser, member = f.user("org"), f.user("member")
    club = cf.club(organiser)
    cf.join(club, member)
    client.force_login(member)
    response = client.get(f"/clubs/{club.slug}/members/")
    assert response.status_code == 403
    assert "You cannot open this page" in response.content.decode()


def test_pages_name_the_icon_and_the_manifest(client):
    html = client.get("/").content.decode()
    assert 'rel="icon"' in html and "icons/icon.svg" in html
    assert 'rel="manifest"' in html and "site.webmanifest" in html


def test_favicon_ico_redirects_to_the_svg_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"].endswith(".svg")


def test_web_manifest_names_icons_that_exist():
    import json

    from django.conf import settings

    static = settings.BASE_DIR / "trainer" / "static" / "trainer"
    manifest = json.loads((static / "site.webmanifest").read_text())
    for icon in manifest["icons"]:
        assert (static / icon["src"]).is_file(), icon["src"]
