"""Which pages may open a WebSocket: the site's own origin (scheme, host and port), as the
browser names it in the handshake's ``Origin`` header.

A browser sends its page's origin with every WebSocket handshake, and sends the session cookie
whatever page opened the socket, so a socket is as open to another site's script as a form
post would be without CSRF. Channels' ``AllowedHostsOriginValidator`` compares only the host
name with ``ALLOWED_HOSTS``: ``http://127.0.0.1:1`` passed for a site on
``http://127.0.0.1:8000``. This compares the whole origin, as Django's CSRF check does for
form posts: the scheme the site is reached by (``wss`` or ``https`` behind a proxy that says
so in ``SECURE_PROXY_SSL_HEADER``), the ``Host`` the handshake was sent to (itself checked
against ``ALLOWED_HOSTS``) and its port; or one of ``CSRF_TRUSTED_ORIGINS`` (the site behind
another name). A handshake without an ``Origin`` (no browser sends none) is refused too.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

DEFAULT_PORTS = {"http": 80, "https": 443}

Origin = tuple[str, str, int]


def parse_origin(value: str) -> Origin | None:
    """``(scheme, host, port)`` of an origin (``https://example.org`` → ``("https",
    "example.org", 443)``); None when it is not one."""
    try:
        parts = urlsplit(value.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        return None
    return parts.scheme, parts.hostname.lower(), port or DEFAULT_PORTS[parts.scheme]


def _headers(scope: dict[str, Any]) -> dict[bytes, str]:
    return {name.lower(): value.decode("latin-1") for name, value in scope.get("headers", [])}


def _secure(scope: dict[str, Any], headers: dict[bytes, str]) -> bool:
    if scope.get("scheme") in ("wss", "https"):
        return True
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if not proxy:
        return False
    name, value = proxy
    header = name.removeprefix("HTTP_").replace("_", "-").lower().encode("latin-1")
    return bool(headers.get(header, "").split(",")[0].strip() == value)


def own_origin(scope: dict[str, Any]) -> Origin | None:
    """The origin of the site as this handshake reached it: its scheme and its ``Host``
    (when ``ALLOWED_HOSTS`` allows it)."""
    headers = _headers(scope)
    host = headers.get(b"host", "")
    domain, _ = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return None
    scheme = "https" if _secure(scope, headers) else "http"
    return parse_origin(f"{scheme}://{host}")


def _trusted(origin: Origin, patterns: Iterable[str]) -> bool:
    """``origin`` is one of ``CSRF_TRUSTED_ORIGINS`` (``https://*.example.org`` matches its
    subdomains, as Django's CSRF check reads it)."""
    scheme, host, port = origin
    for pattern in patterns:
        wildcard = "://*." in pattern
        trusted = parse_origin(pattern.replace("://*.", "://", 1))
        if trusted is None or trusted[0] != scheme or trusted[2] != port:
            continue
        if host == trusted[1] or (wildcard and host.endswith("." + trusted[1])):
            return True
    return False


def allowed(scope: dict[str, Any]) -> bool:
    """The handshake comes from a page of this site."""
    origin = parse_origin(_headers(scope).get(b"origin", ""))
    if origin is None:
        return False
    return origin == own_origin(scope) or _trusted(origin, settings.CSRF_TRUSTED_ORIGINS)


class SameOriginValidator:
    """ASGI middleware for WebSocket routes: refuses (403) a handshake whose ``Origin`` is not
    the site's own (see the module)."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
