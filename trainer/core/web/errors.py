"""The site's 500 handler: a database that cannot be reached is a 503 (logged once per outage,
:mod:`trainer.core.infra.outage`), not a 500."""

from __future__ import annotations

import sys

from django.http import HttpRequest, HttpResponse, HttpResponseServerError
from django.template import TemplateDoesNotExist
from django.template.loader import render_to_string

from trainer.core.infra import outage
from trainer.core.web.middleware import DATABASE_ERRORS, unavailable


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: rendered without request context, so it needs no database or session."""
    error = sys.exc_info()[1]
    if isinstance(error, DATABASE_ERRORS):
        outage.database.failed(error, f"{request.method} {request.path}")
        return unavailable()
    try:
        return HttpResponseServerError(render_to_string("500.html"))
    except TemplateDoesNotExist:  # pragma: no cover - the template ships with the site
        return HttpResponseServerError("<h1>Server Error (500)</h1>")
