"""Forms for play: they check the shape of input; the engine checks every rule."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from engine.scoring import SCORING_RULES
from engine.signals import CONVENTIONS, DEFAULT_CONVENTION
from trainer.play.models import Game

#: The scoring rules by name.
RULE_TITLES = {
    "classic": pgettext_lazy("scoring rule", "Classic"),
    "contribution": pgettext_lazy("scoring rule", "Contribution"),
}
#: East–West bots a learner may play against.
OPPONENTS = (
    ("greedy", gettext_lazy("Greedy bots (play their best hand, no signals)")),
    ("signal", gettext_lazy("Signal bots (signal like your partner)")),
)
LENGTHS = (
    ("deal", gettext_lazy("One deal (eight hands)")),
    ("game", gettext_lazy("A game (four deals or first to 100)")),
)
#: Longest action text: ``"force"``.
ACTION_MAX_LENGTH = 8


class StartForm(forms.Form):
    """A new deal or game: convention, scoring rule, opponents, length, coach."""

    convention = forms.ChoiceField(
        label=gettext_lazy("Your convention card"),
        choices=[(c.name, c.title) for c in CONVENTIONS.values()],
        initial=DEFAULT_CONVENTION.name,
    )
    rule = forms.ChoiceField(
        label=gettext_lazy("Scoring rule"),
        choices=[(name, RULE_TITLES.get(name, name.title())) for name in SCORING_RULES],
        initial="classic",
    )
    opponents = forms.ChoiceField(
        label=gettext_lazy("Opponents (East–West)"),
        choices=OPPONENTS,
        initial="greedy",
        widget=forms.RadioSelect,
    )
    length = forms.ChoiceField(
        label=pgettext_lazy("deal or game", "Play"),
        choices=LENGTHS,
        initial="deal",
        widget=forms.RadioSelect,
    )
    coach = forms.ChoiceField(
        label=pgettext_lazy("play", "Coach"),
        choices=Game.Coach.choices,
        initial=Game.Coach.ON,
        widget=forms.RadioSelect,
    )
    #: The class assignment the deal is for (its number; the view checks it is the
    #: student's own, and starts a plain deal otherwise).
    assignment = forms.CharField(required=False, max_length=24, widget=forms.HiddenInput)

    def __init__(self, *args: object, defaults: dict[str, str] | None = None, **kwargs: object):
        super().__init__(*args, **kwargs)
        for name, value in (defaults or {}).items():
            if name in self.fields:
                self.fields[name].initial = value


class ActionForm(forms.Form):
    """One of the learner's actions at the table, with the table's version it was chosen at."""

    action = forms.CharField(max_length=ACTION_MAX_LENGTH)
    version = forms.IntegerField(min_value=0)

    def first_error(self) -> str:
        for name, errors in self.errors.items():
            if name == "action":
                return gettext("The move is missing or malformed: %(error)s") % {"error": errors[0]}
            if name == "version":
                return gettext("The page's position is missing or malformed: %(error)s") % {
                    "error": errors[0]
                }
            return gettext("The form is missing or malformed: %(error)s") % {"error": errors[0]}
        return gettext("The form is malformed.")


class ReadForm(forms.Form):
    """The learner's answer to the coach's quiz "what does partner hold?"."""

    option = forms.CharField(max_length=32)
    version = forms.IntegerField(min_value=0)


class VersionForm(forms.Form):
    """A request about the table as it stands (the coach's advice)."""

    version = forms.IntegerField(min_value=0)


class FrameForm(forms.Form):
    """Which frame of a finished deal's card-by-card review to show."""

    frame = forms.IntegerField(required=False, min_value=0)
