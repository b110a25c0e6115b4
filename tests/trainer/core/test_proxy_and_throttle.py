"""Rate limits that hold (issue 9, finding 2): the client address behind trusted proxies, a
join limit shared by every process and per real client, and a login throttle (django-axes) on
the site's login and the admin's."""

from datetime import UTC, datetime, timedelta

import pytest
from django.conf import settings as django_settings
from django.test import RequestFactory

from tests.concerto_site.test_settings import run_manage
from tests.trainer import factories as f
from trainer.classes import ratelimit
from trainer.core.web.client_ip import client_ip

PASSWORD = "pass-word-123"


@pytest.fixture(autouse=True)
def _fresh_cache(db):
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


def ip_of(settings, count, remote="10.0.0.1", forwarded=None):
    settings.TRUSTED_PROXY_COUNT = count
    extra = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return client_ip(RequestFactory().get("/", **extra))


def test_without_trusted_proxies_the_header_is_ignored(settings):
    assert ip_of(settings, 0, forwarded="1.2.3.4") == "10.0.0.1"


def test_one_trusted_proxy_gives_the_rightmost_address(settings):
    assert ip_of(settings, 1, forwarded="6.6.6.6, 203.0.113.5") == "203.0.113.5"


def test_two_trusted_proxies_give_the_second_from_the_right(settings):
    forwarded = "6.6.6.6, 203.0.113.5, 10.0.0.9"
    assert ip_of(settings, 2, forwarded=forwarded) == "203.0.113.5"


def test_a_forged_or_missing_header_falls_back_safely(settings):
    assert ip_of(settings, 1, forwarded="not-an-address") == "10.0.0.1"
    assert ip_of(settings, 1) == "10.0.0.1"


def test_join_failures_count_across_processes(tmp_path):
    """Two separate processes (as two gunicorn workers) see one count."""
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'shared.sqlite3'}"}
    # The counts live in the database cache's table: the only one these processes need.
    made = run_manage("createcachetable", env=env)
    assert made.returncode == 0, made.stderr
    fail = (
        "from trainer.classes import ratelimit as r; from django.conf import settings as s; "
        "[r.join_failed(user_id=42, ip='10.9.9.9') "
        "for _ in range(s.CLASSES_JOIN_MAX_FAILURES)]"
    )
    check = (
        "from trainer.classes import ratelimit as r; "
        "print('blocked' if r.join_blocked(user_id=42, ip='10.9.9.9') else 'open')"
    )

    first = run_manage("shell", "-c", fail, env=env)
    second = run_manage("shell", "-c", check, env=env)

    assert first.returncode == 0, first.stderr
    assert second.stdout.strip().splitlines()[-1] == "blocked", second.stdout + second.stderr


