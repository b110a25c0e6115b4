"""A path step's drills as a session (see :mod:`trainer.core.drill_sessions`): which drill
comes next, the frame around each and the step's page at the end; and the path's addresses.

The path is served twice: a club member's at /clubs/<slug>/path/ (the club's view of it) and
everyone's own at /start/ ("Start here"). ``slug`` is None for the solo path. Progress is the
user's own answers either way (a visitor's kept in their session), so both views agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from django.contrib.auth.models import User
from django.http import HttpRequest
from django.urls import ResolverMatch, reverse
from django.utils.translation import gettext

from engine.drills import DrillAddress, DrillKind
from trainer.clubs import selectors
from trainer.clubs.curriculum import Step, get_step
from trainer.core.drill_sessions import Frame, Next
from trainer.core.links import drill_url
from trainer.core.web.http import signed_in
from trainer.drills.models import DrillSetEntry


def path_url(slug: str | None) -> str:
    return reverse("clubs:path", args=[slug]) if slug else reverse("start:path")


def step_url(slug: str | None, number: int) -> str:
    return (
        reverse("clubs:step", args=[slug, number]) if slug else reverse("start:step", args=[number])
    )


def lesson_url(slug: str | None, step: Step) -> str:
    return reverse("learn:lesson", args=[step.lesson]) + (f"?club={slug}" if slug else "?path=1")


def next_path(slug: str | None, step: Step, after: int | None = None) -> str:
    """The step's "go on" address (its session's), after the drill at position ``after``."""
    base = (
        reverse("clubs:step-next", args=[slug, step.number])
        if slug
        else reverse("start:step-next", args=[step.number])
    )
    return base + (f"?after={after}" if after is not None else "")


def entry_url(entry: DrillSetEntry, *, slug: str | None, step: Step) -> str:
    """The drill page of a curated entry, with the convention and rule pinned (so the member's
    own defaults cannot change the drill) and *Next* leading on with the step."""
    params = entry.drill_params
    return drill_url(
        DrillAddress(DrillKind(entry.kind), entry.seed, params),
        convention=params.convention,
        rule=params.rule,
        next=next_path(slug, step, entry.position),
    )


def path_of(request: HttpRequest) -> tuple[selectors.StepStatus, ...]:
    """The path as the user's answers place them on it; a visitor's from their session."""
    if signed_in(request):
        return selectors.path_for(user=request.user)
    return selectors.visitor_path(session=request.session)


def drills_of(request: HttpRequest, step: Step) -> list[selectors.EntryStatus]:
    if signed_in(request):
        return selectors.step_drills(user=request.user, step=step)
    return selectors.visitor_step_drills(session=request.session, step=step)


@dataclass(frozen=True, slots=True)
class StepSession:
    """One step's drills for this user (or visitor): the next one not right yet, starting
    after the one just played (a wrong answer is not served again at once), or the new one
    nearest the learner's level; a step passed before its last drills goes on to them; the
    session ends on the step's page once passed with every drill answered, or once every
    drill is answered without passing."""

    request: HttpRequest
    slug: str | None
    step: Step

    def summary_url(self) -> str:
        return step_url(self.slug, self.step.number)

    def next_drill(self, after: int | None) -> Next:
        step = self.step
        status = path_of(self.request)[step.number - 1]
        if not status.unlocked:
            return Next(
                path_url(self.slug),
                ended=True,
                message=gettext("Step %(number)s opens when step %(previous)s is passed.")
                % {"number": step.number, "previous": step.number - 1},
            )
        drills = drills_of(self.request, step)
        unanswered = [d.entry for d in drills if d.status == selectors.NEW]
        figures = {
            "number": step.number,
            "title": step.title,
            "right": status.right,
            "total": status.total,
            "pass_mark": status.pass_mark,
        }
        if status.passed and not unanswered:
            return Next(
                self.summary_url(),
                ended=True,
                passed=True,
                message=gettext("Step %(number)s, %(title)s, passed: %(right)s of %(total)s right.")
                % figures,
            )
        if status.passed:  # passed with drills left unanswered: the first of them
            return self._serve(status, drills, unanswered[0])
        if after is not None and not unanswered:
            # Every drill answered and the pass mark not reached: the round ends on the step's
            # page, which sums it up (the drills marked ✗ link to playing them again).
            return Next(
                self.summary_url(),
                ended=True,
                message=gettext(
                    "Step %(number)s: %(right)s of %(total)s right, pass mark %(pass_mark)s. "
                    "Play the drills marked ✗ again to pass."
                )
                % figures,
            )
        entry = selectors.next_drill(drills=drills, after=after)
        if entry is None:
            return Next(path_url(self.slug), ended=True)
        if signed_in(self.request):  # a drill not played yet that fits the learner's level
            entry = selectors.fitting_new_drill(user=self.request.user, drills=drills) or entry
        return self._serve(status, drills, entry)

    def _serve(
        self,
        status: selectors.StepStatus,
        drills: list[selectors.EntryStatus],
        entry: DrillSetEntry,
    ) -> Next:
        # The drill page's session frame is for signed-in users: a visitor sees the same line
        # above each drill of the step, as a message.
        line = ""
        if not signed_in(self.request):
            line = gettext(
                "Step %(number)s · Drill %(drill)s of %(total)s · %(right)s right · "
                "pass mark %(pass_mark)s"
            ) % {
                "number": self.step.number,
                "drill": _number_of(drills, entry.position),
                "total": status.total,
                "right": status.right,
                "pass_mark": status.pass_mark,
            }
        url = entry_url(entry, slug=self.slug, step=self.step)
        return Next(url, message=line, whole_page=True)

    def frame(self, after: int | None) -> Frame:
        step = self.step
        user = cast(User, self.request.user)  # (frames are drawn for signed-in users only)
        status = selectors.path_for(user=user, steps=[step])[0]
        drills = drills_of(self.request, step)
        return Frame(
            title=gettext("Step %(number)s: %(title)s")
            % {"number": step.number, "title": step.title},
            back_url=self.summary_url(),
            back_label=gettext("Back to step %(number)s") % {"number": step.number},
            answered=status.answered,
            right=status.right,
            total=status.total,
            pass_mark=status.pass_mark,
            # The drill by its number in the step: the step serves drills out of order, and
            # the drill's *Next* names its position.
            number=_number_of(drills, after) if after is not None else None,
        )


def _number_of(drills: list[selectors.EntryStatus], position: int) -> int | None:
    return next((i for i, d in enumerate(drills, 1) if d.entry.position == position), None)


def step_session(request: HttpRequest, match: ResolverMatch) -> StepSession | None:
    """The ``drill_sessions`` opener: a step's "go on" address."""
    if match.view_name not in ("clubs:step-next", "start:step-next"):
        return None
    step = get_step(int(match.kwargs["number"]))
    return StepSession(request, match.kwargs.get("slug"), step) if step else None
