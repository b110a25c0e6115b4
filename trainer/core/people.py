"""How people are named on pages: first name and last initial when they gave a name.

>>> display_name(User(username="ana42", first_name="Ana", last_name="Berg"))  # doctest: +SKIP
'Ana B.'
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser


def display_name(user: AbstractBaseUser) -> str:
    """``"Ana B."`` (first name, last initial), ``"Ana"``, or the username when no name is set."""
    first = (getattr(user, "first_name", "") or "").strip()
    last = (getattr(user, "last_name", "") or "").strip()
    if not first:
        return user.get_username()
    return f"{first} {last[0].upper()}." if last else first
