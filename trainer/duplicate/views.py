"""Duplicate session pages: a club's sessions (organisers create a daylong), a session's page
(enter, play each board, then the ranking and your own card), each board's traveller and the
CSV export.

Permissions: a session is found only through the visitor's own club membership (404 else);
the ranking, travellers and export exist only once the session has closed (404 before, with
the reason), so nobody sees a board's results, or its hands through a review link, early.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from trainer.classes.models import Classroom
from trainer.clubs import selectors as club_selectors
from trainer.core.web.http import AuthenticatedHttpRequest
from trainer.duplicate import selectors, services
from trainer.duplicate.forms import SessionForm
from trainer.duplicate.groups import Group, group_of
from trainer.duplicate.models import ClubSession, SessionEntry, SessionTable


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
    """A club's sessions (its members; 404 else)."""
    membership = club_selectors.membership_get(user=request.user, slug=slug)
    if membership is None:
        raise Http404("No such club.")
    return _sessions_page(request, Group(club=membership.club))


@login_required
@require_http_methods(["GET", "POST"])
def class_sessions(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """A class's sessions (its students and teachers; 404 else)."""
    classroom = Classroom.objects.filter(pk=pk, memberships__user_id=request.user.pk).first()
    if classroom is None:
        raise Http404("No such class.")
    return _sessions_page(request, Group(classroom=classroom))


def _sessions_page(request: AuthenticatedHttpRequest, group: Group) -> HttpResponse:
    """The group's sessions, each member's places in the closed ones, and for those who
    direct them the form for a new one."""
    directs = group.directs(request.user)
    form = SessionForm(request.POST or None, group=group) if directs else None
    error, status = "", 200
    if request.method == "POST":
        if form is None:
            return HttpResponse(
                gettext("Only the club's organisers can create a session."), status=403
            )
        if form.is_valid():
            try:
                created = services.session_create(
                    user=request.user,
                    club=group.club,
                    classroom=group.classroom,
                    **form.cleaned_data,
                )
            except services.SessionRefused as exc:
                error, status = str(exc), 400
            else:
                return redirect("duplicate:session", pk=created.pk)
        else:
            status = 400
    return render(
        request,
        "duplicate/club_sessions.html",
        {
            "group": group,
            "form": form,
            "error": error,
            "now": timezone.now(),
            "sessions": list(selectors.sessions_of(group=group)),
            "history": selectors.history_of(user=request.user, group=group),
        },
        status=status,
    )


def _is_director(request: AuthenticatedHttpRequest, session: ClubSession) -> bool:
    return session.kind == ClubSession.Kind.LIVE and group_of(session).directs(request.user)


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
            "group": group_of(session),
            "entry": entry,
            "rows": selectors.board_rows(session=session, entry=entry),
            "results": results,
            "card": selectors.pair_card(session=session, results=results, entry=entry)
            if results and entry
            else [],
            "invitation": selectors.invitation_for(session=session, user=request.user),
            "partners": selectors.partner_choices(session=session, user=request.user)
            if entry is None
            else [],
            "my_tables": selectors.my_tables(session=session, entry=entry),
            "sits_out": selectors.sits_out(session=session, entry=entry),
            "round_ends_at": selectors.round_ends_at(session),
            "is_director": _is_director(request, session),
            "teaches": session.classroom_id is not None and group_of(session).directs(request.user),
            "is_open": session.is_open(),
            "is_closed": session.is_closed(),
            "error": error,
        },
        status=status,
    )


