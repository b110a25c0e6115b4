"""The production-shape lane (``make test-production``, run by ``.ci/run``): two app servers
as ``make serve`` starts them, on PostgreSQL (``DATABASE_URL``), with a ``redis-server`` of
the lane's own for the cache and the channel layer. Skipped without either: the fast lane
on SQLite never runs it."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.production.servers import Server
from tests.trainer.play.test_live_servers import RedisServer

pytestmark = pytest.mark.production


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.production)
            if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
                item.add_marker(pytest.mark.skip(reason="needs DATABASE_URL=postgres://…"))
            elif shutil.which("redis-server") is None:
                item.add_marker(pytest.mark.skip(reason="needs redis-server"))


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("production")


@pytest.fixture(scope="module")
def redis(folder: Path) -> Iterator[RedisServer]:
    server = RedisServer(folder).start()
    yield server
    server.kill()


@pytest.fixture(scope="module")
def database_url(django_db_setup, django_db_blocker) -> str:
    """The test run's PostgreSQL test database, as the servers reach it."""
    from django.db import connection

    from tests.browser.asgi_servers import _url_of

    with django_db_blocker.unblock():
        assert connection.vendor == "postgresql"
        return _url_of(connection.settings_dict)


@pytest.fixture(scope="module")
def servers(database_url: str, redis: RedisServer, folder: Path) -> Iterator[list[Server]]:
    """Two app servers (A and B) on one database and one Redis, started at once."""
    made = [Server(database_url, redis.url, folder, name=name, workers=2) for name in ("a", "b")]
    try:
        for server in made:  # (started one after the other: both migrate the same database)
            server.start()
        yield made
    finally:
        for server in made:
            server.stop()
