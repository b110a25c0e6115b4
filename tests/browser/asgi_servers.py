"""ASGI servers in processes of their own, serving the test database: the live tables' tests.

pytest-django's ``live_server`` is a WSGI server in a thread and has no WebSockets. These
tests start uvicorn (``concerto_site.asgi:application``, HTTP and the live tables' sockets) in
subprocesses instead, as production runs it. Another process cannot open SQLite's in-memory
test database, so :func:`served_database` copies it to a file (``VACUUM INTO``) and points this
process's connection at that file too for the test's length: the test's ORM calls and the
servers then read and write one database. A PostgreSQL (or file) test database is served as it
is. Either way the test needs ``transactional_db``: the servers see only committed rows.

    with served_database(tmp_path) as url, AsgiServer(url, tmp_path) as server:
        server.url  # http://127.0.0.1:<port>
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _url_of(settings_dict: dict) -> str:
    engine = settings_dict["ENGINE"]
    if engine.endswith("sqlite3"):
        return f"sqlite:///{settings_dict['NAME']}"
    if "postgresql" in engine:
        quote = urllib.parse.quote
        user = quote(settings_dict.get("USER") or "")
        password = quote(settings_dict.get("PASSWORD") or "")
        auth = f"{user}:{password}@" if user else ""
        host = settings_dict.get("HOST") or "localhost"
        port = f":{settings_dict['PORT']}" if settings_dict.get("PORT") else ""
        return f"postgres://{auth}{host}{port}/{quote(settings_dict['NAME'])}"
    raise NotImplementedError(f"no URL for a test database on {engine}")


@contextlib.contextmanager
def served_database(folder: Path) -> Iterator[str]:
    """The test database as a ``DATABASE_URL`` other processes can open (see the module)."""
    from django.db import connections

    connection = connections["default"]
    if connection.vendor != "sqlite" or not connection.is_in_memory_db():
        yield _url_of(connection.settings_dict)
        return
    path = folder / "served.sqlite3"
    path.unlink(missing_ok=True)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM INTO %s", [str(path)])
    # Not closed: the in-memory database lives while a connection to it is open.
    in_memory, name = connection.connection, connection.settings_dict["NAME"]
    connection.connection = None
    connection.settings_dict["NAME"] = str(path)
    try:
        yield _url_of(connection.settings_dict)
    finally:
        connection.close()
        connection.settings_dict["NAME"] = name
        connection.connection = in_memory


def server_env(database_url: str, **extra: str) -> dict[str, str]:
    """The environment of a server process: this test run's database and secret key."""
    from django.conf import settings

    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "DEBUG": "1",  # static files from the app folders, no collectstatic
        "SECRET_KEY": settings.SECRET_KEY,  # sessions made here are valid there
        "PYTHONUNBUFFERED": "1",
        **extra,
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # the server runs as in production
    env.pop("DJANGO_SETTINGS_MODULE", None)
    return env


def get(url: str, *, timeout: float = 5.0) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode(errors="replace")


class AsgiServer:
    """``uvicorn concerto_site.asgi:application`` on a free loopback port, in a session of its
    own; :meth:`start` returns once ``/healthz`` answers."""

    def __init__(self, database_url: str, folder: Path, *, name: str = "asgi", **env: str) -> None:
        self.env = server_env(database_url, **env)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = folder / f"{name}-{self.port}.log"
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 60.0) -> AsgiServer:
        command = [
            sys.executable,
            "-m",
            "uvicorn",
            "concerto_site.asgi:application",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--lifespan",
            "off",
            "--log-level",
            "warning",
            "--timeout-graceful-shutdown",
            "2",
        ]
        self.process = launch(command, self.env, self.log_path)
        wait_healthy(self.url, self.process, timeout, self.stop, lambda: self.log(), "uvicorn")
        return self

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def stop(self) -> None:
        stop_group(self.process)

    def __enter__(self) -> AsgiServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def launch(command: list[str], env: dict[str, str], log_path: Path) -> subprocess.Popen:
    """``command`` in a session of its own (so that its whole group can be stopped), its
    output appended to ``log_path``."""
    with open(log_path, "ab") as log:
        return subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )


def wait_healthy(url, process, timeout, stop, log, what: str) -> None:
    """Until ``url``/healthz answers 200; a server that exits or takes longer than
    ``timeout`` seconds is stopped and fails the test with its log."""
    deadline = time.monotonic() + timeout
    while True:
        with contextlib.suppress(OSError):
            if get(url + "/healthz", timeout=2)[0] == 200:
                return
        if process.poll() is not None or time.monotonic() > deadline:
            stop()
            raise AssertionError(f"{what} did not start:\n{log()}")
        time.sleep(0.1)


def stop_group(proc: subprocess.Popen | None, timeout: float = 10.0) -> None:
    """Stop a server started in a session of its own: SIGTERM to its whole process group,
    then, after ``timeout`` seconds, SIGKILL."""
    if proc is None or proc.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=timeout)


def session_cookie(user) -> str:
    """A signed-in session for ``user`` (as ``Client.force_login`` makes it): the value of the
    ``sessionid`` cookie."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value
