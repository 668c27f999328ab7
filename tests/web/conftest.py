import pytest

from tests.web.world import World, build_world


@pytest.fixture(autouse=True)
def fast_password_hashing(request: pytest.FixtureRequest) -> None:
    """Every test signs people in; the real hasher's deliberate slowness buys nothing here.

    Not for browser tests: their server is another process, with the real hashers.
    """
    if request.node.get_closest_marker("browser"):
        return
    settings = request.getfixturevalue("settings")
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def world(db: None) -> World:
    return build_world()
