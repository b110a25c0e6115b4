"""Convention cards: the shipped ones, read from their JSON files, and the registry of names.

A :class:`Convention` is a value (:mod:`engine.signals.card`). Each :class:`Row` names one way
of showing one checklist item: the *rule* that proposes candidate plays from the cards making
the item (a word from the small fixed vocabulary in :mod:`engine.signals.encoder`), and the
*pattern* every play of the row obeys (suit relation, rank relation, distance, particular
suits). The encoder keeps only candidates that match the row's pattern and the decoder reads a
signal as every row whose pattern (and, for straight-flush shapes, whose window geometry) it
matches, so the two cannot drift apart. A third convention is a third card file; no new code
path is needed.

The shipped cards (:data:`CONVENTIONS`) are the files ``engine/signals/cards/<name>.json``,
read by :func:`~engine.signals.cardfile.load_convention` like any club's card.
:func:`get_convention` finds them and every card given to :func:`register_convention` (a
club's card, at run time); :func:`open_convention` also reads a card file by its path. An
application that keeps cards elsewhere (the trainer keeps clubs' cards in its database) installs
a resolver, :func:`set_convention_resolver`, which :func:`get_convention` asks for a name it
does not know.

>>> get_convention("parlett-2008") is DEFAULT_CONVENTION
True
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from engine.errors import ConcertoError, UnknownConventionError, WrongTypeError
from engine.messages import reading_id, register, register_terms, register_words
from engine.signals.card import (
    BLACK_OR_DIAMOND,
    DIFFERENT_COLOUR,
    DIFFERENT_SUITS,
    ITEM_FAMILY,
    ITEM_LINE,
    ITEM_TITLES,
    ITEMS,
    RED,
    SAME_COLOUR,
    SAME_SUIT,
    SAME_SUIT_OR_COLOUR,
    SCHEMA,
    SF_SHAPES,
    SUIT_RELATION_NAMES,
    ChecklistItem,
    Convention,
    Pattern,
    Row,
)
from engine.signals.cardfile import CARDS_DIR, InvalidCardError, load_convention

__all__ = [
    "BLACK_OR_DIAMOND",
    "CONVENTIONS",
    "DEFAULT_CONVENTION",
    "DIFFERENT_COLOUR",
    "DIFFERENT_SUITS",
    "ITEMS",
    "ITEM_FAMILY",
    "ITEM_LINE",
    "ITEM_TITLES",
    "RED",
    "SAME_COLOUR",
    "SAME_SUIT",
    "SAME_SUIT_OR_COLOUR",
    "SCHEMA",
    "SF_SHAPES",
    "SHIPPED",
    "SUIT_RELATION_NAMES",
    "ChecklistItem",
    "Convention",
    "ConventionConflictError",
    "InvalidCardError",
    "Pattern",
    "Row",
    "get_convention",
    "known_conventions",
    "load_convention",
    "open_convention",
    "register_convention",
    "require_convention",
    "set_convention_resolver",
    "unregister_convention",
]


class ConventionConflictError(ConcertoError):
    """A card whose name another, different card already has (a club's card called like a
    shipped one, or a second version of a registered card)."""


#: The names of the shipped cards, the default first.
SHIPPED: tuple[str, ...] = ("parlett-2008", "teach-yourself-1994")


def _ship(name: str) -> Convention:
    conv = load_convention(CARDS_DIR / f"{name}.json")
    if conv.name != name:
        raise InvalidCardError([], f"{name}.json names the card {conv.name!r}")
    object.__setattr__(conv, "shipped", True)  # only its repr reads it (get_convention(name))
    return conv


#: The shipped cards by name: what the trainer offers and stores (read-only).
CONVENTIONS: dict[str, Convention] = {name: _ship(name) for name in SHIPPED}
DEFAULT_CONVENTION: Convention = CONVENTIONS[SHIPPED[0]]

register_terms("item", ITEM_TITLES)
for _conv in CONVENTIONS.values():
    register_words({f"convention.{_conv.name}.description": _conv.description.replace("%", "%%")})
    for _row in _conv.rows:
        register(reading_id(_conv.name, _row.id), _row.reading)

#: Cards registered at run time (clubs' cards), by name.
_REGISTERED: dict[str, Convention] = {}


def known_conventions() -> dict[str, Convention]:
    """Every card :func:`get_convention` finds: the shipped ones, then the registered ones."""
    return {**CONVENTIONS, **_REGISTERED}


def register_convention(conv: Convention, *, replace: bool = False) -> Convention:
    """Make ``conv`` findable by its name; returns the card now registered under it.

    Registering a card equal to one already known (same name and version) returns the known
    one. A different card under a shipped card's name is refused, and so is a second version
    of a registered card unless ``replace`` is set (:class:`ConventionConflictError`): several
    memo tables in the engine are keyed by a card's name (see ``docs/conventions.md``).

    >>> club = load_convention(dict(DEFAULT_CONVENTION.to_json(), name="our-club"))
    >>> register_convention(club) is get_convention("our-club")
    True
    >>> unregister_convention("our-club")
    """
    if not isinstance(conv, Convention):
        raise WrongTypeError(
            f"register_convention() takes a Convention, not {type(conv).__name__} {conv!r}"
        )
    shipped = CONVENTIONS.get(conv.name)
    if shipped is not None:
        if shipped == conv:
            return shipped
        raise ConventionConflictError(
            f"{conv.name!r} is a shipped card (version {shipped.version}); this card (version "
            f"{conv.version}) differs from it: give it a name of its own"
        )
    known = _REGISTERED.get(conv.name)
    if known is not None and known == conv:
        return known
    if known is not None and not replace:
        raise ConventionConflictError(
            f"another version of the card {conv.name!r} is registered ({known.version}, not "
            f"{conv.version})"
        )
    _REGISTERED[conv.name] = conv
    return conv


def unregister_convention(name: str) -> None:
    """Forget the registered card called ``name`` (a shipped card stays)."""
    if name in CONVENTIONS:
        raise ConventionConflictError(f"{name!r} is a shipped card and cannot be unregistered")
    _REGISTERED.pop(name, None)


#: Asked for a name no shipped or registered card has (see :func:`set_convention_resolver`).
_resolver: Callable[[str], Convention | None] | None = None


def set_convention_resolver(
    resolver: Callable[[str], Convention | None] | None,
) -> Callable[[str], Convention | None] | None:
    """Install ``resolver(name)``, asked by :func:`get_convention` (and :func:`open_convention`)
    for a name that is neither shipped nor registered: it returns the card of that name, or
    ``None``. A card it returns is registered, so it is asked once per name and process; it
    must carry the name it was asked for. ``None`` removes the resolver. Returns the resolver
    it replaces.

    >>> before = set_convention_resolver(lambda name: None)
    >>> set_convention_resolver(before)("our-club") is None
    True
    """
    global _resolver
    before, _resolver = _resolver, resolver
    return before


def _resolve(name: object) -> Convention | None:
    """The card the resolver finds for ``name`` (registered), or ``None``."""
    if _resolver is None or not isinstance(name, str):
        return None
    conv = _resolver(name)
    if conv is None or not isinstance(conv, Convention) or conv.name != name:
        return None
    return register_convention(conv)


def _unknown(message: str) -> UnknownConventionError:
    known = ", ".join(known_conventions())
    return UnknownConventionError(f"{message} (known: {known})")


def get_convention(name: str | Convention) -> Convention:
    """The convention called ``name`` (a :class:`Convention` passes through): a shipped card,
    one given to :func:`register_convention`, or one the resolver finds
    (:func:`set_convention_resolver`).

    >>> get_convention("teach-yourself-1994").title
    'Teach Yourself 1994'
    """
    if isinstance(name, Convention):
        return name
    try:
        return CONVENTIONS.get(name) or _REGISTERED[name]
    except (KeyError, TypeError):
        found = _resolve(name)
        if found is None:
            raise _unknown(f"not a convention: {name!r}") from None
        return found


def open_convention(name_or_path: str | Path) -> Convention:
    """The card called ``name_or_path``, or else the card in that file: read, checked
    (:class:`InvalidCardError`) and registered (:class:`ConventionConflictError` when another
    card has its name), so :func:`get_convention` finds it by name afterwards.

    >>> open_convention("parlett-2008") is open_convention(CARDS_DIR / "parlett-2008.json")
    True
    """
    if isinstance(name_or_path, str):
        known = known_conventions().get(name_or_path) or _resolve(name_or_path)
        if known is not None:
            return known
        path = Path(name_or_path)
        if not (name_or_path.endswith(".json") or len(path.parts) > 1 or path.is_file()):
            raise _unknown(f"not a convention or a card file: {name_or_path!r}")
    return register_convention(load_convention(name_or_path))


def require_convention(value: object, func: str) -> Convention:
    """``value`` if it is a :class:`Convention`; else a typed error naming ``func``: a
    :class:`WrongTypeError` (for a name, saying to look it up with :func:`get_convention`,
    or an :class:`UnknownConventionError` when no convention has that name).

    >>> require_convention("nope", "decode")  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    ...
    engine.errors.UnknownConventionError: decode() takes a Convention; 'nope' is not one …
    """
    if isinstance(value, Convention):
        return value
    if isinstance(value, str):
        if value not in known_conventions():
            raise _unknown(f"{func}() takes a Convention; {value!r} is not one")
        raise WrongTypeError(
            f"{func}() takes a Convention, not its name {value!r}: use get_convention({value!r})"
        )
    raise WrongTypeError(f"{func}() takes a Convention, not {type(value).__name__} {value!r}")
