"""Reads for clubs and the onboarding path.

Every selector is scoped: a member's path is read for that member only, and the organisers'
table for one club only, in a fixed number of queries whatever the number of members.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from django.contrib.auth.models import AnonymousUser, User
from django.contrib.sessions.backends.base import SessionBase
from django.db.models import Max, QuerySet

from engine.drills import DrillAddress, make_drill_at
from engine.errors import ConcertoError
from trainer.clubs.curriculum import STEPS, Step
from trainer.clubs.models import Club, ClubMembership
from trainer.drills.models import DrillSetEntry
from trainer.progress import services as progress_services
from trainer.progress.models import Attempt
from trainer.ratings import selectors as ratings
from trainer.ratings.services import Family

#: Status of one drill of a step for one member: the latest answer counts.
RIGHT, WRONG, NEW = "right", "wrong", "new"

#: The steps a visitor (not signed in) may play, from the start: the rest open with an account.
VISITOR_STEPS = 1
#: Who a visitor's answers belong to in the tables below (no user has this id).
_VISITOR = 0


@dataclass(frozen=True, slots=True)
class StepStatus:
    step: Step
    total: int
    answered: int
    right: int
    unlocked: bool

    @property
    def pass_mark(self) -> int:
        return min(self.step.pass_mark, self.total)

    @property
    def available(self) -> bool:
        """False when the step's drill set has not been loaded (``manage.py seed``)."""
        return self.total > 0

    @property
    def passed(self) -> bool:
        return self.available and self.right >= self.pass_mark

    @property
    def state(self) -> str:
        """``passed``, ``current`` (unlocked, not passed) or ``locked``."""
        if self.passed:
            return "passed"
        return "current" if self.unlocked else "locked"


@dataclass(frozen=True, slots=True)
class EntryStatus:
    entry: DrillSetEntry
    status: str


@dataclass(frozen=True, slots=True)
class MemberRow:
    """One line of the organisers' table."""

    membership: ClubMembership
    steps: tuple[StepStatus, ...]
    last_answer: datetime | None = None

    @property
    def passed_count(self) -> int:
        return path_position(self.steps)

    @property
    def current(self) -> StepStatus | None:
        return current_step(self.steps)


# --------------------------------------------------------------------------------------------
# Clubs and memberships


def memberships_for(*, user: User | AnonymousUser) -> QuerySet[ClubMembership]:
    """The user's memberships with their clubs, earliest joined first."""
    if not user.is_authenticated:
        return ClubMembership.objects.none()
    return (
        ClubMembership.objects.filter(user=user).select_related("club").order_by("joined_at", "id")
    )


def first_club_of(*, user: User) -> Club | None:
    """The club ``user`` joined first, or None."""
    membership = memberships_for(user=user).first()
    return membership.club if membership else None


def membership_get(*, user: User | AnonymousUser, slug: str) -> ClubMembership | None:
    """The user's membership of the club ``slug``, or None (not a member, or no such club)."""
    if not user.is_authenticated:
        return None
    return ClubMembership.objects.filter(user=user, club__slug=slug).select_related("club").first()


def club_by_invite(*, token: str) -> Club | None:
    if not token:
        return None
    return Club.objects.filter(invite_token=token).first()


def house_rules_for(*, user: User | AnonymousUser) -> dict[str, str]:
    """The convention and scoring rule of the earliest-joined club of ``user`` (one query)."""
    if not user.is_authenticated:
        return {}
    row = (
        ClubMembership.objects.filter(user=user)
        .order_by("joined_at", "id")
        .values_list("club__convention", "club__rule")
        .first()
    )
    if row is None:
        return {}
    return {"convention": row[0], "rule": row[1]}


def organisers_of(*, club: Club) -> list[str]:
    """The organisers' user names (shown to every member)."""
    return list(
        club.memberships.filter(role=ClubMembership.Role.ORGANISER)
        .order_by("joined_at", "id")
        .values_list("user__username", flat=True)
    )


def member_count(*, club: Club) -> int:
    return club.memberships.count()


# --------------------------------------------------------------------------------------------
# The onboarding path


def _entries_by_set(steps: Sequence[Step]) -> dict[str, list[DrillSetEntry]]:
    """Each step's drill-set entries, in order (one query)."""
    out: dict[str, list[DrillSetEntry]] = {s.drill_set: [] for s in steps}
    entries = (
        DrillSetEntry.objects.filter(drill_set__slug__in=list(out))
        .select_related("drill_set")
        .order_by("drill_set_id", "position")
    )
    for entry in entries:
        out[entry.drill_set.slug].append(entry)
    return out


def _latest_results(
    user_ids: Iterable[int], entries: Iterable[DrillSetEntry]
) -> dict[tuple[int, str, int, str], bool]:
    """``(user id, kind, seed, params)`` → whether the latest answer to that drill was right.

    One query: the attempts of these users on these seeds, oldest first, so the last one read
    for a drill is its latest answer.
    """
    entries = list(entries)
    users = list(user_ids)
    if not entries or not users:
        return {}
    wanted = {(e.kind, e.seed, e.params) for e in entries}
    rows = (
        Attempt.objects.filter(
            user_id__in=users,
            seed__in={e.seed for e in entries},
            kind__in={e.kind for e in entries},
        )
        .order_by("created_at", "id")
        .values_list("user_id", "kind", "seed", "params", "correct")
    )
    latest: dict[tuple[int, str, int, str], bool] = {}
    for user_id, kind, seed, params, correct in rows:
        if (kind, seed, params) in wanted:
            latest[(user_id, kind, seed, params)] = correct
    return latest


