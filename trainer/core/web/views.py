"""Pages of the core: the health check for load balancers, ``/favicon.ico``, and the page a
form refused for its CSRF token shows (``CSRF_FAILURE_VIEW``)."""

import uuid

from django.core.cache import cache
from django.db import connection
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseForbidden,
    HttpResponsePermanentRedirect,
)
from django.template.loader import render_to_string
from django.templatetags.static import static

from trainer.core.infra import outage


def _database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            ok: bool = cursor.fetchone() == (1,)
    except Exception as exc:  # any failure means "down"; logged once per outage
        outage.database.failed(exc, "healthz")
        return False
    if ok:
        outage.database.answered()
    return ok


def _cache_ok() -> bool:
    if not outage.cache.usable():  # failed moments ago: asked again after a pause
        return False
    key = f"healthz:{uuid.uuid4().hex}"
    try:
        cache.set(key, "ok", timeout=10)
        ok: bool = cache.get(key) == "ok"
        cache.delete(key)
    except Exception as exc:  # any failure means "down"; logged once per outage
        outage.cache_failed(exc, "healthz")
        return False
    if ok:
        outage.cache.answered()
    return ok


def healthz(request: HttpRequest) -> HttpResponse:
    """For load balancers: ``200 ok`` when the database and the cache answer; ``200`` saying
    ``cache: down`` when only the cache is down (the site works without it: keep the server);
    ``503`` when the database is down. Touches neither session nor template."""
    database_ok, cache_ok = _database_ok(), _cache_ok()
    if database_ok and cache_ok:
        return HttpResponse("ok", content_type="text/plain")
    report = "".join(
        f"{name}: {'ok' if ok else 'down'}\n"
        for name, ok in (("database", database_ok), ("cache", cache_ok))
    )
    if not database_ok:
        return HttpResponse("unavailable\n" + report, status=503, content_type="text/plain")
    return HttpResponse("degraded\n" + report, content_type="text/plain")


def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers and crawlers ask for ``/favicon.ico`` whatever the page says: send them to the
    SVG icon the pages name."""
    return HttpResponsePermanentRedirect(static("trainer/icons/icon.svg"))


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form sent without its CSRF token, or with a stale one (an old tab, cookies off): the
    site's own 403 page, in the page's language, saying to reload the form and send it again
    (Django's bare English page otherwise). The technical ``reason`` is not shown."""
    html = render_to_string("403.html", {"csrf_failure": True}, request=request)
    return HttpResponseForbidden(html)
