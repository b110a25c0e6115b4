from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from trainer.accounts import usernames


class SignupForm(UserCreationForm[User]):
    """Django's ``UserCreationForm`` plus an optional email address for password resets.

    Usernames are NFKC-normalised (by Django); mixed-script names and look-alikes of existing
    names are refused (:mod:`trainer.accounts.usernames`).
    """

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")
        help_texts = {"email": _("Optional. Needed only if you ever have to reset your password.")}

    def clean_username(self) -> str:
        # Typed ``str`` (as django-stubs types Django's), but Django's returns None when its
        # check found the name taken (also in another case or width: usernames are
        # NFKC-normalised, so "ｔｅａｃｈｅｒ" is "teacher"), having added its error.
        username: str | None = super().clean_username()
        if username is None:
            return ""  # the form is invalid already: nothing reads the name
        if usernames.is_mixed_script(username):
            raise ValidationError(
                _(
                    "Use letters from one alphabet only: this name mixes alphabets, so it could "
                    "be mistaken for another."
                ),
                code="mixed_script",
            )
        existing = usernames.look_alike_of(username)
        if existing is not None:
            raise ValidationError(
                _("This name looks too much like an existing one. Please choose another."),
                code="look_alike",
            )
        return username


class NameForm(forms.ModelForm[User]):
    """The name teachers and organisers see: first name and last name (shown as "Ana B.")."""

    class Meta:
        model = get_user_model()
        fields = ("first_name", "last_name")