def _status(
    latest: dict[tuple[int, str, int, str], bool], user_id: int, entry: DrillSetEntry
) -> str:
    found = latest.get((user_id, entry.kind, entry.seed, entry.params))
    if found is None:
        return NEW
    return RIGHT if found else WRONG


def _step_statuses(
    user_id: int,
    steps: Sequence[Step],
    entries: dict[str, list[DrillSetEntry]],
    latest: dict[tuple[int, str, int, str], bool],
) -> tuple[StepStatus, ...]:
    out: list[StepStatus] = []
    unlocked = True
    for step in steps:
        statuses = [_status(latest, user_id, e) for e in entries.get(step.drill_set, [])]
        status = StepStatus(
            step=step,
            total=len(statuses),
            answered=sum(s != NEW for s in statuses),
            right=statuses.count(RIGHT),
            unlocked=unlocked,
        )
        out.append(status)
        unlocked = unlocked and status.passed
    return tuple(out)


def path_position(steps: Sequence[StepStatus]) -> int:
    """How many steps from the start are passed in a row."""
    count = 0
    for status in steps:
        if not status.passed:
            break
        count += 1
    return count


def current_step(steps: Sequence[StepStatus]) -> StepStatus | None:
    """The first step not passed yet (None when the whole path is done)."""
    return next((s for s in steps if not s.passed), None)


def path_for(*, user: User, steps: Sequence[Step] = STEPS) -> tuple[StepStatus, ...]:
    """A member's position on the onboarding path (two queries)."""
    entries = _entries_by_set(steps)
    latest = _latest_results([user.pk], (e for es in entries.values() for e in es))
    return _step_statuses(user.pk, steps, entries, latest)


def step_drills(*, user: User, step: Step) -> list[EntryStatus]:
    """The drills of one step with the member's status on each (two queries)."""
    entries = _entries_by_set([step])[step.drill_set]
    latest = _latest_results([user.pk], entries)
    return [EntryStatus(e, _status(latest, user.pk, e)) for e in entries]


def _visitor_latest(
    session: SessionBase, entries: Iterable[DrillSetEntry]
) -> dict[tuple[int, str, int, str], bool]:
    """The visitor's answers kept in ``session`` to these drills, as :func:`_latest_results`
    gives a member's (re-graded by the engine; the latest answer to a drill counts)."""
    wanted = {(e.kind, e.seed, e.params) for e in entries}
    if not wanted:
        return {}
    latest: dict[tuple[int, str, int, str], bool] = {}
    for kept in progress_services.visitor_answers_kept(session, wanted=wanted):  # oldest first
        drill = kept.drill
        latest[(_VISITOR, str(drill.kind), drill.seed, drill.params.key())] = kept.correct
    return latest


def visitor_path(*, session: SessionBase, steps: Sequence[Step] = STEPS) -> tuple[StepStatus, ...]:
    """A visitor's position on the path from the answers their session keeps: counted as a
    member's are, with only the first :data:`VISITOR_STEPS` steps open (one query)."""
    entries = _entries_by_set(steps)
    latest = _visitor_latest(session, (e for es in entries.values() for e in es))
    return tuple(
        replace(s, unlocked=s.unlocked and s.step.number <= VISITOR_STEPS)
        for s in _step_statuses(_VISITOR, steps, entries, latest)
    )


def visitor_step_drills(*, session: SessionBase, step: Step) -> list[EntryStatus]:
    """The drills of one step with the visitor's status on each, from their session."""
    entries = _entries_by_set([step])[step.drill_set]
    latest = _visitor_latest(session, entries)
    return [EntryStatus(e, _status(latest, _VISITOR, e)) for e in entries]


def next_drill(*, drills: Sequence[EntryStatus], after: int | None = None) -> DrillSetEntry | None:
    """The first drill not answered right yet, going round from the one after ``after``.

    Starting after the drill just played means a wrong answer is not served again at once.
    """
    if not drills:
        return None
    start = 0
    if after is not None:
        start = next((i + 1 for i, d in enumerate(drills) if d.entry.position == after), 0)
    for offset in range(len(drills)):
        candidate = drills[(start + offset) % len(drills)]
        if candidate.status != RIGHT:
            return candidate.entry
    return None


def fitting_new_drill(*, user: User, drills: Sequence[EntryStatus]) -> DrillSetEntry | None:
    """Of the step's drills not played yet, the one whose family (kind, skill, side hand,
    card) fits the learner's rating best, or None when ratings say nothing yet (the step's
    order then stands)."""
    candidates = []
    for d in drills:
        if d.status != NEW:
            continue
        try:
            drill = make_drill_at(DrillAddress.of(d.entry.kind, d.entry.seed, d.entry.params))
        except ConcertoError:
            continue
        family = Family(str(drill.kind), drill.skill, drill.side_hand, drill.params.convention)
        candidates.append((d.entry, family))
    return ratings.fitting_first(user, candidates)


def members_path(*, club: Club, steps: Sequence[Step] = STEPS) -> list[MemberRow]:
    """Every member's position on the path, for the club's organisers (four queries)."""
    memberships = list(club.memberships.select_related("user").order_by("joined_at", "id"))
    user_ids = [m.user_id for m in memberships]
    entries = _entries_by_set(steps)
    latest = _latest_results(user_ids, (e for es in entries.values() for e in es))
    last = (
        dict(
            Attempt.objects.filter(user_id__in=user_ids)
            .order_by()
            .values("user_id")
            .annotate(last=Max("created_at"))
            .values_list("user_id", "last")
        )
        if user_ids
        else {}
    )
    return [
        MemberRow(m, _step_statuses(m.user_id, steps, entries, latest), last.get(m.user_id))
        for m in memberships
    ]
