"""Middleware that keeps bad input and database outages from becoming 500s.

- :class:`BadInputMiddleware` answers 400 to a request whose path, query string, form values or
  cookies hold a NUL byte (PostgreSQL cannot store or compare one) or a value longer than
  ``MAX_INPUT_VALUE_LENGTH``, whose ``Content-Type`` names a ``charset`` other than UTF-8, or
  whose form cannot be parsed, before any view, session or database sees it.
- :class:`DatabaseUnavailableMiddleware` turns a database that cannot be reached
  (``OperationalError``/``InterfaceError`` from a view) into a styled 503 page rendered without
  the database or the session. It sits outside the session middleware, and a response with a
  5xx status is never saved to the session. ``trainer.core.web.errors.server_error``
  (``handler500``) does the same for errors raised outside the view (another middleware) or
  after it, while a template response renders. An outage is logged once per process, and its
  end once (:mod:`trainer.core.infra.outage`): while the database is down, a query that succeeds
  tells the middleware it is back.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import unquote_to_bytes

from django.conf import settings
from django.core.exceptions import BadRequest
from django.db import InterfaceError, OperationalError, connection
from django.http import HttpRequest, HttpResponse
from django.http.multipartparser import MultiPartParserError
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext, gettext_lazy

from trainer.core.infra import outage

DATABASE_ERRORS = (OperationalError, InterfaceError)
_FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def _max_length() -> int:
    return int(getattr(settings, "MAX_INPUT_VALUE_LENGTH", 4096))


def bad_request(reason: str) -> HttpResponse:
    """A 400 page saying what was wrong, rendered without request context (no DB, no session)."""
    return HttpResponse(render_to_string("400.html", {"reason": reason}), status=400)


def unavailable() -> HttpResponse:
    """The 503 page shown while the database cannot be reached."""
    response = HttpResponse(render_to_string("503.html"), status=503)
    response["Retry-After"] = "30"
    response["Cache-Control"] = "no-store"
    return response


#: Whole sentences per place (a translation may word each differently).
_NUL = {
    "query string": gettext_lazy(
        "The query string contains a NUL character, which this site does not accept."
    ),
    "form": gettext_lazy("The form contains a NUL character, which this site does not accept."),
}
_TOO_LONG = {
    "query string": gettext_lazy(
        "A value in the query string is too long (more than %(limit)s characters)."
    ),
    "form": gettext_lazy("A value in the form is too long (more than %(limit)s characters)."),
}


def _problem(values: Iterable[str], where: str, limit: int) -> str | None:
    for value in values:
        if "\x00" in value:
            return str(_NUL[where])
        if len(value) > limit:
            return str(_TOO_LONG[where]) % {"limit": limit}
    return None


#: The character sets a request may name: forms and query strings are read as UTF-8.
_READABLE_CHARSETS = {"utf-8", "ascii"}


def _charset_problem(request: HttpRequest) -> str | None:
    """Why the ``charset`` the request's ``Content-Type`` names cannot be used, or None.

    Forms and query strings are read as UTF-8 (ASCII is a part of it). Django refuses a
    url-encoded form in any other character set it knows (``BadRequest``), ignores one it does
    not know, and reads the query string and multipart fields in a known one, even a codec that
    is no text encoding (``hex``, ``rot13``: a ``LookupError`` wherever the request is read).
    Any charset but UTF-8 is refused here instead, with one reason, whatever the method."""
    charset = (request.content_params or {}).get("charset")
    if charset is None:
        return None
    try:
        name = codecs.lookup(charset).name
    except LookupError:
        name = None
    if name not in _READABLE_CHARSETS:
        return gettext("The form is in a character set this site does not read: send it as UTF-8.")
    if request.encoding != "utf-8":
        # ``utf8``, ``UTF-8``, ``us-ascii``: read as UTF-8 (Django refuses a url-encoded form
        # whose charset is not spelled exactly ``utf-8``).
        request.encoding = "utf-8"
    return None


def input_problem(request: HttpRequest) -> str | None:
    """Why ``request`` is refused, or None when its path, query and form values are fine."""
    problem = _charset_problem(request)
    if problem:
        return problem
    limit = _max_length()
    path_bytes = unquote_to_bytes(request.META.get("PATH_INFO", ""))
    if b"\x00" in path_bytes or "\x00" in request.path:
        return gettext("The address contains a NUL character, which this site does not accept.")
    if len(request.path) > limit:
        return gettext("The address is too long (more than %(limit)s characters).") % {
            "limit": limit
        }
    raw_query = request.META.get("QUERY_STRING", "")
    if b"\x00" in unquote_to_bytes(raw_query.replace("+", " ")):
        return str(_NUL["query string"])
    if any("\x00" in value for value in request.COOKIES.values()):
        return gettext("A cookie contains a NUL character, which this site does not accept.")
    query_values = [v for _k, values in request.GET.lists() for v in values]
    problem = _problem([*request.GET.keys(), *query_values], "query string", limit)
    if problem:
        return problem
    if request.method == "POST" and request.content_type in _FORM_TYPES:
        form_values = [v for _k, values in request.POST.lists() for v in values]
        return _problem([*request.POST.keys(), *form_values], "form", limit)
    return None


class BadInputMiddleware:
    """400 for NUL bytes and over-long values in the path, the query string or a form."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # Before the session and LocaleMiddleware: the page is in the language of the
        # visitor's cookie or browser (a saved choice needs the database, not asked here).
        with translation.override(translation.get_language_from_request(request)):
            try:
                problem = input_problem(request)
            except (BadRequest, MultiPartParserError, UnicodeError, LookupError, ValueError):
                problem = gettext("The form could not be read.")
            if problem:
                return bad_request(problem)
        return self.get_response(request)


class DatabaseUnavailableMiddleware:
    """A styled 503 (not a bare 500) when a view cannot reach the database."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not outage.database.is_down:
            return self.get_response(request)
        # While it is down, each query that succeeds says the database may be back.
        with connection.execute_wrapper(_note_answer):
            return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, DATABASE_ERRORS):
            return None
        outage.database.failed(exception, f"{request.method} {request.path}")
        return unavailable()


def _note_answer(
    execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]
) -> Any:
    result = execute(sql, params, many, context)
    outage.database.answered()
    return result
