"""Settings, read from the environment (django-environ).

The embedded default is one process with SQLite and the in-memory channel
layer. `DATABASE_URL` switches to PostgreSQL and `REDIS_URL` to channels-redis:
that is how production and CI run (several ASGI processes sharing both).
Production sets `DEBUG=false` and the security settings below; docs/deploy/
has the whole environment file (docs/deploy/tabletop.env).
"""

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import environ
from csp.constants import NONCE as CSP_NONCE
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

# Safe development defaults: a fixed key that is useless anywhere else, debug on,
# only loopback hosts. Production sets all three, and must: the development key
# is public (it is in this file), so anyone could forge sessions signed with it.
DEVELOPMENT_SECRET_KEY = "dev-only-insecure-key-change-me-in-production"
DEBUG = env.bool("DEBUG", default=True)
SECRET_KEY = env.str("SECRET_KEY", default=DEVELOPMENT_SECRET_KEY)
if not DEBUG and SECRET_KEY in ("", DEVELOPMENT_SECRET_KEY):
    raise ImproperlyConfigured(
        "SECRET_KEY is empty or the development key while DEBUG is false: set SECRET_KEY "
        "to a long random value (docs/deploy/README.md, 'The environment file')"
    )
# `manage.py demo` creates accounts whose passwords are public: development only. (Its
# own setting: the test runner turns DEBUG off, not the environment's choice.)
DEMO_ALLOWED = DEBUG
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

# Behind a TLS proxy: the header the proxy sets to the scheme the browser used
# (nginx: X-Forwarded-Proto). Without it Django sees http, refuses the login POST
# whose Origin is https (CSRF), and writes http:// into invitation links. Only set it
# when a proxy you control always sets (or strips) that header.
SECURE_PROXY_SSL_HEADER_NAME = env.str("SECURE_PROXY_SSL_HEADER", default="")
if SECURE_PROXY_SSL_HEADER_NAME:
    SECURE_PROXY_SSL_HEADER = (
        "HTTP_" + SECURE_PROXY_SSL_HEADER_NAME.upper().replace("-", "_"),
        "https",
    )
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=False)
# The process manager and the proxy probe the processes directly, over plain http.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$", r"^metrics$"]
# /metrics answers only these client addresses (the monitoring host's; docs/deploy 11).
METRICS_ALLOWED_ADDRESSES = env.list("METRICS_ALLOWED_ADDRESSES", default=["127.0.0.1", "::1"])
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=False)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=False)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=False)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=False)
# Preloading is a choice for each domain, made once its certificates have renewed for
# months (docs/deploy/tabletop.env): `check --deploy` does not ask for it (W021).
SILENCED_SYSTEM_CHECKS = ["security.W021"]

# With REQUIRE_SERVICES=1 (CI), a test that needs PostgreSQL, Redis or Chromium
# fails when the service is missing instead of skipping.
REQUIRE_SERVICES = env.bool("REQUIRE_SERVICES", default=False)

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "tabletop",
]

# Static files. In development (DEBUG true) the app serves the source files as they
# are (tabletop/asgi.py), so `make run` needs no collectstatic. In production
# `collectstatic` writes each file under a name with its content hash, rewrites the
# references to it (CSS url(), JS module imports) and compresses it (gzip and
# brotli); ServeStatic serves those with far-future cache headers, or the proxy does
# (docs/deploy/nginx.conf). A deploy then never serves a stale module.
STATIC_SERVED_BY_THE_APP_FROM_SOURCE = DEBUG
STATIC_MIDDLEWARE = (
    [] if STATIC_SERVED_BY_THE_APP_FROM_SOURCE else ["servestatic.middleware.ServeStaticMiddleware"]
)

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    *STATIC_MIDDLEWARE,
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
]

# Content-Security-Policy (django-csp; docs/deploy/README.md, "Security checklist"):
# scripts and styles only from this site's files, plus the inline scripts that carry
# the page's nonce (`{{ request.csp_nonce }}`); no 'unsafe-inline' for either, so no
# style="" attribute, <style> block or onclick= in a template. JS sets element.style.x
# (CSSOM, which CSP allows) and SVG presentation attributes (fill=, stroke=). A websocket
# to this site is 'self' for connect-src (CSP level 3: ws/wss of the page's own host).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'", CSP_NONCE],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:", "blob:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

