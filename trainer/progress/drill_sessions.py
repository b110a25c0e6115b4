"""The session frame of today's review (see :mod:`trainer.core.drill_sessions`): "Today: 7 of 20
reviews · 5 right" and a way back to the progress page."""

from __future__ import annotations

from django.urls import ResolverMatch, reverse
from django.utils.translation import gettext

from trainer.core.drill_sessions import Frame
from trainer.core.web.http import AuthenticatedHttpRequest
from trainer.progress import selectors


def review_frame(request: AuthenticatedHttpRequest, match: ResolverMatch) -> Frame | None:
    if match.view_name != "review":
        return None
    today = selectors.today_for(user=request.user)
    return Frame(
        title=gettext("Today's review"),
        back_url=reverse("progress"),
        back_label=gettext("Back to your progress"),
        answered=today.answered,
        right=today.right,
        total=today.goal,
        daily=True,
    )
