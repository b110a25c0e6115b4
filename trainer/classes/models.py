"""Classes: a teacher's group of students, their join code, and assignments of drills.

An :class:`Assignment` resolves to a fixed, ordered list of :class:`AssignmentDrill` rows, each
naming a drill by ``(kind, seed, params)`` only, exactly as
:class:`~trainer.progress.models.Attempt` stores it. An attempt counts towards an assignment
when the three match (the engine rebuilds the position and its answer; no answer is stored
here). The list is written once, when the
assignment is made, so later edits to a curated drill set cannot change an assignment under its
students.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from engine.drills import KIND_TITLES, KINDS, DrillAddress, DrillKind, DrillParams, skill_title
from engine.messages import Msg
from engine.scoring import SCORING_RULES
from engine.signals import CONVENTIONS, DEFAULT_CONVENTION
from trainer.core.game import conventions
from trainer.core.links import drill_url
from trainer.wording.render import say

#: The drill kinds as plain strings (what the database and the migrations hold).
KIND_NAMES = [str(k) for k in KINDS]

#: Join code characters: no 0/O, 1/I/L, so a code read aloud or off a board is typed right.
JOIN_CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
#: 31**10 is about 8 × 10**14 codes; with the join rate limit, guessing one is hopeless.
DEFAULT_JOIN_CODE_LENGTH = 10
JOIN_CODE_MAX_LENGTH = 32


def join_code_length() -> int:
    return max(
        DEFAULT_JOIN_CODE_LENGTH,
        int(getattr(settings, "CLASSES_JOIN_CODE_LENGTH", DEFAULT_JOIN_CODE_LENGTH)),
    )


def new_join_code() -> str:
    """A fresh random join code, stored without dashes: ``"K7QM4XPD2H"``."""
    return "".join(secrets.choice(JOIN_CODE_ALPHABET) for _ in range(join_code_length()))


def normalize_join_code(raw: str) -> str:
    """What a person typed, as stored: upper case, dashes and spaces dropped.

    >>> normalize_join_code(" k7qm-4xpd 2h ")
    'K7QM4XPD2H'
    """
    return "".join(ch for ch in raw.upper() if ch.isalnum())


def format_join_code(code: str) -> str:
    """Groups of four for reading aloud: ``"K7QM-4XPD-2H"``."""
    return "-".join(code[i : i + 4] for i in range(0, len(code), 4))


class Classroom(models.Model):
    """A class. Its teachers and students are :class:`ClassMembership` rows."""

    name = models.CharField(max_length=80)
    join_code = models.CharField(
        max_length=JOIN_CODE_MAX_LENGTH, unique=True, default=new_join_code
    )
    created_at = models.DateTimeField(default=timezone.now)
    #: Set when a teacher archives the class: it becomes read-only (no joins, no assignments).
    archived_at = models.DateTimeField(null=True, blank=True)
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="ClassMembership", related_name="classrooms"
    )

    class Meta:
        db_table = "trainer_classroom"  # the table made before the app split
        ordering = ["name", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(name=""), name="classroom_name_not_empty"),
            models.CheckConstraint(
                condition=Q(join_code__regex=r"^[A-Z0-9]{10,}$"), name="classroom_join_code_shape"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("classes:detail", args=[self.pk])

    @property
    def is_archived(self) -> bool:
        return self.archived_at is not None

    @property
    def join_code_display(self) -> str:
        return format_join_code(self.join_code)

    @property
    def join_path(self) -> str:
        return reverse("classes:join-link", args=[self.join_code_display])


class ClassMembership(models.Model):
    """A user in a class, as a teacher or as a student (never both)."""

    class Role(models.TextChoices):
        TEACHER = "teacher", _("Teacher")
        STUDENT = "student", _("Student")

    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="class_memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices)
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "trainer_classmembership"  # the table made before the app split
        ordering = ["joined_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["classroom", "user"], name="class_membership_once"),
            models.CheckConstraint(
                condition=Q(role__in=["teacher", "student"]), name="class_membership_role_known"
            ),
        ]
        indexes = [models.Index(fields=["user", "role"], name="class_membership_user_role")]

    def __str__(self) -> str:
        return f"{self.user} in {self.classroom} ({self.role})"


class Assignment(models.Model):
    """Drills a teacher sets a class, from a curated drill set or built on the spot, or a
    number of deals (``count``) to play at the table with a convention and a scoring rule.

    A built assignment keeps its spec (kinds × items × ``count`` per pair, convention, rule)
    and the random ``base_seed`` its drills' seeds derive from, so the list can be explained
    and rebuilt; both kinds keep the resolved list in :class:`AssignmentDrill`.
    """

    class Source(models.TextChoices):
        DRILL_SET = "set", _("Curated drill set")
        BUILT = "built", _("Built on the spot")
        PLAY = "play", _("Deals played at the table")

    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="assignments")
    title = models.CharField(max_length=120)
    due_on = models.DateField()
    created_at = models.DateTimeField(default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    source = models.CharField(max_length=8, choices=Source.choices)
    #: The curated set it was copied from (kept for display; the drills are a copy).
    drill_set = models.ForeignKey(
        "drills.DrillSet",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="assignments",
    )
    # The spec of a built assignment.
    kinds = models.CharField(max_length=80, blank=True, default="")
    items = models.CharField(max_length=400, blank=True, default="")
    count = models.PositiveSmallIntegerField(null=True, blank=True)
    convention = models.CharField(
        max_length=40,
        default=DEFAULT_CONVENTION.name,
        choices=[(c.name, c.title) for c in CONVENTIONS.values()],
    )
    rule = models.CharField(
        max_length=20, default="classic", choices=[(name, name.title()) for name in SCORING_RULES]
    )
    base_seed = models.PositiveBigIntegerField(null=True, blank=True)

    class Meta:
        db_table = "trainer_assignment"  # the table made before the app split
        ordering = ["due_on", "created_at", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(title=""), name="assignment_title_not_empty"),
            models.CheckConstraint(
                condition=Q(source__in=["set", "built", "play"]), name="assignment_source_known"
            ),
            models.CheckConstraint(
                condition=Q(source="set")
                | Q(source="play")
                | (Q(base_seed__isnull=False) & Q(count__gte=1) & ~Q(kinds="")),
                name="assignment_built_has_spec",
            ),
            models.CheckConstraint(
                condition=~Q(source="play") | Q(count__gte=1), name="assignment_play_has_count"
            ),
            # A shipped card, or (built drills only, checked by the service) the class's own
            # card, ``club-<card id>-<version>`` (trainer.cards).
            models.CheckConstraint(
                condition=Q(convention__in=list(CONVENTIONS))
                | Q(convention__regex=r"^club-[1-9][0-9]*-[0-9a-f]{12}$"),
                name="assignment_convention_known",
            ),
            models.CheckConstraint(
                condition=Q(rule__in=list(SCORING_RULES)), name="assignment_rule_known"
            ),
        ]
        indexes = [models.Index(fields=["classroom", "due_on"], name="assignment_class_due")]

    def __str__(self) -> str:
        return f"{self.title} ({self.classroom})"

    def get_absolute_url(self) -> str:
        return reverse("classes:assignment", args=[self.pk])

    @property
    def due_label(self) -> str:
        """ "due today", "due in 3 days", "2 days overdue"."""
        days = (self.due_on - timezone.localdate()).days
        if days in (0, 1):
            return gettext("due today") if days == 0 else gettext("due tomorrow")
        if days > 1:
            return ngettext("due in %(count)s day", "due in %(count)s days", days) % {"count": days}
        return ngettext("%(count)s day overdue", "%(count)s days overdue", -days) % {"count": -days}

    @property
    def is_overdue(self) -> bool:
        return self.due_on < timezone.localdate()

    @property
    def convention_title(self) -> str:
        """The card's title (a shipped card's, or the class's own card's)."""
        return conventions.title(self.convention)

    @property
    def is_play(self) -> bool:
        """ "Play ``count`` deals" at the table (no drills), with ``convention`` and ``rule``."""
        return self.source == self.Source.PLAY

    @property
    def play_url(self) -> str:
        """The play page's start form, set up for this assignment."""
        return reverse("play:home") + f"?assignment={self.pk}"

    @property
    def kind_list(self) -> list[str]:
        return [k for k in self.kinds.split(",") if k]

    @property
    def item_list(self) -> list[str]:
        return [i for i in self.items.split(",") if i]


