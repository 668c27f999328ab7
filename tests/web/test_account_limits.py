"""Issue 21, parts 5 and 6: login back-off that a stranger cannot turn into a lock-out,
and limits on reset mail, sign-up and wrong current passwords."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from tests.web.account_support import (
    PASSWORD,
    Clock,
    clock,
    no_limits_counted_yet,
    signup_data,
)

pytestmark = pytest.mark.django_db

__all__ = ["clock", "no_limits_counted_yet"]  # fixtures

OWNER = "127.0.0.1"
STRANGER = "10.6.6.6"


def log_in(address: str, password: str, username: str = "gm"):
    return Client(REMOTE_ADDR=address).post(
        "/accounts/login/", {"username": username, "password": password}
    )


def test_a_stranger_s_failures_from_another_address_do_not_stop_the_owner(settings) -> None:
    settings.LOGIN_FAILURES_ALLOWED = 5
    get_user_model().objects.create_user("gm", password=PASSWORD)
    for _ in range(12):
        log_in(STRANGER, "guess")
    stranger = log_in(STRANGER, PASSWORD)
    assert stranger.status_code == 429
    assert "Try again in" in stranger.content.decode()
    assert log_in(OWNER, PASSWORD).status_code == 302


def test_each_failure_past_the_allowance_doubles_the_wait_up_to_the_cap(
    settings, clock: Clock
) -> None:
    settings.LOGIN_FAILURES_ALLOWED = 3
    settings.LOGIN_BACKOFF_SECONDS = 60
    settings.LOGIN_BACKOFF_MAX_SECONDS = 240
    get_user_model().objects.create_user("gm", password=PASSWORD)
    for _ in range(3):
        assert log_in(STRANGER, "guess").status_code == 200
    waits = []
    for _ in range(4):
        refused = log_in(STRANGER, PASSWORD)
        assert refused.status_code == 429
        waits.append(re.search(r"Try again in (\d+ \w+)", refused.content.decode()).group(1))
        clock.advance(59)
        assert log_in(STRANGER, PASSWORD).status_code == 429  # still waiting
        clock.advance(241 - 59)  # past any wait: one more guess, which fails again
        assert log_in(STRANGER, "guess").status_code == 200
    assert waits == ["1 minute", "2 minutes", "4 minutes", "4 minutes"]
    clock.advance(241)
    assert log_in(STRANGER, PASSWORD).status_code == 302


def test_a_name_failing_from_many_addresses_slows_new_addresses_not_the_owner_s_usual_one(
    settings,
) -> None:
    """The per-name ceiling: a distributed guesser waits; the owner's usual address does not."""
    settings.LOGIN_NAME_FAILURES_ALLOWED = 6
    get_user_model().objects.create_user("gm", password=PASSWORD)
    assert log_in(OWNER, PASSWORD).status_code == 302  # the owner's usual address
    for n in range(6):
        assert log_in(f"10.0.0.{n}", "guess").status_code == 200  # one guess per address
    new_place = log_in("10.9.9.9", PASSWORD)
    assert new_place.status_code == 429
    assert "from many places" in new_place.content.decode()
    assert log_in(OWNER, PASSWORD).status_code == 302


def test_the_address_an_account_was_made_from_is_one_it_uses(settings) -> None:
    settings.LOGIN_NAME_FAILURES_ALLOWED = 2
    made = Client(REMOTE_ADDR=OWNER).post("/accounts/signup/", signup_data("gm", "gm@example.org"))
    assert made.status_code == 302
    for n in range(2):
        log_in(f"10.0.0.{n}", "guess")
    assert log_in("10.9.9.9", PASSWORD).status_code == 429
    assert log_in(OWNER, PASSWORD).status_code == 302


def reset_password(client: Client, email: str, new_password: str) -> None:
    client.post("/accounts/password_reset/", {"email": email})
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.outbox[-1].body)
    choose = client.get(link.group(1), follow=True)
    done = client.post(
        choose.redirect_chain[-1][0],
        {"new_password1": new_password, "new_password2": new_password},
        follow=True,
    )
    assert "Password set" in done.content.decode()


def test_a_completed_password_reset_lets_the_new_password_in_at_once(settings) -> None:
    settings.LOGIN_FAILURES_ALLOWED = 3
    settings.LOGIN_NAME_FAILURES_ALLOWED = 3
    get_user_model().objects.create_user("gm", email="gm@example.org", password=PASSWORD)
    for _ in range(3):
        log_in(OWNER, "forgotten")
    assert log_in(OWNER, PASSWORD).status_code == 429
    reset_password(Client(REMOTE_ADDR=OWNER), "gm@example.org", "Remembered-Now-42")
    assert log_in(OWNER, "Remembered-Now-42").status_code == 302
    assert log_in("10.9.9.9", "Remembered-Now-42").status_code == 302  # the name's count too


def test_reset_mail_is_limited_per_address(settings) -> None:
    settings.PASSWORD_RESET_REQUESTS_PER_ADDRESS = 3
    settings.MAILS_PER_ACCOUNT = 100
    get_user_model().objects.create_user("gm", email="gm@example.org", password=PASSWORD)
    answers = [
        Client(REMOTE_ADDR=STRANGER).post("/accounts/password_reset/", {"email": "gm@example.org"})
        for _ in range(10)
    ]
    assert [answer.status_code for answer in answers] == [302] * 3 + [429] * 7
    assert "Try again in 60 minutes" in answers[-1].content.decode()
    assert len(mail.outbox) == 3


def test_reset_mail_to_one_account_is_limited_and_the_page_says_the_same(settings) -> None:
    settings.MAILS_PER_ACCOUNT = 2
    get_user_model().objects.create_user("gm", email="gm@example.org", password=PASSWORD)
    answers = [
        Client(REMOTE_ADDR=f"10.0.0.{n}").post(
            "/accounts/password_reset/", {"email": "gm@example.org"}, follow=True
        )
        for n in range(5)
    ]
    unknown = Client(REMOTE_ADDR="10.0.1.1").post(
        "/accounts/password_reset/", {"email": "nobody@example.org"}, follow=True
    )
    assert {answer.content for answer in answers} == {unknown.content}
    assert len(mail.outbox) == 2


def test_sign_up_is_limited_per_address(settings) -> None:
    settings.SIGNUPS_PER_ADDRESS = 2
    answers = [
        Client(REMOTE_ADDR=STRANGER).post(
            "/accounts/signup/", signup_data(f"bot{n}", f"bot{n}@example.org")
        )
        for n in range(4)
    ]
    assert [answer.status_code for answer in answers] == [302, 302, 429, 429]
    assert "Too many sign-ups from your address" in answers[-1].content.decode()
    assert get_user_model().objects.filter(username__startswith="bot").count() == 2
    elsewhere = Client(REMOTE_ADDR=OWNER).post(
        "/accounts/signup/", signup_data("player", "player@example.org")
    )
    assert elsewhere.status_code == 302


def test_password_change_is_limited_after_wrong_current_passwords(settings) -> None:
    settings.PASSWORD_CHANGE_FAILURES_ALLOWED = 3
    user = get_user_model().objects.create_user("gm", password=PASSWORD)
    client = Client()
    client.force_login(user)

    def change(old: str):
        new = {"new_password1": "Brand-New-99", "new_password2": "Brand-New-99"}
        return client.post("/accounts/password_change/", {"old_password": old, **new})

    for _ in range(3):
        assert change("guess").status_code == 200
    refused = change(PASSWORD)
    assert refused.status_code == 429
    assert "Too many wrong current passwords. Try again in" in refused.content.decode()
    user.refresh_from_db()
    assert user.check_password(PASSWORD)
