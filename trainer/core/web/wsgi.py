"""The site's WSGI application: Django's handler, with a request that survives any ``charset``.

Django reads the query string in the character set a request's ``Content-Type`` names while it
builds the request, before any middleware runs. A codec that is no text encoding (``hex``,
``rot13``, ``zlib``: Python knows them, so Django takes them) then raises ``LookupError``
there, one that decodes nothing (``undefined``) ``UnicodeError``, and the server answers a bare
500. :class:`Request` reads such a request as UTF-8 instead, and
:class:`trainer.core.web.middleware.BadInputMiddleware` refuses it with a 400 naming the problem,
as it does any character set but UTF-8.
"""

from __future__ import annotations

from typing import Any

import django
from django.core.handlers.wsgi import WSGIHandler, WSGIRequest


class Request(WSGIRequest):
    def _set_content_type_params(self, meta: dict[str, Any]) -> None:
        try:
            # Django's private hook (HttpRequest builds the encoding there): not in the stubs.
            super()._set_content_type_params(meta)  # type: ignore[misc]
        except (LookupError, UnicodeError):
            # The content type and its parameters are set; the encoding is what failed.
            self._encoding = None
            self.__dict__.pop("GET", None)


class Handler(WSGIHandler):
    request_class = Request


def get_application() -> Handler:
    """Like :func:`django.core.wsgi.get_wsgi_application`, with :class:`Handler`."""
    django.setup(set_prefix=False)
    return Handler()
