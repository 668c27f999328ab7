"""The settings switch: SQLite and the in-memory layer by default, real services by URL."""

import json
import os
import secrets
import subprocess
import sys

import pytest
from django.test import Client

from tests.conftest import ROOT
from tests.conftest import documented_environment as read_documented_environment

PROBE = (
    "import json, django; from django.conf import settings; django.setup(); "
    "print(json.dumps({'db': settings.DATABASES['default'], "
    "'layer': settings.CHANNEL_LAYERS['default'], 'debug': settings.DEBUG, "
    "'hosts': settings.ALLOWED_HOSTS, 'key': settings.SECRET_KEY, "
    "'security': {name: getattr(settings, name, None) for name in ("
    "'SECURE_PROXY_SSL_HEADER', 'SECURE_SSL_REDIRECT', 'SESSION_COOKIE_SECURE', "
    "'CSRF_COOKIE_SECURE', 'SECURE_HSTS_SECONDS', 'SECURE_HSTS_INCLUDE_SUBDOMAINS', "
    "'SECURE_HSTS_PRELOAD')}, "
    "'static': settings.STORAGES['staticfiles']['BACKEND'], 'middleware': settings.MIDDLEWARE, "
    "'email': settings.EMAIL_BACKEND, 'logging': settings.LOGGING, "
    "'signup': settings.SIGNUP}, default=str))"
)

#: Variables the probe's process must not inherit from the test run's environment.
CONFIGURATION = {
    "DATABASE_URL",
    "REDIS_URL",
    "REDIS_LAYER",
    "SECRET_KEY",
    "DEBUG",
    "ALLOWED_HOSTS",
    "SECURE_PROXY_SSL_HEADER",
    "SECURE_SSL_REDIRECT",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "EMAIL_URL",
    "SENTRY_DSN",
    "STATIC_ROOT",
    "SIGNUP",
}


def run_with(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in CONFIGURATION}
    clean.update(env, DJANGO_SETTINGS_MODULE="tabletop.settings")
    return subprocess.run(args, cwd=ROOT, env=clean, capture_output=True, text=True)


def settings_with(**env: str) -> dict:
    out = run_with([sys.executable, "-c", PROBE], env)
    if out.returncode:
        raise subprocess.CalledProcessError(out.returncode, "probe", out.stdout, out.stderr)
    return json.loads(out.stdout)


def documented_environment() -> dict[str, str]:
    """docs/deploy/tabletop.env as systemd reads it, with a generated SECRET_KEY filled in."""
    env = read_documented_environment()
    assert env["SECRET_KEY"] == "", "the documented file must not ship a usable key"
    env["SECRET_KEY"] = secrets.token_urlsafe(50)
    return env


def test_default_is_sqlite_and_the_in_memory_channel_layer() -> None:
    settings = settings_with()
    assert settings["db"]["ENGINE"] == "django.db.backends.sqlite3"
    assert settings["layer"]["BACKEND"] == "channels.layers.InMemoryChannelLayer"
    assert settings["debug"] is True
    assert "127.0.0.1" in settings["hosts"]


def test_database_url_switches_to_postgresql() -> None:
    settings = settings_with(DATABASE_URL="postgres://postgres@127.0.0.1:5432/test")
    assert settings["db"]["ENGINE"] == "django.db.backends.postgresql"
    assert settings["db"]["NAME"] == "test"
    assert settings["db"]["HOST"] == "127.0.0.1"
    assert settings["db"]["PORT"] == 5432


