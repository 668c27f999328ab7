import pytest

from tests.conftest import QUICK_PASSWORD_HASHERS
from tests.web.world import World, build_world


@pytest.fixture(autouse=True)
def fast_password_hashing(request: pytest.FixtureRequest) -> None:
    """Every test signs people in; the real hasher's deliberate slowness buys nothing here.

    Browser tests' users sign in at a server in another process, with the product's
    hashers: they get hashes those verify, made quickly (tests/conftest.py).
    """
    settings = request.getfixturevalue("settings")
    if request.node.get_closest_marker("browser"):
        settings.PASSWORD_HASHERS = QUICK_PASSWORD_HASHERS
        return
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def world(db: None) -> World:
    return build_world()
