"""Writes for clubs. Keyword-only and atomic; the acting user is always passed in and checked,
so a view that forgets a permission check still cannot change someone else's club."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from engine.scoring import SCORING_RULES
from engine.signals import DEFAULT_CONVENTION
from trainer.clubs.models import Club, ClubMembership, new_invite_token
from trainer.core.game import conventions
from trainer.core.infra.dbretry import retry_on_lock
from trainer.core.languages import language_codes

ORGANISER = ClubMembership.Role.ORGANISER
MEMBER = ClubMembership.Role.MEMBER


def _check_rules(convention: str, rule: str, club: Club | None = None) -> None:
    """A shipped card, or one of ``club``'s own cards, and a scoring rule the engine has."""
    if not conventions.allowed(convention, club=club):
        raise ValidationError(
            {"convention": _("Unknown convention: %(name)r.") % {"name": convention}}
        )
    if rule not in SCORING_RULES:
        raise ValidationError({"rule": _("Unknown scoring rule: %(name)r.") % {"name": rule}})


def _require_organiser(*, actor: User, club: Club) -> None:
    if not club.memberships.filter(user=actor, role=ORGANISER).exists():
        raise PermissionDenied(_("Only the club's organisers can do this."))


#: Slugs that would collide with the fixed addresses under ``/clubs/``.
RESERVED_SLUGS = frozenset({"new", "join"})


def _free_slug(name: str) -> str:
    base = slugify(name)[:80] or "club"
    slug, n = base, 1
    while slug in RESERVED_SLUGS or Club.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


@transaction.atomic
def club_create(
    *,
    user: User,
    name: str,
    convention: str = DEFAULT_CONVENTION.name,
    rule: str = "classic",
    slug: str | None = None,
    language: str = "",
) -> Club:
    """Found a club; its founder becomes its first organiser."""
    name = name.strip()
    if not name:
        raise ValidationError({"name": _("A club needs a name.")})
    _check_rules(convention, rule)
    _check_language(language)
    club = Club.objects.create(
        name=name,
        slug=slug or _free_slug(name),
        convention=convention,
        rule=rule,
        language=language,
    )
    ClubMembership.objects.create(club=club, user=user, role=ORGANISER)
    return club


@retry_on_lock  # idempotent: safe to run again if SQLite stays locked
@transaction.atomic
def club_join(*, user: User, club: Club) -> tuple[ClubMembership, bool]:
    """Make ``user`` a member (an existing membership is returned unchanged)."""
    try:
        with transaction.atomic():
            return ClubMembership.objects.get_or_create(
                club=club, user=user, defaults={"role": MEMBER}
            )
    except IntegrityError:  # a concurrent join of the same user
        return ClubMembership.objects.get(club=club, user=user), False


@transaction.atomic
def invite_rotate(*, actor: User, club: Club) -> str:
    """Give the club a new invite token; the old link stops working."""
    _require_organiser(actor=actor, club=club)
    club.invite_token = new_invite_token()
    club.save(update_fields=["invite_token"])
    return club.invite_token


@transaction.atomic
def house_rules_set(
    *,
    actor: User,
    club: Club,
    convention: str,
    rule: str,
    language: str | None = None,
) -> Club:
    """Choose the club's convention card (a shipped one or one of its own) and scoring rule
    (its members' drill defaults) and, when given, the language members see until they choose
    one ("" for their browser's)."""
    _require_organiser(actor=actor, club=club)
    _check_rules(convention, rule, club)
    club.convention, club.rule = convention, rule
    fields = ["convention", "rule"]
    if language is not None:
        _check_language(language)
        club.language = language
        fields.append("language")
    club.save(update_fields=fields)
    return club


def _check_language(language: str) -> None:
    if language and language not in language_codes():
        raise ValidationError({"language": _("Choose one of the listed languages.")})


@transaction.atomic
def member_promote(*, actor: User, club: Club, user_id: int) -> ClubMembership:
    """Make a member of ``club`` an organiser. Raises ``ClubMembership.DoesNotExist`` for a
    user who is not a member of this club."""
    _require_organiser(actor=actor, club=club)
    membership = ClubMembership.objects.select_for_update().get(club=club, user_id=user_id)
    if membership.role != ORGANISER:
        membership.role = ORGANISER
        membership.role_since = timezone.now()
        membership.save(update_fields=["role", "role_since"])
    return membership
