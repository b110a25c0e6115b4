"""Whose session it is: a club's (its organisers direct it, its members play) or a class's
(its teachers direct it, its students and teachers play). Every permission of the app asks
this module, so the two kinds of group are told apart in one place."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Q
from django.urls import reverse

from engine.signals import DEFAULT_CONVENTION
from trainer.classes.models import ClassMembership, Classroom
from trainer.clubs.models import Club, ClubMembership
from trainer.core.game import conventions


@dataclass(frozen=True)
class Group:
    club: Club | None = None
    classroom: Classroom | None = None

    def __post_init__(self) -> None:
        if (self.club is None) == (self.classroom is None):
            raise ValueError("a session belongs to a club or to a class")

    @property
    def name(self) -> str:
        return self.club.name if self.club is not None else str(self.classroom)

    @property
    def sessions_url(self) -> str:
        if self.club is not None:
            return reverse("duplicate:club", args=[self.club.slug])
        assert self.classroom is not None
        return reverse("duplicate:class", args=[self.classroom.pk])

    @property
    def home_url(self) -> str:
        if self.club is not None:
            return reverse("clubs:detail", args=[self.club.slug])
        assert self.classroom is not None
        return reverse("classes:detail", args=[self.classroom.pk])

    def member_ids(self) -> set[int]:
        """Everyone who may play: a club's members, a class's students and teachers."""
        if self.club is not None:
            return set(
                ClubMembership.objects.filter(club=self.club).values_list("user_id", flat=True)
            )
        return set(
            ClassMembership.objects.filter(classroom=self.classroom).values_list(
                "user_id", flat=True
            )
        )

    def is_member(self, user: User | AnonymousUser) -> bool:
        return bool(user.is_authenticated and user.pk in self.member_ids())

    def directs(self, user: User | AnonymousUser) -> bool:
        """Whether ``user`` creates and directs the group's sessions."""
        if not user.is_authenticated:
            return False
        if self.club is not None:
            return ClubMembership.objects.filter(
                club=self.club, user_id=user.pk, role=ClubMembership.Role.ORGANISER
            ).exists()
        return ClassMembership.objects.filter(
            classroom=self.classroom, user_id=user.pk, role=ClassMembership.Role.TEACHER
        ).exists()

    def card_choices(self) -> list[tuple[str, str]]:
        return conventions.choices(club=self.club, classroom=self.classroom)

    @property
    def default_convention(self) -> str:
        return self.club.convention if self.club is not None else DEFAULT_CONVENTION.name

    @property
    def default_rule(self) -> str:
        return self.club.rule if self.club is not None else "classic"


def group_of(session: object) -> Group:
    return Group(getattr(session, "club", None), getattr(session, "classroom", None))


def visible_q(user: User) -> Q:
    """Sessions of ``user``'s clubs and classes."""
    return Q(club__memberships__user_id=user.pk) | Q(classroom__memberships__user_id=user.pk)
