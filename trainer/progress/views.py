"""The learner's progress page, spaced review and display preferences."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods
from django.views.decorators.vary import vary_on_headers

from engine.drills import KIND_TITLES, KINDS, DrillParams, skill_title
from engine.scoring import SCORING_RULES
from engine.signals import CONVENTIONS, DEFAULT_CONVENTION
from trainer.core import preferences
from trainer.core.game import conventions
from trainer.core.game.kinds import name_template
from trainer.core.game.rules import rule_title
from trainer.core.links import drill_url, next_drill_url, safe_next
from trainer.core.templatetags.cards import answer_words
from trainer.core.web.htmx import redirect_page, wants_partial
from trainer.core.web.http import AuthenticatedHttpRequest
from trainer.progress import selectors, services
from trainer.progress.charts import accuracy_chart
from trainer.progress.drill_sessions import ReviewSession
from trainer.progress.forms import ReviewGoalForm, SettingsForm
from trainer.progress.models import DAILY_GOAL_MAX, DAILY_GOAL_MIN
from trainer.ratings import selectors as ratings

#: Drills to replay shown on the progress page (the rest wait their turn).
FAILED_SHOWN = 6


def _skill_url(request: HttpRequest, kind: str, skill: str, side_hand: int | None = None) -> str:
    query = {"items": skill} | ({"side_hand": str(side_hand)} if side_hand else {})
    params = DrillParams.from_query(query, preferences.drill_defaults(request))
    return next_drill_url(kind, params)


@login_required
@require_http_methods(["GET"])
def progress(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Today's review goal, skills grouped by the lesson that teaches them, the weakest
    skills, accuracy over time and drills to replay — own data only."""
    data = selectors.progress_for(user=request.user)
    weakest = [{"row": r, "url": _skill_url(request, r.kind, r.skill)} for r in data.weakest]
    groups = [
        {
            "group": g,
            "rows": [{"row": r, "url": _skill_url(request, r.kind, r.skill)} for r in g.rows],
        }
        for g in data.groups
    ]
    failed = [
        {
            "attempt": a,
            "url": drill_url(a.address) if a.address else "",
            "kind_name": name_template(a.kind),  # "Lead drill" (its kind's template)
        }
        for a in data.failed[:FAILED_SHOWN]
    ]
    mine = ratings.ratings_of(request.user)
    convention = preferences.drill_defaults(request).get("convention", DEFAULT_CONVENTION.name)
    rated = []
    for kind in (k for k in KINDS if k in mine):
        level = ratings.level_of(mine[kind], convention)
        nxt = level.next
        rated.append(
            {
                "rating": mine[kind],
                "level": level,
                "title": KIND_TITLES.get(kind, kind),
                "history": ratings.history(request.user, kind),
                "next_url": _skill_url(request, kind, nxt.skill, nxt.side_hand) if nxt else "",
            }
        )
    return render(
        request,
        "trainer/progress.html",
        {
            "progress": data,
            "ratings": rated,
            "today": data.today,
            "weakest": weakest,
            "groups": groups,
            "failed": failed,
            "chart": accuracy_chart(data.days) if data.days else None,
        },
    )