@login_required
def session_page(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    return _session_response(request, _session(request, pk))


def _partner(request: AuthenticatedHttpRequest, session: ClubSession) -> User | None:
    """The partner named in the form (blank: alone); an unknown one is refused."""
    raw = request.POST.get("partner", "").strip()
    if not raw:
        return None
    found = next(
        (
            u
            for u in selectors.partner_choices(session=session, user=request.user)
            if str(u.pk) == raw
        ),
        None,
    )
    if found is None:
        raise services.SessionRefused(gettext("Your partner must be another member of the club."))
    return found


@login_required
@require_POST
def session_enter(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    session = _session(request, pk)
    try:
        services.session_enter(
            user=request.user, session=session, partner=_partner(request, session)
        )
    except services.SessionRefused as exc:
        return _refused(request, session, str(exc))
    return redirect("duplicate:session", pk=session.pk)


@login_required
@require_POST
def partner_answer(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    session = _session(request, pk)
    invitation = selectors.invitation_for(session=session, user=request.user)
    try:
        if invitation is None:
            raise services.SessionRefused(
                gettext("There is no partnership waiting for your answer.")
            )
        services.partner_answer(
            user=request.user, entry=invitation, accept=request.POST.get("answer") == "yes"
        )
    except services.SessionRefused as exc:
        return _refused(request, session, str(exc))
    return redirect("duplicate:session", pk=session.pk)


@login_required
@require_POST
def check_in(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    session = _session(request, pk)
    try:
        services.check_in(
            user=request.user, session=session, here=request.POST.get("here") == "yes"
        )
    except services.SessionRefused as exc:
        return _refused(request, session, str(exc))
    return redirect("duplicate:session", pk=session.pk)


@login_required
@require_POST
def board_play(request: AuthenticatedHttpRequest, pk: int, board: int) -> HttpResponse:
    session = _session(request, pk)
    try:
        play = services.board_start(user=request.user, session=session, board=board)
    except services.SessionRefused as exc:
        return _refused(request, session, str(exc))
    if play.live_id is not None:
        return redirect(reverse("play:live", args=[play.live_id]))
    return redirect(reverse("play:table", args=[play.game_id]))


# -- The director's page (a live session's organisers) ---------------------------------------


def _directed(request: AuthenticatedHttpRequest, pk: int) -> ClubSession:
    session = _session(request, pk)
    if not _is_director(request, session):
        raise PermissionDenied("Only the club's organisers direct a live session.")
    return session


def _director_response(
    request: AuthenticatedHttpRequest, session: ClubSession, *, error: str = "", status: int = 200
) -> HttpResponse:
    entries = list(SessionEntry.objects.filter(session=session).select_related("player", "partner"))
    return render(
        request,
        "duplicate/director.html",
        {
            "session": session,
            "group": group_of(session),
            "entries": entries,
            "here": [e for e in entries if e.here],
            "tables": selectors.round_tables(session=session) if session.current_round else [],
            "rounds": len(session.movement["rounds"]) if session.movement else 0,
            "round_ends_at": selectors.round_ends_at(session),
            "is_closed": session.is_closed(),
            "error": error,
        },
        status=status,
    )


@login_required
def director_page(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    return _director_response(request, _directed(request, pk))


@login_required
@require_POST
def director_act(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The director's buttons: start the session, start the next round, have the bots finish
    a late board, close the session."""
    session = _directed(request, pk)
    what = request.POST.get("do", "")
    try:
        if what == "start":
            services.session_start(by=request.user, session=session)
        elif what == "round":
            services.round_start(by=request.user, session=session)
        elif what == "close":
            services.session_close(by=request.user, session=session)
        elif what == "bots":
            table = SessionTable.objects.filter(
                session=session, pk=_int(request.POST.get("table"))
            ).first()
            if table is None:
                raise services.SessionRefused(gettext("That table is not in this session."))
            services.bots_finish(by=request.user, session=session, table=table)
        else:
            raise services.SessionRefused(gettext("The director has no such button."))
    except services.SessionRefused as exc:
        session.refresh_from_db()
        return _director_response(request, session, error=str(exc), status=400)
    return redirect("duplicate:director", pk=session.pk)


def _int(raw: str | None) -> int:
    return int(raw) if raw and raw.isdigit() and len(raw) < 12 else 0


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
            "group": group_of(session),
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
