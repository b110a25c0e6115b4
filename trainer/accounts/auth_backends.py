"""Authentication backends: django-axes's login throttle, tolerant of calls without a request.

``AxesStandaloneBackend`` refuses ``authenticate()`` calls that carry no request (it needs one
to know the client's address). Logins over HTTP always carry one; code that checks a password
without one (the test client's ``login``, a management command) has no address to throttle, so
here such calls pass on to the next backend instead of raising.
"""

from __future__ import annotations

from typing import Any

from axes.backends import AxesStandaloneBackend
from django.http import HttpRequest


class LoginThrottleBackend(AxesStandaloneBackend):  # type: ignore[misc]  # axes ships no types
    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> None:
        if request is None:
            return None
        super().authenticate(request, username, password, **kwargs)  # raises when locked out
        return None
