"""Password reset in the user's language: the e-mail (subject and body) is written in the
language the user saved, else their class's or club's, else the language of the page that
asked for it."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.forms import PasswordResetForm
from django.utils import translation

from trainer.languages.selectors import language_for


class LocalisedPasswordResetForm(PasswordResetForm):
    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        language = language_for(context["user"]) or translation.get_language()
        with translation.override(language):
            super().send_mail(
                subject_template_name,
                email_template_name,
                context,
                from_email,
                to_email,
                html_email_template_name,
            )
