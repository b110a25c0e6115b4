import re

from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

PASSWORD = "a-Long-unusual-passphrase-42"


def test_signup_with_keyboard_lands_on_start_here_logged_in(
    live_server, page: Page, phone_page: Page, shot
):
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Sign up").click()
    expect(page).to_have_url(re.compile(r"/accounts/signup/$"))
    shot(page, "signup")

    page.get_by_label("Username").focus()
    page.keyboard.type("keyboard_player")
    page.keyboard.press("Tab")
    expect(page.get_by_label("Email address")).to_be_focused()
    page.keyboard.type("keys@example.com")
    page.keyboard.press("Tab")
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Tab")
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")

    expect(page).to_have_url(live_server.url + "/start/")  # a new account starts on its path
    expect(page.locator(".account-nav")).to_contain_text("keyboard_player")
    expect(page.get_by_role("button", name="Log out")).to_be_visible()
    assert get_user_model().objects.filter(username="keyboard_player").exists()
    shot(page, "start-desktop")

    phone_page.context.add_cookies(page.context.cookies())
    phone_page.goto(live_server.url + "/")
    expect(phone_page.locator(".account-nav")).to_contain_text("keyboard_player")
    shot(phone_page, "home-phone")


def test_skip_link_is_first_in_tab_order(live_server, page: Page, shot):
    page.goto(live_server.url + "/")

    page.keyboard.press("Tab")

    skip = page.get_by_role("link", name="Skip to content")
    expect(skip).to_be_focused()
    expect(skip).to_be_in_viewport()
    shot(page, "skip-link")


def test_logged_out_home_at_phone_width(live_server, phone_page: Page, shot):
    phone_page.goto(live_server.url + "/")

    expect(phone_page.get_by_role("heading", level=1)).to_be_visible()
    width = phone_page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375
    shot(phone_page, "home-phone")
