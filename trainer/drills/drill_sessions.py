"""Practice sets (a lesson's "practise this" drills) played as sessions: which drill comes
next, the frame around each drill and the summary at the end (see
:mod:`trainer.core.drill_sessions`)."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.urls import ResolverMatch, reverse

from engine.drills import DrillAddress, DrillKind, DrillParams
from trainer.core.drill_sessions import Frame, PracticeSet, practice_load, practice_sign
from trainer.core.links import drill_url
from trainer.core.web.http import AuthenticatedHttpRequest
from trainer.progress import selectors

#: The URL names of a practice set's pages (its summary, and "go on").
PRACTICE_VIEWS = ("drill-practise", "drill-practise-next")


@dataclass(frozen=True, slots=True)
class PracticeDrill:
    """One drill of a set: its place (1…size), seed and the learner's answers to it."""

    number: int
    seed: int
    first_right: bool | None  # None: not answered
    latest_right: bool | None
    first_answer: str = ""
    skill: str = ""

    @property
    def answered(self) -> bool:
        return self.first_right is not None

    @property
    def missed(self) -> bool:
        return self.first_right is False


@dataclass(frozen=True, slots=True)
class PracticeWork:
    practice: PracticeSet
    drills: list[PracticeDrill]

    @property
    def answered(self) -> int:
        return sum(d.answered for d in self.drills)

    @property
    def right(self) -> int:
        """Drills right first time (a replay does not change the score)."""
        return sum(d.first_right is True for d in self.drills)

    @property
    def done(self) -> bool:
        return self.answered == len(self.drills)

    @property
    def passed(self) -> bool:
        return self.right >= self.practice.pass_mark

    @property
    def missed(self) -> list[PracticeDrill]:
        return [d for d in self.drills if d.missed]


def practice_work(*, user: User, practice: PracticeSet) -> PracticeWork:
    """The learner's answers to each drill of a started set (one query)."""
    results = selectors.drill_results(
        user=user, kind=practice.kind, seeds=practice.seeds, params=practice.query
    )
    drills = []
    for number, seed in enumerate(practice.seeds, start=1):
        found = results.get(seed)
        if found is None:
            drills.append(PracticeDrill(number, seed, None, None))
        else:
            drills.append(
                PracticeDrill(
                    number,
                    seed,
                    found.first_right,
                    found.latest_right,
                    found.first_answer,
                    found.skill,
                )
            )
    return PracticeWork(practice, drills)


def summary_url(practice: PracticeSet) -> str:
    return reverse("drill-practise", args=[practice_sign(practice)])


def next_url(practice: PracticeSet, after: int | None = None) -> str:
    url = reverse("drill-practise-next", args=[practice_sign(practice)])
    return url + (f"?after={after}" if after is not None else "")


def drill_in_set(practice: PracticeSet, drill: PracticeDrill, *, replay: bool = False) -> str:
    """The drill page of one drill of the set; *Next* goes on with the set (from a replay,
    back to the summary)."""
    onward = summary_url(practice) if replay else next_url(practice, drill.number)
    params = DrillParams.from_key(practice.query)
    address = DrillAddress(DrillKind(practice.kind), drill.seed, params)
    return drill_url(address, next=onward)


def next_drill(work: PracticeWork, after: int = 0) -> PracticeDrill | None:
    """The first unanswered drill after number ``after``, going round to the start."""
    pending = [d for d in work.drills if not d.answered]
    later = [d for d in pending if d.number > after]
    candidates = later or pending
    return candidates[0] if candidates else None


def practice_frame(request: AuthenticatedHttpRequest, match: ResolverMatch) -> Frame | None:
    if match.view_name not in PRACTICE_VIEWS:
        return None
    practice = practice_load(match.kwargs["token"])
    if practice is None or not practice.started:
        return None
    work = practice_work(user=request.user, practice=practice)
    return Frame(
        title=practice.title,
        back_url=practice.back_url,
        back_label=practice.back_label,
        answered=work.answered,
        right=work.right,
        total=practice.size,
        pass_mark=practice.pass_mark,
    )
