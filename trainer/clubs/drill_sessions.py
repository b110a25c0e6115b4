"""The session frame of a path step's drills (see :mod:`trainer.core.drill_sessions`)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from django.urls import ResolverMatch, reverse
from django.utils.translation import gettext

from trainer.clubs import selectors
from trainer.clubs.curriculum import get_step
from trainer.core.drill_sessions import Frame
from trainer.core.web.http import AuthenticatedHttpRequest


def step_frame(request: AuthenticatedHttpRequest, match: ResolverMatch) -> Frame | None:
    if match.view_name not in ("clubs:step-next", "start:step-next"):
        return None
    step = get_step(int(match.kwargs["number"]))
    if step is None:
        return None
    slug = match.kwargs.get("slug")
    status = selectors.path_for(user=request.user, steps=[step])[0]
    # The drill on this page, by its number in the step (the step serves drills out of order:
    # the next one not right yet, or the new one nearest the learner's level). Its *Next*
    # names it: ``…/next/?after=<its position>`` (views.entry_url).
    after = parse_qs(urlsplit(request.GET.get("next", "")).query).get("after", [""])[0]
    number = next(
        (
            i
            for i, d in enumerate(selectors.step_drills(user=request.user, step=step), start=1)
            if str(d.entry.position) == after
        ),
        None,
    )
    back = (
        reverse("clubs:step", args=[slug, step.number])
        if slug
        else reverse("start:step", args=[step.number])
    )
    return Frame(
        title=gettext("Step %(number)s: %(title)s") % {"number": step.number, "title": step.title},
        back_url=back,
        back_label=gettext("Back to step %(number)s") % {"number": step.number},
        answered=status.answered,
        right=status.right,
        total=status.total,
        pass_mark=status.pass_mark,
        number=number,
    )
