from django import forms

from trainer.clubs.models import Club


class ClubForm(forms.ModelForm):
    """Found a club: its name and house rules."""

    class Meta:
        model = Club
        fields = ("name", "convention", "rule")
        labels = {"name": "Club name", "convention": "Convention card", "rule": "Scoring rule"}
        help_texts = {
            "convention": "Your members' drills use this card unless they choose another.",
            "rule": "Classic values, or Parlett's contribution rule for fours and "
            "straight flushes.",
        }


class HouseRulesForm(forms.ModelForm):
    class Meta:
        model = Club
        fields = ("convention", "rule")
        labels = {"convention": "Convention card", "rule": "Scoring rule"}
