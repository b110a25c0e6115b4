from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from trainer.clubs.models import Club
from trainer.core.game import conventions
from trainer.core.game.rules import rule_choices
from trainer.core.languages import LanguageSelect, group_language_choices

_LANGUAGE_HELP = _("Members who have not chosen a language see the site in this one.")


class _LanguageField(forms.ChoiceField):
    def __init__(self) -> None:
        super().__init__(
            choices=group_language_choices,
            widget=LanguageSelect,
            required=False,
            label=_("Members' language"),
            help_text=_LANGUAGE_HELP,
        )


class ClubForm(forms.ModelForm[Club]):
    """Found a club: its name, house rules and default language."""

    convention = forms.ChoiceField(
        choices=conventions.choices,
        label=_("Convention card"),
        help_text=_("Your members' drills use this card unless they choose another."),
    )
    rule = forms.ChoiceField(choices=rule_choices, label=_("Scoring rule"))
    language = _LanguageField()

    class Meta:
        model = Club
        fields = ("name", "convention", "rule", "language")
        labels = {
            "name": _("Club name"),
            "convention": _("Convention card"),
            "rule": _("Scoring rule"),
            "language": _("Members' language"),
        }
        help_texts = {
            "convention": _("Your members' drills use this card unless they choose another."),
            "rule": _(
                "Classic values, or Parlett's contribution rule for fours and straight flushes."
            ),
            "language": _LANGUAGE_HELP,
        }


class HouseRulesForm(forms.ModelForm[Club]):
    """The house rules: a shipped card or one of the club's own (``trainer.cards``), a scoring
    rule, the members' language."""

    convention = forms.ChoiceField(label=_("Convention card"))
    rule = forms.ChoiceField(choices=rule_choices, label=_("Scoring rule"))
    language = _LanguageField()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        club = self.instance
        field = self.fields["convention"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = conventions.choices(club=club if club.pk else None, current=club.convention)

    class Meta:
        model = Club
        fields = ("convention", "rule", "language")
        labels = {
            "convention": _("Convention card"),
            "rule": _("Scoring rule"),
            "language": _("Members' language"),
        }
        help_texts = {"language": _LANGUAGE_HELP}
