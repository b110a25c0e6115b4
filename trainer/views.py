from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from trainer.classes.selectors import open_assignments_for


def home(request: HttpRequest) -> HttpResponse:
    """The landing page: what the site is and where to start (and a student's open work)."""
    return render(request, "trainer/home.html", {
        "open_assignments": open_assignments_for(student=request.user),
    })


def healthz(request: HttpRequest) -> HttpResponse:
    """A trivial page for load balancers and for the web benchmark's baseline."""
    return HttpResponse("ok", content_type="text/plain")
