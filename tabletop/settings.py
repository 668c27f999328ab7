"""Settings, read from the environment (django-environ).

The embedded default is one process with SQLite and the in-memory channel
layer. `DATABASE_URL` switches to PostgreSQL and `REDIS_URL` to channels-redis:
that is how production and CI run (several ASGI processes sharing both).
"""

from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

# Safe development defaults: a fixed key that is useless anywhere else, debug on,
# only loopback hosts. Production sets all three.
SECRET_KEY = env.str("SECRET_KEY", default="dev-only-insecure-key-change-me-in-production")
DEBUG = env.bool("DEBUG", default=True)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

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

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

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
            ],
        },
    },
]

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=0))
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A file, not memory, for the test database too: the browser and protocol
    # tests run the app in another process (Daphne) against the same data.
    DATABASES["default"].setdefault("TEST", {"NAME": str(BASE_DIR / "test-db.sqlite3")})

REDIS_URL = env.str("REDIS_URL", default="")
#: Which channels-redis layer carries a table's broadcasts between processes.
#: "pubsub" (the default) publishes a group message once; each process subscribed to
#: the group gets it once and hands it to its own sockets, so 200 spectators cost one
#: Redis message per process. "core" is the original layer: one list entry per socket,
#: popped one at a time (with capacity and expiry). Clients fill any gap from the
#: event log, so pub/sub's fire-and-forget delivery loses no event (docs/protocol.md).
REDIS_LAYERS = {
    "pubsub": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer", "CONFIG": {}},
    "core": {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {"capacity": 1500, "expiry": 30},
    },
}
REDIS_LAYER = env.str("REDIS_LAYER", default="pubsub")
if REDIS_LAYER not in REDIS_LAYERS:
    raise ImproperlyConfigured(f"REDIS_LAYER must be one of {sorted(REDIS_LAYERS)}")


def redis_channel_layer(url: str, kind: str) -> dict:
    """The CHANNEL_LAYERS entry of the channels-redis layer `kind` on the Redis at `url`."""
    layer = REDIS_LAYERS[kind]
    return {"BACKEND": layer["BACKEND"], "CONFIG": {"hosts": [url], **layer["CONFIG"]}}


if REDIS_URL:
    CHANNEL_LAYERS = {"default": redis_channel_layer(REDIS_URL, REDIS_LAYER)}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

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

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="WARNING")},
}
