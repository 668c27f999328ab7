"""Open sockets lose the rights their user lost, at once (issue 21; docs/protocol.md,
"Rights on an open socket").

A player demoted to spectator kept the undelayed stream and could `resume` from 0; a
member removed from the campaign kept receiving events and could replay the log: roles
were read only when a frame asked a service. Now every change of a user's rights tells
their sockets through the channel layer, after commit: a new role closes the socket with
4401 (the board reconnects in the new role), no longer a member with 4403.
"""

from typing import Any

import pytest

from tabletop import consumers, limits
from tabletop.models import Battle, Membership, Role
from tabletop.services.campaigns import membership_set
from tabletop.services.table import rights
from tests.live.conftest import move
from tests.live.helpers import in_thread, open_socket, refused_with

pytestmark = pytest.mark.django_db(transaction=True)


@in_thread
def set_role(battle_id: int, user, role: str) -> None:
    """The GM's change of a member's role, through the service the campaign page uses."""
    campaign = Battle.objects.select_related("campaign").get(pk=battle_id).campaign
    membership_set(campaign=campaign, user=user, role=role, actor=campaign.gm)


@in_thread
def remove_member(battle_id: int, user) -> None:
    """A member removed from the campaign, as the admin deletes them."""
    campaign_id = Battle.objects.get(pk=battle_id).campaign_id
    Membership.objects.filter(campaign_id=campaign_id, user=user).delete()


async def test_a_demoted_player_is_cut_from_the_live_stream_and_resumes_delayed(table):
    await table.gm.send({"type": "set_delay", "id": "g-1", "seconds": 3600})
    await table.gm.get("ack")
    await table.p1.get("event")
    await set_role(table.battle.id, table.users["p1"], Role.SPECTATOR)
    # Closed at once, with nothing more from the live stream, before anyone acts again.
    assert await table.p1.closed_with() == rights.CLOSE_RIGHTS_CHANGED
    await table.p2.send({"type": "chat", "id": "c-2", "text": "their plan"})
    await table.p2.get("ack")
    assert "their plan" not in [f.get("text") for f in table.p1.frames]
    # The board reconnects from its seq, and is a spectator an hour behind.
    again = await open_socket(table.battle.id, table.users["p1"], query="seq=0")
    assert (again.hello["you"]["role"], again.hello["you"]["sides"]) == ("spectator", [])
    await again.send({"type": "resume", "seq": 0})
    assert (await again.get("resumed"))["seq"] == 0
    act = {"type": "act", "id": "m-1", "seen": 0, "action": move(table.u1, [1.5, 6.5])}
    await again.send(act)
    error = await again.get("error", "ack")
    assert (error["code"], error["ref"]) == ("forbidden", "m-1")
    assert not [f for f in again.frames if f["type"] == "event"]
    await again.close()


async def test_a_spectator_made_player_reconnects_as_player_and_may_roll(table):
    await set_role(table.battle.id, table.users["spectator"], Role.PLAYER)
    assert await table.spectator.closed_with() == rights.CLOSE_RIGHTS_CHANGED
    again = await open_socket(table.battle.id, table.users["spectator"])
    assert again.hello["you"]["role"] == "player"
    await again.send({"type": "roll", "id": "r-9", "dice": 1, "sides": 6})
    assert (await again.get("ack", "error"))["type"] == "ack"
    await again.close()


async def test_one_removed_from_the_campaign_is_closed_at_once_and_cannot_replay(table):
    await remove_member(table.battle.id, table.users["p2"])
    assert await table.p2.closed_with() == limits.CLOSE_FORBIDDEN
    # Nor can they come back to read the log from the start.
    code = await refused_with(table.battle.id, table.users["p2"], query="seq=0")
    assert code == limits.CLOSE_FORBIDDEN


def demote_quietly(table) -> Any:
    """p1 made a spectator by a bulk update: no notice is sent (as if one were lost)."""
    campaign_id, user = table.battle.campaign_id, table.users["p1"]
    return in_thread(
        lambda: Membership.objects.filter(campaign_id=campaign_id, user=user).update(
            role=Role.SPECTATOR
        )
    )()


async def test_a_role_changed_without_a_notice_is_found_by_the_next_resume(table):
    await demote_quietly(table)
    await table.p1.send({"type": "resume", "seq": 0})
    assert await table.p1.closed_with() == rights.CLOSE_RIGHTS_CHANGED
    assert not [f for f in table.p1.frames if f["type"] in ("event", "resumed")]


async def test_a_role_changed_without_a_notice_is_found_by_a_broadcast_once_due(table, monkeypatch):
    """A socket that only listens reads its rights again when its last read is
    RIGHTS_RECHECK_S old (here at once): the next event prompts it."""
    monkeypatch.setattr(consumers, "RIGHTS_RECHECK_S", 0.0)
    await demote_quietly(table)
    await table.p2.send({"type": "chat", "id": "c-1", "text": "anyone?"})
    await table.p2.get("ack")
    assert await table.p1.closed_with() == rights.CLOSE_RIGHTS_CHANGED
