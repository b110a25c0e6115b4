"""Pages of the core: the health check for load balancers, ``/favicon.ico``."""

import logging
import uuid

from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.templatetags.static import static

logger = logging.getLogger("trainer.outage")


def _database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except Exception as exc:  # any failure means "down"; the cause is logged, briefly
        logger.warning("healthz: the database is unavailable: %s", exc)
        return False


def _cache_ok() -> bool:
    key = f"healthz:{uuid.uuid4().hex}"
    try:
        cache.set(key, "ok", timeout=10)
        ok = cache.get(key) == "ok"
        cache.delete(key)
        return ok
    except Exception as exc:  # any failure means "down"; the cause is logged, briefly
        logger.warning("healthz: the cache is unavailable: %s", exc)
        return False


def healthz(request: HttpRequest) -> HttpResponse:
    """For load balancers: 200 ``ok`` when the database and the cache answer, else 503 naming
    what is down. Touches neither session nor template."""
    down = [name for name, ok in (("database", _database_ok()), ("cache", _cache_ok())) if not ok]
    if down:
        return HttpResponse(
            "unavailable: " + ", ".join(down) + "\n", status=503, content_type="text/plain"
        )
    return HttpResponse("ok", content_type="text/plain")


def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers and crawlers ask for ``/favicon.ico`` whatever the page says: send them to the
    SVG icon the pages name."""
    return HttpResponsePermanentRedirect(static("trainer/icons/icon.svg"))
