"""Account steps shared by the browser tests."""

from playwright.sync_api import Page, expect

PASSWORD = "a-Long-unusual-passphrase-42"


def sign_up(page: Page, base: str, username: str) -> None:
    """Create an account through the sign-up form and check the header shows it signed in."""
    page.goto(base + "/accounts/signup/")
    page.locator("input[name=username]").fill(username)
    page.locator("input[name=password1]").fill(PASSWORD)
    page.locator("input[name=password2]").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    expect(page.locator(".account-nav")).to_contain_text(username)
