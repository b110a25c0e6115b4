"""Duplicate session pages: a club's sessions (organisers create a daylong), a session's page
(enter, play each board, then the ranking and your own card), each board's traveller and the
CSV export.

Permissions: a session is found only through the visitor's own club membership (404 else);
the ranking, travellers and export exist only once the session has closed (404 before, with
the reason), so nobody sees a board's results, or its hands through a review link, early.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from trainer.clubs import selectors as club_selectors
from trainer.core.web.http import AuthenticatedHttpRequest
from trainer.duplicate import selectors, services
from trainer.duplicate.forms import SessionForm
from trainer.duplicate.models import ClubSession


def _session(request: AuthenticatedHttpRequest, pk: int) -> ClubSession:
    found = selectors.session_get(user=request.user, pk=pk)
    if found is None:
        raise Http404("No such session.")
    return found


def _refused(request: AuthenticatedHttpRequest, session: ClubSession, reason: str) -> HttpResponse:
    return _session_response(request, session, error=reason, status=400)


@login_required
@require_http_methods(["GET", "POST"])
def club_sessions(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    membership = club_selectors.membership_get(user=request.user, slug=slug)
    if membership is None:
        raise Http404("No such club.")
    club = membership.club
    form = SessionForm(request.POST or None) if membership.is_organiser else None
    error, status = "", 200
    if request.method == "POST":
        if form is None:
            return HttpResponse(
                gettext("Only the club's organisers can create a session."), status=403
            )
        if form.is_valid():
            try:
                created = services.session_create(user=request.user, club=club, **form.cleaned_data)
            except services.SessionRefused as exc:
                error, status = str(exc), 400
            else:
                return redirect("duplicate:session", pk=created.pk)
        else:
            status = 400
    now = timezone.now()
    return render(
        request,
        "duplicate/club_sessions.html",
        {
            "club": club,
            "membership": membership,
            "form": form,
            "error": error,
            "now": now,
            "sessions": list(selectors.sessions_of(club=club)),
            "history": selectors.history_of(user=request.user, club=club),
        },
        status=status,
    )


def _session_response(
    request: AuthenticatedHttpRequest, session: ClubSession, *, error: str = "", status: int = 200
) -> HttpResponse:
    entry = selectors.entry_of(session=session, user=request.user)
    results = selectors.results_of(session=session)
    return render(
        request,
        "duplicate/session.html",
        {
            "session": session,
            "club": session.club,
            "entry": entry,
            "rows": selectors.board_rows(session=session, entry=entry),
            "results": results,
            "card": selectors.pair_card(results=results, entry=entry) if results and entry else [],
            "is_open": session.is_open(),
            "is_closed": session.is_closed(),
            "error": error,
        },
        status=status,
    )


@login_required
def session_page(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    return _session_response(request, _session(request, pk))


@login_required
@require_POST
def session_enter(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    session = _session(request, pk)
    try:
        services.session_enter(user=request.user, session=session)
    except services.SessionRefused as exc:
        return _refused(request, session, str(exc))
    return redirect("duplicate:session", pk=session.pk)


@login_required
@require_POST
def board_play(request: AuthenticatedHttpRequest, pk: int, board: int) -> HttpResponse:
    session = _session(request, pk)
    try:
        game = services.board_start(user=request.user, session=session, board=board)
    except services.SessionRefused as exc:
        return _refused(request, session, str(exc))
    return redirect(reverse("play:table", args=[game.pk]))


def _results(session: ClubSession) -> selectors.Results:
    results = selectors.results_of(session=session)
    if results is None:
        raise Http404("Results are shown once the session has closed.")
    return results


@login_required
def traveller_page(request: AuthenticatedHttpRequest, pk: int, board: int) -> HttpResponse:
    session = _session(request, pk)
    if not 1 <= board <= session.boards:
        raise Http404("No such board.")
    results = _results(session)
    rows, par = selectors.traveller(results=results, session=session, board=board)
    entry = selectors.entry_of(session=session, user=request.user)
    return render(
        request,
        "duplicate/traveller.html",
        {
            "session": session,
            "board": board,
            "rows": rows,
            "par": par,
            "entry": entry,
            "previous": board - 1 if board > 1 else None,
            "next": board + 1 if board < session.boards else None,
        },
    )


@login_required
def results_csv(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    session = _session(request, pk)
    results = _results(session)
    response = HttpResponse(
        selectors.results_csv(session=session, results=results), content_type="text/csv"
    )
    response["Content-Disposition"] = f'attachment; filename="session-{session.pk}.csv"'
    return response