@pytest.mark.django_db
def test_a_bad_code_flood_behind_the_proxy_blocks_only_its_client(client, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    settings.CLASSES_JOIN_MAX_FAILURES_PER_IP = 3
    proxy = {"REMOTE_ADDR": "10.0.0.1"}  # every request arrives from the one proxy
    for n in range(3):
        client.force_login(f.user())
        client.post(
            "/classes/join/", {"code": f"WRONG{n:05d}"}, HTTP_X_FORWARDED_FOR="203.0.113.5", **proxy
        )

    client.force_login(f.user())
    attacker = client.post(
        "/classes/join/", {"code": "WRONG99999"}, HTTP_X_FORWARDED_FOR="203.0.113.5", **proxy
    )
    someone_else = client.post(
        "/classes/join/", {"code": "WRONG99999"}, HTTP_X_FORWARDED_FOR="198.51.100.7", **proxy
    )

    assert attacker.status_code == 429
    assert someone_else.status_code == 200


@pytest.mark.django_db
def test_a_forged_header_does_not_escape_the_per_address_limit(client, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    settings.CLASSES_JOIN_MAX_FAILURES_PER_IP = 2
    for n in range(3):
        client.force_login(f.user())
        last = client.post(
            "/classes/join/",
            {"code": f"WRONG{n:05d}"},
            REMOTE_ADDR="10.0.0.1",
            HTTP_X_FORWARDED_FOR=f"1.1.1.{n}, 203.0.113.5",
        )

    assert last.status_code == 429


def _login(client, username, password, url="/accounts/login/", **extra):
    return client.post(url, {"username": username, "password": password}, **extra)


@pytest.mark.django_db
def test_login_is_throttled_after_repeated_wrong_passwords(client, settings):
    f.user("ada", password=PASSWORD)
    tries = [
        _login(client, "ada", "wrong-guess").status_code for _ in range(settings.AXES_FAILURE_LIMIT)
    ]

    locked = _login(client, "ada", PASSWORD)

    assert tries == [200] * (settings.AXES_FAILURE_LIMIT - 1) + [429]

    assert locked.status_code == 429
    assert "Too many wrong passwords" in locked.text
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_the_throttle_lifts_when_the_cool_off_has_passed(client, settings, time_machine):
    # The clock is moved past the cool-off, not waited on.
    time_machine.move_to(datetime(2026, 12, 1, 12, tzinfo=UTC), tick=False)
    settings.AXES_COOLOFF_TIME = timedelta(minutes=15)
    f.user("ada", password=PASSWORD)
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _login(client, "ada", "wrong-guess")
    assert _login(client, "ada", PASSWORD).status_code == 429

    time_machine.shift(timedelta(minutes=16))

    assert _login(client, "ada", PASSWORD).status_code == 302
    assert "_auth_user_id" in client.session


@pytest.mark.django_db
def test_the_throttle_does_not_lock_out_other_addresses(client, settings):
    f.user("ada", password=PASSWORD)
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _login(client, "ada", "wrong-guess", REMOTE_ADDR="6.6.6.6")

    elsewhere = _login(client, "ada", PASSWORD, REMOTE_ADDR="192.0.2.10")

    assert elsewhere.status_code == 302


@pytest.mark.django_db
def test_the_throttle_uses_the_client_behind_the_proxy(client, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    f.user("ada", password=PASSWORD)
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _login(client, "ada", "wrong-guess", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6")

    attacker = _login(
        client, "ada", PASSWORD, REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6"
    )
    owner = _login(
        client, "ada", PASSWORD, REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="192.0.2.10"
    )

    assert attacker.status_code == 429
    assert owner.status_code == 302


@pytest.mark.django_db
def test_the_admin_login_is_throttled_too(client, settings):
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_superuser("boss", password=PASSWORD)
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _login(client, "boss", "wrong-guess", url="/admin/login/")

    locked = _login(client, "boss", PASSWORD, url="/admin/login/")

    assert locked.status_code == 429


@pytest.mark.django_db
def test_the_login_form_says_what_the_throttle_does(client, settings):
    page = client.get("/accounts/login/")

    assert f"After {settings.AXES_FAILURE_LIMIT} wrong passwords" in page.text


def test_cache_url_selects_redis_and_cached_sessions():
    from tests.concerto_site.test_settings import production_env

    script = (
        "from django.conf import settings as s; "
        "print(s.CACHES['default']['BACKEND'], s.CACHES['default']['LOCATION'], "
        "s.SESSION_ENGINE)"
    )
    result = run_manage(
        "shell", "-c", script, env={**production_env(), "CACHE_URL": "redis://127.0.0.1:6390/2"}
    )

    backend, location, sessions = result.stdout.strip().splitlines()[-1].split()
    assert backend == "django.core.cache.backends.redis.RedisCache"
    assert location == "redis://127.0.0.1:6390/2"
    assert sessions == "trainer.core.infra.cached_sessions"  # cached_db that survives Redis outages


@pytest.mark.skipif(
    not __import__("os").environ.get("CACHE_URL", "").startswith("redis"),
    reason="needs a Redis server: CACHE_URL=redis://… (CI starts one)",
)
def test_the_join_limit_counts_in_redis():
    from django.core.cache import caches
    from django.core.cache.backends.redis import RedisCache

    assert isinstance(caches["default"], RedisCache)
    for _ in range(django_settings.CLASSES_JOIN_MAX_FAILURES):
        assert not ratelimit.join_blocked(user_id=7, ip="10.7.7.7")
        ratelimit.join_failed(user_id=7, ip="10.7.7.7")

    assert ratelimit.join_blocked(user_id=7, ip="10.7.7.7")
    assert not ratelimit.join_blocked(user_id=8, ip="10.8.8.8")
