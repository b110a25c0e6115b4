"""Forms for play: they check the shape of input and read it into the engine's values once
(an :class:`~engine.game.Action`, a :class:`~engine.scoring.ScoringRule`); the engine checks
every rule."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from engine.bots.signal import STRONG
from engine.errors import ConcertoError
from engine.game import Action
from engine.scoring import SCORING_RULES, ScoringRule, get_rule
from engine.signals import CONVENTIONS, DEFAULT_CONVENTION
from trainer.core.game import conventions
from trainer.play.models import Game
from trainer.wording.errors import reason

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
#: North's strength (engine.play.setup.PARTNERS), strongest first.
PARTNERS = (
    (
        "strong",
        gettext_lazy("Strong (also reads your lead by the odds of every hand you could hold)"),
    ),
    ("standard", gettext_lazy("Standard (follows the card and leads for full houses)")),
    ("beginner", gettext_lazy("Beginner (signals the first item of its cards, nothing more)")),
)
LENGTHS = (
    ("deal", gettext_lazy("One deal (eight hands)")),
    ("game", gettext_lazy("A game (four deals or first to 100)")),
)
#: Longest action text: ``"force"``.
ACTION_MAX_LENGTH = 8


class StartForm(forms.Form):
    """A new deal or game: convention, scoring rule, partner, opponents, length, coach."""

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
    #: Not required: a page from before the setting posts none, and gets the standard partner.
    partner = forms.ChoiceField(
        label=gettext_lazy("Your partner (North)"),
        choices=PARTNERS,
        initial="strong",
        required=False,
        widget=forms.RadioSelect,
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

    def clean_partner(self) -> str:
        return str(self.cleaned_data.get("partner") or "standard")

    def __init__(self, *args: Any, defaults: dict[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, value in (defaults or {}).items():
            if name in self.fields:
                self.fields[name].initial = value
        # The shipped cards, and the learner's default when it is their club's (or class's)
        # own card (the house rules, or a play assignment's card): members play with it.
        field = self.fields["convention"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = conventions.choices(current=(defaults or {}).get("convention"))

    def clean_rule(self) -> ScoringRule:
        return get_rule(self.cleaned_data["rule"])  # one of the choices: always a rule


class ActionForm(forms.Form):
    """One of the learner's actions at the table (``7H``, ``pass``, ``force``, read into an
    :class:`~engine.game.Action`), with the table's version it was chosen at."""

    action = forms.CharField(max_length=ACTION_MAX_LENGTH)
    version = forms.IntegerField(min_value=0)

    def clean_action(self) -> Action:
        try:
            return Action.parse(self.cleaned_data["action"])
        except ConcertoError as exc:
            raise forms.ValidationError(reason(exc)) from exc

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


class StepForm(forms.Form):
    """The table page's ``?step=<n>``: show the record's actions from the n-th on as steps."""

    step = forms.IntegerField(required=False, min_value=0)


class FrameForm(forms.Form):
    """Which frame of a finished deal's card-by-card review to show."""

    frame = forms.IntegerField(required=False, min_value=0)


SEAT_CHOICES = (
    ("S", pgettext_lazy("seat", "South")),
    ("N", pgettext_lazy("seat", "North")),
    ("E", pgettext_lazy("seat", "East")),
    ("W", pgettext_lazy("seat", "West")),
    ("watch", gettext_lazy("No seat: I open it for others and watch (teachers, organisers)")),
)


class LiveTableForm(forms.Form):
    """A live table: convention, rule, the bots' strength for empty North–South seats and the
    bots for empty opponents' seats, one deal or a game, the host's seat, and whether to make a
    second link for the opponents' seats."""

    convention = StartForm.base_fields["convention"]
    rule = StartForm.base_fields["rule"]
    #: Not required: a page from before the setting posts none, and gets the strong partner.
    partner = forms.ChoiceField(
        label=gettext_lazy("Bots in empty North–South seats"),
        choices=PARTNERS,
        initial=STRONG,
        required=False,
        widget=forms.RadioSelect,
    )
    opponents = forms.ChoiceField(
        label=gettext_lazy("Bots in empty East–West seats"),
        choices=OPPONENTS,
        initial="signal",
        widget=forms.RadioSelect,
    )
    length = StartForm.base_fields["length"]
    seat = forms.ChoiceField(label=gettext_lazy("Your seat"), choices=SEAT_CHOICES, initial="S")
    opponents_link = forms.BooleanField(
        label=gettext_lazy("Also make a link for the opponents' seats (East and West)"),
        required=False,
    )

    def __init__(self, *args: Any, defaults: dict[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        chosen = (defaults or {}).get("convention")
        field = self.fields["convention"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = conventions.choices(current=chosen)  # the club's own card too
        if chosen:
            field.initial = chosen

    def table_settings(self) -> dict[str, object]:
        data = self.cleaned_data
        return {
            "rule": data["rule"],
            "convention": data["convention"],
            "opponents": data["opponents"],
            "opponents_convention": data["convention"],
            "game": data["length"] == "game",
            # Bots in empty North–South seats: the host's choice (the strong partner by default).
            "partner": data.get("partner") or STRONG,
        }
