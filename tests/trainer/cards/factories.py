"""Factories for the cards' tests: an organiser's club, a teacher's class, a card's form post."""

from __future__ import annotations

from typing import Any

from engine.signals import CONVENTIONS
from trainer.cards import selectors, services
from trainer.cards.forms import CardForm
from trainer.cards.models import CardVersion
from trainer.cards.selectors import Owner
from trainer.classes import services as class_services
from trainer.clubs import services as club_services

from ..factories import user


def club_owner(organiser=None, name: str = "Riverside") -> Owner:
    organiser = organiser or user()
    return Owner(club=club_services.club_create(user=organiser, name=name))


def class_owner(teacher=None, name: str = "Year 9") -> Owner:
    teacher = teacher or user()
    return Owner(classroom=class_services.classroom_create(teacher=teacher, name=name))


def form_post(card=None, base: str = "parlett-2008", **changes: Any) -> dict[str, Any]:
    """The editor's post for ``card`` (default: the base card) unchanged, then ``changes``
    (``{"row:two_threes:suits": "different_suits", "item:fours": "out", "title": …}``)."""
    base_card = CONVENTIONS[base]
    form = CardForm(card=card or base_card, base=base_card)
    data: dict[str, Any] = {}
    for name, field in form.fields.items():
        value = form.get_initial_for_field(field, name)
        data[name] = value
    by_id = {r.row.id: r.index for r in form.rows}
    for key, value in changes.items():
        if key.startswith("row:"):
            _, row_id, field = key.split(":")
            data[f"row-{by_id[row_id]}-{field}"] = value
        elif key.startswith("item:"):
            data[f"item-{key[5:]}"] = value
        else:
            data[key] = value
    return data


def card_json(post: dict[str, Any], card=None, base: str = "parlett-2008") -> dict[str, Any]:
    base_card = CONVENTIONS[base]
    form = CardForm(post, card=card or base_card, base=base_card)
    assert form.is_valid(), form.errors
    return form.card_json("club-new")


def make_card(owner: Owner, actor, base: str = "parlett-2008", **changes: Any) -> CardVersion:
    post = form_post(base=base, title="Our card", **changes)
    return services.card_create(
        actor=actor, owner=owner, derived_from=base, data=card_json(post, base=base)
    )


def organiser_of(owner: Owner):
    if owner.club is not None:
        return owner.club.memberships.get(role="organiser").user
    return owner.classroom.memberships.get(role="teacher").user


def newest(version: CardVersion) -> CardVersion:
    return selectors.newest_version(version.card)
