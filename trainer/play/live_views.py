"""Pages of the live tables: open a table, the invite page, the table itself, and the form
posts that work without WebSockets (each also announced to the table's sockets)."""

from __future__ import annotations

import uuid
from collections.abc import Callable

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from engine.play import record_json
from engine.seats import SEATS, Seat
from trainer.core import preferences
from trainer.core.infra.throttle import allow
from trainer.core.web.http import AuthenticatedHttpRequest
from trainer.play import live, live_teaching
from trainer.play.consumers import announce, announce_presence
from trainer.play.forms import LiveTableForm
from trainer.play.models import LiveTable
from trainer.play.selectors import actions_of, setup_of


def _access(request: AuthenticatedHttpRequest, pk: int) -> live.Access:
    access = live.live_access(request.user, pk)
    if access is None:
        raise Http404(gettext("No such table."))
    return access


def _refused(message: str) -> HttpResponse:
    return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")


#: How often a live table's page reloads itself without JavaScript while its player waits.
NO_SCRIPT_RELOAD_SECONDS = 10


@login_required
@require_http_methods(["GET", "POST"])
def live_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = LiveTableForm(request.POST or None, defaults=preferences.drill_defaults(request))
    if request.method == "POST" and form.is_valid():
        raw = form.cleaned_data["seat"]
        try:
            table = live.live_table_open(
                host=request.user,
                settings=form.table_settings(),
                seat=None if raw == "watch" else Seat(raw),
                opponents_link=form.cleaned_data["opponents_link"],
            )
        except live.LiveRefused as exc:
            form.add_error("seat", str(exc))
        else:
            return redirect(table)
    return render(request, "play/live/new.html", {"form": form}, status=400 if form.errors else 200)


