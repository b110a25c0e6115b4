from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from engine.bots.signal import STRONG
from trainer.core.game.rules import rule_choices
from trainer.duplicate.groups import Group
from trainer.duplicate.services import MOST_BOARDS
from trainer.play.forms import PARTNERS


class _When(forms.DateTimeInput):
    input_type = "datetime-local"

    def format_value(self, value: Any) -> str | None:
        if isinstance(value, datetime):
            # The form's field hands over local time, naive (``to_current_timezone``).
            local = timezone.localtime(value) if timezone.is_aware(value) else value
            return local.strftime("%Y-%m-%dT%H:%M")
        return super().format_value(value)


class SessionForm(forms.Form):
    """A session on a card and rule (the club's house rules unless chosen): a daylong (boards
    and a window) or a live session (a start, boards a round, the round's length and the
    movement)."""

    kind = forms.ChoiceField(
        label=_("Kind"),
        choices=[
            ("daylong", _("Daylong: each pair plays when it likes within the window")),
            ("live", _("Live: the pairs meet at the start, a director runs the rounds")),
        ],
        widget=forms.RadioSelect,
        initial="daylong",
    )
    title = forms.CharField(label=_("Title"), max_length=80)
    convention = forms.ChoiceField(label=_("Convention card"), required=False)
    rule = forms.ChoiceField(label=_("Scoring rule"), choices=rule_choices, required=False)
    #: Not required: a page from before the setting posts none, and gets the strong bots.
    bots = forms.ChoiceField(
        label=_("Bots (a daylong's partner and opponents, a live session's empty seats)"),
        choices=PARTNERS,
        initial=STRONG,
        required=False,
        widget=forms.RadioSelect,
    )
    opens_at = forms.DateTimeField(label=_("Opens"), widget=_When())
    boards = forms.IntegerField(
        label=_("Boards (daylong)"), min_value=1, max_value=MOST_BOARDS, initial=8, required=False
    )
    closes_at = forms.DateTimeField(label=_("Closes (daylong)"), widget=_When(), required=False)
    per_round = forms.IntegerField(
        label=_("Boards a round (live)"), min_value=1, max_value=4, initial=2, required=False
    )
    round_minutes = forms.IntegerField(
        label=_("Minutes a round (live)"), min_value=5, max_value=90, initial=20, required=False
    )
    movement_kind = forms.ChoiceField(
        label=_("Movement (live)"),
        choices=[
            ("auto", _("The usual one for the field")),
            ("howell", _("Howell: every pair meets every other")),
            ("mitchell", _("Mitchell: North–South pairs stay North–South")),
        ],
        initial="auto",
        required=False,
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        defaults = {"per_round": 2, "round_minutes": 20, "movement_kind": "auto", "boards": 8}
        for name, value in defaults.items():
            if data.get(name) in (None, ""):
                data[name] = value
        for name in ("convention", "rule"):  # blank: the house rules
            data[name] = data.get(name) or None
        data["bots"] = data.get("bots") or STRONG
        return data

    def __init__(self, *args: Any, group: Group, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["convention"].choices = group.card_choices()  # type: ignore[attr-defined]
        self.fields["convention"].initial = group.default_convention
        self.fields["rule"].initial = group.default_rule
        start = timezone.now().replace(second=0, microsecond=0)
        self.fields["opens_at"].initial = start
        self.fields["closes_at"].initial = start + timedelta(days=1)
