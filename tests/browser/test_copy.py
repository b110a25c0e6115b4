"""The organiser copies the club's invite link with one click (static JS under the strict CSP)."""

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import Page, expect

from trainer.clubs import services as club_services

PASSWORD = "a-Long-unusual-passphrase-42"


@pytest.fixture
def club(transactional_db):
    organiser = get_user_model().objects.create_user("olive", password=PASSWORD)
    return club_services.club_create(user=organiser, name="Riverside Concerto Club")


def test_copy_button_copies_the_invite_link(live_server, page: Page, phone_page: Page, shot, club):
    client = Client()
    client.force_login(get_user_model().objects.get(username="olive"))
    cookie = {
        "name": settings.SESSION_COOKIE_NAME,
        "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
        "url": live_server.url,
    }
    page.context.add_cookies([cookie])
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{live_server.url}/clubs/{club.slug}/")
    button = page.get_by_role("button", name="Copy link")
    expect(button).to_be_visible()
    button.click()
    expect(page.locator("#invite [data-copy-status]")).to_have_text("Copied.")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.endswith(f"/clubs/join/{club.invite_token}/")
    assert errors == []
    shot(page, "club-invite-copied")
    phone_page.context.add_cookies([cookie])
    phone_page.goto(f"{live_server.url}/clubs/{club.slug}/")
    shot(phone_page, "club-phone")
