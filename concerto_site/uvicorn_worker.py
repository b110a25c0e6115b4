"""The gunicorn worker of ``make serve``: uvicorn (HTTP and the live tables' WebSockets) with
the proxy headers left to Django.

uvicorn's own proxy-header handling rewrites the client's address from ``X-Forwarded-For``
for any request from ``FORWARDED_ALLOW_IPS`` (loopback by default), before Django sees it:
with ``TRUSTED_PROXY_COUNT=0`` a client on the same machine could then choose its address
for the login throttle and the rate limits. Here the connection's address is what Django
gets, and Django alone reads the proxies' headers (``TRUSTED_PROXY_COUNT`` for the client's
address, ``SECURE_PROXY_SSL_HEADER`` for https and wss). Idle sockets are pinged every 20 s,
so proxies keep them open and a vanished client is noticed.
"""

from __future__ import annotations

from typing import Any

from uvicorn_worker import UvicornWorker as _UvicornWorker


class UvicornWorker(_UvicornWorker):  # type: ignore[misc]  # uvicorn-worker ships no types
    CONFIG_KWARGS: dict[str, Any] = {
        **_UvicornWorker.CONFIG_KWARGS,
        "proxy_headers": False,
        "ws_ping_interval": 20.0,
        "ws_ping_timeout": 20.0,
    }
