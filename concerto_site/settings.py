"""Settings for Concerto Trainer, read from the environment.

Local development needs no configuration: DEBUG is on, SQLite lives in ``db.sqlite3``.
Production is selected by ``DJANGO_ENV=production`` or ``DEBUG=0`` and then requires
``SECRET_KEY`` and ``ALLOWED_HOSTS``::

    DJANGO_ENV=production SECRET_KEY=... ALLOWED_HOSTS=example.com \\
        DATABASE_URL=postgres://user:pass@host/db gunicorn concerto_site.wsgi
"""

import os
from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured

# Django's generic classes subscriptable at run time (ModelAdmin[Lesson], ModelForm[Club]), as
# the type checker reads them.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    """Read a yes/no environment variable: ``1/true/yes/on`` versus ``0/false/no/off``."""
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    """Read a comma-separated environment variable into a list, dropping blanks."""
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


PRODUCTION = os.environ.get("DJANGO_ENV", "").lower() == "production"
DEBUG = env_bool("DEBUG", default=not PRODUCTION)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "django-insecure-local-development-only-do-not-use-in-production"  # noqa: S105

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

#: The features' answers to the core's questions (trainer/core/extensions.py): every edge from
#: the core to a feature is one line here. Session frames are asked in this order.
CONCERTO_EXTENSIONS = {
    "drill_sessions": [
        "trainer.drills.drill_sessions.practice_session",
        "trainer.progress.drill_sessions.review_session",
        "trainer.clubs.drill_sessions.step_session",
        "trainer.classes.drill_sessions.assignment_session",
    ],
    "house_rules": "trainer.clubs.selectors.house_rules_for",
    "teaching_links": "trainer.learn.teaching.links_for",
    "lessons": "trainer.learn.teaching.lessons_for",
    "deals_played": "trainer.play.selectors.deals_played",
    "deal_links": "trainer.play.selectors.deal_links",
    "deal_urls": "trainer.play.selectors.deal_urls",
    "owned_cards": "trainer.cards.resolver.owned_cards",
    "convention_resolver": "trainer.cards.resolver.resolve",
    "user_language": "trainer.languages.selectors.language_for",
}

