"""Which convention cards a page may offer and store: the engine's shipped cards, and the cards
of a club or a class (their own, edited in ``trainer.cards``), which reach the core through a
registry (``owned_cards`` in ``settings.CONCERTO_EXTENSIONS``).

A club's card is stored by its name, ``club-<card id>-<version>``; the engine finds it by that
name through the resolver the core installs at start-up (:func:`install_resolver`), which asks
``convention_resolver`` in the same registry.
"""

from __future__ import annotations

from typing import Any

from engine.errors import ConcertoError
from engine.signals import CONVENTIONS, Convention, get_convention
from engine.signals.conventions import set_convention_resolver
from trainer.core import extensions


def resolve(name: str) -> Convention | None:
    """A card no shipped one is called ``name``, from the feature that stores them."""
    source = extensions.one("convention_resolver")
    return source(name) if source is not None else None


def install_resolver() -> None:
    """Give the engine :func:`resolve` (the engine imports nothing from Django, so it is told;
    done once by ``CoreConfig.ready``)."""
    set_convention_resolver(resolve)


def owned_cards(*, club: Any = None, classroom: Any = None) -> list[tuple[str, str]]:
    """The ``(name, title)`` of each card the club (or class) owns, newest version of each."""
    source = extensions.one("owned_cards")
    if source is None or (club is None and classroom is None):
        return []
    found: list[tuple[str, str]] = source(club=club, classroom=classroom)
    return found


def choices(
    *, club: Any = None, classroom: Any = None, current: str | None = None
) -> list[tuple[str, str]]:
    """The shipped cards, then the club's (or class's) own: ``(name, title)`` for a menu.
    ``current`` (the value stored now, say an older version of an own card) is kept in the
    list, so saving a form unchanged does not change it."""
    found = [(c.name, c.title) for c in CONVENTIONS.values()]
    found += owned_cards(club=club, classroom=classroom)
    if current and current not in {name for name, _ in found} and is_known(current):
        found.append((current, title(current)))
    return found


def allowed(name: str, *, club: Any = None, classroom: Any = None) -> bool:
    """Whether ``name`` is a shipped card or one of the club's (class's) own."""
    return name in CONVENTIONS or name in dict(owned_cards(club=club, classroom=classroom))


def is_known(name: object) -> bool:
    """Whether the engine knows a card called ``name`` (shipped, or found by its resolver)."""
    if not isinstance(name, str) or not name:
        return False
    if name in CONVENTIONS:
        return True
    try:
        get_convention(name)
    except (ConcertoError, ValueError):
        return False
    return True


def title(name: str) -> str:
    """The card's title, or its name when no card has it."""
    try:
        return get_convention(name).title
    except (ConcertoError, ValueError):
        return name
