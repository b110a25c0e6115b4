"""htmx requests, read once: django-htmx sets ``request.htmx``; this says what it asks for."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django_htmx.http import HttpResponseClientRedirect


def wants_partial(request: HttpRequest) -> bool:
    """Whether htmx asked for a piece of the page. Restoring history after htmx's cache missed
    asks for the whole page (a bare partial would be all the browser shows), and so does any
    request without htmx."""
    htmx = getattr(request, "htmx", None)
    if not htmx:
        return False
    return not htmx.history_restore_request


def redirect_page(request: HttpRequest, url: str) -> HttpResponse:
    """Go to ``url`` as a whole page: from htmx (a boosted link, the drill page's *Next*
    button) with ``HX-Redirect``, so the page is not swapped into a part of the current one;
    otherwise an ordinary redirect. Views that use it vary on ``HX-Request``."""
    if getattr(request, "htmx", None):
        return HttpResponseClientRedirect(url, status=204)
    return redirect(url)