@login_required
def live_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The tables one sits at, hosts, or may watch (a teacher's students', an organiser's
    members')."""
    return render(request, "play/live/list.html", {"tables": live.live_tables_for(request.user)})


def _looked_on(request: AuthenticatedHttpRequest, access: live.Access) -> live.Access:
    """A watcher reading the deal over HTTP is kept, by name, and the players' frames are
    told (a socket counts its watcher while open, a page cannot be counted so)."""
    if access.watcher and live.live_looked_on(pk=access.table.pk, user=request.user):
        announce_presence(access.table.pk)
    return access


@login_required
@require_GET
def live_page(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    access = _looked_on(request, _access(request, pk))
    shown = live.live_shown(access)
    table = shown.table
    ctx = live.live_context(shown)
    if table.host_id == request.user.pk:
        if table.invite_token:
            ctx["invite_url"] = request.build_absolute_uri(
                reverse("play:live-join", args=[table.invite_token])
            )
        if table.opponents_token:
            ctx["opponents_url"] = request.build_absolute_uri(
                reverse("play:live-join", args=[table.opponents_token])
            )
    ctx["host"] = table.host_id == request.user.pk
    ctx["my_away"] = any(line.mine and line.away for line in shown.seats)
    # Without JavaScript nothing tells a waiting player that the others moved: the page
    # reloads itself (a <noscript> refresh) until it is their turn or the deal is over.
    over = shown.view is not None and shown.view.is_over
    ctx["waiting"] = not over and (shown.to_move is None or shown.to_move != shown.seat)
    ctx["reload_seconds"] = NO_SCRIPT_RELOAD_SECONDS
    ctx["socket_path"] = f"/ws/play/tables/{table.pk}/"
    return render(request, "play/live/page.html", ctx)


@login_required
@require_GET
def live_partial(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The table partial alone (what a socket frame carries), for a page that lost its
    socket and reloads the table after each move."""
    shown = live.live_shown(_looked_on(request, _access(request, pk)))
    ctx = {**live.live_context(shown), "host": shown.table.host_id == request.user.pk}
    return render(request, "play/live/_table.html", ctx)


@login_required
@require_http_methods(["GET", "POST"])
def live_join(request: AuthenticatedHttpRequest, token: uuid.UUID) -> HttpResponse:
    found = live.table_by_invite(token)
    if found is None:
        raise Http404(gettext("This invitation is not valid (any more)."))
    table, seats = found
    if table.seats.filter(user_id=request.user.pk).exists():
        return redirect(table)
    if request.method == "POST":
        if not allow(f"live-join:{request.user.pk}", limit=20, seconds=60):
            return HttpResponse(gettext("Too many tries: wait a minute."), status=429)
        raw = request.POST.get("seat", "")
        if raw not in {str(s) for s in SEATS}:
            return _refused(gettext("Choose a seat: N, E, S or W."))
        try:
            live.live_seat_take(
                pk=table.pk, user=request.user, seat=Seat(raw), allowed=seats, token=token
            )
        except live.LiveRefused as exc:
            return _refused(str(exc))
        table.refresh_from_db()
        announce(table)
        return redirect(table)
    taken = {s.seat: s for s in table.seats.select_related("user")}
    free = [s for s in seats if str(s) not in taken or taken[str(s)].user_id is None]
    return render(
        request,
        "play/live/join.html",
        {"table": table, "free": free, "playing": table.status == table.Status.PLAYING},
    )


def _post(request: AuthenticatedHttpRequest, pk: int, do: Callable[[], LiveTable]) -> HttpResponse:
    _access(request, pk)
    try:
        table = do()
    except live.TooManyMoves as exc:
        return HttpResponse(str(exc), status=429)
    except live.LiveRefused as exc:
        return _refused(str(exc))
    announce(table)
    return redirect(table)


@login_required
@require_POST
def live_begin(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    swap = request.POST.get("swap") == "1"
    return _post(request, pk, lambda: live.live_begin(pk=pk, by=request.user, swap=swap))


@login_required
@require_POST
def live_act(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    return _post(request, pk, lambda: live.live_move(pk=pk, user=request.user, data=request.POST))


@login_required
@require_POST
def live_away(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    away = request.POST.get("away") == "1"
    return _post(request, pk, lambda: live.live_away(pk=pk, user=request.user, away=away))


@login_required
@require_POST
def live_coach(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    on = request.POST.get("coach") == "1"
    return _post(request, pk, lambda: live.live_coach(pk=pk, user=request.user, on=on))


@login_required
@require_POST
def live_hand_over(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Hand the seat of a player who has gone, and is due to move, to a bot."""
    try:
        seat = Seat(request.POST.get("seat", ""))
        version = int(request.POST.get("version", ""))
    except ValueError:
        return _refused(gettext("Choose the seat to hand to a bot."))
    return _post(
        request,
        pk,
        lambda: live.live_hand_over(pk=pk, by=request.user, seat=seat, version=version),
    )


@login_required
@require_POST
def live_watchable(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The host lets the players' teachers and organisers watch, or stops them."""
    on = request.POST.get("watchable") == "1"
    return _post(request, pk, lambda: live.live_watchable(pk=pk, by=request.user, watchable=on))


@login_required
@require_POST
def live_teach(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The table's teacher pauses, goes on, takes the hand back, or shows (hides) a hand."""
    do = request.POST.get("do", "")
    by = request.user
    if do in ("pause", "resume"):
        return _post(
            request, pk, lambda: live_teaching.live_pause(pk=pk, by=by, paused=do == "pause")
        )
    if do == "take_back":
        return _post(request, pk, lambda: live_teaching.live_take_back(pk=pk, by=by))
    if do == "hide":
        return _post(request, pk, lambda: live_teaching.live_show(pk=pk, by=by, seat=None))
    if do == "show":
        try:
            seat = Seat(request.POST.get("seat", ""))
        except ValueError:
            return _refused(gettext("Choose the seat whose hand to show."))
        return _post(request, pk, lambda: live_teaching.live_show(pk=pk, by=by, seat=seat))
    return _refused(gettext("That is not something a teacher does at the table."))


@login_required
@require_POST
def live_revoke(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    return _post(request, pk, lambda: live.live_invite_revoke(pk=pk, by=request.user))


@login_required
def live_record(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The deal's record (the solo table's JSON, replayable), once the deal is over."""
    table = _access(request, pk).table
    if table.game is None or not table.game.is_finished:
        raise Http404(gettext("The record is shown once the deal is over."))
    data = record_json(setup_of(table.game), actions_of(table.game))
    if table.game.teaching:  # (a teaching table's pauses, take-backs and hands shown)
        data["teaching"] = table.game.teaching
    response = JsonResponse(data, json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="table-{pk}.json"'
    return response
