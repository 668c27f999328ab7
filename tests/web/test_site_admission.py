"""What an admin controls about who gets in (issue 22): the SIGNUP switch (open,
invitation only, closed), the admin's own login answered 429 when throttled, and an
admin action that forgets someone's failed logins."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from tabletop.services.campaigns import invitation_create
from tests.web.account_support import PASSWORD, no_limits_counted_yet, signup_data
from tests.web.factories import make_battle_sync

pytestmark = pytest.mark.django_db

__all__ = ["no_limits_counted_yet"]  # fixtures


def test_closed_sign_up_makes_no_account_and_the_header_offers_none(settings) -> None:
    settings.SIGNUP = "closed"
    page = Client().get("/accounts/signup/")
    assert page.status_code == 403
    assert "ask its administrator" in page.content.decode()
    posted = Client().post("/accounts/signup/", signup_data("newcomer", "new@example.org"))
    assert posted.status_code == 403
    assert not get_user_model().objects.filter(username="newcomer").exists()
    assert 'href="/accounts/signup/' not in Client().get("/accounts/login/").content.decode()


def test_invitation_only_sign_up_needs_a_usable_invitation(settings) -> None:
    settings.SIGNUP = "invitation"
    battle, users = make_battle_sync("adm-")
    invitation = invitation_create(campaign=battle.campaign, created_by=users["gm"])
    refused = Client().post("/accounts/signup/", signup_data("drifter", "d@example.org"))
    assert refused.status_code == 403
    assert "invitation link" in refused.content.decode()
    assert not get_user_model().objects.filter(username="drifter").exists()

    join = f"/join/{invitation.token}/"
    invited = Client()
    assert invited.get(f"/accounts/signup/?next={join}").status_code == 200
    data = {**signup_data("guest", "g@example.org"), "next": join}
    made = invited.post("/accounts/signup/", data)
    assert made.status_code == 302
    guest = get_user_model().objects.get(username="guest")
    assert battle.campaign.memberships.filter(user=guest).exists()


def test_open_is_the_default_in_development(settings) -> None:
    assert settings.SIGNUP == "open"
    assert 'href="/accounts/signup/' in Client().get("/accounts/login/").content.decode()


def _fail_admin_logins(times: int) -> None:
    for _ in range(times):
        Client().post("/admin/login/", {"username": "boss", "password": "guess"})


def test_the_admin_login_answers_429_when_throttled(settings) -> None:
    settings.LOGIN_FAILURES_ALLOWED = 2
    get_user_model().objects.create_superuser("boss", "boss@example.org", PASSWORD)
    _fail_admin_logins(2)
    refused = Client().post("/admin/login/", {"username": "boss", "password": PASSWORD})
    assert refused.status_code == 429
    assert "Too many failed logins" in refused.content.decode()


def test_an_admin_lets_someone_in_again_by_forgetting_their_failed_logins(settings) -> None:
    settings.LOGIN_FAILURES_ALLOWED = 2
    player = get_user_model().objects.create_user("alice", "a@example.org", PASSWORD)
    for _ in range(3):
        Client().post("/accounts/login/", {"username": "alice", "password": "guess"})
    login = {"username": "alice", "password": PASSWORD}
    assert Client().post("/accounts/login/", login).status_code == 429

    root = get_user_model().objects.create_superuser("root", "root@example.org", "pw-admin-1")
    staff = Client()
    staff.force_login(root)
    done = staff.post(
        "/admin/auth/user/",
        {"action": "forget_failed_logins", "_selected_action": [player.pk]},
        follow=True,
    )
    assert "Forgot the failed logins of 1 account(s)." in done.content.decode()
    assert Client().post("/accounts/login/", login).status_code == 302


def test_a_command_lets_someone_in_again(settings) -> None:
    settings.LOGIN_FAILURES_ALLOWED = 2
    get_user_model().objects.create_user("bob", "b@example.org", PASSWORD)
    for _ in range(3):
        Client().post("/accounts/login/", {"username": "bob", "password": "guess"})
    login = {"username": "bob", "password": PASSWORD}
    assert Client().post("/accounts/login/", login).status_code == 429
    with pytest.raises(CommandError, match="No account is called nobody"):
        call_command("unlock_login", "bob", "nobody")
    assert Client().post("/accounts/login/", login).status_code == 429  # nothing changed
    out = StringIO()
    call_command("unlock_login", "bob", stdout=out)
    assert "bob may log in again" in out.getvalue()
    assert Client().post("/accounts/login/", login).status_code == 302
