"""Reads for the site's own pages: what a signed-in learner's home page shows.

The home page reads through the feature apps' selectors (classes, progress, clubs) and picks
one *Continue*: the most useful next thing, in this order — the open assignment due soonest,
else the reviews due, else the next step of the onboarding path, else a fresh drill.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.urls import reverse
from django.utils.translation import gettext, ngettext

from engine.drills import KINDS
from trainer.classes.selectors import OpenAssignment, open_assignments_for
from trainer.clubs import selectors as clubs
from trainer.clubs.selectors import StepStatus
from trainer.core.links import next_drill_url
from trainer.progress import selectors as progress
from trainer.progress.models import Attempt


@dataclass(frozen=True, slots=True)
class NextThing:
    """One thing to do next: a button's words, where it goes, and why it is first."""

    kind: str  # "assignment", "review", "path" or "drill"
    label: str
    url: str
    why: str


@dataclass(frozen=True)
class Home:
    continue_: NextThing
    due: int
    streak: int
    path_step: StepStatus | None
    #: Where to go on with ``path_step``; the whole path's page.
    step_url: str
    path_passed: int
    path_url: str
    open_assignments: list[OpenAssignment] = field(default_factory=list)
    #: Today's answers against the learner's daily review goal.
    today: progress.Today | None = None
    #: Whether the learner has answered a drill before ("welcome back"), or is new here.
    returning: bool = True


def path_step_url(*, user: User, step: StepStatus) -> str:
    """Where to go on with a path step — its lesson first, then its drills — on the user's
    club's path, else on their own (*Start here*)."""
    club = clubs.first_club_of(user=user)
    if step.answered == 0:
        query = f"?club={club.slug}" if club is not None else "?path=1"
        return reverse("learn:lesson", args=[step.step.lesson]) + query
    if club is not None:
        return reverse("clubs:step-next", args=[club.slug, step.step.number])
    return reverse("start:step-next", args=[step.step.number])


def _path_url(user: User) -> str:
    club = clubs.first_club_of(user=user)
    return reverse("clubs:path", args=[club.slug]) if club is not None else reverse("start:path")


def home_for(*, user: User) -> Home:
    """Everything a signed-in learner's home page shows."""
    assignments = open_assignments_for(student=user)
    due = progress.due_skills(user=user).count()
    steps = clubs.path_for(user=user)
    step = clubs.current_step(steps)
    if step is not None and not step.available:
        step = None  # the path's drill sets are not loaded (manage.py seed)
    step_url = path_step_url(user=user, step=step) if step is not None else ""
    if assignments:
        a = assignments[0].assignment
        nxt = NextThing(
            "assignment",
            gettext("Continue “%(title)s”") % {"title": a.title},
            reverse("classes:assignment-next", args=[a.pk]),
            f"{a.classroom.name} · {a.due_label}",
        )
    elif due:
        nxt = NextThing(
            "review",
            ngettext("Review %(count)s due drill", "Review %(count)s due drills", due)
            % {"count": due},
            reverse("review"),
            gettext("Skills you are about to forget"),
        )
    elif step is not None:
        nxt = NextThing(
            "path",
            gettext("Step %(number)s: %(title)s")
            % {"number": step.step.number, "title": step.step.title},
            step_url,
            str(step.step.goal),
        )
    else:
        nxt = NextThing(
            "drill",
            gettext("Play a fresh drill"),
            next_drill_url(KINDS[0]),
            gettext("Nothing is due: keep your hand in"),
        )
    return Home(
        continue_=nxt,
        due=due,
        streak=progress.streak_days(user=user),
        path_step=step,
        step_url=step_url,
        path_passed=clubs.path_position(steps),
        path_url=_path_url(user),
        open_assignments=assignments,
        today=progress.today_for(user=user),
        returning=Attempt.objects.filter(user=user).exists(),
    )
