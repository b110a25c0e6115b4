"""How the engine and the core find clubs' cards: installed in ``CardsConfig.ready()`` in every
web and worker process.

- :func:`resolve` is the engine's convention resolver: ``get_convention("club-12-0123456789ab")``
  reads that version from the database once per process (the engine registers it);
- :func:`owned_cards` is :func:`trainer.core.game.conventions.owned_cards`: a club's or a
  class's own cards for its menus and checks.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import SynchronousOnlyOperation
from django.db import DatabaseError
from django.db.models import OuterRef, Subquery

from engine.signals import Convention
from engine.signals.cardfile import InvalidCardError, load_convention
from trainer.cards.models import NAME_PATTERN, CardVersion, ClubCard

logger = logging.getLogger(__name__)


def resolve(name: str) -> Convention | None:
    """The card version called ``name`` (``club-<card id>-<version>``), or ``None``."""
    match = NAME_PATTERN.fullmatch(name)
    if match is None:
        return None
    try:
        row = (
            CardVersion.objects.filter(card_id=int(match[1]), version=match[2])
            .values_list("data", flat=True)
            .first()
        )
    except (DatabaseError, SynchronousOnlyOperation) as exc:
        logger.warning("cannot read the card %s: %s", name, exc)
        return None
    if row is None:
        return None
    try:
        conv = load_convention(row)
    except InvalidCardError:  # written through the service, which checks: not expected
        logger.exception("the stored card %s is not valid", name)
        return None
    return conv if conv.name == name else None


def owned_cards(*, club: Any = None, classroom: Any = None) -> list[tuple[str, str]]:
    """``(name, title)`` of the newest version of each card of ``club`` (or ``classroom``)."""
    cards = ClubCard.objects.filter(club=club) if club is not None else None
    if cards is None:
        cards = ClubCard.objects.filter(classroom=classroom)
    newest = CardVersion.objects.filter(card=OuterRef("pk")).order_by("-number")
    rows = cards.annotate(version=Subquery(newest.values("version")[:1])).values_list(
        "pk", "title", "version"
    )
    return [(f"club-{pk}-{version}", title) for pk, title, version in rows if version]
