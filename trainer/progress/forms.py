from django import forms
from django.utils.translation import gettext_lazy as _

from trainer.progress.models import DAILY_GOAL_MAX, DAILY_GOAL_MIN


class SettingsForm(forms.Form):
    """The settings page's fields as posted; :func:`trainer.core.preferences.save` decides
    which conventions and rules exist."""

    convention = forms.CharField(required=False)
    rule = forms.CharField(required=False)
    four_colour = forms.BooleanField(required=False)
    next = forms.CharField(required=False)


class ReviewGoalForm(forms.Form):
    """The daily review goal, as posted from the settings page."""

    per_day = forms.IntegerField(
        min_value=DAILY_GOAL_MIN,
        max_value=DAILY_GOAL_MAX,
        error_messages={"required": _("Give a number of reviews a day.")},
    )
    next = forms.CharField(required=False)
