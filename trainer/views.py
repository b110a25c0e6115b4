"""The site's own pages: the landing page, and old admin addresses sent to their new home."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from trainer.selectors import home_for


def home(request: HttpRequest) -> HttpResponse:
    """Visitors: what the site is and where to start. Signed-in learners: what to do next."""
    if not request.user.is_authenticated:
        return render(request, "trainer/home.html", {})
    return render(request, "trainer/home.html", {"home": home_for(user=request.user)})


#: Models that lived in the ``trainer`` app before the app split → the app that owns them now.
MOVED_MODELS = {
    "drillset": "drills",
    "drillsetentry": "drills",
    "attempt": "progress",
    "skillstate": "progress",
    "lesson": "learn",
    "club": "clubs",
    "clubmembership": "clubs",
    "classroom": "classes",
    "classmembership": "classes",
    "assignment": "classes",
    "assignmentdrill": "classes",
}


def admin_moved(request: HttpRequest, model: str, rest: str = "") -> HttpResponse:
    """``/admin/trainer/<model>/…`` (bookmarks from before the app split) → the model's admin
    pages under its new app label; anything else under ``/admin/trainer/`` is not found."""
    app = MOVED_MODELS.get(model)
    if app is None:
        raise Http404("No such admin page.")
    query = request.META.get("QUERY_STRING", "")
    return redirect(f"/admin/{app}/{model}/{rest}" + (f"?{query}" if query else ""), permanent=True)
