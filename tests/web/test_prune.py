"""`manage.py prune_table`: stale presence rows and old command replies go; the log stays."""

from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.utils import timezone

from tabletop.models import CommandReply, Event, TableConnection
from tests.web.factories import make_battle_sync

pytestmark = pytest.mark.django_db


def test_prune_deletes_stale_presence_and_old_replies_and_keeps_the_rest() -> None:
    battle, users = make_battle_sync("pr-")
    now = timezone.now()
    TableConnection.objects.create(
        battle=battle, user=users["p1"], role="player", channel_name="fresh", last_seen=now
    )
    TableConnection.objects.create(
        battle=battle,
        user=users["p2"],
        role="player",
        channel_name="dead",
        last_seen=now - timedelta(minutes=10),
    )
    old = CommandReply.objects.create(
        battle=battle, actor=users["p1"], client_msg_id="old", reply={"type": "ack"}
    )
    CommandReply.objects.filter(pk=old.pk).update(created_at=now - timedelta(days=8))
    CommandReply.objects.create(
        battle=battle, actor=users["p1"], client_msg_id="new", reply={"type": "ack"}
    )
    Event.objects.create(battle=battle, seq=1, actor=users["p1"], kind="chat", payload={})
    Event.objects.filter(battle=battle).update(created_at=now - timedelta(days=30))

    expired, live = SessionStore(), SessionStore()
    expired.set_expiry(-60)  # expired a minute ago
    expired.create()
    live.create()

    out = StringIO()
    call_command("prune_table", "--replies-days", "7", stdout=out)

    assert list(TableConnection.objects.values_list("channel_name", flat=True)) == ["fresh"]
    assert list(CommandReply.objects.values_list("client_msg_id", flat=True)) == ["new"]
    assert Event.objects.filter(battle=battle).count() == 1
    assert "pruned 1 stale presence rows" in out.getvalue()
    assert "1 command replies (older than 7 days)" in out.getvalue()
    assert list(Session.objects.values_list("session_key", flat=True)) == [live.session_key]
    assert "1 expired login sessions" in out.getvalue()


def test_prune_frees_the_names_of_sign_ups_never_verified(settings) -> None:
    """A sign-up whose link expired unopened held its name and address for good (issue 21's
    verification); one that joined a campaign, logged in, or is staff is kept."""
    settings.ACCOUNT_VERIFICATION_SECONDS = 3 * 24 * 3600
    battle, users = make_battle_sync("pv-")
    User = get_user_model()
    long_ago = timezone.now() - timedelta(days=4)

    def account(name: str, **fields) -> None:
        User.objects.create_user(name, f"{name}@example.org", "pw-Prune-1", **fields)
        User.objects.filter(username=name).update(date_joined=long_ago)

    account("lapsed", is_active=False)
    account("staffer", is_active=False, is_staff=True)
    account("active")
    User.objects.create_user("recent", "recent@example.org", "pw-Prune-1", is_active=False)
    User.objects.filter(pk=users["p1"].pk).update(is_active=False, date_joined=long_ago)

    out = StringIO()
    call_command("prune_table", stdout=out)
    assert not User.objects.filter(username="lapsed").exists()
    for kept in ("staffer", "active", "recent", users["p1"].username):  # p1 is a member
        assert User.objects.filter(username=kept).exists(), kept
    assert "and 1 sign-ups whose verification link expired unopened" in out.getvalue()
