"""Sign up, log in, log out, and the home page listing your campaigns."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.web.factories import make_battle_sync

pytestmark = pytest.mark.django_db


def test_signing_up_creates_the_account_and_logs_in() -> None:
    client = Client()
    response = client.post(
        "/accounts/signup/",
        {"username": "newbie", "password1": "Tabletop-2026!", "password2": "Tabletop-2026!"},
    )
    assert response.status_code == 302
    assert get_user_model().objects.filter(username="newbie").exists()
    assert client.get("/").context["user"].username == "newbie"


def test_a_bad_signup_shows_the_error_and_creates_nothing() -> None:
    response = Client().post(
        "/accounts/signup/", {"username": "x", "password1": "a", "password2": "b"}
    )
    assert response.status_code == 200
    assert "password2" in response.context["form"].errors
    assert not get_user_model().objects.filter(username="x").exists()


def test_logging_in_and_out() -> None:
    get_user_model().objects.create_user("gm", password="Tabletop-2026!")
    client = Client()
    response = client.post("/accounts/login/", {"username": "gm", "password": "Tabletop-2026!"})
    assert response.status_code == 302
    assert client.get("/").context["user"].is_authenticated
    client.post("/accounts/logout/")
    assert not client.get("/").context["user"].is_authenticated


def test_a_wrong_password_does_not_log_in() -> None:
    get_user_model().objects.create_user("gm", password="Tabletop-2026!")
    client = Client()
    response = client.post("/accounts/login/", {"username": "gm", "password": "nope"})
    assert response.status_code == 200
    assert not client.get("/").context["user"].is_authenticated


def test_the_home_page_lists_only_the_campaigns_you_belong_to() -> None:
    battle, users = make_battle_sync("a-")
    make_battle_sync("b-")
    client = Client()
    client.force_login(users["p1"])
    page = client.get("/").content.decode()
    assert "a-Campaign" in page
    assert "b-Campaign" not in page
