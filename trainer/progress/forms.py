from django import forms


class SettingsForm(forms.Form):
    """The settings page's fields as posted; :func:`trainer.core.preferences.save` decides
    which conventions and rules exist."""

    convention = forms.CharField(required=False)
    rule = forms.CharField(required=False)
    four_colour = forms.BooleanField(required=False)
    next = forms.CharField(required=False)