INSTALLED_APPS = [
    # Daphne's runserver serves HTTP and the live tables' WebSockets in one process (make run).
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "channels",
    "axes",
    # The simple config leaves TEMPLATES alone; the partials loader is set up explicitly below.
    "template_partials.apps.SimpleAppConfig",
    # One app per feature over a small core (docs/architecture.md). Features depend on the core
    # and the engine; ``trainer`` itself is the site: home page, demo data, the pre-split
    # migrations that made every table.
    "trainer.core",
    "trainer.accounts",
    "trainer.drills",
    "trainer.progress",
    "trainer.learn",
    "trainer.clubs",
    "trainer.classes",
    "trainer.play",
    "trainer.duplicate",
    "trainer.teaching",
    "trainer.ratings",
    "trainer.cards",
    "trainer.languages",
    "trainer.wording",
    "trainer",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Refuses NUL bytes and over-long values (400) before anything reads the database.
    "trainer.core.web.middleware.BadInputMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "csp.middleware.CSPMiddleware",
    # A database outage becomes a styled 503 page; must sit outside the session middleware.
    "trainer.core.web.middleware.DatabaseUnavailableMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After LocaleMiddleware and the user: a signed-in user's saved language, else the default
    # of their class or club, replaces the cookie / Accept-Language choice.
    "trainer.languages.middleware.UserLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Login throttling (django-axes): last, as its documentation asks.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "concerto_site.urls"
WSGI_APPLICATION = "concerto_site.wsgi.application"
ASGI_APPLICATION = "concerto_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "trainer.core.web.context_processors.display",
                "trainer.core.web.context_processors.navigation",
                "trainer.languages.context_processors.switcher",
            ],
            "loaders": [
                (
                    "template_partials.loader.Loader",
                    [
                        (
                            "django.template.loaders.cached.Loader",
                            [
                                "django.template.loaders.filesystem.Loader",
                                "django.template.loaders.app_directories.Loader",
                            ],
                        )
                    ],
                )
            ],
            "builtins": ["template_partials.templatetags.partials"],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}", conn_health_checks=True
    )
}
# PostgreSQL: each process borrows connections from a pool of its own (psycopg_pool, Django's
# "pool" option) for the length of a request or a socket's step, so a process never holds more
# than DB_POOL_MAX_SIZE connections however many threads serve it: servers × processes ×
# DB_POOL_MAX_SIZE bounds the total (docs/operations.md, "Connections"). A request that finds
# the pool empty waits up to DB_POOL_TIMEOUT seconds, then is a 503. DB_POOL_MAX_SIZE=0 turns
# the pool off (then CONN_MAX_AGE applies, e.g. behind PgBouncer). Without a pool (SQLite, or
# PostgreSQL behind PgBouncer) a thread keeps its connection CONN_MAX_AGE seconds in production:
# the live tables' sockets do their database work in one thread per process, which then opens
# no connection per frame.
DB_POOL_MAX_SIZE = int(os.environ.get("DB_POOL_MAX_SIZE", "8"))
POOLED = DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and DB_POOL_MAX_SIZE > 0
DATABASES["default"]["CONN_MAX_AGE"] = int(
    os.environ.get("CONN_MAX_AGE", "0" if DEBUG or POOLED else "60")
)
if POOLED:
    if DATABASES["default"]["CONN_MAX_AGE"]:
        raise ImproperlyConfigured("CONN_MAX_AGE must be 0 with the pool (DB_POOL_MAX_SIZE).")
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": min(int(os.environ.get("DB_POOL_MIN_SIZE", "1")), DB_POOL_MAX_SIZE),
        "max_size": DB_POOL_MAX_SIZE,
        "timeout": float(os.environ.get("DB_POOL_TIMEOUT", "10")),
        # Idle connections above min_size are closed after this many seconds.
        "max_idle": float(os.environ.get("DB_POOL_MAX_IDLE", "300")),
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Concurrent writers (several gunicorn workers): take the write lock when a transaction
    # starts (a read upgraded to a write cannot wait for the lock, it fails at once), let readers
    # and one writer work side by side (WAL), and wait up to SQLITE_TIMEOUT seconds for the lock.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": float(os.environ.get("SQLITE_TIMEOUT", "20")),
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Shared cache for rate limits (and sessions): CACHE_URL=redis://host:6379/0 uses Django's Redis
# backend; without it the database cache (table ``django_cache``, made by the migrations and
# ``manage.py createcachetable``) is shared by every process out of the box.
CACHE_URL = os.environ.get("CACHE_URL", "").strip()
# Seconds to wait for Redis to connect or answer: a cache that is down must not hold a page up
# for long (the site then works without it, docs/operations.md).
CACHE_TIMEOUT = float(os.environ.get("CACHE_TIMEOUT", "1"))
CACHES: dict[str, dict[str, Any]]
if CACHE_URL.startswith(("redis://", "rediss://", "unix://")):
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": CACHE_URL,
            "KEY_PREFIX": "concerto",
            "OPTIONS": {
                "socket_connect_timeout": CACHE_TIMEOUT,
                "socket_timeout": CACHE_TIMEOUT,
            },
        }
    }
elif CACHE_URL in ("", "db", "database"):
    # A high MAX_ENTRIES: culling would forget rate-limit counts that are still running.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "django_cache",
            "OPTIONS": {"MAX_ENTRIES": 100_000},
        }
    }
elif CACHE_URL in ("locmem", "memory"):  # one process only: rate limits are per process
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
else:
    raise ImproperlyConfigured(f"CACHE_URL must be redis://…, db or locmem, not {CACHE_URL!r}.")

