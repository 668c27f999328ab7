"""Accounts: sign up with an email, log in and out, change and reset a password by mail,
login throttling, and the home page listing your campaigns."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from tests.web.account_support import PASSWORD, no_limits_counted_yet, signup_data
from tests.web.factories import make_battle_sync

pytestmark = pytest.mark.django_db

__all__ = ["no_limits_counted_yet"]  # the autouse fixture: each test starts with no counts


def test_signing_up_creates_the_account_with_its_email_and_logs_in() -> None:
    client = Client()
    response = client.post(
        "/accounts/signup/",
        {
            "username": "newbie",
            "email": "newbie@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302
    user = get_user_model().objects.get(username="newbie")
    assert user.email == "newbie@example.org"
    assert client.get("/").context["user"].username == "newbie"


def test_signing_up_needs_an_email_address() -> None:
    without = Client().post(
        "/accounts/signup/", {"username": "a", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert "email" in without.context["form"].errors
    assert not get_user_model().objects.filter(username="a").exists()


def test_signing_up_with_an_address_in_use_makes_no_account_and_mails_its_owner() -> None:
    get_user_model().objects.create_user("first", email="taken@example.org")
    taken = Client().post("/accounts/signup/", signup_data("b", "TAKEN@example.org"), follow=True)
    assert "Check your mail" in taken.content.decode()
    assert "exists already" not in taken.content.decode()
    assert list(get_user_model().objects.values_list("username", flat=True)) == ["first"]
    [notice] = mail.outbox
    assert notice.to == ["taken@example.org"]
    assert 'belongs to your account "first"' in notice.body
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", notice.body)
    choose = Client().get(link.group(1), follow=True)
    assert "Choose a new password" in choose.content.decode()  # a working reset link


def test_a_bad_signup_shows_the_error_and_creates_nothing() -> None:
    response = Client().post(
        "/accounts/signup/",
        {"username": "x", "email": "x@example.org", "password1": "a", "password2": "b"},
    )
    assert response.status_code == 200
    assert "password2" in response.context["form"].errors
    assert not get_user_model().objects.filter(username="x").exists()


def test_logging_in_and_out() -> None:
    get_user_model().objects.create_user("gm", password=PASSWORD)
    client = Client()
    response = client.post("/accounts/login/", {"username": "gm", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get("/").context["user"].is_authenticated
    client.post("/accounts/logout/")
    assert not client.get("/").context["user"].is_authenticated


def test_a_wrong_password_does_not_log_in() -> None:
    get_user_model().objects.create_user("gm", password=PASSWORD)
    client = Client()
    response = client.post("/accounts/login/", {"username": "gm", "password": "nope"})
    assert response.status_code == 200
    assert not client.get("/").context["user"].is_authenticated


def test_the_login_page_links_to_password_reset_and_pages_to_password_change() -> None:
    get_user_model().objects.create_user("gm", password=PASSWORD)
    assert 'href="/accounts/password_reset/"' in Client().get("/accounts/login/").content.decode()
    client = Client()
    client.login(username="gm", password=PASSWORD)
    assert 'href="/accounts/password_change/"' in client.get("/").content.decode()


def test_password_reset_end_to_end_with_the_mail_captured() -> None:
    """The site's own pages (not the admin's), a mail with a one-time link, a new password."""
    get_user_model().objects.create_user("alice", email="alice@example.org", password=PASSWORD)
    client = Client()
    form = client.get("/accounts/password_reset/")
    assert "Reset your password" in form.content.decode()
    assert "Django administration" not in form.content.decode()
    sent = client.post("/accounts/password_reset/", {"email": "alice@example.org"}, follow=True)
    assert "Check your mail" in sent.content.decode()

    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["alice@example.org"]
    assert message.subject == "Reset your Tabletop password"
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", message.body)
    assert link, message.body

    choose = client.get(link.group(1), follow=True)
    assert "Choose a new password" in choose.content.decode()
    done = client.post(
        choose.redirect_chain[-1][0],
        {"new_password1": "Another-Pass-77", "new_password2": "Another-Pass-77"},
        follow=True,
    )
    assert "Password set" in done.content.decode()
    assert Client().login(username="alice", password="Another-Pass-77")
    assert not Client().login(username="alice", password=PASSWORD)
    used_again = client.get(link.group(1), follow=True)
    assert "This link does not work" in used_again.content.decode()


def test_password_reset_for_an_unknown_address_sends_nothing_and_says_the_same() -> None:
    response = Client().post(
        "/accounts/password_reset/", {"email": "nobody@example.org"}, follow=True
    )
    assert "Check your mail" in response.content.decode()
    assert mail.outbox == []


def test_changing_the_password_on_the_site_s_own_page() -> None:
    get_user_model().objects.create_user("gm", password=PASSWORD)
    client = Client()
    client.login(username="gm", password=PASSWORD)
    page = client.get("/accounts/password_change/").content.decode()
    assert "Change your password" in page and "Django administration" not in page
    response = client.post(
        "/accounts/password_change/",
        {
            "old_password": PASSWORD,
            "new_password1": "Brand-New-99",
            "new_password2": "Brand-New-99",
        },
        follow=True,
    )
    assert "Password changed" in response.content.decode()
    assert Client().login(username="gm", password="Brand-New-99")


def test_logins_are_refused_after_five_failures_even_with_the_right_password(settings) -> None:
    settings.LOGIN_FAILURES_ALLOWED = 5
    get_user_model().objects.create_user("gm", password=PASSWORD)
    client = Client()
    for _ in range(5):
        wrong = client.post("/accounts/login/", {"username": "gm", "password": "guess"})
        assert wrong.status_code == 200
    locked = client.post("/accounts/login/", {"username": "gm", "password": PASSWORD})
    assert locked.status_code == 429
    assert "Too many failed logins" in locked.content.decode()
    assert "Try again in 1 minute" in locked.content.decode()
    assert not client.get("/").context["user"].is_authenticated


def test_a_success_clears_the_count_of_failures_for_that_name(settings) -> None:
    settings.LOGIN_FAILURES_ALLOWED = 3
    get_user_model().objects.create_user("gm", password=PASSWORD)
    for _ in range(2):
        Client().post("/accounts/login/", {"username": "gm", "password": "guess"})
    assert (
        Client().post("/accounts/login/", {"username": "gm", "password": PASSWORD}).status_code
        == 302
    )
    for _ in range(2):
        Client().post("/accounts/login/", {"username": "gm", "password": "guess"})
    assert (
        Client().post("/accounts/login/", {"username": "gm", "password": PASSWORD}).status_code
        == 302
    )


def test_one_address_trying_many_names_is_throttled_too(settings) -> None:
    """LOGIN_ADDRESS_FAILURES_ALLOWED across names, each tried once (within its own allowance)."""
    settings.LOGIN_FAILURES_ALLOWED = 2
    settings.LOGIN_ADDRESS_FAILURES_ALLOWED = 20
    get_user_model().objects.create_user("gm", password=PASSWORD)
    for n in range(20):
        Client().post("/accounts/login/", {"username": f"name{n}", "password": "guess"})
    refused = Client().post("/accounts/login/", {"username": "gm", "password": PASSWORD})
    assert refused.status_code == 429
    assert "from your address" in refused.content.decode()
    elsewhere = Client(REMOTE_ADDR="10.0.0.9").post(
        "/accounts/login/", {"username": "gm", "password": PASSWORD}
    )
    assert elsewhere.status_code == 302


def test_the_admin_login_is_throttled_like_the_site_s(settings) -> None:
    settings.LOGIN_FAILURES_ALLOWED = 2
    get_user_model().objects.create_superuser("boss", "boss@example.org", PASSWORD)
    for _ in range(2):
        Client().post("/admin/login/", {"username": "boss", "password": "guess"})
    refused = Client().post("/admin/login/", {"username": "boss", "password": PASSWORD})
    assert "Too many failed logins" in refused.content.decode()


def test_the_home_page_lists_only_the_campaigns_you_belong_to() -> None:
    battle, users = make_battle_sync("a-")
    make_battle_sync("b-")
    client = Client()
    client.force_login(users["p1"])
    page = client.get("/").content.decode()
    assert "a-Campaign" in page
    assert "b-Campaign" not in page
