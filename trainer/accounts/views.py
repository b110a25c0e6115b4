"""Sign-up; every other account page is one of Django's built-in auth views."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.http import urlencode
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_POST

from trainer.accounts.forms import NameForm, SignupForm
from trainer.core.links import safe_next
from trainer.core.web.http import AuthenticatedHttpRequest


def _safe_next(request: HttpRequest, default: str | None = None) -> str:
    """The ``next`` target if it points at this site, else ``default`` (the login redirect)."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    return safe_next(request, target, default or settings.LOGIN_REDIRECT_URL)


#: Why a page sent the visitor to log in, by the start of the page's address (first match).
LOGIN_REASONS: tuple[tuple[str, Promise], ...] = (
    ("/drills/review", _("Log in to review the drills you are due to repeat.")),
    ("/progress", _("Log in to see your progress.")),
    ("/settings", _("Log in to change your settings.")),
    ("/classes", _("Log in to see your classes and assignments.")),
    ("/clubs", _("Log in to see your club.")),
)


def login_reason(next_url: str) -> str:
    """One sentence saying why the page at ``next_url`` needs an account ("" when none)."""
    if not next_url.startswith("/"):
        return ""
    for prefix, reason in LOGIN_REASONS:
        if next_url.startswith(prefix):
            return str(reason)
    return gettext("Log in to open that page: it needs an account.")


def _with_next(url_name: str, next_url: str) -> str:
    """The address of ``url_name``, passing ``next`` on (the sign-up and login links)."""
    url = reverse(url_name)
    return f"{url}?{urlencode({'next': next_url})}" if next_url else url


class ReasonLoginView(LoginView):
    """Django's login view, saying why a page asked for an account (``?next=``)."""

    def get_context_data(self, **kwargs: object) -> dict[str, object]:
        ctx = super().get_context_data(**kwargs)
        if not self.request.user.is_authenticated and self.request.method == "GET":
            ctx["reason"] = login_reason(str(ctx.get("next", "")))
        ctx["signup_url"] = _with_next("signup", str(ctx.get("next") or ""))
        return ctx


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
            form.add_error("username", gettext("A user with that username already exists."))
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(
                request,
                gettext("Welcome, %(name)s! Your account is ready.")
                % {"name": user.get_username()},
            )
            # A new account starts on the path ("Start here") unless it came for a page.
            return redirect(_safe_next(request, reverse("start:path")))
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    return render(
        request,
        "registration/signup.html",
        {"form": form, "next": next_url, "login_url": _with_next("login", next_url)},
    )


@login_required
@require_POST
def name_update(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Save the name shown to the user's teachers and club organisers (from /settings/)."""
    form = NameForm(request.POST, instance=request.user)
    if form.is_valid():
        form.save()
        messages.success(request, gettext("Your name is saved."))
    else:
        messages.error(
            request, gettext("That name cannot be saved: each part is at most 150 characters.")
        )
    return redirect("settings")
