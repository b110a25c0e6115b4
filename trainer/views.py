from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def home(request: HttpRequest) -> HttpResponse:
    """The landing page: what the site is and where to start."""
    return render(request, "trainer/home.html")


def healthz(request: HttpRequest) -> HttpResponse:
    """A trivial page for load balancers and for the web benchmark's baseline."""
    return HttpResponse("ok", content_type="text/plain")
