"""Today's review as a session (see :mod:`trainer.core.drill_sessions`): the most overdue
skill's drill until the daily goal is met (with ``more``, while anything is due), the frame
"Today: 7 of 20 answers · 5 right" around each, and the review's summary at the end."""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.urls import ResolverMatch, reverse
from django.utils.translation import gettext

from engine.drills import DrillParams
from trainer.core import preferences
from trainer.core.drill_sessions import Frame, Next
from trainer.core.links import next_drill_url
from trainer.core.web.http import AuthenticatedHttpRequest
from trainer.progress import selectors
from trainer.ratings import selectors as ratings


@dataclass(frozen=True, slots=True)
class ReviewSession:
    """Today's review for a signed-in learner; ``more``: go on past the daily goal."""

    request: AuthenticatedHttpRequest
    more: bool = False

    def summary_url(self) -> str:
        return reverse("review") + ("?more=1" if self.more else "")

    def next_drill(self, after: int | None) -> Next:
        user = self.request.user
        first = selectors.due_skills(user=user).first()
        if first is None or (not self.more and selectors.today_for(user=user).met):
            return Next(self.summary_url(), ended=True)
        params = DrillParams.from_query(
            {"items": first.skill}, preferences.drill_defaults(self.request)
        )
        if params.side_hand is None:  # among the due skill's drills, those near the level
            hand = ratings.fitting_side_hand(user, first.kind, [first.skill], params.convention)
            params = replace(params, side_hand=hand) if hand else params
        return Next(next_drill_url(first.kind, params, review="1", next=self.summary_url()))

    def frame(self, after: int | None) -> Frame:
        today = selectors.today_for(user=self.request.user)
        return Frame(
            title=gettext("Today's review"),
            back_url=reverse("progress"),
            back_label=gettext("Back to your progress"),
            answered=today.answered,
            right=today.right,
            total=today.goal,
            daily=True,
        )


def review_session(request: AuthenticatedHttpRequest, match: ResolverMatch) -> ReviewSession | None:
    """The ``drill_sessions`` opener: the review's address."""
    return ReviewSession(request) if match.view_name == "review" else None
