"""Issue 21, part 6: optional email verification (on by default when DEBUG is off), and a
sign-up that never tells whose an email address is."""

import os
import re
import subprocess
import sys
import time
from types import SimpleNamespace

import pytest
from django.contrib.auth import get_user_model
from django.core import mail, signing
from django.test import Client
from django.urls import reverse

from tabletop.models import Membership
from tabletop.services.campaigns import campaign_create, invitation_create
from tests.conftest import ROOT
from tests.web.account_support import PASSWORD, no_limits_counted_yet, signup_data

pytestmark = pytest.mark.django_db

__all__ = ["no_limits_counted_yet"]  # the autouse fixture


@pytest.fixture(autouse=True)
def verification_on(settings) -> None:
    settings.ACCOUNT_EMAIL_VERIFICATION = True


def verification_link(message) -> str:
    link = re.search(r"http://testserver(/accounts/verify/\S+/)", message.body)
    assert link, message.body
    return link.group(1)


def log_in(password: str = PASSWORD):
    return Client().post("/accounts/login/", {"username": "newbie", "password": password})


def test_an_unverified_account_cannot_log_in_until_its_mailed_link_is_opened() -> None:
    assert "We mail a link to the address" in Client().get("/accounts/signup/").content.decode()
    answer = Client().post("/accounts/signup/", signup_data("newbie", "newbie@example.org"))
    assert answer["Location"] == reverse("signup_done")
    assert not get_user_model().objects.get(username="newbie").is_active
    refused = log_in()
    assert refused.status_code == 200
    assert "not verified yet" in refused.content.decode()
    assert "We have mailed the link again" in refused.content.decode()
    assert "not verified yet" not in log_in("a-wrong-guess").content.decode()

    assert [message.to for message in mail.outbox] == [["newbie@example.org"]] * 2
    assert mail.outbox[0].subject == "Verify your Tabletop account"
    browser = Client()
    link = verification_link(mail.outbox[0])
    assert "Verify and log in" in browser.get(link).content.decode()
    assert get_user_model().objects.get(username="newbie").is_active is False  # a GET is not it
    opened = browser.post(link, follow=True)
    assert "Your email address is verified" in opened.content.decode()
    assert opened.context["user"].username == "newbie"
    assert log_in().status_code == 302

    again = Client().post(link)
    assert again.status_code == 400 and "used already" in again.content.decode()


def test_an_expired_link_is_refused(settings, monkeypatch: pytest.MonkeyPatch) -> None:
    settings.ACCOUNT_VERIFICATION_SECONDS = 3 * 24 * 3600
    Client().post("/accounts/signup/", signup_data("newbie", "newbie@example.org"))
    link = verification_link(mail.outbox[0])
    four_days_later = SimpleNamespace(time=lambda: time.time() + 4 * 24 * 3600)
    monkeypatch.setattr(signing, "time", four_days_later)  # the signer's clock only
    answer = Client().post(link)
    assert answer.status_code == 400 and "too old" in answer.content.decode()
    assert not get_user_model().objects.get(username="newbie").is_active


def test_a_forged_link_is_refused() -> None:
    Client().post("/accounts/signup/", signup_data("newbie", "newbie@example.org"))
    user = get_user_model().objects.get(username="newbie")
    unsigned = signing.dumps({"u": user.pk, "s": "x", "n": ""}, salt="another salt")
    for token in (unsigned, verification_link(mail.outbox[0]).split("/")[-2] + "x"):
        answer = Client().post(reverse("account_verify", args=[token]))
        assert answer.status_code == 400 and "does not work" in answer.content.decode()
    user.refresh_from_db()
    assert not user.is_active


def test_signing_up_from_an_invitation_ends_on_the_campaign_once_verified() -> None:
    gm = get_user_model().objects.create_user("v-gm", password=PASSWORD)
    campaign = campaign_create(gm=gm, name="Kearny", system="aod")
    link = reverse("join", args=[invitation_create(campaign=campaign, created_by=gm).token])
    signup = Client().post(
        "/accounts/signup/", {**signup_data("newbie", "newbie@example.org"), "next": link}
    )
    assert signup["Location"] == reverse("signup_done")
    assert not Membership.objects.filter(user__username="newbie").exists()
    opened = Client().post(verification_link(mail.outbox[0]))
    assert opened["Location"] == reverse("campaign", args=[campaign.pk])
    assert Membership.objects.get(campaign=campaign, user__username="newbie").role == "player"


def test_an_address_in_use_gets_the_same_answer_as_a_new_one_and_its_owner_a_mail() -> None:
    get_user_model().objects.create_user("first", email="taken@example.org", password=PASSWORD)
    new = Client().post("/accounts/signup/", signup_data("second", "new@example.org"), follow=True)
    taken = Client().post(
        "/accounts/signup/", signup_data("third", "Taken@example.org"), follow=True
    )
    assert (taken.status_code, taken.redirect_chain) == (new.status_code, new.redirect_chain)
    assert taken.content == new.content
    assert not get_user_model().objects.filter(username="third").exists()
    assert [message.to for message in mail.outbox] == [["new@example.org"], ["taken@example.org"]]
    assert "Someone tried to sign up" in mail.outbox[1].subject


def test_signing_up_again_while_unverified_mails_the_link_again() -> None:
    Client().post("/accounts/signup/", signup_data("newbie", "newbie@example.org"))
    Client().post("/accounts/signup/", signup_data("newbie2", "newbie@example.org"))
    assert [message.subject for message in mail.outbox] == ["Verify your Tabletop account"] * 2
    Client().post(verification_link(mail.outbox[1]))
    assert log_in().status_code == 302
    assert not get_user_model().objects.filter(username="newbie2").exists()


def test_verification_is_on_by_default_in_production_off_in_development() -> None:
    probe = "import django; from django.conf import settings; django.setup(); " + (
        "print(settings.ACCOUNT_EMAIL_VERIFICATION)"
    )
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DEBUG", "ACCOUNT_EMAIL_VERIFICATION"}
    }
    production = {**env, "DEBUG": "false", "SECRET_KEY": "p" * 50}
    answers = [
        subprocess.run(
            [sys.executable, "-c", probe], env=e, cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()
        for e in (production, env)
    ]
    assert answers == ["True", "False"]
