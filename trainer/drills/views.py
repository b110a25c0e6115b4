"""Drill pages: the menu, one drill after another, one drill by URL, answering, review.

A drill lives in its URL: ``/drills/<kind>/<seed>/?convention=…&items=…``, its address
(:class:`~engine.drills.DrillAddress`), read once per request and built once. What differs
between kinds is the kind's own: its class in the engine and its template,
``trainer/drills/kinds/<kind>.html`` (:mod:`trainer.core.game.kinds`). The page carries a
signed *showing* token (which drill, when it was shown, a fresh id), so an answer can be timed,
recorded once however often it is posted, and refused when it does not belong to the drill.
"""

from __future__ import annotations

import secrets
from dataclasses import replace
from typing import Any
from urllib.parse import urlencode

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import push_url, reswap, retarget

from engine.cards import sort_cards
from engine.drills import (
    KIND_DESCRIPTIONS,
    KIND_TITLES,
    KINDS,
    MAX_HAND_SIZE,
    MIN_HAND_SIZE,
    Drill,
    DrillAddress,
    DrillParams,
    RetiredDrillError,
    answer_words,
    make_drill_at,
    skill_title,
    skills_for,
    spec_for,
)
from engine.drills.words import term
from engine.errors import ConcertoError
from engine.scoring import SCORING_RULES
from engine.signals import CONVENTIONS, ITEMS
from trainer.core import drill_sessions, preferences, teaching
from trainer.core.game.kinds import kind_template
from trainer.core.game.odds import odds_for_drill
from trainer.core.links import drill_url, next_drill_url, safe_next
from trainer.core.web.htmx import redirect_page, wants_partial
from trainer.drills import drill_sessions as practice
from trainer.drills.forms import AnswerForm, showing_sign
from trainer.progress import selectors, services
from trainer.ratings import selectors as ratings
from trainer.wording.errors import reason, sentence
from trainer.wording.render import say

#: Seeds are drawn below this; the URL accepts any seed the database can store.
SEED_RANGE = 10**9
SEED_LIMIT = 2**63 - 1


class BadDrillRequest(Exception):
    """Input a drill page refuses with 400 and a message for the learner."""

    status = 400


class RetiredDrill(BadDrillRequest):
    """An address from an earlier drill generator: 410 Gone, with a fresh drill offered."""

    status = 410

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


def _unusable(exc: ConcertoError) -> BadDrillRequest:
    return BadDrillRequest(
        gettext("These drill settings cannot be used: %(reason)s.") % {"reason": reason(exc)}
    )


def _storable(params: DrillParams) -> DrillParams:
    if len(params.key()) > services.ATTEMPT_PARAMS_MAX_LENGTH:
        raise BadDrillRequest(
            gettext("These drill settings are too long to be kept with your answers.")
        )
    return params


def _fresh_params(request: HttpRequest) -> DrillParams:
    """Settings for a fresh drill: the query string, what it leaves out filled from the
    visitor's (or their club's) defaults."""
    try:
        params = DrillParams.from_query(request.GET, preferences.drill_defaults(request))
    except ConcertoError as exc:
        raise _unusable(exc) from exc
    return _storable(params)


def _address(kind: str, seed: int, params: DrillParams) -> DrillAddress:
    if kind not in KINDS:
        raise BadDrillRequest(gettext("There is no drill kind called “%(kind)s”.") % {"kind": kind})
    if seed > SEED_LIMIT:
        raise BadDrillRequest(gettext("There is no drill number %(seed)s.") % {"seed": seed})
    return DrillAddress(spec_for(kind).kind, seed, params)


def _page_address(request: HttpRequest, kind: str, seed: int) -> DrillAddress:
    """The drill this page's URL names. Its params are read as written (missing values are
    the site's defaults, never the visitor's), so a shared link shows the same drill to
    everyone; a link without ``v`` is the first generator's, which is retired."""
    try:
        params = DrillParams.from_key(request.GET)
    except ConcertoError as exc:
        raise _unusable(exc) from exc
    return _address(kind, seed, _storable(params))


def _drill(address: DrillAddress) -> Drill:
    try:
        return make_drill_at(address)
    except RetiredDrillError:
        raise RetiredDrill(
            gettext(
                "Drill %(seed)s was made by an earlier version of the trainer and has been "
                "retired: the drills were rebuilt so that every answer they mark right is right. "
                "Your earlier answers to it are kept."
            )
            % {"seed": address.seed},
            address.kind,
        ) from None
    except ConcertoError as exc:
        raise BadDrillRequest(
            gettext("This drill cannot be built: %(reason)s.") % {"reason": reason(exc)}
        ) from exc


