"""Account pages beyond ``django.contrib.auth.urls`` (login, logout, password reset).

The login page is Django's own view, given the login throttle's figures so the form can say
what happens after too many wrong passwords (the throttle itself is django-axes).
"""

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.urls import path

from trainer import accounts_views

urlpatterns = [
    path("signup/", accounts_views.signup, name="signup"),
    path("login/", auth_views.LoginView.as_view(extra_context={
        "login_failure_limit": settings.AXES_FAILURE_LIMIT,
        "login_cooloff_minutes": int(settings.AXES_COOLOFF_TIME.total_seconds() // 60),
    }), name="login"),
]
