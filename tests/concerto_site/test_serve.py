"""`make serve` / deploy/serve.sh: a production-like start (migrations, static files, gunicorn
with whitenoise) that answers /healthz and serves hashed static files with the site's headers."""

import os
import re
import socket
import subprocess
import time
import urllib.error
import urllib.request

from tests.concerto_site.test_settings import ROOT, production_env


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> tuple[int, dict[str, str], str]:
    """Status, headers (names in their usual capitals: uvicorn sends them in lower case) and
    body."""
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            status, raw, body = response.status, response.headers, response.read().decode()
    except urllib.error.HTTPError as exc:
        status, raw, body = exc.code, exc.headers, exc.read().decode()
    return status, {name.title(): value for name, value in raw.items()}, body


def _login(port: int, username: str, forwarded_for: str) -> int:
    """A wrong password for ``username``, claiming to come from ``forwarded_for``: the
    status."""
    import http.client
    import urllib.parse

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", "/accounts/login/")
    response = conn.getresponse()
    page = response.read().decode()
    cookie = next(
        v.split(";", 1)[0]
        for k, v in response.getheaders()
        if k.lower() == "set-cookie" and v.startswith("csrftoken=")
    )
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)[1]
    body = urllib.parse.urlencode(
        {"username": username, "password": "wrong", "csrfmiddlewaretoken": token}
    )
    conn.request(
        "POST",
        "/accounts/login/",
        body=body,
        headers={
            "Cookie": cookie,
            "Content-Type": "application/x-www-form-urlencoded",
            "X-Forwarded-For": forwarded_for,
        },
    )
    response = conn.getresponse()
    response.read()
    conn.close()
    return response.status


def test_serve_script_starts_gunicorn_with_static_files(tmp_path):
    port = _free_port()
    dropped = {"DEBUG", "DJANGO_ENV", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env = {
        **{k: v for k, v in os.environ.items() if k not in dropped},
        **production_env(),
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'serve.sqlite3'}",
        "STATIC_ROOT": str(tmp_path / "static"),
        "BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": "2",
        "ACCESS_LOG": "/dev/null",
    }
    server = subprocess.Popen(
        [str(ROOT / "deploy" / "serve.sh")],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.time() + 90
        while True:
            try:
                status, _, body = _get(f"http://127.0.0.1:{port}/healthz")
                break
            except OSError:
                assert server.poll() is None, server.stdout.read()
                assert time.time() < deadline, "serve.sh did not start"
                time.sleep(0.3)
        assert (status, body) == (200, "ok")

        status, headers, page = _get(f"http://127.0.0.1:{port}/accounts/login/")
        assert status == 200
        assert "default-src 'self'" in headers["Content-Security-Policy"]
        css = re.search(r'href="(/static/trainer/site\.[0-9a-f]+\.css)"', page)
        assert css, "collectstatic's hashed file names are used in production"
        status, headers, _ = _get(f"http://127.0.0.1:{port}{css[1]}")
        assert status == 200
        assert "max-age" in headers.get("Cache-Control", "")

        # With TRUSTED_PROXY_COUNT=0 (the default) X-Forwarded-For is the client's own word:
        # five wrong passwords from one connection lock that name there, whatever address
        # each request claims (the server does not rewrite the client from the header).
        for n in range(1, 7):
            status = _login(port, "nobody-here", f"10.0.0.{n}")
        assert status == 429, "X-Forwarded-For must not choose the client's address"
    finally:
        server.terminate()
        server.wait(timeout=30)


def _gunicorn_conf(**env: str) -> dict:
    import runpy

    old = {k: os.environ.get(k) for k in ("MAX_REQUESTS", "GUNICORN_WORKER_CLASS", *env)}
    for k in old:
        os.environ.pop(k, None)
    os.environ.update(env)
    try:
        return runpy.run_path(str(ROOT / "deploy" / "gunicorn.conf.py"))
    finally:
        for k, v in old.items():
            os.environ.pop(k, None)
            if v is not None:
                os.environ[k] = v


def test_workers_are_not_restarted_under_open_sockets_unless_asked():
    """A worker's restart closes every live table's socket it holds: off by default."""
    conf = _gunicorn_conf()
    assert conf["max_requests"] == 0
    assert conf["worker_class"] == "concerto_site.uvicorn_worker.UvicornWorker"
    assert _gunicorn_conf(MAX_REQUESTS="5000")["max_requests"] == 5000


def test_the_asgi_worker_leaves_the_proxy_headers_to_django_and_pings_idle_sockets():
    from concerto_site.uvicorn_worker import UvicornWorker

    assert UvicornWorker.CONFIG_KWARGS["proxy_headers"] is False
    assert UvicornWorker.CONFIG_KWARGS["ws_ping_interval"] <= 30
