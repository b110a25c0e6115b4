"""Addresses built in one place: a drill's URL, and the safe ``next`` target of a form.

A drill lives in its URL, ``/drills/<kind>/<seed>/?convention=…&items=…`` (the drills app
serves it under the URL names ``drill-next`` and ``drill-detail``)::

    drill_url(DrillAddress("read", 7, DrillParams(items=("fours",))))
    # '/drills/read/7/?items=fours&v=2'
    next_drill_url("read", params)  # the next drill of that kind
"""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode

from django.http import HttpRequest
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme

from engine.drills import DrillAddress, DrillParams


def drill_url(address: DrillAddress, **extra: str) -> str:
    """The page of the drill at ``address`` (an attempt's, an assignment's, a set's), with
    ``extra`` query values (``next``, or the convention and rule spelled out)."""
    return reverse("drill-detail", args=[address.kind, address.seed]) + _query(
        address.params, extra
    )


def next_drill_url(kind: str, params: DrillParams | str | None = None, **extra: str) -> str:
    """The page that deals "the next drill of this kind" with ``params`` (a
    :class:`DrillParams`, or query text as a menu link writes it)."""
    return reverse("drill-next", args=[kind]) + _query(params, extra)


def _query(params: DrillParams | str | None, extra: dict[str, str]) -> str:
    """``?…``: the params' values then ``extra``'s (a value the text already names is kept)."""
    if isinstance(params, DrillParams):
        query = urlencode({**params.to_query(), **extra})
    else:
        stored = params or ""
        present = dict(parse_qsl(stored))
        added = urlencode({k: v for k, v in extra.items() if k not in present})
        query = "&".join(part for part in (stored, added) if part)
    return "?" + query if query else ""


def safe_next(request: HttpRequest, target: str, default: str = "", *, local: bool = False) -> str:
    """``target`` (a ``next`` value from the request) if it points at this site, else
    ``default``. ``local``: only a path on this site (``/…``), never a full URL.

    Only a path (``/…``) or a full ``http(s)`` URL of this host is kept: a bare word (``foo``,
    ``-5``) is neither, and ``redirect()`` would take it for a view's name and fail."""
    if not target or not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return default
    if not target.startswith("/") and (local or not target.startswith(("http://", "https://"))):
        return default
    return target
