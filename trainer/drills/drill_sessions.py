"""Practice sets (a lesson's "practise this" drills) played as sessions (:class:`PracticeSession`,
see :mod:`trainer.core.drill_sessions`): which drill comes next, the frame around each drill
and the summary at the end."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.http import HttpRequest
from django.urls import ResolverMatch, reverse

from engine.drills import DrillAddress, DrillKind, DrillParams
from trainer.core.drill_sessions import Frame, Next, PracticeSet, practice_load, practice_sign
from trainer.core.links import drill_url
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


@dataclass(frozen=True, slots=True)
class PracticeSession:
    """A started practice set for a signed-in learner: its next unanswered drill after the
    one just played (going round), the set's summary once every drill is answered."""

    user: User
    practice: PracticeSet

    def summary_url(self) -> str:
        return summary_url(self.practice)

    def next_drill(self, after: int | None) -> Next:
        drill = next_drill(practice_work(user=self.user, practice=self.practice), after or 0)
        if drill is None:
            return Next(self.summary_url(), ended=True)
        return Next(drill_in_set(self.practice, drill))

    def frame(self, after: int | None) -> Frame:
        practice = self.practice
        work = practice_work(user=self.user, practice=practice)
        return Frame(
            title=practice.title,
            back_url=practice.back_url,
            back_label=practice.back_label,
            answered=work.answered,
            right=work.right,
            total=practice.size,
            pass_mark=practice.pass_mark,
        )


def practice_session(request: HttpRequest, match: ResolverMatch) -> PracticeSession | None:
    """The ``drill_sessions`` opener: a started set's "go on" or summary address."""
    if match.view_name not in PRACTICE_VIEWS:
        return None
    practice = practice_load(match.kwargs["token"])
    if practice is None or not practice.started or not request.user.is_authenticated:
        return None
    return PracticeSession(request.user, practice)
