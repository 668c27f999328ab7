"""The admin: a battle's position, sequence number and turn are read-only there; events
can be read but never added, changed or deleted (the referee and the log own them)."""

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tabletop.models import Battle, BattleSide, CommandReply, Event
from tabletop.models.battle import BattleStatus
from tests.web.factories import make_battle_sync

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff() -> Client:
    admin = get_user_model().objects.create_superuser("root", "root@example.org", "pw-admin-1")
    client = Client()
    client.force_login(admin)
    return client


def post_battle_change(staff: Client, battle: Battle, **changes: object) -> Any:
    """Posts the battle's admin form as shown, with `changes` (editable or not); returns
    the form as the admin offered it."""
    page = staff.get(f"/admin/tabletop/battle/{battle.pk}/change/")
    form = page.context["adminform"].form
    data = {name: form.initial.get(name) or "" for name in form.fields}
    data.update({**changes, "sides-TOTAL_FORMS": "0", "sides-INITIAL_FORMS": "0"})
    staff.post(f"/admin/tabletop/battle/{battle.pk}/change/", data)
    return form


def test_a_battle_s_position_sequence_number_and_turn_are_read_only(staff: Client) -> None:
    battle, _ = make_battle_sync("adm-")
    page = staff.get(f"/admin/tabletop/battle/{battle.pk}/change/")
    form = page.context["adminform"].form
    for field in ("state", "last_seq", "turn_state"):
        assert field not in form.fields, f"{field} is editable"
    assert "name" in form.fields  # the rest of the battle stays editable


def test_posting_a_changed_position_to_the_admin_changes_nothing(staff: Client) -> None:
    battle, _ = make_battle_sync("adm-")
    before = Battle.objects.get(pk=battle.pk)
    post_battle_change(
        staff, battle, name="Renamed", state='{"units": []}', last_seq=999, turn_state='{"turn": 9}'
    )
    after = Battle.objects.get(pk=battle.pk)
    assert (after.state, after.last_seq, after.turn_state) == (
        before.state,
        before.last_seq,
        before.turn_state,
    )


def test_events_can_be_read_but_not_added_changed_or_deleted(staff: Client) -> None:
    battle, users = make_battle_sync("adm-")
    event = Event.objects.create(
        battle=battle, seq=1, actor=users["gm"], kind="chat", payload={"text": "hi"}
    )
    listing = staff.get("/admin/tabletop/event/")
    assert listing.status_code == 200
    assert "delete_selected" not in listing.content.decode()
    assert staff.get(f"/admin/tabletop/event/{event.pk}/change/").status_code == 200
    assert staff.get(f"/admin/tabletop/event/{event.pk}/delete/").status_code == 403
    assert (
        staff.post(f"/admin/tabletop/event/{event.pk}/delete/", {"post": "yes"}).status_code == 403
    )
    assert staff.get("/admin/tabletop/event/add/").status_code == 403
    staff.post(
        "/admin/tabletop/event/",
        {"action": "delete_selected", "_selected_action": [event.pk], "post": "yes"},
    )
    assert Event.objects.filter(pk=event.pk).exists()


def test_a_battle_or_campaign_with_events_cannot_be_deleted_there(staff: Client) -> None:
    """Deleting either would delete the events with it (the cascade)."""
    battle, users = make_battle_sync("adm-")
    quiet, _ = make_battle_sync("quiet-")
    Event.objects.create(battle=battle, seq=1, actor=users["gm"], kind="chat", payload={})
    assert staff.get(f"/admin/tabletop/battle/{battle.pk}/delete/").status_code == 403
    assert staff.get(f"/admin/tabletop/campaign/{battle.campaign_id}/delete/").status_code == 403
    assert staff.get(f"/admin/tabletop/battle/{quiet.pk}/delete/").status_code == 200
    staff.post(
        "/admin/tabletop/battle/",
        {"action": "delete_selected", "_selected_action": [battle.pk], "post": "yes"},
    )
    assert Event.objects.filter(battle=battle).count() == 1


def test_a_begun_battle_s_status_campaign_map_and_sides_are_read_only(staff: Client) -> None:
    """Issue 22: set from active back to lobby in the admin, the table served the battle as
    a lobby. Once out of the lobby only the site's services change these."""
    battle, _ = make_battle_sync("adm-")
    other, _ = make_battle_sync("other-")
    assert battle.status != BattleStatus.LOBBY
    form = post_battle_change(
        staff, battle, status=BattleStatus.LOBBY, campaign=other.campaign_id, map=other.map_id
    )
    for field in ("status", "campaign", "map"):
        assert field not in form.fields, f"{field} is editable"
    after = Battle.objects.get(pk=battle.pk)
    assert (after.status, after.campaign_id, after.map_id) == (
        battle.status,
        battle.campaign_id,
        battle.map_id,
    )
    side = BattleSide.objects.filter(battle=battle).first()
    assert side is not None
    assert staff.get(f"/admin/tabletop/battleside/{side.pk}/delete/").status_code == 403
    assert staff.get("/admin/tabletop/battleside/add/").status_code == 403
    # A battle still in the lobby keeps them editable.
    Battle.objects.filter(pk=other.pk).update(status=BattleStatus.LOBBY)
    lobby = staff.get(f"/admin/tabletop/battle/{other.pk}/change/").context["adminform"].form
    assert {"status", "campaign", "map"} <= set(lobby.fields)


def test_stored_command_replies_are_read_only(staff: Client) -> None:
    """A stored reply answers a resend of the same message id: deleted, the resend would be
    judged again (issue 22)."""
    battle, users = make_battle_sync("adm-")
    reply = CommandReply.objects.create(
        battle=battle, actor=users["p1"], client_msg_id="m-1", reply={"type": "ack"}
    )
    assert staff.get(f"/admin/tabletop/commandreply/{reply.pk}/delete/").status_code == 403
    staff.post(
        "/admin/tabletop/commandreply/",
        {"action": "delete_selected", "_selected_action": [reply.pk], "post": "yes"},
    )
    assert CommandReply.objects.filter(pk=reply.pk).exists()
    assert staff.get("/admin/tabletop/commandreply/add/").status_code == 403
