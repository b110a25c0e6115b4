from typing import Any

from django.apps import AppConfig
from django.contrib import messages
from django.contrib.auth.signals import user_logged_in
from django.http import HttpRequest
from django.utils.translation import gettext


def adopt_visitor_answers(
    sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any
) -> None:
    """Signing up or logging in: the answers this browser's session kept while signed out
    become the user's attempts (graded again by the engine), once."""
    session = getattr(request, "session", None)
    if session is None:
        return
    from trainer.progress import services  # models: only once the apps are ready

    added = services.visitor_session_adopt(user=user, session=session)
    if added and request is not None:
        messages.success(
            request,
            gettext(
                "The answers you gave while signed out are kept with your account: they "
                "count on your path and in your progress."
            ),
            fail_silently=True,  # a request without the messages middleware (a test client's)
        )


class ProgressConfig(AppConfig):
    """Attempts, skill schedules, the progress, review and settings pages."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "trainer.progress"
    verbose_name = "Progress"

    def ready(self) -> None:
        user_logged_in.connect(
            adopt_visitor_answers, dispatch_uid="trainer.progress.adopt_visitor_answers"
        )
