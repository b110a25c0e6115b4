"""The cache down (security audit, "Never a 500"): with ``CACHE_URL`` at a Redis that does not
answer, every signed-in request was a 500 (Django's ``cached_db`` sessions call ``cache.set``).
Sessions, pages and answers now work from the database, the join limit fails open, the login
throttle (django-axes, in the database) still counts, ``/healthz`` says ``cache: down`` with a
200, the outage is logged once, and Redis coming back needs no restart (docs/operations.md).

The settings are the project's own for the ``CACHE_URL`` given (``concerto_site/settings.py``
run afresh), so the test checks what a deployment gets. Redis "down" is a closed port
(``redis://127.0.0.1:1/0``); the recovery test runs Debian's ``redis-server`` when it is there.
"""

from __future__ import annotations

import logging
import re
import runpy
import shutil
import socket
import subprocess
import time

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.test import Client

from engine.drills import DrillParams, make_drill
from tests.asyncrun import run_async
from tests.trainer import factories as f
from tests.trainer.classes import factories as cf
from trainer.classes.models import ClassMembership
from trainer.core.infra import outage
from trainer.progress.models import Attempt, ReviewGoal

pytestmark = pytest.mark.django_db

CLOSED_PORT = "redis://127.0.0.1:1/0"
PASSWORD = "pass-word-123"
SESSION_PREFIX = "django.contrib.sessions.cached_db"


def project_settings(monkeypatch, **env: str) -> dict:
    """``concerto_site/settings.py`` run with these environment variables."""
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(django_settings.BASE_DIR / "concerto_site" / "settings.py"))


@pytest.fixture
def cache_at(monkeypatch, settings):
    """Point the cache (and so the session engine) at ``url`` as the settings would."""

    def use(url: str) -> None:
        made = project_settings(monkeypatch, CACHE_URL=url)
        settings.CACHES = made["CACHES"]
        settings.SESSION_ENGINE = made["SESSION_ENGINE"]

    return use


@pytest.fixture
def redis_down(cache_at):
    cache_at(CLOSED_PORT)


@pytest.fixture
def lenient():
    return Client(raise_request_exception=False)


def _showing(page_text: str) -> str:
    return re.search(r'name="showing" value="([^"]+)"', page_text)[1]


def _warnings(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.WARNING]


# --- the settings ----------------------------------------------------------------------------


def test_with_redis_sessions_use_the_store_that_survives_an_outage(monkeypatch):
    made = project_settings(monkeypatch, CACHE_URL="redis://cache:6379/0", CACHE_TIMEOUT="0.5")

    assert made["SESSION_ENGINE"] == "trainer.core.infra.cached_sessions"
    assert made["CACHES"]["default"]["OPTIONS"] == {
        "socket_connect_timeout": 0.5,
        "socket_timeout": 0.5,
    }
    assert django_settings.AXES_HANDLER == "axes.handlers.database.AxesDatabaseHandler"


# --- Redis down: everything works from the database --------------------------------------------


def test_signed_in_pages_answers_and_settings_work_while_redis_is_down(redis_down, lenient):
    me = f.user()
    lenient.force_login(me)

    pages = {
        url: lenient.get(url).status_code
        for url in ("/", "/progress/", "/drills/", "/settings/", "/learn/")
    }
    page = lenient.get("/drills/checklist/5/?v=2")
    drill = make_drill("checklist", 5, DrillParams())
    answered = lenient.post(
        "/drills/checklist/5/?v=2",
        {"showing": _showing(page.text), "option": f.right_option(drill)},
    )
    goal = lenient.post("/settings/goal/", {"per_day": "12"}, follow=True)

    assert set(pages.values()) == {200}, pages
    assert answered.status_code == 200 and "Right." in answered.text
    assert Attempt.objects.filter(user=me, correct=True).count() == 1
    assert goal.status_code == 200
    assert (
        "Your daily goal is 12 answers a day." in goal.text
    )  # the message went through the session
    assert ReviewGoal.objects.get(user=me).per_day == 12


def test_sign_up_sign_out_and_sign_in_work_while_redis_is_down(redis_down, lenient):
    signup = lenient.post(
        "/accounts/signup/",
        {"username": "newbie", "password1": "a-Long-pass-9x", "password2": "a-Long-pass-9x"},
    )
    assert signup.status_code == 302
    assert "newbie" in lenient.get("/").text

    assert lenient.post("/accounts/logout/").status_code == 302
    assert lenient.get("/progress/").status_code == 302  # signed out: to the login page

    login = lenient.post("/accounts/login/", {"username": "newbie", "password": "a-Long-pass-9x"})
    assert login.status_code == 302
    assert lenient.get("/progress/").status_code == 200