# Sessions live in the database; with Redis they are cached there too (read from the cache,
# written through to the database, so a Redis restart signs nobody out). Django's cached_db
# store, except that while Redis is down sessions work from the database alone.
SESSION_ENGINE = (
    "trainer.core.infra.cached_sessions"
    if CACHES["default"]["BACKEND"].endswith("RedisCache")
    else "django.contrib.sessions.backends.db"
)
# Live tables: the channel layer that carries table updates between app processes.
# CHANNEL_LAYER_URL=redis://host:6379/1 joins any number of servers through Redis (sticky
# sessions not needed); unset, the in-memory layer serves one process (make run).
CHANNEL_LAYER_URL = os.environ.get("CHANNEL_LAYER_URL", "").strip()
# A socket's consumer waits on Redis in blocking reads of 5 s (channels-redis), so the read
# timeout must be longer than that or every idle socket fails after it; a dead Redis is still
# noticed within CHANNEL_LAYER_TIMEOUT seconds (docs/operations.md, "Live tables").
CHANNEL_LAYER_TIMEOUT = float(os.environ.get("CHANNEL_LAYER_TIMEOUT", "15"))
if CHANNEL_LAYER_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": CHANNEL_LAYER_URL,
                        "socket_connect_timeout": min(CHANNEL_LAYER_TIMEOUT, 2.0),
                        "socket_timeout": CHANNEL_LAYER_TIMEOUT,
                        "socket_keepalive": True,
                        "health_check_interval": 30,
                    }
                ],
                "capacity": 500,
                "expiry": 30,
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
# Live tables' presence: each server refreshes its open sockets every LIVE_HEARTBEAT_SECONDS;
# a socket not refreshed for LIVE_PRESENCE_EXPIRY_SECONDS (its server died) stops counting as
# "connected". A player due to move who has been gone LIVE_GRACE_SECONDS may have their seat
# handed to a bot by the others (the host may at once). One person may have at most
# LIVE_SOCKETS_PER_USER sockets (tabs) open at one table.
LIVE_HEARTBEAT_SECONDS = float(os.environ.get("LIVE_HEARTBEAT_SECONDS", "20"))
LIVE_PRESENCE_EXPIRY_SECONDS = int(os.environ.get("LIVE_PRESENCE_EXPIRY_SECONDS", "60"))
LIVE_GRACE_SECONDS = int(os.environ.get("LIVE_GRACE_SECONDS", "60"))
LIVE_SOCKETS_PER_USER = int(os.environ.get("LIVE_SOCKETS_PER_USER", "4"))
if LIVE_PRESENCE_EXPIRY_SECONDS < 2 * LIVE_HEARTBEAT_SECONDS:
    raise ImproperlyConfigured(
        "LIVE_PRESENCE_EXPIRY_SECONDS must be at least twice LIVE_HEARTBEAT_SECONDS."
    )

SESSION_COOKIE_AGE = int(os.environ.get("SESSION_COOKIE_AGE", str(60 * 60 * 24 * 14)))
SESSION_EXPIRE_AT_BROWSER_CLOSE = env_bool("SESSION_EXPIRE_AT_BROWSER_CLOSE", default=False)
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
# A form refused for its CSRF token shows the site's own 403 page in the page's language.
CSRF_FAILURE_VIEW = "trainer.core.web.views.csrf_failure"

# Behind N reverse proxies that each append to X-Forwarded-For, the client is the Nth address
# from the right; 0 (the default) trusts no header and uses REMOTE_ADDR.
TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "0"))
if TRUSTED_PROXY_COUNT < 0:
    raise ImproperlyConfigured("TRUSTED_PROXY_COUNT cannot be negative.")

# Login throttling (django-axes), for /accounts/login/ and /admin/ alike: after
# AXES_FAILURE_LIMIT wrong passwords for one username from one client address, that pair is
# refused for AXES_COOLOFF_MINUTES (a right password included). Other addresses are unaffected.
AUTHENTICATION_BACKENDS = [
    "trainer.accounts.auth_backends.LoginThrottleBackend",  # django-axes
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("AXES_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_CLIENT_IP_CALLABLE = "trainer.core.web.client_ip.client_ip"
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False

# Content-Security-Policy (django-csp): no inline script or style anywhere, so none is allowed.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
    },
}

# Bad input: requests whose path, query or form values hold a NUL byte, or a value longer than
# this, are refused with 400 before any view or database sees them.
MAX_INPUT_VALUE_LENGTH = int(os.environ.get("MAX_INPUT_VALUE_LENGTH", "4096"))

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# English is the source language and the default; each other language is a catalog under
# locale/<code>/ (and trainer/wording/locale/) plus a folder of lessons (docs/operations.md).
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("ja", "Japanese")]
LANGUAGE_COOKIE_NAME = "django_language"
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True
LOCALE_PATHS = [BASE_DIR / "locale"]

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Hashed, compressed files need collectstatic; keep plain storage for DEBUG and tests.
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# Decided here, not from DEBUG at request time: pytest-django turns DEBUG off during tests,
# and tests should find static files without running collectstatic.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Concerto Trainer <noreply@localhost>")

