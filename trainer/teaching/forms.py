"""The board search a teacher fills in, the set saved from it, and a set dealt to the class."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from engine.cards import Card, card
from engine.errors import ConcertoError
from engine.seats import SEATS, Seat
from engine.signals import get_convention
from engine.teaching.boards import BoardQuery, impossible_first
from trainer.duplicate.forms import SessionForm
from trainer.duplicate.groups import Group
from trainer.wording.templatetags.wording import term

#: The most boards one search shows (a page a teacher can read through).
MOST_SHOWN = 12
SEARCH_SEED_MAX = 2**62


class BoardSearchForm(forms.Form):
    """What the boards must hold; ``seed`` names the search (blank: a new one)."""

    convention = forms.ChoiceField(label=_("Convention card"))
    seat = forms.ChoiceField(label=_("Seat that leads"), initial="S")
    item = forms.ChoiceField(label=_("First item it holds"), required=False)
    completes = forms.BooleanField(label=_("Partner holds what completes it"), required=False)
    play_out = forms.BooleanField(
        label=_("Four of a kind to play out (cards with no signal for it)"), required=False
    )
    par_low = forms.IntegerField(
        label=_("Par margin from"), min_value=-200, max_value=200, required=False
    )
    par_high = forms.IntegerField(
        label=_("Par margin to"), min_value=-200, max_value=200, required=False
    )
    count = forms.IntegerField(label=_("Boards"), min_value=1, max_value=MOST_SHOWN, initial=6)
    seed = forms.IntegerField(
        min_value=0, max_value=SEARCH_SEED_MAX, required=False, widget=forms.HiddenInput
    )

    def __init__(self, *args: Any, group: Group, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["convention"].choices = group.card_choices()  # type: ignore[attr-defined]
        self.fields["convention"].initial = group.default_convention
        self.fields["seat"].choices = [  # type: ignore[attr-defined]
            (str(s), term(str(s), "seat")) for s in SEATS
        ]
        conv = get_convention(group.default_convention)
        self.fields["item"].choices = [("", _("Any"))] + [  # type: ignore[attr-defined]
            (str(i), term(str(i), "item"))
            for i in conv.checklist
            if not impossible_first(str(i), conv)
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        low, high = data.get("par_low"), data.get("par_high")
        if (low is None) != (high is None):
            raise forms.ValidationError(_("Give both ends of the par margin, or neither."))
        return data

    def query(self) -> BoardQuery:
        data = self.cleaned_data
        low, high = data.get("par_low"), data.get("par_high")
        return BoardQuery(
            seat=next(s for s in SEATS if str(s) == data["seat"]),
            first_item=data.get("item") or None,
            completes=bool(data.get("completes")),
            play_out=bool(data.get("play_out")),
            par_margin=None if low is None or high is None else (low, high),
            convention=get_convention(data["convention"]),
        )

    def as_query_json(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            k: data.get(k)
            for k in ("convention", "seat", "item", "completes", "play_out", "par_low", "par_high")
        }


class SaveSetForm(forms.Form):
    """The boards picked from a search (their places in it) and the set's title."""

    title = forms.CharField(label=_("Name of the set"), max_length=80)
    picks = forms.TypedMultipleChoiceField(
        label=_("Boards"),
        coerce=int,
        choices=[(i, str(i + 1)) for i in range(MOST_SHOWN)],
        widget=forms.CheckboxSelectMultiple,
    )


class DealSetForm(SessionForm):
    """A session on the set's boards: the session form without the card (the set's) or the
    number of boards (the set's)."""

    def __init__(self, *args: Any, group: Group, **kwargs: Any) -> None:
        super().__init__(*args, group=group, **kwargs)
        del self.fields["convention"]
        del self.fields["boards"]


class HandEntryForm(forms.Form):
    """A board's 52 cards by hand: each seat's 13 (``AS KH 9D …``) and the dealer."""

    dealer = forms.ChoiceField(label=_("Dealer"))
    N = forms.CharField(label=_("North"), max_length=80)
    E = forms.CharField(label=_("East"), max_length=80)
    S = forms.CharField(label=_("South"), max_length=80)
    W = forms.CharField(label=_("West"), max_length=80)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["dealer"].choices = [  # type: ignore[attr-defined]
            (str(s), term(str(s), "seat")) for s in SEATS
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        hands: dict[Seat, tuple[Card, ...]] = {}
        seen: dict[Card, Seat] = {}
        for seat in SEATS:
            text = data.get(str(seat))
            if text is None:
                continue
            cards: list[Card] = []
            for word in text.replace(",", " ").split():
                try:
                    cards.append(card(word))
                except ConcertoError:
                    self.add_error(
                        str(seat),
                        _("%(text)s is not a card (write cards as AS, TD, 9H).") % {"text": word},
                    )
                    break
            else:
                if len(cards) != 13:
                    self.add_error(
                        str(seat), _("A hand has 13 cards, not %(n)s.") % {"n": len(cards)}
                    )
                for c in cards:
                    if c in seen:
                        self.add_error(
                            str(seat), _("%(card)s is dealt twice.") % {"card": c.symbol}
                        )
                    seen[c] = seat
                hands[seat] = tuple(cards)
        if not self.errors:
            data["hands"] = hands
            data["dealer_seat"] = next(s for s in SEATS if str(s) == data["dealer"])
        return data