def test_the_class_join_limit_fails_open_while_redis_is_down(redis_down, lenient, settings):
    settings.CLASSES_JOIN_MAX_FAILURES = 2
    room = cf.classroom()
    me = f.user()
    lenient.force_login(me)

    tries = [
        lenient.post("/classes/join/", {"code": f"WRONG{n:05d}"}).status_code for n in range(4)
    ]
    joined = lenient.post("/classes/join/", {"code": room.join_code})

    assert tries == [200] * 4  # the form's "unknown code", never the 429 page
    assert joined.status_code == 302
    assert ClassMembership.objects.filter(user=me, classroom=room).exists()


def test_the_login_throttle_still_counts_while_redis_is_down(redis_down, lenient, settings):
    """django-axes keeps its counts in the database (its default handler), not the cache."""
    f.user("ada", password=PASSWORD)

    tries = [
        lenient.post("/accounts/login/", {"username": "ada", "password": "wrong"}).status_code
        for _ in range(settings.AXES_FAILURE_LIMIT)
    ]
    locked = lenient.post("/accounts/login/", {"username": "ada", "password": PASSWORD})

    assert tries == [200] * (settings.AXES_FAILURE_LIMIT - 1) + [429]
    assert locked.status_code == 429


@pytest.mark.django_db(transaction=True)
def test_sessions_through_the_async_api_work_while_redis_is_down(redis_down):
    """``request.auser()``, ``alogin`` and the like use the store's async methods.

    Committed (``transaction=True``): where a browser test ran before in the same process,
    ``run_async`` runs the coroutine on a thread of its own, whose connection would wait on the
    test transaction's lock on the session table."""
    from importlib import import_module

    store_class = import_module(django_settings.SESSION_ENGINE).SessionStore

    async def round_trip() -> tuple:
        store = store_class()
        await store.aset("colour", "four")
        await store.asave()
        again = store_class(store.session_key)
        colour = await again.aget("colour")
        await again.acycle_key()
        await again.adelete()
        gone = await store_class(again.session_key).aget("colour")
        return colour, gone

    assert run_async(round_trip) == ("four", None)


def test_healthz_is_200_and_says_cache_down_while_redis_is_down(redis_down, lenient):
    response = lenient.get("/healthz")

    assert response.status_code == 200
    assert "cache: down" in response.text and "database: ok" in response.text


def test_a_redis_outage_is_logged_once_without_tracebacks(redis_down, lenient, caplog):
    lenient.force_login(f.user())

    with caplog.at_level(logging.INFO):
        statuses = {
            lenient.get(url).status_code
            for _ in range(5)
            for url in ("/", "/progress/", "/healthz")
        }
        lenient.post("/settings/goal/", {"per_day": "12"})

    assert statuses == {200}
    (line,) = _warnings(caplog)
    assert line.name == "trainer.outage"
    assert line.getMessage().startswith("The cache is unavailable (ConnectionError: Error 111")
    assert not any(r.exc_info for r in caplog.records)


def test_after_a_failure_redis_is_left_alone_for_a_while(redis_down, lenient, monkeypatch):
    """A Redis that hangs (no answer until a timeout) must not cost each request that timeout:
    after a failure the cache is skipped for ``retry_seconds``, then tried again."""
    import redis.connection

    connects = []
    real_connect = redis.connection.AbstractConnection.connect

    def counting(self, *args, **kwargs):
        connects.append(1)
        return real_connect(self, *args, **kwargs)

    monkeypatch.setattr(redis.connection.AbstractConnection, "connect", counting)
    lenient.force_login(f.user())
    lenient.get("/progress/")
    assert connects  # tried, failed

    connects.clear()
    for _ in range(5):
        assert lenient.get("/progress/").status_code == 200
    assert connects == []  # skipped

    monkeypatch.setattr(outage.cache, "retry_seconds", 0)
    lenient.get("/progress/")
    assert connects  # tried again


# --- what the cache missed is not read back ------------------------------------------------------


