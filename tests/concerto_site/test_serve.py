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
    finally:
        server.terminate()
        server.wait(timeout=30)
