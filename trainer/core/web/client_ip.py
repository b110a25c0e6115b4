"""The client's address, from ``REMOTE_ADDR`` and the proxies the site is told to trust.

Each trusted reverse proxy appends the address it received the request from to
``X-Forwarded-For``. Behind ``TRUSTED_PROXY_COUNT`` such proxies the client is therefore the
``TRUSTED_PROXY_COUNT``-th address from the right: anything further left was written by the
client and can be anything. With 0 (the default) the header is ignored and ``REMOTE_ADDR`` is the
client. Used by the join rate limit and, through ``AXES_CLIENT_IP_CALLABLE``, by the login
throttle.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def _valid(address: str) -> str:
    try:
        return str(ipaddress.ip_address(address.strip()))
    except ValueError:
        return ""


def client_ip(request: HttpRequest) -> str:
    """The address of the client that made ``request`` ("" when it cannot be told)."""
    remote = _valid(request.META.get("REMOTE_ADDR", ""))
    count = int(getattr(settings, "TRUSTED_PROXY_COUNT", 0))
    if count <= 0:
        return remote
    forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    forwarded = [a for a in forwarded if a]
    if len(forwarded) < count:
        # Fewer hops than configured: the request did not come through every proxy (or the
        # setting is wrong). The leftmost address is the best guess that a client cannot forge
        # past the proxies that did add theirs.
        return _valid(forwarded[0]) if forwarded else remote
    return _valid(forwarded[-count]) or remote
