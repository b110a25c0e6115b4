"""Club pages: your clubs, founding one, joining by invite, the club page, the onboarding path,
and the organisers' tools (invite link, house rules, the members' path table, promoting).

Permissions: every club page looks up the visitor's own membership first; no membership means
404, so a guessed slug reveals nothing. Organiser pages answer a plain member with 403.
*Start here* (the path without a club) is open to visitors too, for its first step only
(``selectors.VISITOR_STEPS``): their answers wait in their session until they sign up.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from engine.signals import DEFAULT_CONVENTION
from trainer.clubs import selectors, services
from trainer.clubs.curriculum import STEPS, Step, get_step
from trainer.clubs.drill_sessions import (
    StepSession,
    drills_of,
    entry_url,
    lesson_url,
    next_path,
    path_of,
    path_url,
    step_url,
)
from trainer.clubs.forms import ClubForm, HouseRulesForm
from trainer.clubs.models import Club, ClubMembership
from trainer.core import drill_sessions
from trainer.core.web.htmx import redirect_page
from trainer.core.web.http import AuthenticatedHtmxRequest, AuthenticatedHttpRequest, signed_in


def _membership(request: AuthenticatedHttpRequest, slug: str) -> ClubMembership:
    membership = selectors.membership_get(user=request.user, slug=slug)
    if membership is None:
        raise Http404("No such club.")
    return membership


def _organiser(request: AuthenticatedHttpRequest, slug: str) -> ClubMembership:
    membership = _membership(request, slug)
    if not membership.is_organiser:
        raise PermissionDenied("Only the club's organisers can see this.")
    return membership


def _step(number: int) -> Step:
    step = get_step(number)
    if step is None:
        raise Http404("No such step.")
    return step


def _invite_url(request: HttpRequest, token: str) -> str:
    return request.build_absolute_uri(reverse("clubs:join", args=[token]))


def _account_url(name: str, after: str) -> str:
    """The sign-up (``name="signup"``) or login page, coming back to ``after``."""
    return f"{reverse(name)}?{urlencode({'next': after}, safe='/')}"


# --------------------------------------------------------------------------------------------
# Your clubs, founding, joining


@login_required
@require_GET
def club_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    memberships = selectors.memberships_for(user=request.user)
    return render(request, "clubs/club_list.html", {"memberships": memberships})


@login_required
@require_http_methods(["GET", "POST"])
def club_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        club = services.club_create(user=request.user, **form.cleaned_data)
        messages.success(
            request,
            gettext("%(name)s is founded. Share its invite link with members.")
            % {"name": club.name},
        )
        return redirect("clubs:detail", slug=club.slug)
    return render(request, "clubs/club_form.html", {"form": form})


@require_http_methods(["GET", "POST"])
def club_join(request: HttpRequest, token: str) -> HttpResponse:
    """The invite link: shows which club it is; a signed-in visitor joins with a POST."""
    club = selectors.club_by_invite(token=token)
    if club is None:
        raise Http404("This invite link is not valid (it may have been replaced).")
    member = selectors.membership_get(user=request.user, slug=club.slug)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('login')}?next={request.path}")
        _, created = services.club_join(user=request.user, club=club)
        if created:
            messages.success(
                request,
                gettext("Welcome to %(name)s! Start with step 1 of the path.")
                % {"name": club.name},
            )
            return redirect("clubs:path", slug=club.slug)
        return redirect("clubs:detail", slug=club.slug)
    return render(request, "clubs/join.html", {"club": club, "member": member})


# --------------------------------------------------------------------------------------------
# The club page and the path


def _detail_context(
    request: AuthenticatedHttpRequest,
    membership: ClubMembership,
    rules_form: HouseRulesForm | None = None,
) -> dict[str, Any]:
    club = membership.club
    steps = selectors.path_for(user=request.user)
    ctx = {
        "club": club,
        "membership": membership,
        "organisers": selectors.organisers_of(club=club),
        "member_count": selectors.member_count(club=club),
        "steps": steps,
        "passed": selectors.path_position(steps),
        "current": selectors.current_step(steps),
    }
    if membership.is_organiser:
        ctx["invite_url"] = _invite_url(request, club.invite_token)
        ctx["rules_form"] = rules_form or HouseRulesForm(instance=club)
    return ctx


@login_required
@require_GET
def club_detail(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The club's page: house rules, organisers, your place on the path; for organisers also the
    invite link and the house-rules form."""
    membership = _membership(request, slug)
    return render(request, "clubs/club_detail.html", _detail_context(request, membership))


def _club_of(request: AuthenticatedHttpRequest, slug: str | None) -> Club | None:
    return _membership(request, slug).club if slug else None


def _visitor_refused(
    request: HttpRequest, slug: str | None, number: int | None = None
) -> HttpResponse | None:
    """Where a visitor (not signed in) goes instead of a path page, or None when it is open
    to them: a club's path needs an account (the login page); *Start here* shows its steps
    and lets them play the first ones, and a later step sends them to sign up, saying why."""
    if signed_in(request):
        return None
    if slug:
        return redirect_to_login(request.get_full_path())
    if number is not None and number > selectors.VISITOR_STEPS and get_step(number):
        messages.info(
            request,
            gettext(
                "Step %(number)s opens with a free account. Sign up: your answers so far "
                "come with you."
            )
            % {"number": number},
        )
        return redirect_page(request, _account_url("signup", path_url(None)))
    return None