def _context(request: HttpRequest, drill: Drill, **extra: Any) -> dict[str, Any]:
    first = extra.pop("first", None)
    ctx = {
        "drill": drill,
        "kind_spec": spec_for(drill.kind),
        "kind_answer": kind_template(drill.kind, "answer"),
        "kind_title": KIND_TITLES[drill.kind],
        "skill_title": skill_title(drill.kind, drill.skill),
        "showing": extra.pop("showing", None) or showing_sign(drill),
        "action": drill_url(DrillAddress(drill.kind, drill.seed, drill.params), **_carry(request)),
        "permalink": drill_url(DrillAddress(drill.kind, drill.seed, drill.params)),
        "next_url": _next_url(request, drill),
        "hand": sort_cards(drill.hand),
        "scored": [(c, drill.by[i] if drill.by else None) for i, c in enumerate(drill.cards)],
        "first": first,
        "conventions": CONVENTIONS,
        "review": bool(_review_flag(request)),
        "teaching": teaching.links_for(drill.kind, drill.skill, drill.convention.name),
        "frame": drill_sessions.frame_for(request, _carry(request).get("next", "")),
        "review_due": (
            selectors.due_skills(user=request.user).count()
            if _review_flag(request) and request.user.is_authenticated
            else None
        ),
    }
    ctx.update(extra)
    return ctx


def _review_flag(request: HttpRequest) -> dict[str, str]:
    return {"review": "1"} if request.GET.get("review") == "1" else {}


def _carry(request: HttpRequest) -> dict[str, str]:
    """Query values a drill carries along unchanged: review mode, and ``next``, a local address
    the *Next* button goes to (an assignment or an onboarding step chains drills this way)."""
    carried = _review_flag(request)
    target = safe_next(request, request.GET.get("next", ""), local=True)
    if target:
        carried["next"] = target
    return carried


def _next_url(request: HttpRequest, drill: Drill) -> str:
    carried = _carry(request)
    if "next" in carried:
        return carried["next"]
    if carried:
        return reverse("review")
    return next_drill_url(drill.kind, drill.params)


def _render(request: HttpRequest, ctx: dict[str, Any], status: int = 200) -> HttpResponse:
    partial = wants_partial(request)
    template = "trainer/drill.html#drill-area" if partial else "trainer/drill.html"
    response = render(request, template, ctx, status=status)
    if partial and status == 200 and "grade" not in ctx:
        push_url(response, ctx["action"])  # the drill's address, keeping review/next
    return response


def _bad_request(request: HttpRequest, message: str, drill: Drill | None = None) -> HttpResponse:
    if drill is not None:
        return _render(request, _context(request, drill, error=message), status=400)
    if wants_partial(request):
        response = render(
            request, "trainer/drill_error.html#feedback", {"error": message}, status=400
        )
        return reswap(retarget(response, "#feedback"), "outerHTML")
    return render(request, "trainer/drill_error.html", {"error": message}, status=400)


def _refused(
    request: HttpRequest,
    exc: BadDrillRequest,
    drill: Drill | None = None,
) -> HttpResponse:
    if isinstance(exc, RetiredDrill):
        fresh = next_drill_url(exc.kind) if exc.kind in KINDS else ""
        return render(
            request,
            "trainer/drill_error.html",
            {"error": str(exc), "fresh_url": fresh, "retired": True},
            status=410,
        )
    return _bad_request(request, str(exc), drill)


#: The words for the engine's difficulty levels (each kind's ``level``).
LEVEL_NAMES = {1: "Beginner", 2: "Intermediate", 3: "Advanced"}
#: The same words in the page's language.
LEVEL_TITLES = {1: _("Beginner"), 2: _("Intermediate"), 3: _("Advanced")}


