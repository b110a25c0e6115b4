"""The last-hand drill and its lesson, at desktop and phone width in both languages: the
learner sees the stakes, partner's two cards and their own nine, answers with the keyboard
alone, and the feedback gives every option's worth to the deal."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from engine.drills import GENERATOR_VERSION

WORDS = {
    "en": ("Which three cards do you play?", "Worked out exactly"),
    "ja": ("どの3枚を出しますか？", "厳密に計算しています"),
}


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("width", [1280, 360])
def test_a_last_hand_drill_answered_with_the_keyboard(
    live_server, browser: Browser, shot, language, width
):
    context = browser.new_context(
        viewport={"width": width, "height": 900}, extra_http_headers={"Accept-Language": language}
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(f"{live_server.url}/drills/last-hand/4/?items=keep_low&v={GENERATOR_VERSION}")
    question, exact = WORDS[language]
    expect(page.locator("body")).to_contain_text(question)
    shot(page, f"{language}-{width}-question")
    options = page.locator('input[name="option"]')
    expect(options).to_have_count(4)
    options.first.focus()
    page.keyboard.press("Space")
    page.keyboard.press("Enter")
    expect(page.locator("body")).to_contain_text(exact)
    shot(page, f"{language}-{width}-feedback")
    context.close()


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_last_hand_lesson_works_its_examples_out(live_server, browser: Browser, shot, language):
    from django.core.management import call_command

    call_command("seed", verbosity=0)
    context = browser.new_context(
        viewport={"width": 1280, "height": 900}, extra_http_headers={"Accept-Language": language}
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/learn/the-last-hand/")
    examples = page.locator(".example-stakes")
    expect(examples).to_have_count(2)
    examples.first.locator("summary").click()
    expect(examples.first.locator(".last-hand-worths tbody tr")).to_have_count(4)
    expect(examples.first.locator(".is-best")).to_have_count(1)
    shot(page, f"{language}-lesson")
    context.close()
