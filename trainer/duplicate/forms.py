from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from trainer.duplicate.services import MOST_BOARDS


class _When(forms.DateTimeInput):
    input_type = "datetime-local"

    def format_value(self, value: Any) -> str | None:
        if isinstance(value, datetime):
            # The form's field hands over local time, naive (``to_current_timezone``).
            local = timezone.localtime(value) if timezone.is_aware(value) else value
            return local.strftime("%Y-%m-%dT%H:%M")
        return super().format_value(value)


class SessionForm(forms.Form):
    """A daylong: its title, boards and window (the club's house card and rule)."""

    title = forms.CharField(label=_("Title"), max_length=80)
    boards = forms.IntegerField(label=_("Boards"), min_value=1, max_value=MOST_BOARDS, initial=8)
    opens_at = forms.DateTimeField(label=_("Opens"), widget=_When())
    closes_at = forms.DateTimeField(label=_("Closes"), widget=_When())

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        start = timezone.now().replace(second=0, microsecond=0)
        self.fields["opens_at"].initial = start
        self.fields["closes_at"].initial = start + timedelta(days=1)