ROOT_URLCONF = "tabletop.urls"
ASGI_APPLICATION = "tabletop.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tabletop.context_processors.site",
            ],
        },
    },
]

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
# 0: a connection per request. Under ASGI each request may run in another thread of
# the sync pool, and a persistent connection stays with its thread: N processes x
# their threads hold connections open until PostgreSQL refuses new ones (README).
DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=0))
DATABASES["default"].setdefault("CONN_HEALTH_CHECKS", True)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A file, not memory, for the test database too: the browser and protocol
    # tests run the app in another process (Daphne) against the same data.
    # Named after the database, so that runs with their own DATABASE_URL (parallel
    # checkouts, say) never share a test database.
    # The embedded default serves a table's sockets from a thread pool: transactions
    # that read and then write would fail at once with "database is locked" when
    # another wrote in between (SQLite cannot upgrade a read lock that way, whatever
    # the timeout), and 1011 closed the sockets of players joining together. IMMEDIATE
    # takes the write lock when the transaction begins, so writers wait their turn (up
    # to `timeout` seconds); WAL lets readers go on beside the writer.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
    _database = Path(DATABASES["default"]["NAME"])
    _test_database = _database.with_name(f"test-{_database.name}")
    DATABASES["default"].setdefault("TEST", {"NAME": str(_test_database)})

REDIS_URL = env.str("REDIS_URL", default="")
#: Which channels-redis layer carries a table's broadcasts between processes.
#: "pubsub" (the default) publishes a group message once; each process subscribed to
#: the group gets it once and hands it to its own sockets, so 200 spectators cost one
#: Redis message per process. "core" is the original layer: one list entry per process
#: in the group, popped one at a time (with capacity and expiry). Either way a process
#: decodes a group's message once and hands it to each of its sockets there
#: (tabletop/table_socket/fanout.py). Clients fill any gap from the
#: event log, so pub/sub's fire-and-forget delivery loses no event (docs/protocol.md).
REDIS_LAYERS: dict[str, dict[str, Any]] = {
    "pubsub": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer", "CONFIG": {}},
    "core": {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {"capacity": 1500, "expiry": 30},
    },
}
REDIS_LAYER = env.str("REDIS_LAYER", default="pubsub")
if REDIS_LAYER not in REDIS_LAYERS:
    raise ImproperlyConfigured(f"REDIS_LAYER must be one of {sorted(REDIS_LAYERS)}")


def redis_channel_prefix(url: str) -> str:
    """The layer's prefix for the Redis database `url` names.

    Redis scopes keys by database number but not pub/sub channels: two sites (or two
    test runs) on one Redis with databases 0 and 1 would otherwise hear each other's
    table broadcasts. Database 0 keeps channels-redis' own prefix, so that a running
    site's processes keep hearing each other across an upgrade."""
    path = urlsplit(url).path.strip("/")
    database = int(path) if path.isdigit() else 0
    return "asgi" if database == 0 else f"asgi-db{database}"


def redis_channel_layer(url: str, kind: str) -> dict:
    """The CHANNEL_LAYERS entry of the channels-redis layer `kind` on the Redis at `url`."""
    layer = REDIS_LAYERS[kind]
    config = {"hosts": [url], "prefix": redis_channel_prefix(url), **layer["CONFIG"]}
    return {"BACKEND": layer["BACKEND"], "CONFIG": config}


if REDIS_URL:
    CHANNEL_LAYERS = {"default": redis_channel_layer(REDIS_URL, REDIS_LAYER)}
    # The cache counts failed logins and account limits (tabletop/login_throttle.py,
    # tabletop/rate_limits.py): shared by all processes.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "tabletop",
            "OPTIONS": {"socket_timeout": 2, "socket_connect_timeout": 2},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