@pytest.fixture
def memory_cache(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    settings.SESSION_ENGINE = "trainer.core.infra.cached_sessions"
    caches["default"].clear()
    yield caches["default"]
    caches["default"].clear()


def _unreachable(cache, monkeypatch) -> None:
    def broken(*args, **kwargs):
        raise ConnectionError("Error 111 connecting to cache:6379. Connection refused.")

    for name in ("get", "set", "add", "delete", "delete_many", "get_many", "has_key", "touch"):
        monkeypatch.setattr(cache, name, broken)


def test_a_sign_out_the_cache_missed_is_not_undone_when_it_answers_again(memory_cache, monkeypatch):
    """A network split: this server cannot reach the cache, which still holds the session. The
    sign-out goes to the database; once the cache answers, its old copy must not sign the
    cookie back in."""
    client = Client()
    client.force_login(f.user())
    assert client.get("/progress/").status_code == 200
    cookie = client.cookies["sessionid"].value
    assert memory_cache.get(SESSION_PREFIX + cookie) is not None  # cached

    with monkeypatch.context() as split:
        _unreachable(memory_cache, split)
        assert client.post("/accounts/logout/").status_code == 302
    assert memory_cache.get(SESSION_PREFIX + cookie) is not None  # the old copy is still there

    monkeypatch.setattr(outage.cache, "retry_seconds", 0)
    old = Client()
    old.cookies["sessionid"] = cookie
    response = old.get("/progress/")

    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert memory_cache.get(SESSION_PREFIX + cookie) is None


def test_a_session_change_the_cache_missed_is_read_from_the_database(memory_cache, monkeypatch):
    client = Client()
    client.force_login(f.user())
    client.get("/progress/")

    with monkeypatch.context() as split:
        _unreachable(memory_cache, split)
        client.post("/settings/", {"four_colour": "on"})  # kept in the session

    monkeypatch.setattr(outage.cache, "retry_seconds", 0)
    assert 'class="four-colour' in client.get("/drills/").text


def test_sessions_stay_in_the_cache_a_few_minutes_at_most(memory_cache, monkeypatch):
    from trainer.core.infra import cached_sessions

    seen = []
    real_set = memory_cache.set
    monkeypatch.setattr(
        memory_cache, "set", lambda k, v, t=None: seen.append(t) or real_set(k, v, t)
    )
    client = Client()
    client.force_login(f.user())

    assert seen and max(seen) <= cached_sessions.CACHE_SECONDS


# --- a real Redis that stops and comes back ----------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RedisServer:
    def __init__(self, tmp_path, port: int) -> None:
        self.tmp_path, self.port, self.process = tmp_path, port, None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", "",
             "--appendonly", "no", "--dir", str(self.tmp_path)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.1).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None


@pytest.fixture
def real_redis(tmp_path, cache_at):
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    server = RedisServer(tmp_path, _free_port())
    server.start()
    cache_at(server.url)
    yield server
    server.stop()


def test_redis_stopping_and_coming_back_needs_no_restart(real_redis, lenient, monkeypatch, caplog):
    monkeypatch.setattr(outage.cache, "settle_seconds", 0)
    monkeypatch.setattr(outage.cache, "retry_seconds", 0)
    lenient.force_login(f.user())
    cookie = lenient.cookies["sessionid"].value
    assert lenient.get("/progress/").status_code == 200
    assert caches["default"].get(SESSION_PREFIX + cookie) is not None  # sessions are cached

    with caplog.at_level(logging.INFO):
        real_redis.stop()
        down = [lenient.get(url) for url in ("/progress/", "/healthz", "/")]
        goal = lenient.post("/settings/goal/", {"per_day": "9"})
        real_redis.start()  # empty: it kept nothing
        back = lenient.get("/healthz")
        page = lenient.get("/progress/")

    assert [r.status_code for r in down] == [200, 200, 200]
    assert "cache: down" in down[1].text
    assert goal.status_code == 302 and ReviewGoal.objects.get().per_day == 9
    assert back.status_code == 200 and back.text == "ok"
    assert page.status_code == 200
    assert caches["default"].get(SESSION_PREFIX + cookie) is not None  # cached again
    lines = [r.getMessage() for r in _warnings(caplog)]
    assert len(lines) == 2  # one when it fails, one when it is back (after however long)
    assert lines[0].startswith("The cache is unavailable ")
    assert re.match(r"The cache is back after \d+ s; ", lines[1])
    assert get_user_model().objects.count() == 1
