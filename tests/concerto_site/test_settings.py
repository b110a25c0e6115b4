import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    # Drop mode switches from this process, including the browser tests' async-unsafe flag.
    dropped = {"DEBUG", "DJANGO_ENV", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    clean = {k: v for k, v in os.environ.items() if k not in dropped}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def production_env() -> dict[str, str]:
    return {
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "example.com",
    }


def test_deploy_check_has_no_warnings():
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", env=production_env())

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_production_refuses_to_start_without_secret_key():
    env = production_env()
    env["SECRET_KEY"] = ""

    result = run_manage("check", env=env)

    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def _settings_of(env: dict[str, str], *names: str) -> list[str]:
    """The repr of each setting ``names`` as production reads ``env``."""
    code = "; ".join(f"print(repr(settings.{name}))" for name in names)
    result = run_manage(
        "shell", "--no-imports", "-c", f"from django.conf import settings; {code}", env=env
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def test_production_cookies_are_all_secure():
    """The language cookie too: it goes with every request, like the session's."""
    names = ("SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "LANGUAGE_COOKIE_SECURE")
    assert _settings_of(production_env(), *names) == ["True", "True", "True"]


def test_postgresql_connections_come_from_a_bounded_pool_per_process():
    env = {**production_env(), "DATABASE_URL": "postgres://u:p@db.example:5432/concerto"}
    options = 'DATABASES["default"]["OPTIONS"]'
    read, max_age = _settings_of(env, options, 'DATABASES["default"]["CONN_MAX_AGE"]')
    pool = eval(read)["pool"]
    assert pool["max_size"] == 8 and pool["min_size"] == 1 and pool["timeout"] == 10.0
    assert max_age == "0"
    sized = eval(_settings_of({**env, "DB_POOL_MAX_SIZE": "3"}, options)[0])
    assert sized["pool"]["max_size"] == 3
    # Persistent connections and a pool do not mix: refused at start, not at the first query.
    result = run_manage("check", env={**env, "CONN_MAX_AGE": "60"})
    assert result.returncode != 0 and "CONN_MAX_AGE" in result.stderr
    # Without the pool (behind PgBouncer, say) CONN_MAX_AGE applies.
    off = eval(_settings_of({**env, "DB_POOL_MAX_SIZE": "0"}, options)[0])
    assert "pool" not in off


def test_without_a_pool_production_keeps_a_threads_connection():
    """SQLite (or PostgreSQL behind PgBouncer): the sockets' database thread keeps its
    connection instead of opening one per frame (twice the server's CPU at 50 tables)."""
    key = 'DATABASES["default"]["CONN_MAX_AGE"]'
    sqlite = {**production_env(), "DATABASE_URL": "sqlite:///site.sqlite3"}
    assert _settings_of(sqlite, key) == ["60"]
    unpooled = {
        **production_env(),
        "DATABASE_URL": "postgres://u:p@db.example:5432/concerto",
        "DB_POOL_MAX_SIZE": "0",
    }
    assert _settings_of(unpooled, key) == ["60"]
    assert _settings_of({**sqlite, "CONN_MAX_AGE": "5"}, key) == ["5"]


def test_the_channel_layer_waits_longer_than_its_blocking_reads():
    """channels-redis blocks 5 s in a read: a shorter socket timeout (redis-py's default is 5
    s) fails every idle socket."""
    env = {**production_env(), "CHANNEL_LAYER_URL": "redis://cache:6379/1"}
    (layers,) = _settings_of(env, "CHANNEL_LAYERS")
    (host,) = eval(layers)["default"]["CONFIG"]["hosts"]
    assert host["address"] == "redis://cache:6379/1"
    assert host["socket_timeout"] > 5 and host["socket_keepalive"] is True