@require_http_methods(["GET"])
def drill_menu(request: HttpRequest) -> HttpResponse:
    """Every drill kind in learning order (the engine's ``KINDS``) with its difficulty, and for
    each the skills it drills, each a link to a focused drill."""
    rows: list[dict[str, Any]] = []
    menu = reverse("drill-menu")

    def practise_url(kind: str, title: str, query: str = "") -> str:
        """A set of ten drills with the frame and a summary (the menu's main way to drill)."""
        practice_set = drill_sessions.PracticeSet(
            title=title,
            back_url=menu,
            back_label=gettext("Back to the drills"),
            kind=kind,
            query=query,
            back_title=gettext("Drills"),
        )
        return reverse("drill-practise", args=[drill_sessions.practice_sign(practice_set)])

    for kind in KINDS:
        level = spec_for(kind).level
        rows.append(
            {
                "kind": kind,
                "title": KIND_TITLES[kind],
                "description": KIND_DESCRIPTIONS[kind],
                "level": LEVEL_NAMES[level],
                "level_title": LEVEL_TITLES[level],
                "number": len(rows) + 1,
                "url": next_drill_url(kind),
                "set_url": practise_url(kind, say(KIND_TITLES[kind])),
                "skills": [
                    {
                        "skill": s,
                        "title": skill_title(kind, s),
                        "url": next_drill_url(kind, urlencode({"items": s})),
                        "set_url": practise_url(
                            kind,
                            gettext("%(kind)s: %(skill)s")
                            % {"kind": say(KIND_TITLES[kind]), "skill": say(skill_title(kind, s))},
                            urlencode({"items": s}),
                        ),
                    }
                    for s in skills_for(kind)
                ],
            }
        )
    due = selectors.due_skills(user=request.user).count() if request.user.is_authenticated else 0
    return render(
        request,
        "trainer/drill_menu.html",
        {
            "kinds": rows,
            "due": due,
            "conventions": CONVENTIONS.values(),
            "rules": SCORING_RULES,
            "items": [(i, term("item", i)) for i in ITEMS],
            "sizes": range(MIN_HAND_SIZE, MAX_HAND_SIZE + 1),
            "defaults": preferences.drill_defaults(request),
        },
    )


@vary_on_headers("HX-Request")
@require_http_methods(["GET"])
def drill_custom(request: HttpRequest) -> HttpResponse:
    """The menu's "build your own drill" form: check the settings, then go to that drill kind."""
    kind = request.GET.get("kind", "")
    if not kind:  # the address without the form's settings: the form itself
        return redirect(reverse("drill-menu") + "#custom-title")
    query = {k: v for k, v in request.GET.dict().items() if k not in ("kind", "items") and v}
    query["items"] = ",".join(request.GET.getlist("items"))
    try:
        if kind not in KINDS:
            raise BadDrillRequest(
                gettext("There is no drill kind called “%(kind)s”.") % {"kind": kind}
            )
        params = DrillParams.from_query(query, preferences.drill_defaults(request))
        _drill(_address(kind, 0, params))  # refuse settings no drill of this kind can meet
    except ConcertoError as exc:
        return _bad_request(
            request,
            gettext("These drill settings cannot be used: %(reason)s.") % {"reason": reason(exc)},
        )
    except BadDrillRequest as exc:
        return _bad_request(request, str(exc))
    return redirect(next_drill_url(kind, params))


@vary_on_headers("HX-Request")
@require_http_methods(["GET"])
def drill_next(request: HttpRequest, kind: str) -> HttpResponse:
    """A fresh drill of ``kind`` with the settings in the query string."""
    try:
        drill = _drill(_address(kind, secrets.randbelow(SEED_RANGE), _fresh_params(request)))
    except BadDrillRequest as exc:
        return _bad_request(request, str(exc))
    return _render(request, _context(request, drill))


@vary_on_headers("HX-Request")
@require_http_methods(["GET", "POST"])
def drill_detail(request: HttpRequest, kind: str, seed: int) -> HttpResponse:
    """One drill by its address; a POST answers it."""
    try:
        drill = _drill(_page_address(request, kind, seed))
    except BadDrillRequest as exc:
        return _refused(request, exc)
    if request.method == "GET":
        return _render(request, _context(request, drill))
    try:
        return _answer(request, drill)
    except BadDrillRequest as exc:
        return _bad_request(request, str(exc), drill)


