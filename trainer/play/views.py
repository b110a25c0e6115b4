"""Play pages: the start form and "My games", the table, the coach, the review and the record.

The table lives in the database as a setup and an action list; every page rebuilds it with
the engine and shows only what South may see (``TableView``). Every action is a form post
naming the table's version it was chosen at, so it works without JavaScript; htmx swaps the
table area in place. A plain post is answered with a redirect to the table page carrying
``?step=<n>``, which shows the actions from the n-th on as steps, one at a time, so the bots'
turns never jump past the learner.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import push_url, reswap, retarget

from engine.errors import ConcertoError
from engine.play import IllegalPlay, PlaySetup, record_json, review
from engine.scoring import get_rule
from trainer.classes import selectors as class_selectors
from trainer.classes.models import Assignment
from trainer.core import preferences
from trainer.core.people import display_name
from trainer.core.web.converters import ID_MAX
from trainer.core.web.htmx import wants_partial
from trainer.core.web.http import AuthenticatedHttpRequest
from trainer.play import presenters, selectors, services
from trainer.play.forms import ActionForm, FrameForm, ReadForm, StartForm, StepForm, VersionForm
from trainer.play.models import Game
from trainer.play.pair_presenters import pair_rows, partnerships
from trainer.progress.selectors import play_figures
from trainer.wording.errors import reason

#: Seeds of new deals are drawn below this.
SEED_RANGE = 2**62
#: The session's record of how far into each game's record the player went on from a pause
#: (``{"<game id>": n}``, the last few games): see :mod:`engine.play.pause`.
SEEN_KEY = "trainer.play.seen"
#: Games whose pauses the session remembers (the oldest is forgotten first; a forgotten one
#: only shows its last pause again, until the player's next move).
SEEN_KEPT = 20


def new_seed() -> int:
    """A fresh random seed for a new deal or game."""
    return uuid.uuid4().int % SEED_RANGE


def _seen(request: HttpRequest, pk: int, *, owner: bool = False) -> selectors.Seen:
    seen = selectors.game_for(request.user, pk)
    if seen is None or (owner and not seen.owner):
        raise Http404("No such deal.")
    return seen


def _seen_mark(request: HttpRequest, game: Game) -> int:
    """How far into ``game``'s record the player last went on from a pause (0: never)."""
    marks = request.session.get(SEEN_KEY, {})
    value = marks.get(str(game.pk), 0) if isinstance(marks, dict) else 0
    return value if isinstance(value, int) else 0


def _mark_seen(request: HttpRequest, game: Game, at: int) -> None:
    """Remember that the player went on from the pause at ``at`` actions into the record."""
    marks = request.session.get(SEEN_KEY, {})
    marks = dict(marks) if isinstance(marks, dict) else {}
    key = str(game.pk)
    before = marks.pop(key, 0)
    marks[key] = max(at, before if isinstance(before, int) else 0)
    while len(marks) > SEEN_KEPT:
        marks.pop(next(iter(marks)))
    request.session[SEEN_KEY] = marks


def _player_name(seen: selectors.Seen) -> str | None:
    """How the page names the player: None for the player (who reads "you"), the student's
    name for a teacher looking on."""
    return None if seen.owner else display_name(seen.game.owner)


def _assignment_for(request: AuthenticatedHttpRequest, raw: object) -> Assignment | None:
    """The play assignment a student is starting a deal for (only their own classes')."""
    if not raw:
        return None
    try:
        pk = int(str(raw))
    except ValueError:
        return None
    if not 0 < pk <= ID_MAX:
        return None
    found = class_selectors.assignments_visible_to(request.user).filter(
        pk=pk, source=Assignment.Source.PLAY, classroom__archived_at__isnull=True
    )
    student_classes = class_selectors.classes_of_student(request.user)
    return found.filter(classroom__in=student_classes).first()


