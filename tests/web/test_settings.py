"""The settings switch: SQLite and the in-memory layer by default, real services by URL."""

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT

PROBE = (
    "import json, django; from django.conf import settings; django.setup(); "
    "print(json.dumps({'db': settings.DATABASES['default'], "
    "'layer': settings.CHANNEL_LAYERS['default'], 'debug': settings.DEBUG, "
    "'hosts': settings.ALLOWED_HOSTS, 'key': settings.SECRET_KEY}, default=str))"
)


def settings_with(**env: str) -> dict:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k
        not in {"DATABASE_URL", "REDIS_URL", "REDIS_LAYER", "SECRET_KEY", "DEBUG", "ALLOWED_HOSTS"}
    }
    clean.update(env, DJANGO_SETTINGS_MODULE="tabletop.settings")
    out = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


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
        "capacity": 1500,
        "expiry": 30,
    }


def test_an_unknown_redis_layer_is_refused_at_start() -> None:
    with pytest.raises(subprocess.CalledProcessError) as failed:
        settings_with(REDIS_URL="redis://127.0.0.1:6379/0", REDIS_LAYER="kafka")
    assert "REDIS_LAYER must be one of ['core', 'pubsub']" in failed.value.stderr


def test_secret_key_debug_and_hosts_come_from_the_environment() -> None:
    settings = settings_with(SECRET_KEY="s3cret", DEBUG="0", ALLOWED_HOSTS="table.example,x.y")
    assert settings["key"] == "s3cret"
    assert settings["debug"] is False
    assert settings["hosts"] == ["table.example", "x.y"]
