"""Account pages beyond ``django.contrib.auth.urls`` (login, logout, password reset).

The login page is Django's own view, given the login throttle's figures so the form can say
what happens after too many wrong passwords (the throttle itself is django-axes).
"""

from django.conf import settings
from django.urls import path

from trainer.accounts import views as accounts_views

urlpatterns = [
    path("signup/", accounts_views.signup, name="signup"),
    path("name/", accounts_views.name_update, name="name-update"),
    path(
        "login/",
        accounts_views.ReasonLoginView.as_view(
            extra_context={
                "login_failure_limit": settings.AXES_FAILURE_LIMIT,
                "login_cooloff_minutes": int(settings.AXES_COOLOFF_TIME.total_seconds() // 60),
            }
        ),
        name="login",
    ),
]
