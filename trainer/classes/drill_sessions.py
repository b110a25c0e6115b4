"""The session frame of an assignment's drills (see :mod:`trainer.core.drill_sessions`)."""

from __future__ import annotations

from django.urls import ResolverMatch

from trainer.classes import selectors
from trainer.core.drill_sessions import Frame
from trainer.core.web.http import AuthenticatedHttpRequest


def assignment_frame(request: AuthenticatedHttpRequest, match: ResolverMatch) -> Frame | None:
    if match.view_name != "classes:assignment-next":
        return None
    assignment = (
        selectors.assignments_visible_to(request.user).filter(pk=match.kwargs["pk"]).first()
    )
    if assignment is None:
        return None
    work = selectors.assignment_work(assignment=assignment, student=request.user)
    return Frame(
        title=assignment.title,
        back_url=assignment.get_absolute_url(),
        back_label="Back to the assignment",
        answered=work.answered,
        right=work.right,
        total=len(work.statuses),
    )
