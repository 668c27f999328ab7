import pytest

from tests.web.world import World, build_world


@pytest.fixture(autouse=True)
def fast_password_hashing(settings) -> None:
    """Every test signs people in; the real hasher's deliberate slowness buys nothing here."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def world(db: None) -> World:
    return build_world()