def test_redis_url_switches_the_channel_layer_to_channels_redis_pubsub() -> None:
    settings = settings_with(REDIS_URL="redis://127.0.0.1:6379/0")
    assert settings["layer"]["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    assert settings["layer"]["CONFIG"]["hosts"] == ["redis://127.0.0.1:6379/0"]


def test_redis_layer_core_selects_the_original_list_layer() -> None:
    settings = settings_with(REDIS_URL="redis://127.0.0.1:6379/0", REDIS_LAYER="core")
    assert settings["layer"]["BACKEND"] == "channels_redis.core.RedisChannelLayer"
    assert settings["layer"]["CONFIG"] == {
        "hosts": ["redis://127.0.0.1:6379/0"],
        "prefix": "asgi",
        "capacity": 1500,
        "expiry": 30,
    }


@pytest.mark.parametrize("layer", ["pubsub", "core"])
def test_each_redis_database_has_its_own_channels(layer: str) -> None:
    """Pub/sub channels are not scoped by database number: a site on database 1 must not
    hear the table broadcasts of a site on database 0 of the same Redis."""
    site_0 = settings_with(REDIS_URL="redis://127.0.0.1:6379/0", REDIS_LAYER=layer)
    site_1 = settings_with(REDIS_URL="redis://127.0.0.1:6379/1", REDIS_LAYER=layer)
    no_path = settings_with(REDIS_URL="redis://127.0.0.1:6379", REDIS_LAYER=layer)
    assert site_0["layer"]["CONFIG"]["prefix"] == "asgi" == no_path["layer"]["CONFIG"]["prefix"]
    assert site_1["layer"]["CONFIG"]["prefix"] == "asgi-db1"


def test_an_unknown_redis_layer_is_refused_at_start() -> None:
    with pytest.raises(subprocess.CalledProcessError) as failed:
        settings_with(REDIS_URL="redis://127.0.0.1:6379/0", REDIS_LAYER="kafka")
    assert "REDIS_LAYER must be one of ['core', 'pubsub']" in failed.value.stderr


def test_secret_key_debug_and_hosts_come_from_the_environment() -> None:
    settings = settings_with(SECRET_KEY="s3cret", DEBUG="0", ALLOWED_HOSTS="table.example,x.y")
    assert settings["key"] == "s3cret"
    assert settings["debug"] is False
    assert settings["hosts"] == ["table.example", "x.y"]


def test_the_development_key_is_refused_when_debug_is_false() -> None:
    for key in ({}, {"SECRET_KEY": ""}):
        with pytest.raises(subprocess.CalledProcessError) as refused:
            settings_with(DEBUG="false", **key)
        assert "SECRET_KEY is empty or the development key while DEBUG is false" in (
            refused.value.stderr
        )


#: Each security setting: its value in development (no environment given), and in
#: production (docs/deploy/tabletop.env's environment, behind TLS).
SECURITY = {
    "SECURE_PROXY_SSL_HEADER": (None, ["HTTP_X_FORWARDED_PROTO", "https"]),
    "SECURE_SSL_REDIRECT": (False, True),
    "SESSION_COOKIE_SECURE": (False, True),
    "CSRF_COOKIE_SECURE": (False, True),
    # An hour to start with, no preload (docs/deploy/tabletop.env): a certificate that
    # lapses locks visitors out for at most an hour.
    "SECURE_HSTS_SECONDS": (0, 3600),
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": (False, True),
    "SECURE_HSTS_PRELOAD": (False, False),
}


def test_development_stays_the_default_insecure_but_working_over_plain_http() -> None:
    settings = settings_with()
    assert settings["security"] == {name: dev for name, (dev, _) in SECURITY.items()}
    assert settings["email"] == "django.core.mail.backends.console.EmailBackend"
    assert settings["static"] == "django.contrib.staticfiles.storage.StaticFilesStorage"


def test_every_production_security_setting_comes_from_the_environment() -> None:
    settings = settings_with(**documented_environment())
    assert settings["debug"] is False
    assert settings["security"] == {name: prod for name, (_, prod) in SECURITY.items()}
    assert settings["email"] == "django.core.mail.backends.smtp.EmailBackend"
    # Hashed, compressed files with module imports rewritten, served by ServeStatic.
    assert settings["static"] == "tabletop.static_storage.HashedCompressedStaticFilesStorage"
    assert "servestatic.middleware.ServeStaticMiddleware" in settings["middleware"]


def test_log_lines_carry_time_level_process_id_and_logger() -> None:
    line_format = settings_with()["logging"]["formatters"]["line"]["format"]
    for field in ("%(asctime)s", "%(levelname)s", "%(process)d", "%(name)s"):
        assert field in line_format


def test_check_deploy_is_clean_under_the_documented_production_environment() -> None:
    out = run_with(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        documented_environment(),
    )
    assert out.returncode == 0, out.stderr
    # Silenced: W021 only, "preload": a choice for each domain (tabletop/settings.py).
    assert "System check identified no issues (1 silenced)." in out.stdout


def test_check_deploy_names_the_security_warnings_without_that_environment() -> None:
    """What issue 14 found: W004 HSTS, W008 SSL redirect, W012 and W016 cookies."""
    out = run_with(
        [sys.executable, "manage.py", "check", "--deploy"],
        {"DEBUG": "false", "SECRET_KEY": secrets.token_urlsafe(50)},
    )
    for warning in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert warning in out.stdout + out.stderr


@pytest.mark.django_db
def test_behind_a_tls_proxy_the_login_works_and_invitation_links_are_https(settings) -> None:
    """X-Forwarded-Proto: https with SECURE_PROXY_SSL_HEADER: the browser's https Origin
    passes the CSRF check (it was a 403), and links are written https://."""
    from tests.web.factories import make_battle_sync

    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    battle, users = make_battle_sync("tls-")
    users["gm"].set_password("Tabletop-2026!")
    users["gm"].save()
    # As nginx passes them: the browser's Host and the scheme it used.
    browser = Client(
        enforce_csrf_checks=True, HTTP_HOST="testserver", HTTP_X_FORWARDED_PROTO="https"
    )
    browser.get("/accounts/login/")
    token = browser.cookies["csrftoken"].value
    login = browser.post(
        "/accounts/login/",
        {"username": "tls-gm", "password": "Tabletop-2026!", "csrfmiddlewaretoken": token},
        HTTP_ORIGIN="https://testserver",
    )
    assert login.status_code == 302
    page = browser.post(
        f"/campaigns/{battle.campaign_id}/invitations/",
        {
            "role": "player",
            "valid_days": 7,
            "single_use": "on",
            "csrfmiddlewaretoken": browser.cookies["csrftoken"].value,
        },
        HTTP_ORIGIN="https://testserver",
        follow=True,
    )
    assert page.status_code == 200
    assert "https://testserver/join/" in page.content.decode()
    assert "http://testserver/join/" not in page.content.decode()


@pytest.mark.django_db
def test_without_the_proxy_header_setting_an_https_login_is_refused(settings) -> None:
    """The failure the setting fixes: Django sees http, the Origin says https (CSRF 403)."""
    settings.SECURE_PROXY_SSL_HEADER = None
    browser = Client(
        enforce_csrf_checks=True, HTTP_HOST="testserver", HTTP_X_FORWARDED_PROTO="https"
    )
    browser.get("/accounts/login/")
    login = browser.post(
        "/accounts/login/",
        {
            "username": "x",
            "password": "y",
            "csrfmiddlewaretoken": browser.cookies["csrftoken"].value,
        },
        HTTP_ORIGIN="https://testserver",
    )
    assert login.status_code == 403


def test_the_demo_command_refuses_to_run_with_debug_false() -> None:
    """So demo accounts, whose passwords are public, never exist in production."""
    out = run_with(
        [sys.executable, "manage.py", "demo"],
        {"DEBUG": "false", "SECRET_KEY": secrets.token_urlsafe(50), "DATABASE_URL": "sqlite://"},
    )
    assert out.returncode != 0
    assert "demo refuses to run with DEBUG false: its passwords are public" in out.stderr


def test_sentry_dsn_turns_error_reporting_on_or_names_the_missing_extra() -> None:
    try:
        import sentry_sdk  # noqa: F401
    except ImportError:
        with pytest.raises(subprocess.CalledProcessError) as refused:
            settings_with(SENTRY_DSN="https://key@sentry.example.org/1")
        assert "SENTRY_DSN is set but sentry-sdk is not installed" in refused.value.stderr
    else:
        assert settings_with(SENTRY_DSN="https://key@sentry.example.org/1")["debug"] is True


def test_a_new_site_opens_by_invitation_and_development_to_anyone() -> None:
    """Issue 22: anyone could sign up to a club's site; now, unless the admin opens it,
    only from a campaign's invitation link (SIGNUP)."""
    assert settings_with(DEBUG="false", SECRET_KEY=secrets.token_urlsafe(50))["signup"] == (
        "invitation"
    )
    assert settings_with()["signup"] == "open"
    assert settings_with(**documented_environment())["signup"] == "invitation"
    with pytest.raises(subprocess.CalledProcessError) as refused:
        settings_with(SIGNUP="anyone")
    assert "SIGNUP must be open, invitation or closed" in refused.value.stderr
