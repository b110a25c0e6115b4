"""trainer.core.infra.throttle: the ``limits`` library's fixed window over Django's cache — a window
opens with its first hit, closes on time (the clock moved by time_machine), counts apart per
key, and fails open while the cache is down."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.core.cache import cache
from redis.exceptions import ConnectionError as RedisConnectionError

from trainer.core.infra import outage, throttle

pytestmark = pytest.mark.django_db
START = datetime(2026, 12, 5, 10, 0, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    outage.cache.answered()
    yield
    cache.clear()


def test_a_limit_allows_its_count_then_refuses_until_the_window_ends(time_machine):
    time_machine.move_to(START, tick=False)
    assert [throttle.allow("k", limit=3, seconds=10) for _ in range(4)] == [
        True,
        True,
        True,
        False,
    ]
    time_machine.move_to(START + timedelta(seconds=9), tick=False)
    assert not throttle.allow("k", limit=3, seconds=10)
    time_machine.move_to(START + timedelta(seconds=10, milliseconds=1), tick=False)
    assert throttle.allow("k", limit=3, seconds=10)  # a new window, opened by this hit


def test_the_window_opens_with_its_first_hit_and_a_later_hit_does_not_stretch_it(time_machine):
    time_machine.move_to(START + timedelta(seconds=7), tick=False)  # not on a 10 s boundary
    throttle.count("j", limit=2, seconds=10)
    time_machine.move_to(START + timedelta(seconds=15), tick=False)
    throttle.count("j", limit=2, seconds=10)
    assert throttle.used_up("j", limit=2, seconds=10)
    time_machine.move_to(START + timedelta(seconds=17, milliseconds=1), tick=False)
    assert not throttle.used_up("j", limit=2, seconds=10)


def test_keys_count_apart_and_asking_does_not_count(time_machine):
    time_machine.move_to(START, tick=False)
    for _ in range(5):
        assert not throttle.used_up("a", limit=2, seconds=60)
    throttle.count("a", limit=2, seconds=60)
    throttle.count("a", limit=2, seconds=60)
    assert throttle.used_up("a", limit=2, seconds=60)
    assert not throttle.used_up("b", limit=2, seconds=60)
    assert throttle.allow("b", limit=2, seconds=60)


def test_a_cache_that_is_down_lets_everything_through_and_is_logged_once(monkeypatch, caplog):
    def down(*args, **kwargs):
        raise RedisConnectionError("connection refused")

    for method in ("get", "get_many", "add", "set", "set_many", "incr", "touch"):
        monkeypatch.setattr(cache, method, down)
    assert all(throttle.allow("x", limit=1, seconds=60) for _ in range(3))
    assert not throttle.used_up("x", limit=1, seconds=60)
    assert not outage.cache.usable()
    assert sum("a rate limit" in r.getMessage() for r in caplog.records) == 1


def test_reset_clears_every_count_and_leaves_the_rest_of_the_cache(time_machine):
    time_machine.move_to(START, tick=False)
    cache.set("unrelated", "kept")
    for key in ("r1", "r2"):
        throttle.count(key, limit=1, seconds=60)
        assert throttle.used_up(key, limit=1, seconds=60)

    assert throttle.DjangoCacheStorage().reset() == 2

    assert not throttle.used_up("r1", limit=1, seconds=60)
    assert not throttle.used_up("r2", limit=1, seconds=60)
    assert cache.get("unrelated") == "kept"
