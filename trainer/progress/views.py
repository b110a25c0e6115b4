"""The learner's progress page, spaced review and display preferences."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from engine.drills import DrillParams
from engine.scoring import SCORING_RULES
from engine.signals import CONVENTIONS
from trainer.core import preferences
from trainer.core.links import drill_url, safe_next
from trainer.progress import selectors
from trainer.progress.charts import accuracy_chart
from trainer.progress.forms import SettingsForm


@login_required
@require_http_methods(["GET"])
def progress(request: HttpRequest) -> HttpResponse:
    """Per-skill table, weakest skills, accuracy over time and failed drills — own data only."""
    data = selectors.progress_for(user=request.user)
    defaults = preferences.drill_defaults(request)
    weakest = [
        {
            "row": r,
            "url": drill_url(r.kind, None, DrillParams.from_query({"items": r.skill}, **defaults)),
        }
        for r in data.weakest
    ]
    failed = [{"attempt": a, "url": drill_url(a.kind, a.seed, a.params)} for a in data.failed]
    return render(
        request,
        "trainer/progress.html",
        {
            "progress": data,
            "weakest": weakest,
            "failed": failed,
            "chart": accuracy_chart(data.days) if data.days else None,
        },
    )


@login_required
@require_http_methods(["GET"])
def review(request: HttpRequest) -> HttpResponse:
    """Serve the most overdue skill; with nothing due, say so and offer the weakest skills."""
    due = selectors.due_skills(user=request.user).first()
    if due is not None:
        params = DrillParams.from_query({"items": due.skill}, **preferences.drill_defaults(request))
        return redirect(drill_url(due.kind, None, params, review="1"))
    progress = selectors.progress_for(user=request.user)
    return render(request, "trainer/review_empty.html", {"progress": progress})


@require_http_methods(["GET", "POST"])
def settings_view(request: HttpRequest) -> HttpResponse:
    """Choose the default convention, scoring rule and a four-colour deck (kept in the session)."""
    if request.method == "POST":
        form = SettingsForm(request.POST)
        form.is_valid()  # every field is optional text: always valid
        data = form.cleaned_data
        try:
            preferences.save(
                request,
                convention=data["convention"],
                rule=data["rule"],
                four_colour=data["four_colour"],
            )
        except preferences.UnknownChoice:
            return HttpResponseBadRequest("Unknown convention or scoring rule.")
        return redirect(safe_next(request, data["next"], reverse("settings")))
    return render(
        request,
        "trainer/settings.html",
        {
            "prefs": preferences.get(request),
            "conventions": CONVENTIONS.values(),
            "rules": SCORING_RULES,
        },
    )
