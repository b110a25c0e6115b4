"""Signing in works out the user's language once (see the middleware)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest

from trainer.languages.selectors import remember_language


@receiver(user_logged_in, dispatch_uid="trainer.languages.remember_on_login")
def remember_on_login(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    if request is not None and hasattr(request, "session"):
        remember_language(request, user)
