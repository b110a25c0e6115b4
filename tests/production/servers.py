"""The production shape, for real: app servers started as ``make serve`` starts them
(``deploy/serve.sh``: migrations, static files, gunicorn with the uvicorn workers) on
PostgreSQL, with Redis for the cache and the channel layer.

Each server is ``deploy/serve.sh`` in a process group of its own on a free port, with the
test run's database (a PostgreSQL test database, committed rows only), ``SECRET_KEY`` (so the
sessions made here sign in there) and Redis. :meth:`Server.kill` is a machine lost (SIGKILL
to the whole group: no worker runs a line of cleanup); :meth:`Server.stop` a clean stop.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
from pathlib import Path

from tests.browser.asgi_servers import (
    ROOT,
    free_port,
    launch,
    server_env,
    stop_group,
    wait_healthy,
)


class Server:
    """``deploy/serve.sh`` (gunicorn, ``workers`` uvicorn workers) on a free loopback port."""

    def __init__(
        self, database_url: str, redis_url: str, folder: Path, *, name: str, workers: int = 2
    ) -> None:
        self.name = name
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = folder / f"serve-{name}.log"
        redis = redis_url.rsplit("/", 1)[0]
        self.env = server_env(
            database_url,
            DEBUG="0",
            DJANGO_ENV="production",
            ALLOWED_HOSTS="127.0.0.1",
            SECURE_SSL_REDIRECT="0",
            BIND=f"127.0.0.1:{self.port}",
            WEB_CONCURRENCY=str(workers),
            STATIC_ROOT=str(folder / f"static-{name}"),
            CACHE_URL=f"{redis}/0",
            CHANNEL_LAYER_URL=f"{redis}/1",
            ACCESS_LOG="/dev/null",
            LOG_LEVEL="INFO",
            # Presence that lapses in seconds, not a minute: a killed server's sockets stop
            # counting within the test's patience.
            LIVE_HEARTBEAT_SECONDS="2",
            LIVE_PRESENCE_EXPIRY_SECONDS="6",
            # (libpq names the server's connections: PostgreSQL counts them apart)
            PGAPPNAME=f"concerto-{name}",
        )
        self.env.pop("TASK_BROKER_URL", None)
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 180.0) -> Server:
        self.process = launch([str(ROOT / "deploy" / "serve.sh")], self.env, self.log_path)
        wait_healthy(self.url, self.process, timeout, self.stop, self.log, "serve.sh")
        return self

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def worker_pids(self) -> set[int]:
        """The uvicorn worker processes (those that log with a process number)."""
        return {int(p) for p in re.findall(r"\(process (\d+)\)", self.log())}

    def kill(self) -> None:
        """The machine is lost: every process of the server dies at once."""
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        stop_group(self.process, timeout=30)