@login_required
@require_http_methods(["GET", "POST"])
def play_home(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The start form (``data-start``) and the learner's deals and games ("My games").

    ``?assignment=<id>`` starts deals for a class's "play N deals" assignment, with its
    convention and rule fixed."""
    assignment = _assignment_for(
        request, request.GET.get("assignment") or request.POST.get("assignment")
    )
    defaults = preferences.drill_defaults(request)
    if assignment is not None:
        defaults = {"convention": assignment.convention, "rule": assignment.rule}
    status = 200
    if request.method == "POST":
        form = StartForm(request.POST, defaults=defaults)
        if form.is_valid():
            data = form.cleaned_data
            try:
                if (
                    assignment is not None
                ):  # the assignment's convention and rule, whatever was posted
                    data["convention"], data["rule"] = (
                        assignment.convention,
                        get_rule(assignment.rule),
                    )
                setup = PlaySetup(
                    seed=new_seed(),
                    rule=data["rule"],
                    convention=data["convention"],
                    opponents=data["opponents"],
                    opponents_convention=data["convention"],
                    game=data["length"] == "game",
                    partner=data["partner"],
                )
                game, _steps = services.game_start(
                    user=request.user, setup=setup, coach=data["coach"], assignment=assignment
                )
            except (ConcertoError, ValueError, services.PlayRefused) as exc:
                form.add_error(
                    None,
                    gettext("This deal cannot be started: %(reason)s") % {"reason": reason(exc)},
                )
            else:
                return redirect(reverse("play:table", args=[game.pk]) + "?step=0")
        status = 400
    else:
        form = StartForm(
            defaults=defaults, initial={"assignment": assignment.pk if assignment else None}
        )
    games = list(selectors.games_of(request.user)[: selectors.MY_GAMES_SHOWN])
    return render(
        request,
        "play/home.html",
        {
            "form": form,
            "assignment": assignment,
            "games": [presenters.game_row(g) for g in games],
            # The learner's leads and quiz answers in play, all of them.
            "accuracy": play_figures({request.user.pk: None})[request.user.pk],
        },
        status=status,
    )


def _show(
    request: HttpRequest,
    seen: selectors.Seen,
    played: services.Played | None = None,
    *,
    status: int = 200,
    push: bool = False,
    **extra: Any,
) -> HttpResponse:
    """Render the table (the whole page, or its area for htmx): ``played`` as a service read
    it, else the game's record as it stands (paused where the player has not gone on)."""
    game = seen.game
    if played is None:
        played = services.table_read(
            game, owner=seen.owner, seen=_seen_mark(request, game) if seen.owner else 0
        )
    ctx = presenters.table_context(
        game=game,
        shown=played.shown,
        owner=seen.owner,
        attempts=lambda: selectors.hand_attempts(game),
        pause=played.pause,
        pause_summary=played.summary,
        player=_player_name(seen),
    )
    ctx.update(extra)
    partial = wants_partial(request)
    template = "play/table.html#table-area" if partial else "play/table.html"
    response = render(request, template, ctx, status=status)
    if partial and push and status == 200:
        push_url(response, game.get_absolute_url())
    return response


@vary_on_headers("HX-Request")
@login_required
@require_http_methods(["GET"])
def table_page(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The table as South sees it; ``?step=<n>`` shows the actions from the n-th as steps.
    After a hand of the learner's side the table pauses on its summary until the player goes
    on (``table_act`` with ``seen``); a reload shows the same pause."""
    seen = _seen(request, pk)
    form = StepForm(request.GET)
    step = form.cleaned_data.get("step") if form.is_valid() else None
    mark = _seen_mark(request, seen.game) if seen.owner else 0
    played = services.table_read(seen.game, owner=seen.owner, step=step, seen=mark)
    return _show(request, seen, played)


def _refused(request: HttpRequest, pk: int, message: str) -> HttpResponse:
    """400 with the reason, and the table as stored (nothing changed)."""
    seen = _seen(request, pk, owner=True)
    response = _show(request, seen, status=400, error=message)
    if wants_partial(request):
        response = reswap(retarget(response, "#table-area"), "outerHTML")
    return response


def _owned(request: HttpRequest, pk: int) -> None:
    """404 unless ``pk`` is the user's own game (the services check it again)."""
    if not selectors.games_of(request.user).filter(pk=pk).exists():
        raise Http404("No such deal.")


def _go_on(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """*Continue* from the pause after a hand: remember (in the session) that the player went
    on from the record's first ``seen`` actions, then show the table from there, the bots'
    next moves as steps. The record is not touched."""
    seen = _seen(request, pk, owner=True)
    game = seen.game
    raw = request.POST.get("seen", "")
    if not (raw.isascii() and raw.isdigit() and 0 < len(raw) <= 4):
        return _refused(request, pk, gettext("The page's position is missing or malformed."))
    at = int(raw)
    if not 0 < at <= len(game.actions):
        return _refused(request, pk, gettext("The page's position is missing or malformed."))
    _mark_seen(request, game, at)
    if not wants_partial(request):
        return redirect(reverse("play:table", args=[pk]) + f"?step={at}")
    played = services.table_read(game, owner=True, step=at, seen=_seen_mark(request, game))
    return _show(request, seen, played, push=True)


@vary_on_headers("HX-Request")
@login_required
@require_POST
def table_act(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """South's action (``action``: ``7H``, ``pass``, ``force``, read by the form) at
    ``version``; or *Continue* from the pause after a hand (``seen``: where the pause
    stands in the record), which changes no record."""
    if "seen" in request.POST and "action" not in request.POST:
        return _go_on(request, pk)
    form = ActionForm(request.POST)
    if not form.is_valid():
        return _refused(request, pk, form.first_error())
    data = form.cleaned_data
    try:
        played = services.game_act(
            game_id=pk, user=request.user, action=data["action"], version=data["version"]
        )
    except Game.DoesNotExist:
        raise Http404("No such deal.") from None
    except services.PlayRefused as exc:
        return _refused(request, pk, str(exc))
    if not wants_partial(request):
        return redirect(reverse("play:table", args=[pk]) + f"?step={played.start}")
    return _show(request, selectors.Seen(played.game, True), played, push=True)


@vary_on_headers("HX-Request")
@login_required
@require_POST
def coach_advice(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """ "What should I signal?": the encoder's lead for South's cards (South then leads on
    their own, but that lead no longer counts as South's answer)."""
    _owned(request, pk)
    form = VersionForm(request.POST)
    if not form.is_valid():
        return _refused(request, pk, gettext("The page's position is missing or malformed."))
    try:
        game, shown = services.advice_ask(
            game_id=pk, user=request.user, version=form.cleaned_data["version"]
        )
    except services.PlayRefused as exc:
        return _refused(request, pk, str(exc))
    return _show(request, selectors.Seen(game, True), services.Played(game, shown))


@vary_on_headers("HX-Request")
@login_required
@require_POST
def coach_quiz(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """South's answer to "what does partner hold?" after North's lead."""
    _owned(request, pk)
    form = ReadForm(request.POST)
    if not form.is_valid():
        return _refused(request, pk, gettext("Choose one of the answers."))
    try:
        answered = services.read_answer(
            game_id=pk,
            user=request.user,
            option=form.cleaned_data["option"],
            version=form.cleaned_data["version"],
        )
    except services.PlayRefused as exc:
        return _refused(request, pk, str(exc))
    return _show(
        request, selectors.Seen(answered.game, True), services.Played(answered.game, answered.shown)
    )


def _review_context(
    game: Game, request: HttpRequest, *, shared: bool, player: str | None = None
) -> dict[str, Any]:
    form = FrameForm(request.GET)
    frame = form.cleaned_data.get("frame") if form.is_valid() else None
    ctx = presenters.review_context(
        game=game,
        review=review(selectors.setup_of(game), selectors.actions_of(game)),
        frame=frame,
        shared=shared,
        attempts=selectors.hand_attempts(game),
        player=player,
    )
    ctx["pairs"] = pair_rows(game) if game.is_finished else []
    ctx["teaching"] = game.teaching
    return ctx


def _render_review(request: HttpRequest, ctx: dict[str, Any]) -> HttpResponse:
    partial = wants_partial(request) and request.headers.get("HX-Target") == "review-frame"
    return render(request, "play/review.html#review-frame" if partial else "play/review.html", ctx)


@vary_on_headers("HX-Request")
@login_required
@require_http_methods(["GET"])
def review_page(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Finished deals hand by hand, with par, points lost and South's differences from the
    bot; ``?frame=<n>`` steps through them card by card. A game still being played shows the
    deals already over; before any is over there is nothing to review (404)."""
    seen = _seen(request, pk)
    try:  # in a game still being played, the deals already over
        ctx = _review_context(seen.game, request, shared=not seen.owner, player=_player_name(seen))
    except IllegalPlay:
        raise Http404("The review opens when the deal is over.") from None
    return _render_review(request, ctx)


@vary_on_headers("HX-Request")
@require_http_methods(["GET"])
def shared_review(request: HttpRequest, token: uuid.UUID) -> HttpResponse:
    """The review behind a share link: read only, for anyone holding the link."""
    game = selectors.game_shared(token)
    if game is None:
        raise Http404("No such deal.")
    # Anyone may hold the link: the player goes unnamed ("North–South").
    return _render_review(request, _review_context(game, request, shared=True, player=""))


@login_required
@require_http_methods(["GET"])
def record(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The finished deal's record (``engine.play.record_json``): ``python -m engine replay``
    re-scores it. Not before the end: the record names the seed."""
    seen = _seen(request, pk)
    if not seen.game.is_finished:
        raise Http404("The record exists once the deal is over.")
    data = record_json(selectors.setup_of(seen.game), selectors.actions_of(seen.game))
    response = JsonResponse(data, json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'inline; filename="concerto-deal-{pk}.json"'
    return response


@login_required
@require_http_methods(["GET"])
def table_json(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The table as South sees it, as JSON (``TableView.to_json()``), for automated players."""
    seen = _seen(request, pk)
    shown = selectors.table_shown(seen.game, owner=seen.owner)
    data = shown.view.to_json()
    data["version"] = seen.game.version
    data["coach"] = {"advice": shown.advice is not None, "quiz": shown.quiz is not None}
    return JsonResponse(data)


@login_required
@require_http_methods(["GET"])
def pairs_page(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Your partnerships over your finished deals: the signals misread, never tried, and the
    hands that cost most (each with its review)."""
    return render(
        request, "play/pairs.html", {"partnerships": partnerships(request.user), "own": True}
    )
