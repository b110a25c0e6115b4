import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _fresh_cache():
    """The join rate limit counts in the cache: start each test from zero."""
    cache.clear()
    yield
    cache.clear()
