"""Shared fixtures of the trainer's tests."""

import pytest


@pytest.fixture(autouse=True)
def _no_outage_carried_over():
    """Outage state is per process (trainer.core.infra.outage): one test's simulated outage must not
    make the next skip the cache or log a recovery."""
    from trainer.core.infra import cached_sessions, outage

    outage.database.reset()
    outage.cache.reset()
    cached_sessions._stale.clear()
    yield
    outage.database.reset()
    outage.cache.reset()
    cached_sessions._stale.clear()