def _visitor_links(request: HttpRequest) -> dict[str, str]:
    """A visitor's way to an account, back on *Start here*; nothing for a signed-in user."""
    if signed_in(request):
        return {}
    after = path_url(None)
    return {"signup_url": _account_url("signup", after), "login_url": _account_url("login", after)}


@require_GET
def path(request: HttpRequest, slug: str | None = None) -> HttpResponse:
    """The user's own onboarding path: every step, its state and what to do next (in a club,
    or on their own when ``slug`` is None). A visitor sees *Start here* with its first step
    open and the others to unlock by signing up."""
    if refused := _visitor_refused(request, slug):
        return refused
    club = _club_of(request, slug) if signed_in(request) else None
    steps = path_of(request)
    visitor = not signed_in(request)
    rows = [
        {
            "s": s,
            # A visitor's locked step has no page of its own: signing up opens it.
            "url": step_url(slug, s.step.number) if s.unlocked or not visitor else None,
            "next_url": next_path(slug, s.step),
            "lesson_url": lesson_url(slug, s.step),
        }
        for s in steps
    ]
    return render(
        request,
        "clubs/path.html",
        {
            "club": club,
            "steps": steps,
            "rows": rows,
            "passed": selectors.path_position(steps),
            "current": selectors.current_step(steps),
            "path_convention": DEFAULT_CONVENTION.title,
            "visitor": visitor,
            **_visitor_links(request),
        },
    )


@require_GET
def step_detail(request: HttpRequest, number: int, slug: str | None = None) -> HttpResponse:
    if refused := _visitor_refused(request, slug, number):
        return refused
    club = _club_of(request, slug) if signed_in(request) else None
    step = _step(number)
    path_steps = path_of(request)
    status = path_steps[number - 1]
    following = path_steps[number] if number < len(path_steps) else None
    drills = drills_of(request, step)
    rows = [
        {
            "number": i,
            "status": d.status,
            "entry": d.entry,
            "url": entry_url(d.entry, slug=slug, step=step) if status.unlocked else None,
        }
        for i, d in enumerate(drills, start=1)
    ]
    return render(
        request,
        "clubs/step.html",
        {
            "club": club,
            "step": step,
            "status": status,
            "drills": rows,
            "next_url": next_path(slug, step),
            "path_url": path_url(slug),
            "lesson_url": lesson_url(slug, step),
            # Once this step is passed, the next one is the page's main action.
            "next_step": (
                {"step": following.step, "url": step_url(slug, following.step.number)}
                if status.passed and following is not None and following.unlocked
                else None
            ),
            # A visitor who passed it is offered the next step behind signing up.
            "following": following,
            "visitor": not signed_in(request),
            **_visitor_links(request),
        },
    )


@vary_on_headers("HX-Request")
@require_GET
def step_next(request: HttpRequest, number: int, slug: str | None = None) -> HttpResponse:
    """Go on with a step: what its session (:class:`StepSession`) says comes next — a drill,
    the step's page once it is over, the path while the step is locked."""
    if refused := _visitor_refused(request, slug, number):
        return refused
    if signed_in(request):
        _club_of(request, slug)
    try:
        after = int(request.GET.get("after", ""))
    except ValueError:
        after = None
    return drill_sessions.go_on(request, StepSession(request, slug, _step(number)), after)


# --------------------------------------------------------------------------------------------
# Organisers


@login_required
@require_GET
def members(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Every member's position on the path (organisers only)."""
    membership = _organiser(request, slug)
    rows = selectors.members_path(club=membership.club)
    return render(
        request,
        "clubs/members.html",
        {
            "club": membership.club,
            "membership": membership,
            "rows": rows,
            "steps": STEPS,
        },
    )


@vary_on_headers("HX-Request")
@login_required
@require_POST
def invite_rotate(request: AuthenticatedHtmxRequest, slug: str) -> HttpResponse:
    membership = _organiser(request, slug)
    token = services.invite_rotate(actor=request.user, club=membership.club)
    if request.htmx:
        return render(
            request,
            "clubs/club_detail.html#invite",
            {
                "club": membership.club,
                "invite_url": _invite_url(request, token),
                "rotated": True,
            },
        )
    messages.success(request, gettext("The invite link is new; the old one no longer works."))
    return redirect("clubs:detail", slug=slug)


@login_required
@require_POST
def house_rules(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    membership = _organiser(request, slug)
    club = membership.club
    form = HouseRulesForm(request.POST, instance=club)
    if form.is_valid():
        services.house_rules_set(actor=request.user, club=club, **form.cleaned_data)
        messages.success(
            request, gettext("House rules saved. Members' drills now default to them.")
        )
        return redirect("clubs:detail", slug=slug)
    club.refresh_from_db()
    return render(
        request,
        "clubs/club_detail.html",
        _detail_context(request, membership, rules_form=form),
        status=400,
    )


@login_required
@require_POST
def member_promote(request: AuthenticatedHttpRequest, slug: str, user_id: int) -> HttpResponse:
    membership = _organiser(request, slug)
    try:
        promoted = services.member_promote(
            actor=request.user, club=membership.club, user_id=user_id
        )
    except ClubMembership.DoesNotExist:
        raise Http404("No such member.") from None
    messages.success(
        request,
        gettext("%(name)s is now an organiser.") % {"name": promoted.user.get_username()},
    )
    return redirect("clubs:members", slug=slug)
