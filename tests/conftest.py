"""Shared pytest configuration for the whole suite."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.test.utils import override_settings

#: Hashing a password as production does (PBKDF2, a million rounds) takes about a third of a
#: second; the suite makes thousands of users. Its tests are of the site, not of the hasher.
FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True, scope="session")
def _fast_password_hashing() -> Iterator[None]:
    with override_settings(PASSWORD_HASHERS=FAST_HASHERS):
        yield


@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    """Each test starts in the site's default language: the active language belongs to the
    thread, and a page, a socket or a browser test's server run earlier in this process may
    have left another active in it."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix: None) -> None:
    """Before the test database is set up (pytest-django asks for this first): no connection
    pool may be left from earlier in the session. PostgreSQL's pool is made once per process
    with the database's name as it was then; a test without the database that still touched
    it (a page whose cache read was refused) made one for the real database, and the test
    database's setup, which renames the database in the settings, left that pool in place:
    the migrations and then that process's tests ran on the real database."""
    from django.db import connections

    for alias in connections:
        close_pool = getattr(connections[alias], "close_pool", None)
        if close_pool is not None:
            close_pool()