def _answer(request: HttpRequest, drill: Drill) -> HttpResponse:
    form = AnswerForm(request.POST, drill=drill)
    if not form.is_valid():
        raise BadDrillRequest(form.first_error())
    if form.answer is None:  # a lead's first card: show it, and ask for the second
        return _render(
            request, _context(request, drill, first=form.first, showing=form.raw_showing)
        )
    showing = form.cleaned_data["showing"]
    try:
        if request.user.is_authenticated:
            recorded = services.attempt_record(
                user=request.user, drill=drill, answer=form.answer, showing=showing
            )
        else:  # a visitor's answer waits in their session until they sign up or log in
            recorded = services.visitor_answer_keep(
                request.session, drill=drill, answer=form.answer, showing=showing
            )
    except ConcertoError as exc:
        raise BadDrillRequest(sentence(exc)) from exc
    answer = recorded.answer
    resubmitted = ""
    if not recorded.created and answer != form.answer:
        # The first answer to a showing is the one kept: show that one and its grade.
        resubmitted = gettext(
            "You had already answered this drill; your first answer is the one "
            "that counts, and it is shown here."
        )
    ctx = _context(
        request,
        drill,
        grade=recorded.grade,
        answer=answer,
        showing=form.raw_showing,
        odds=odds_for_drill(drill),
        recorded=recorded.attempt,
        resubmitted=resubmitted,
        given_key=str(answer),
        first=answer.play[0] if answer.play else None,
        second=answer.play[1] if answer.play else None,
    )
    return _render(request, ctx)


# --------------------------------------------------------------------------------------------
# Practice sets: a lesson's "practise this" drills, played as a session


def _practice_set(request: HttpRequest, token: str) -> drill_sessions.PracticeSet:
    found = drill_sessions.practice_load(token)
    if found is None or found.kind not in KINDS:
        raise BadDrillRequest(
            gettext("This practice link is damaged: go back to the lesson and open it again.")
        )
    return found


@vary_on_headers("HX-Request")
@require_http_methods(["GET"])
def practise(request: HttpRequest, token: str) -> HttpResponse:
    """A practice set: a fresh link starts it (ten new drills with the learner's settings);
    a started one shows its summary — the score, the pass mark, what was missed with links
    to replay it. A visitor, who has no answers kept, gets a fresh drill of the kind instead."""
    try:
        found = _practice_set(request, token)
    except BadDrillRequest as exc:
        return _bad_request(request, str(exc))
    if not request.user.is_authenticated:
        if found.started:
            return redirect_to_login(request.get_full_path())
        return redirect(next_drill_url(found.kind, found.query))
    if not found.started:
        try:
            params = DrillParams.from_query(found.query, preferences.drill_defaults(request))
        except ConcertoError as exc:
            return _bad_request(request, str(_unusable(exc)))
        if params.side_hand is None:  # drills near the learner's level, when that is known
            hand = ratings.fitting_side_hand(
                request.user,
                found.kind,
                list(params.items) or list(skills_for(found.kind)),
                params.convention,
            )
            params = replace(params, side_hand=hand) if hand else params
        started = found.start(
            first_seed=secrets.randbelow(SEED_RANGE - found.size), key=params.key()
        )
        return redirect_page(request, practice.next_url(started))
    if wants_partial(request):  # the drill page's *Next*: load the summary as a whole page
        return redirect_page(request, request.get_full_path())
    work = practice.practice_work(user=request.user, practice=found)
    fresh = drill_sessions.PracticeSet(
        title=found.title,
        back_url=found.back_url,
        back_label=found.back_label,
        kind=found.kind,
        query=found.query,
        size=found.size,
        back_title=found.back_title,
    )
    return render(
        request,
        "trainer/practise_summary.html",
        {
            "work": work,
            "practice": found,
            "kind_title": KIND_TITLES[found.kind],
            "continue_url": practice.next_url(found),
            "again_url": practice.summary_url(fresh),
            "missed_rows": [
                {
                    "label": gettext("Drill %(number)s: %(skill)s")
                    % {"number": d.number, "skill": say(skill_title(found.kind, d.skill))},
                    "url": practice.drill_in_set(found, d, replay=True),
                    "words": (
                        (
                            gettext("you answered %(answer)s; right when played again")
                            if d.latest_right
                            else gettext("you answered %(answer)s; not right yet")
                        )
                        % {"answer": say(answer_words(found.kind, d.first_answer))}
                    ),
                }
                for d in work.missed
            ],
        },
    )


@vary_on_headers("HX-Request")
@require_http_methods(["GET"])
def practise_next(request: HttpRequest, token: str) -> HttpResponse:
    """Go on with a practice set: its next unanswered drill after ``?after=<number>``; when
    every drill is answered, the set's summary."""
    try:
        found = _practice_set(request, token)
    except BadDrillRequest as exc:
        return _bad_request(request, str(exc))
    if not request.user.is_authenticated or not found.started:
        return redirect_page(request, practice.summary_url(found))
    try:
        after = max(0, int(request.GET.get("after", "0")))
    except ValueError:
        after = 0
    return drill_sessions.go_on(request, practice.PracticeSession(request.user, found), after)
