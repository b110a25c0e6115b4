"""The card editor's form: a card's rows as selects, read back into a card's JSON.

For each checklist item: whether it is signalled or played out at once (no signal), and for
each of its rows one fieldset: the order of the two cards (up, down, same rank, different
ranks, or a card and pass), their suit relation, the distance allowed and the first card's
suits. Everything else a row holds (its rule, shape, positions, wording) is kept as it was; the
engine's checker (``engine.signals.cardcheck.check_card``) judges the result, never this form.

Rows of an item the card plays out come from the card it was derived from, so an item can be
signalled again.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

from engine.messages import Msg, templates
from engine.signals import ITEM_TITLES, Convention, Row
from engine.signals.card import SUIT_RELATION_NAMES
from engine.signals.cardfile import card_schema
from trainer.cards.models import CardVersion
from trainer.cards.wording import SUIT_CHOICES, SUIT_SETS, row_titles

RANK_CHOICES = [
    ("up", _("up: the lower card first")),
    ("down", _("down: the higher card first")),
    ("same", _("same rank")),
    ("different", _("different ranks, either order")),
    ("pass", _("a card, then pass")),
]
#: A pattern's distances, as the card file's schema bounds them (0..12).
_DISTANCE = card_schema()["$defs"]["row"]["properties"]["pattern"]["properties"]["distance"]
DISTANCE_CHOICES = [
    (str(d), str(d))
    for d in range(_DISTANCE["items"]["minimum"], _DISTANCE["items"]["maximum"] + 1)
]
SUIT_LETTERS = [("S", "♠"), ("H", "♥"), ("D", "♦"), ("C", "♣")]
SIGNALLED, PLAYED_OUT = "signal", "out"
SIGNAL_CHOICES = [
    (SIGNALLED, _("signalled")),
    (PLAYED_OUT, _("no signal: played out at once")),
]


def _suits_key(suits: frozenset[str]) -> str:
    return next((key for key, value in SUIT_SETS.items() if value == suits), "any")


@dataclass(frozen=True, slots=True)
class EditableRow:
    """A row in the form: its place, the row, and whether it came from the base card."""

    index: int
    row: Row
    from_base: bool


class CardForm(forms.Form):
    """The editor. ``card`` is the card being edited (its newest version, or the base card for
    a new one); ``base`` the shipped card it was derived from."""

    title = forms.CharField(label=_("Title"), max_length=80)

    def __init__(self, data: Any = None, *, card: Convention, base: Convention) -> None:
        super().__init__(data)
        self.card, self.base = card, base
        self.rows: list[EditableRow] = []
        for item in card.checklist:
            own = card.rows_for(item)
            for row in own or base.rows_for(item):
                self.rows.append(EditableRow(len(self.rows), row, not own))
        self.fields["title"].initial = card.title
        for item in card.checklist:
            has_rows = bool(card.rows_for(item) or base.rows_for(item))
            self.fields[f"item-{item}"] = forms.ChoiceField(
                label=ITEM_TITLES[item],
                choices=SIGNAL_CHOICES if has_rows else SIGNAL_CHOICES[1:],
                initial=SIGNALLED if card.rows_for(item) else PLAYED_OUT,
            )
        for editable in self.rows:
            pattern, i = editable.row.pattern, editable.index
            self.fields[f"row-{i}-rank"] = forms.ChoiceField(
                label=_("Order"), choices=RANK_CHOICES, initial=pattern.rank
            )
            self.fields[f"row-{i}-suits"] = forms.ChoiceField(
                label=_("Suits"), choices=SUIT_CHOICES, initial=_suits_key(pattern.suits)
            )
            self.fields[f"row-{i}-dmin"] = forms.TypedChoiceField(
                label=_("Distance from"),
                choices=DISTANCE_CHOICES,
                coerce=int,
                initial=str(pattern.d_min),
            )
            self.fields[f"row-{i}-dmax"] = forms.TypedChoiceField(
                label=_("to"), choices=DISTANCE_CHOICES, coerce=int, initial=str(pattern.d_max)
            )
            self.fields[f"row-{i}-c1"] = forms.MultipleChoiceField(
                label=_("First card's suits"),
                choices=SUIT_LETTERS,
                required=False,
                widget=forms.CheckboxSelectMultiple,
                initial=[s.char for s in sorted(pattern.c1_suits or ())],
                help_text=_("None ticked: any suit."),
            )

    def sections(self, open_items: Iterable[str] = ()) -> list[dict[str, Any]]:
        """The form by checklist item, for the template: the item's field and its rows' fields,
        and whether the item is shown unfolded (``open``): it is in ``open_items`` (it differs
        from the base card, or the check names it), or a posted field of it changed or has an
        error."""
        unfold = set(open_items)
        bound = self.is_bound
        touched = set(self.changed_data) | set(self.errors) if bound else set()
        for name in touched:
            if name.startswith("item-"):
                unfold.add(name[5:])
            elif name.startswith("row-"):
                index = name.split("-")[1]
                if index.isdigit() and int(index) < len(self.rows):
                    unfold.add(str(self.rows[int(index)].row.item))
        out = []
        titles = self.row_titles()
        for item in self.card.checklist:
            rows = [
                {
                    "row": r.row,
                    "title": titles[r.row.id],
                    "cards": self._cards_words(r.row),
                    "from_base": r.from_base,
                    "fields": [self[f"row-{r.index}-{name}"] for name in ("rank", "suits")],
                    "dmin": self[f"row-{r.index}-dmin"],
                    "dmax": self[f"row-{r.index}-dmax"],
                    "c1": self[f"row-{r.index}-c1"],
                }
                for r in self.rows
                if r.row.item == item
            ]
            signalled = self[f"item-{item}"].value() == SIGNALLED
            out.append(
                {
                    "item": str(item),
                    "field": self[f"item-{item}"],
                    "rows": rows,
                    "signalled": signalled,
                    "open": str(item) in unfold,
                }
            )
        return out

    def row_titles(self) -> dict[str, str]:
        """Each row's name in the page's language, by id
        (:func:`trainer.cards.wording.row_titles`)."""
        return row_titles(r.row for r in self.rows)

    def _cards_words(self, row: Row) -> Msg | str:
        """The row's "which cards to play": the shipped card's message (the page's language)
        while the text is the base card's, else the text as written."""
        msg_id = f"sheet.cards.{self.base.name}.{row.id}"
        same = any(r.id == row.id and r.cards == row.cards for r in self.base.rows)
        return Msg(msg_id) if same and msg_id in templates() else row.cards

    def card_json(self, name: str) -> dict[str, Any]:
        """The edited card as JSON, called ``name`` (call after ``is_valid()``)."""
        data = self.cleaned_data
        out = self.card.to_json()
        out["name"], out["title"] = name, data["title"].strip()
        rows = []
        for editable in self.rows:
            if data[f"item-{editable.row.item}"] != SIGNALLED:
                continue
            row = editable.row.to_json()
            row["pattern"] = self._pattern(editable.index, row["pattern"])
            rows.append(row)
        out["rows"] = rows
        return out

    def _pattern(self, i: int, was: dict[str, Any]) -> dict[str, Any]:
        data = self.cleaned_data
        rank = data[f"row-{i}-rank"]
        c1 = sorted(data[f"row-{i}-c1"], key="SHDC".index) or None
        if rank == "pass":
            return {"rank": "pass", "c1_suits": c1}
        suits = SUIT_SETS[data[f"row-{i}-suits"]]
        keep = was["rank"] != "pass"
        return {
            "rank": rank,
            "suits": [s for s in SUIT_RELATION_NAMES if s in suits],
            "distance": [data[f"row-{i}-dmin"], data[f"row-{i}-dmax"]],
            "c1_suits": c1,
            "c2_suits": was["c2_suits"] if keep else None,
            "not_suit_pairs": was["not_suit_pairs"] if keep else [],
        }


class VersionPairForm(forms.Form):
    """The two versions of a card to compare (``a``: from, ``b``: to), by number."""

    a = forms.TypedChoiceField(label=_("From version"), coerce=int)
    b = forms.TypedChoiceField(label=_("To version"), coerce=int)

    def __init__(self, *args: Any, versions: Iterable[CardVersion], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        stamp = pgettext("date format", "j M Y, H:i")
        choices = [
            (str(v.number), f"{v.number} · {date_format(localtime(v.created_at), stamp)}")
            for v in versions
        ]
        for name in ("a", "b"):
            field = self.fields[name]
            assert isinstance(field, forms.TypedChoiceField)
            field.choices = choices
