from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User


class SignupForm(UserCreationForm):
    """Django's ``UserCreationForm`` plus an optional email address for password resets."""

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")
        help_texts = {"email": "Optional. Needed only if you ever have to reset your password."}
