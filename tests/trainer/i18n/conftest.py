import pytest


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    """Many users per test: hash their passwords cheaply (real hashing is tested elsewhere)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