@vary_on_headers("HX-Request")
@login_required
@require_http_methods(["GET"])
def review(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Today's review session: the most overdue skill until the daily goal is met (or, with
    ``?more=1``, while anything is due); then the session's summary — today's count, what was
    missed with links to replay it, and whether more is due."""
    session = ReviewSession(request, more=request.GET.get("more") == "1")
    step = session.next_drill(None)
    if not step.ended:  # the session's next drill
        return redirect(step.url)
    today = selectors.today_for(user=request.user)
    due = selectors.due_skills(user=request.user)
    first = due.first()
    if wants_partial(request):  # the drill page's *Next*: load the summary as a whole page
        return redirect_page(request, request.get_full_path())
    # The engine's words (kind, skill, answer) stay messages: the template says them in the
    # page's language (templates/trainer/_missed.html).
    missed = [
        {
            "kind": KIND_TITLES.get(a.kind, a.kind),
            "skill": skill_title(a.kind, a.skill),
            "url": drill_url(a.address, next=reverse("review")) if a.address else "",
            "answer": answer_words(a),
        }
        for a in selectors.missed_today(user=request.user)
    ]
    return render(
        request,
        "trainer/review_summary.html",
        {
            "today": today,
            "due_count": due.count(),
            "missed_rows": missed,
            "weakest": [
                {"row": r, "url": _skill_url(request, r.kind, r.skill)}
                for r in selectors.weakest_skills(selectors.skill_rows(user=request.user))
            ]
            if first is None
            else [],
        },
    )


@login_required
@require_http_methods(["POST"])
def review_goal_update(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Set the daily review goal (a number of answers a day)."""
    form = ReviewGoalForm(request.POST)
    if not form.is_valid():
        errors = form.errors.get("per_day") or [gettext("This daily goal cannot be used.")]
        return HttpResponseBadRequest(
            gettext("Daily review goal: %(error)s") % {"error": errors[0]}
        )
    # Where to go is settled before anything is written: a bad ``next`` is ignored.
    target = safe_next(request, form.cleaned_data["next"], reverse("settings"), local=True)
    services.review_goal_set(user=request.user, per_day=form.cleaned_data["per_day"])
    messages.success(
        request,
        ngettext(
            "Your daily goal is %(count)s answer a day.",
            "Your daily goal is %(count)s answers a day.",
            form.cleaned_data["per_day"],
        )
        % {"count": form.cleaned_data["per_day"]},
    )
    return redirect(target)


def _defaults_named(request: HttpRequest) -> dict[str, str]:
    """The settings' "default" choices, naming what they stand for: the club's card and rule
    when the member's club has them, else the site's."""
    house = preferences.house_rules(request)
    card, rule = house.get("convention", ""), house.get("rule", "")
    return {
        "default_convention": (
            gettext("Your club's card: %(title)s") % {"title": conventions.title(card)}
            if card and conventions.is_known(card)
            else gettext("Site default: %(title)s") % {"title": DEFAULT_CONVENTION.title}
        ),
        "default_rule": (
            gettext("Your club's scoring: %(rule)s") % {"rule": rule_title(rule)}
            if rule in SCORING_RULES
            else gettext("Site default: %(rule)s") % {"rule": rule_title("classic")}
        ),
    }


@require_http_methods(["GET", "POST"])
def settings_view(request: HttpRequest) -> HttpResponse:
    """Choose the default convention, scoring rule and a four-colour deck (kept in the session)."""
    if request.method == "POST":
        form = SettingsForm(request.POST)
        form.is_valid()  # every field is optional text: always valid
        data = form.cleaned_data
        target = safe_next(request, data["next"], reverse("settings"), local=True)
        try:
            preferences.save(
                request,
                convention=data["convention"],
                rule=data["rule"],
                four_colour=data["four_colour"],
            )
        except preferences.UnknownChoice:
            return HttpResponseBadRequest(gettext("Unknown convention or scoring rule."))
        saved = preferences.drill_defaults(request)  # what drills now use
        messages.success(
            request,
            gettext("Settings saved. Drills now use %(convention)s with %(rule)s scoring.")
            % {
                "convention": conventions.title(saved.get("convention", DEFAULT_CONVENTION.name)),
                "rule": rule_title(saved.get("rule", "classic")),
            },
        )
        return redirect(target)
    return render(
        request,
        "trainer/settings.html",
        {
            **_defaults_named(request),
            "prefs": preferences.get(request),
            "conventions": CONVENTIONS.values(),
            "rules": SCORING_RULES,
            "goal": (
                selectors.review_goal(user=request.user) if request.user.is_authenticated else None
            ),
            "goal_min": DAILY_GOAL_MIN,
            "goal_max": DAILY_GOAL_MAX,
        },
    )
