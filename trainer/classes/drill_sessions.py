"""An assignment's drills as a session (see :mod:`trainer.core.drill_sessions`): a student's
next unanswered drill, the frame around each and the assignment's page at the end."""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import ResolverMatch, reverse
from django.utils.translation import gettext

from trainer.classes import selectors
from trainer.classes.models import Assignment
from trainer.core.drill_sessions import Frame, Next
from trainer.core.web.http import AuthenticatedHttpRequest


@dataclass(frozen=True, slots=True)
class AssignmentSession:
    """One assignment for one member of its class: a student goes through its drills (after
    the one just answered, wrapping round) or to its table when it is a play assignment; a
    teacher, or a student with every drill answered, ends on the assignment's page."""

    request: AuthenticatedHttpRequest
    assignment: Assignment
    student: bool

    def summary_url(self) -> str:
        return self.assignment.get_absolute_url()

    def next_drill(self, after: int | None) -> Next:
        if not self.student:
            return Next(self.summary_url(), ended=True)
        if self.assignment.is_play:
            return Next(self.assignment.play_url, ended=True)
        statuses = selectors.drill_statuses(
            assignment=self.assignment,
            student=self.request.user,
            next_path=reverse("classes:assignment-next", args=[self.assignment.pk]),
        )
        status = selectors.next_unanswered(statuses, after=after or 0)
        return Next(status.url) if status is not None else Next(self.summary_url(), ended=True)

    def frame(self, after: int | None) -> Frame:
        work = selectors.assignment_work(assignment=self.assignment, student=self.request.user)
        return Frame(
            title=self.assignment.title,
            back_url=self.summary_url(),
            back_label=gettext("Back to the assignment"),
            answered=work.answered,
            right=work.right,
            total=len(work.statuses),
        )


def assignment_session(
    request: AuthenticatedHttpRequest, match: ResolverMatch
) -> AssignmentSession | None:
    """The ``drill_sessions`` opener: an assignment's "go on" address, for an assignment the
    user may see."""
    if match.view_name != "classes:assignment-next":
        return None
    assignment = (
        selectors.assignments_visible_to(request.user).filter(pk=match.kwargs["pk"]).first()
    )
    return AssignmentSession(request, assignment, student=True) if assignment else None
