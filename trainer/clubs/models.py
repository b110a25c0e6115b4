"""Clubs: a group with organisers and members, house rules and an invite link.

A club's house rules (a convention card and a scoring rule, both named by the engine's
catalogues; the card may be one of the club's own, ``club-<card id>-<version>``, see
``trainer.cards``) become the default drill settings of its members. Members join through an invite
link holding :attr:`Club.invite_token`; organisers can rotate it, which kills the old link.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from engine.scoring import SCORING_RULES
from engine.signals import CONVENTIONS, DEFAULT_CONVENTION
from trainer.core.game import conventions

#: A club's own card, as the house rules store it: ``club-<card id>-<version>``.
OWN_CARD_NAME = r"^club-[1-9][0-9]*-[0-9a-f]{12}$"

#: Bytes of randomness in an invite token (``token_urlsafe`` gives 4/3 as many characters).
INVITE_TOKEN_BYTES = 32


def new_invite_token() -> str:
    """A fresh unguessable invite token (43 URL-safe characters)."""
    return secrets.token_urlsafe(INVITE_TOKEN_BYTES)


class Club(models.Model):
    name = models.CharField(max_length=80)
    slug = models.SlugField(max_length=90, unique=True)
    invite_token = models.CharField(max_length=64, unique=True, default=new_invite_token)
    #: A shipped card's name or one of the club's own cards (no ``choices``: which own cards
    #: a club may pick is checked by the service, ``clubs.services.house_rules_set``).
    convention = models.CharField(max_length=40, default=DEFAULT_CONVENTION.name)
    rule = models.CharField(
        max_length=20,
        default="classic",
        choices=[(name, name.title()) for name in SCORING_RULES],
    )
    #: The language members see when they have not chosen one (blank: their browser's); one
    #: of ``settings.LANGUAGES``, checked by the service (no choices here: a new language
    #: needs no migration).
    language = models.CharField(max_length=10, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="ClubMembership", related_name="clubs"
    )

    class Meta:
        db_table = "trainer_club"  # the table made before the app split
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(convention__in=list(CONVENTIONS)) | Q(convention__regex=OWN_CARD_NAME),
                name="club_convention_known",
            ),
            models.CheckConstraint(
                condition=Q(rule__in=list(SCORING_RULES)), name="club_rule_known"
            ),
            models.CheckConstraint(condition=~Q(slug=""), name="club_slug_not_empty"),
            models.CheckConstraint(condition=~Q(invite_token=""), name="club_token_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def convention_title(self) -> str:
        return conventions.title(self.convention)


class ClubMembership(models.Model):
    class Role(models.TextChoices):
        ORGANISER = "organiser", _("Organiser")
        MEMBER = "member", _("Member")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(default=timezone.now)
    #: Since when the member has held ``role`` (a member made organiser later: that moment).
    #: An organiser watches a member's live deal only when both held their roles before it
    #: was dealt.
    role_since = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "trainer_clubmembership"  # the table made before the app split
        ordering = ["joined_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="club_membership_once"),
            models.CheckConstraint(
                condition=Q(role__in=["organiser", "member"]), name="club_membership_role_known"
            ),
        ]
        indexes = [models.Index(fields=["user", "joined_at"], name="club_membership_user")]

    def __str__(self) -> str:
        return f"{self.user} in {self.club} ({self.role})"

    @property
    def is_organiser(self) -> bool:
        return self.role == self.Role.ORGANISER
