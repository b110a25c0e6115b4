"""The learner's progress page and display preferences."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from engine.drills import DrillParams
from engine.scoring import SCORING_RULES
from engine.signals import CONVENTIONS
from trainer import preferences, selectors
from trainer.charts import accuracy_chart
from trainer.drill_views import drill_url


@login_required
@require_http_methods(["GET"])
def progress(request: HttpRequest) -> HttpResponse:
    """Per-skill table, weakest skills, accuracy over time and failed drills — own data only."""
    data = selectors.progress_for(user=request.user)
    defaults = preferences.drill_defaults(request)
    weakest = [
        {"row": r, "url": drill_url(r.kind, None,
                                    DrillParams.from_query({"items": r.skill}, **defaults))}
        for r in data.weakest
    ]
    failed = [
        {"attempt": a, "url": _replay_url(a.kind, a.seed, a.params)} for a in data.failed
    ]
    return render(request, "trainer/progress.html", {
        "progress": data, "weakest": weakest, "failed": failed,
        "chart": accuracy_chart(data.days) if data.days else None,
    })


def _replay_url(kind: str, seed: int, params: str) -> str:
    base = reverse("drill-detail", args=[kind, seed])
    return base + ("?" + params if params else "")


@require_http_methods(["GET", "POST"])
def settings_view(request: HttpRequest) -> HttpResponse:
    """Choose the default convention, scoring rule and a four-colour deck (kept in the session)."""
    if request.method == "POST":
        convention = request.POST.get("convention", "")
        rule = request.POST.get("rule", "")
        if convention and convention not in CONVENTIONS or rule and rule not in SCORING_RULES:
            return HttpResponseBadRequest("Unknown convention or scoring rule.")
        preferences.save(request, convention=convention or None, rule=rule or None,
                         four_colour=request.POST.get("four_colour") == "on")
        target = request.POST.get("next", "")
        if not url_has_allowed_host_and_scheme(target, {request.get_host()}):
            target = reverse("settings")
        return redirect(target)
    return render(request, "trainer/settings.html", {
        "prefs": preferences.get(request),
        "conventions": CONVENTIONS.values(),
        "rules": SCORING_RULES,
    })