# Login throttling (tabletop/login_throttle.py, whose docstring says why): failed logins
# beyond an allowance make the next attempt wait, doubling up to a cap. Counted per
# (name, address) pair, per address across names, and per name across addresses (not
# from an address the name has logged in from before).
LOGIN_FAILURES_ALLOWED = env.int("LOGIN_FAILURES_ALLOWED", default=5)
LOGIN_ADDRESS_FAILURES_ALLOWED = env.int("LOGIN_ADDRESS_FAILURES_ALLOWED", default=50)
LOGIN_NAME_FAILURES_ALLOWED = env.int("LOGIN_NAME_FAILURES_ALLOWED", default=100)
LOGIN_BACKOFF_SECONDS = env.int("LOGIN_BACKOFF_SECONDS", default=60)
LOGIN_BACKOFF_MAX_SECONDS = env.int("LOGIN_BACKOFF_MAX_SECONDS", default=15 * 60)
LOGIN_FAILURE_MEMORY_SECONDS = env.int("LOGIN_FAILURE_MEMORY_SECONDS", default=24 * 3600)

# Account limits (tabletop/rate_limits.py), each per window of this many seconds.
ACCOUNT_LIMIT_WINDOW_SECONDS = env.int("ACCOUNT_LIMIT_WINDOW_SECONDS", default=3600)
PASSWORD_RESET_REQUESTS_PER_ADDRESS = env.int("PASSWORD_RESET_REQUESTS_PER_ADDRESS", default=5)
MAILS_PER_ACCOUNT = env.int("MAILS_PER_ACCOUNT", default=3)
SIGNUPS_PER_ADDRESS = env.int("SIGNUPS_PER_ADDRESS", default=10)
PASSWORD_CHANGE_FAILURES_ALLOWED = env.int("PASSWORD_CHANGE_FAILURES_ALLOWED", default=5)

# A new account logs in once the link mailed to it is opened (tabletop/services/
# accounts.py). On in production; off in development, so that `make run` needs no mail.
ACCOUNT_EMAIL_VERIFICATION = env.bool("ACCOUNT_EMAIL_VERIFICATION", default=not DEBUG)
ACCOUNT_VERIFICATION_SECONDS = env.int("ACCOUNT_VERIFICATION_SECONDS", default=3 * 24 * 3600)
# Who may make an account: "open" (anyone), "invitation" (only from a campaign's
# invitation link) or "closed" (nobody: the admin makes accounts). A new site opens by
# invitation; development is open, so that `make run` lets anyone try it.
SIGNUP = env.str("SIGNUP", default="open" if DEBUG else "invitation")
# Reads of a battle's record (report, SVG, event log, scenario files) one user may make
# a minute (tabletop/records/cached.py); 429 beyond.
RECORD_READS_PER_MINUTE = env.int("RECORD_READS_PER_MINUTE", default=30)
if SIGNUP not in {"open", "invitation", "closed"}:
    raise ImproperlyConfigured(f"SIGNUP must be open, invitation or closed, not {SIGNUP!r}")

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = env.path("STATIC_ROOT", default=BASE_DIR / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if STATIC_SERVED_BY_THE_APP_FROM_SOURCE
        else "tabletop.static_storage.HashedCompressedStaticFilesStorage"
    },
}

# Mail (password reset). The console in development: the message is printed.
# Production: EMAIL_URL=smtp+tls://user:password@mail.example.org:587
EMAIL_CONFIG = env.email_url("EMAIL_URL", default="consolemail://")
vars().update(EMAIL_CONFIG)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="tabletop@localhost")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# Where mailed links point (a turn notice's link to the board): scheme and host, no slash.
SITE_URL = env.str("SITE_URL", default="http://localhost:8000").rstrip("/")

# Logs: one line each, with the time, level, process id (several processes write to
# one journal) and logger.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "line": {"format": "%(asctime)s %(levelname)s pid=%(process)d %(name)s: %(message)s"}
    },
    "filters": {"one_line": {"()": "tabletop.log_lines.ClientFaultsOnOneLine"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "line",
            "filters": ["one_line"],
        }
    },
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="WARNING")},
}

# Optional error reporting: SENTRY_DSN needs the sentry extra (pip install '.[sentry]').
SENTRY_DSN = env.str("SENTRY_DSN", default="")
if SENTRY_DSN:
    try:
        import sentry_sdk
    except ImportError as missing:
        raise ImproperlyConfigured(
            "SENTRY_DSN is set but sentry-sdk is not installed: pip install '.[sentry]'"
        ) from missing
    sentry_sdk.init(
        dsn=SENTRY_DSN,
        environment=env.str("SENTRY_ENVIRONMENT", default="production"),
        send_default_pii=False,
    )
