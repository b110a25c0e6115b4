"""Sign-up; every other account page is one of Django's built-in auth views."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.debug import sensitive_post_parameters

from trainer.forms import SignupForm


def _safe_next(request: HttpRequest) -> str:
    """The ``next`` target if it points at this site, else the default landing page."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return settings.LOGIN_REDIRECT_URL


@sensitive_post_parameters("password1", "password2")
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account (``SignupForm``), log in, and go to ``next``."""
    if request.user.is_authenticated:
        return redirect(_safe_next(request))
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                user = form.save()
        except IntegrityError:  # a double submit (or a twin sign-up) took the name meanwhile
            form.add_error("username", "A user with that username already exists.")
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, f"Welcome, {user.get_username()}! Your account is ready.")
            return redirect(_safe_next(request))
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    return render(request, "registration/signup.html", {"form": form, "next": next_url})
