"""A WebSocket is opened only by the site's own pages: the whole origin (scheme, host and
port) must be the site's, not just the host name."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from tests.asyncrun import run_async
from trainer.core.web.origins import allowed, parse_origin


def _scope(origin: str | None, host: str = "127.0.0.1:8000", scheme: str = "ws", **headers):
    pairs = [(b"host", host.encode())]
    if origin is not None:
        pairs.append((b"origin", origin.encode()))
    pairs += [(k.replace("_", "-").encode(), v.encode()) for k, v in headers.items()]
    return {"type": "websocket", "scheme": scheme, "headers": pairs}


@pytest.mark.parametrize(
    ("origin", "ok"),
    [
        ("http://127.0.0.1:8000", True),
        ("http://127.0.0.1:1", False),  # another port: another site
        ("https://127.0.0.1:8000", False),  # another scheme
        ("http://127.0.0.1", False),  # port 80, not 8000
        ("http://localhost:8000", False),  # allowed host, but not the one the socket is on
        ("http://evil.example:8000", False),
        ("null", False),
        ("", False),
        (None, False),
    ],
)
def test_only_the_sites_own_origin_opens_a_socket(origin, ok):
    assert allowed(_scope(origin)) is ok


def test_default_ports_are_the_same_origin(settings):
    settings.ALLOWED_HOSTS = ["trainer.example.org"]
    assert allowed(_scope("http://trainer.example.org", host="trainer.example.org"))
    assert allowed(_scope("http://trainer.example.org:80", host="trainer.example.org"))
    assert not allowed(_scope("https://trainer.example.org", host="trainer.example.org"))


def test_behind_a_tls_proxy_the_origin_is_https_when_the_proxy_says_so(settings):
    settings.ALLOWED_HOSTS = ["trainer.example.org"]
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    proxied = {"x_forwarded_proto": "https"}
    assert allowed(_scope("https://trainer.example.org", host="trainer.example.org", **proxied))
    assert not allowed(_scope("http://trainer.example.org", host="trainer.example.org", **proxied))
    # Without the setting, the header is the client's word and counts for nothing.
    settings.SECURE_PROXY_SSL_HEADER = None
    assert not allowed(_scope("https://trainer.example.org", host="trainer.example.org", **proxied))
    assert allowed(_scope("https://trainer.example.org", host="trainer.example.org", scheme="wss"))


def test_a_host_the_site_does_not_serve_opens_nothing(settings):
    settings.ALLOWED_HOSTS = ["trainer.example.org"]
    assert not allowed(_scope("http://evil.example", host="evil.example"))


def test_the_trusted_origins_open_sockets_too(settings):
    settings.ALLOWED_HOSTS = ["app.internal"]
    settings.CSRF_TRUSTED_ORIGINS = ["https://trainer.example.org", "https://*.club.example"]
    assert allowed(_scope("https://trainer.example.org", host="app.internal"))
    assert allowed(_scope("https://north.club.example", host="app.internal"))
    assert not allowed(_scope("http://trainer.example.org", host="app.internal"))
    assert not allowed(_scope("https://trainer.example.org:8443", host="app.internal"))
    assert not allowed(_scope("https://club.example.evil", host="app.internal"))


def test_parse_origin_reads_only_origins():
    assert parse_origin("HTTPS://Example.org") == ("https", "example.org", 443)
    assert parse_origin("http://example.org:8080") == ("http", "example.org", 8080)
    for bad in ("example.org", "ftp://example.org", "http://example.org/path", "http://:80"):
        assert parse_origin(bad) is None
    assert parse_origin("http://example.org:99999") is None


@pytest.mark.django_db(transaction=True)
def test_the_site_refuses_a_seated_players_socket_from_another_port():
    """Through the whole ASGI application, with the player's own session cookie: their page
    opens the socket; a page of another port on the same host (another site) gets a 403."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from concerto_site.asgi import application
    from engine.seats import Seat
    from trainer.play import live

    ana = get_user_model().objects.create_user(username="ana")
    table = live.live_table_open(
        host=ana,
        settings={"rule": "classic", "convention": "parlett-2008", "opponents": "greedy"},
        seat=Seat.S,
        opponents_link=False,
    )
    client = Client()
    client.force_login(ana)
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()

    async def handshake(origin: str) -> bool:
        comm = WebsocketCommunicator(
            application,
            f"/ws/play/tables/{table.pk}/",
            headers=[
                (b"host", b"127.0.0.1:8000"),
                (b"origin", origin.encode()),
                (b"cookie", cookie),
            ],
        )
        connected, _ = await comm.connect(timeout=10)
        await comm.disconnect()
        return connected

    assert run_async(lambda: handshake("http://127.0.0.1:8000")) is True
    assert run_async(lambda: handshake("http://127.0.0.1:1")) is False
