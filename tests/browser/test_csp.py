"""The Content-Security-Policy blocks nothing the site itself uses: htmx answers in place and
the browser reports no violation (issue 9, hardening)."""

import re

from playwright.sync_api import Page, expect

from tests.browser.accounts import sign_up


def test_htmx_works_under_the_content_security_policy(live_server, page: Page):
    violations: list[str] = []
    page.on(
        "console",
        lambda message: (
            violations.append(message.text)
            if "Content Security Policy" in message.text or "Refused" in message.text
            else None
        ),
    )
    sign_up(page, live_server.url, "csp_learner")

    response = page.goto(live_server.url + "/drills/checklist/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page.locator(".options label").first.click()
    page.get_by_role("button", name=re.compile("Check answer")).click()

    expect(page.locator("#feedback")).to_contain_text(re.compile("Right|Not quite"))
    # Answered in place by htmx: a plain form post would have gone to the drill's own address.
    expect(page).to_have_url(re.compile(r"/drills/checklist/$"))
    page.goto(live_server.url + "/clubs/")
    page.goto(live_server.url + "/progress/")
    assert violations == []
