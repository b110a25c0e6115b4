"""The onboarding path's last step ends at the table."""

from __future__ import annotations

from django.template.loader import render_to_string

from trainer.clubs.curriculum import STEPS
from trainer.clubs.selectors import StepStatus


def test_only_the_last_step_of_the_path_offers_a_deal_to_play():
    assert [s.play for s in STEPS] == [False] * (len(STEPS) - 1) + [True]


def _row(step, *, unlocked: bool) -> dict:
    status = StepStatus(step=step, total=10, answered=0, right=0, unlocked=unlocked)
    return {"s": status, "url": "/s/", "next_url": "/n/", "lesson_url": "/l/"}


def test_the_unlocked_last_step_links_to_the_table():
    html = render_to_string(
        "clubs/_path_steps.html",
        {"rows": [_row(STEPS[0], unlocked=True), _row(STEPS[-1], unlocked=True)]},
    )
    assert html.count("data-path-play") == 1
    assert 'href="/play/"' in html


def test_a_locked_last_step_does_not_link_to_the_table_yet():
    html = render_to_string("clubs/_path_steps.html", {"rows": [_row(STEPS[-1], unlocked=False)]})
    assert "data-path-play" not in html