if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(60 * 60 * 24 * 365)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    # Preloading is hard to undo: only when asked for. While it is off, `check --deploy`'s
    # reminder about it (security.W021) is silenced: off is the deliberate default.
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", default=False)
    if not SECURE_HSTS_PRELOAD:
        SILENCED_SYSTEM_CHECKS = ["security.W021"]
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    X_FRAME_OPTIONS = "DENY"

# An outage of the database or the cache is logged once per process when it starts and once
# when it ends (logger ``trainer.outage``); Django's per-request record of each 503 (with the
# database error's traceback) is left out.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"quiet_outage": {"()": "trainer.core.infra.outage.QuietOutageFilter"}},
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {"django.request": {"filters": ["quiet_outage"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}

# Classes (trainer.classes): join codes, the join rate limit and assignment size. The limit
# counts in the default cache, shared by every process (the database cache, or Redis).
CLASSES_JOIN_CODE_LENGTH = 10  # characters from a 31-letter alphabet; at least 10
CLASSES_JOIN_MAX_FAILURES = 10  # unknown codes per user per window
CLASSES_JOIN_MAX_FAILURES_PER_IP = 50  # per client address (a school may share one)
CLASSES_JOIN_WINDOW_SECONDS = 15 * 60
CLASSES_ASSIGNMENT_MAX_DRILLS = 60

# Background work (a club card's "what is it worth"): Dramatiq. TASK_BROKER_URL=redis://host:6379/2
# sends it to worker processes (`dramatiq concerto_site.worker`, on any machine); unset, an
# in-process queue and worker of TASK_WORKER_THREADS threads play it in the web process (make run).
TASK_BROKER_URL = os.environ.get("TASK_BROKER_URL", "").strip()
if TASK_BROKER_URL and not TASK_BROKER_URL.startswith(("redis://", "rediss://", "unix://")):
    raise ImproperlyConfigured(f"TASK_BROKER_URL must be redis://…, not {TASK_BROKER_URL!r}.")
TASK_WORKER_THREADS = int(os.environ.get("TASK_WORKER_THREADS", "1"))
# Seconds without a heartbeat after which a worker counts as dead and its messages are played
# by the others; how often (per million Redis commands) the workers look for such messages.
TASK_HEARTBEAT_TIMEOUT = float(os.environ.get("TASK_HEARTBEAT_TIMEOUT", "60"))
TASK_MAINTENANCE_CHANCE = int(os.environ.get("TASK_MAINTENANCE_CHANCE", "20000"))

# Clubs' cards (trainer.cards): the live check's size, and "what is it worth" — duplicate deals
# against the card it came from and against greedy, played in chunks by the task queue.
CARDS_CHECK_HANDS = int(os.environ.get("CARDS_CHECK_HANDS", "500"))
CARDS_CHECK_SAMPLES = int(os.environ.get("CARDS_CHECK_SAMPLES", "200"))
CARDS_EVALUATION_DEALS = int(os.environ.get("CARDS_EVALUATION_DEALS", "200"))
CARDS_EVALUATION_CHUNK = int(os.environ.get("CARDS_EVALUATION_CHUNK", "25"))
CARDS_EVALUATION_SEED = int(os.environ.get("CARDS_EVALUATION_SEED", "1"))
# An evaluation with no chunk done for this long may be sent again (its messages were lost).
CARDS_EVALUATION_STALE_SECONDS = int(os.environ.get("CARDS_EVALUATION_STALE_SECONDS", "300"))

# "What is it worth" limits: waiting/running at once, starts in 24 h; per user, owner, whole site.
CARDS_EVALUATION_ACTIVE_PER_USER = int(os.environ.get("CARDS_EVALUATION_ACTIVE_PER_USER", "1"))
CARDS_EVALUATION_PER_DAY_PER_USER = int(os.environ.get("CARDS_EVALUATION_PER_DAY_PER_USER", "6"))
CARDS_EVALUATION_ACTIVE_PER_OWNER = int(os.environ.get("CARDS_EVALUATION_ACTIVE_PER_OWNER", "2"))
CARDS_EVALUATION_PER_DAY_PER_OWNER = int(os.environ.get("CARDS_EVALUATION_PER_DAY_PER_OWNER", "10"))
CARDS_EVALUATION_QUEUE_LIMIT = int(os.environ.get("CARDS_EVALUATION_QUEUE_LIMIT", "20"))
