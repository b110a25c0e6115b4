"""A teacher's board sets: ``/classes/<id>/boards/`` (search the engine's boards, pick, save a
set) and ``/classes/<id>/boards/<set>/`` (the set's hands; deal it to the class as a session).

Only the class's teachers reach these pages (404 for anyone else: a board's seed deals every
card, so a student must never see a set).
"""

from __future__ import annotations

import secrets

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from trainer.classes.models import Classroom
from trainer.core.web.http import AuthenticatedHttpRequest
from trainer.play.pair_presenters import partnerships
from trainer.teaching import selectors, services
from trainer.teaching.forms import (
    SEARCH_SEED_MAX,
    BoardSearchForm,
    DealSetForm,
    HandEntryForm,
    SaveSetForm,
)
from trainer.teaching.models import BoardSet
from trainer.wording.errors import reason


def _class(request: AuthenticatedHttpRequest, pk: int) -> Classroom:
    classroom = selectors.taught_class(request.user, pk)
    if classroom is None:
        raise Http404("No such class.")
    return classroom


@login_required
@require_http_methods(["GET", "POST"])
def class_boards(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The class's sets, the board search and its results (GET), a set saved (POST)."""
    classroom = _class(request, pk)
    group = selectors.group_of_class(classroom)
    data = request.POST if request.method == "POST" else request.GET
    searched = "seat" in data
    form = BoardSearchForm(data if searched else None, group=group)
    save = SaveSetForm(request.POST or None)
    found, error, status = None, "", 200
    if searched and form.is_valid():
        seed = form.cleaned_data.get("seed")
        if seed is None:  # a new search: a fresh seed, kept in the page's links and forms
            seed = secrets.randbelow(SEARCH_SEED_MAX)
            query = data.copy()
            query["seed"] = str(seed)
            return redirect(f"{request.path}?{query.urlencode()}")
        try:
            found = services.search(form.query(), form.cleaned_data["count"], seed)
        except services.SetRefused as exc:
            error, status = str(exc), 400
        if request.method == "POST" and found is not None:
            if save.is_valid():
                try:
                    made = services.set_create(
                        by=request.user,
                        classroom=classroom,
                        title=save.cleaned_data["title"],
                        query=form.query(),
                        asked=form.as_query_json(),
                        count=form.cleaned_data["count"],
                        seed=seed,
                        picks=save.cleaned_data["picks"],
                    )
                except services.SetRefused as exc:
                    error, status = str(exc), 400
                else:
                    return redirect("teaching:set", pk=classroom.pk, set_pk=made.pk)
            else:
                status = 400
    elif searched or request.method == "POST":
        status = 400
    again = data.copy()
    for name in ("seed", "csrfmiddlewaretoken", "title", "picks"):
        again.pop(name, None)
    return render(
        request,
        "teaching/class_boards.html",
        {
            "classroom": classroom,
            "sets": selectors.sets_of(classroom),
            "form": form,
            "save": save,
            "found": found,
            "error": error,
            "again": again.urlencode(),
        },
        status=status,
    )


def _set(request: AuthenticatedHttpRequest, pk: int, set_pk: int) -> BoardSet:
    classroom = _class(request, pk)
    found = selectors.sets_of(classroom).filter(pk=set_pk).first()
    if found is None:
        raise Http404("No such set of boards.")
    return found


@login_required
@require_http_methods(["GET", "POST"])
def set_page(request: AuthenticatedHttpRequest, pk: int, set_pk: int) -> HttpResponse:
    """A set's boards, every hand (the teacher's eyes only), and the form that deals it."""
    board_set = _set(request, pk, set_pk)
    group = selectors.group_of_class(board_set.classroom)
    adding = request.method == "POST" and "add_board" in request.POST
    form = DealSetForm(None if adding else request.POST or None, group=group)
    by_hand = HandEntryForm(request.POST if adding else None)
    error, status = "", 200
    if adding:
        if by_hand.is_valid():
            try:
                services.board_add(
                    by=request.user,
                    board_set=board_set,
                    dealer=by_hand.cleaned_data["dealer_seat"],
                    hands=by_hand.cleaned_data["hands"],
                )
            except ValueError as exc:
                error, status = reason(exc), 400
            else:
                return redirect("teaching:set", pk=pk, set_pk=set_pk)
        else:
            status = 400
    elif request.method == "POST":
        if form.is_valid():
            try:
                session = services.set_deal(
                    by=request.user, board_set=board_set, **form.cleaned_data
                )
            except services.SetRefused as exc:
                error, status = str(exc), 400
            else:
                return redirect("duplicate:session", pk=session.pk)
        else:
            status = 400
    return render(
        request,
        "teaching/board_set.html",
        {
            "classroom": board_set.classroom,
            "board_set": board_set,
            "boards": selectors.set_boards(board_set),
            "form": form,
            "by_hand": by_hand,
            "error": error,
        },
        status=status,
    )


@login_required
@require_POST
def set_delete(request: AuthenticatedHttpRequest, pk: int, set_pk: int) -> HttpResponse:
    board_set = _set(request, pk, set_pk)
    services.set_delete(by=request.user, board_set=board_set)
    return redirect("teaching:boards", pk=pk)


@login_required
@require_http_methods(["GET"])
def compare_page(request: AuthenticatedHttpRequest, pk: int, session_pk: int) -> HttpResponse:
    """The class's pairs side by side on a closed session: matchpoints board by board, the
    signals each pair misread, and practice to set on the items misread most."""
    classroom = _class(request, pk)
    session = selectors.class_session(classroom, session_pk)
    if session is None:
        raise Http404("No such session of this class.")
    found = selectors.comparison(session)
    if found is None:
        raise Http404(gettext("The comparison opens when the session has closed."))
    return render(
        request,
        "teaching/compare.html",
        {"classroom": classroom, "session": session, "compare": found},
    )


@login_required
@require_http_methods(["GET"])
def student_pairs(request: AuthenticatedHttpRequest, pk: int, user_pk: int) -> HttpResponse:
    """A student's partnerships, as their teacher sees them (no review links: the teacher
    opens the reviews the class's own pages give)."""
    classroom = _class(request, pk)
    student = selectors.student_of(classroom, user_pk)
    if student is None:
        raise Http404("No such student in this class.")
    return render(
        request,
        "play/pairs.html",
        {
            "partnerships": partnerships(student),
            "own": False,
            "student": student,
            "classroom": classroom,
        },
    )