class AssignmentDrill(models.Model):
    """One drill of an assignment, at ``position`` (1, 2, …): ``(kind, seed, params)`` only."""

    assignment = models.ForeignKey(Assignment, on_delete=models.CASCADE, related_name="drills")
    position = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=16)
    seed = models.PositiveBigIntegerField()
    #: ``DrillParams.key()``, as in ``Attempt.params``.
    params = models.CharField(max_length=255, blank=True, default="")

    class Meta:
        db_table = "trainer_assignmentdrill"  # the table made before the app split
        ordering = ["assignment", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["assignment", "position"], name="assignment_drill_position_once"
            ),
            models.UniqueConstraint(
                fields=["assignment", "kind", "seed", "params"], name="assignment_drill_once"
            ),
            models.CheckConstraint(
                condition=Q(kind__in=KIND_NAMES), name="assignment_drill_kind_known"
            ),
            models.CheckConstraint(
                condition=Q(position__gte=1), name="assignment_drill_position_from_one"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.assignment_id} #{self.position}: {self.kind}/{self.seed}"

    @property
    def drill_params(self) -> DrillParams:
        """The params of the drill's address, as stored (``DrillParams.key()``)."""
        return DrillParams.from_key(self.params)

    @property
    def kind_title(self) -> str:
        """``"Spot the checklist item"``: what a student sees (the target would give it away)."""
        return KIND_TITLES.get(self.kind, self.kind)

    @property
    def title(self) -> str:
        """``"Spot the checklist item: Four of a kind"``, for teachers (no target: the kind)."""
        names = say(Msg("list.comma")).join(
            say(skill_title(self.kind, i)) for i in self.drill_params.items
        )
        return say(KIND_TITLES.get(self.kind, self.kind)) + (f": {names}" if names else "")

    def url(self, next_path: str | None = None) -> str:
        """The drill page, its convention and rule spelled out so that a student's own default
        settings cannot turn it into a different drill; ``next_path`` chains the *Next* button.
        """
        params = self.drill_params
        extra = {"convention": params.convention, "rule": params.rule}
        if next_path:
            extra["next"] = next_path
        return drill_url(DrillAddress(DrillKind(self.kind), self.seed, params), **extra)
