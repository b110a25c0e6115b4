"""The card editor's words for a card's parts, in the page's language.

A row is named by its checklist item and straight-flush shape ("Four to a straight flush
(XXX.X)"), numbered when its item has more than one row of that name; its id (the card file's
``five_sf:XXXXX``) is only a tooltip. An error of the checker is its problem, placed by that
name; a changed field of a row is the editor's own label with its values in words.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext_lazy as _

from engine.messages import Msg, Term, Text
from engine.signals import ITEMS, Row
from engine.signals.card import SUIT_RELATION_NAMES
from engine.signals.cardfile import error_detail, rank_words
from trainer.wording.render import say

__all__ = ["SUIT_CHOICES", "SUIT_SETS", "error_texts", "error_views", "field_change", "row_titles"]

#: The suit relations a row may allow, as one choice each.
SUIT_SETS: dict[str, frozenset[str]] = {
    "same_suit": frozenset({"same_suit"}),
    "same_colour": frozenset({"same_colour"}),
    "different_colour": frozenset({"different_colour"}),
    "different_suits": frozenset({"same_colour", "different_colour"}),
    "same_suit_or_colour": frozenset({"same_suit", "same_colour"}),
    "same_suit_or_different_colour": frozenset({"same_suit", "different_colour"}),
    "any": frozenset(SUIT_RELATION_NAMES),
}
SUIT_CHOICES = [
    ("same_suit", _("same suit")),
    ("same_colour", _("same colour, different suits")),
    ("different_colour", _("different colour")),
    ("different_suits", _("different suits")),
    ("same_suit_or_colour", _("same suit or same colour")),
    ("same_suit_or_different_colour", _("same suit or different colour")),
    ("any", _("any suits")),
]


def _name(item: str, shape: str | None) -> str:
    term = Msg("term", term=Term("item", item))
    if shape:
        return say(Msg("with_shape", title=term, shape=Text(shape)))
    return say(term)


def _parts(row: Row | Mapping[str, Any]) -> tuple[str, str, str | None] | None:
    """A row's id, item and shape (a :class:`Row`, or a row of a card file's JSON)."""
    if isinstance(row, Row):
        return row.id, str(row.item), row.shape
    rid, item, shape = row.get("id"), row.get("item"), row.get("shape")
    if isinstance(rid, str) and item in ITEMS and (shape is None or isinstance(shape, str)):
        return rid, str(item), shape
    return None


def row_titles(rows: Iterable[Row | Mapping[str, Any]]) -> dict[str, str]:
    """Each row's name by its id (rows of a :class:`Convention` or of a card file's JSON);
    rows that share a name are numbered in the card's order."""
    parts = [p for p in map(_parts, rows) if p is not None]
    names = {rid: _name(item, shape) for rid, item, shape in parts}
    shared = Counter(names.values())
    seen: Counter[str] = Counter()
    out = {}
    for rid, _item, _shape in parts:
        name = names[rid]
        if shared[name] > 1:
            seen[name] += 1
            name = gettext("%(name)s, row %(n)s") % {"name": name, "n": seen[name]}
        out[rid] = name
    return out


def error_views(
    errors: Iterable[Mapping[str, Any]], titles: Mapping[str, str]
) -> list[dict[str, Any]]:
    """The checker's errors (``check_card``'s JSON) for the page: ``where`` (the row's name, the
    item's name, or nothing) and ``text``, the problem in the page's language; ``row`` the id."""
    out = []
    for e in errors:
        row, item = e.get("row"), e.get("item")
        where = titles.get(row) if row else None
        if where is None and item in ITEMS:
            where = say(Msg("term", term=Term("item", str(item))))
        message = e["message"]
        out.append(
            {
                "where": where,
                "text": say(error_detail(message) if where else message),
                "row": row or "",
            }
        )
    return out


def error_texts(errors: Iterable[Mapping[str, Any]], titles: Mapping[str, str]) -> list[str]:
    """:func:`error_views` as sentences: ``Four of a kind: two cards of the same rank …``."""
    return [
        gettext("%(where)s: %(text)s") % v if v["where"] else v["text"]
        for v in error_views(errors, titles)
    ]


#: The editor's label of each field of a row's pattern.
_FIELD_LABELS = {
    "pattern.rank": lambda: gettext("Order"),
    "pattern.suits": lambda: gettext("Suits"),
    "pattern.distance": lambda: gettext("Distance"),
    "pattern.c1_suits": lambda: gettext("First card's suits"),
    "pattern.c2_suits": lambda: gettext("Second card's suits"),
    "title": lambda: gettext("Title"),
}


def _suits_words(value: list[str]) -> str:
    key = next((k for k, v in SUIT_SETS.items() if v == frozenset(value)), None)
    if key is None:
        return " / ".join(value)
    return str(dict(SUIT_CHOICES)[key])


def _value(field: str, value: Any) -> str:
    if value is None:
        return pgettext("suits", "any") if field.endswith("_suits") else "–"
    if field == "pattern.rank" and isinstance(value, str):
        return say(rank_words(value))
    if field == "pattern.suits" and isinstance(value, list):
        return _suits_words(value)
    if field == "pattern.distance" and isinstance(value, list) and len(value) == 2:
        low, high = value
        return str(low) if low == high else f"{low}–{high}"
    if field.endswith("_suits") and isinstance(value, list):
        symbols = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
        return " ".join(symbols.get(str(s), str(s)) for s in value)
    if isinstance(value, list):
        return "[" + ", ".join(_value("", v) for v in value) + "]"
    return str(value)


def field_change(field: str, a: Any, b: Any) -> dict[str, Any]:
    """A changed field as the page shows it: its label (the editor's, else the card file's
    name, ``code`` true) and both values in words."""
    label = _FIELD_LABELS.get(field)
    return {
        "field": label() if label else field,
        "code": label is None,
        "a": _value(field, a),
        "b": _value(field, b),
    }
