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
