"""Roles are checked on every frame, so a change of role reaches sockets opened before.

A player demoted to spectator kept acting on the socket they had open (issue 15). The
role is read again for each frame (docs/protocol.md, Connecting): the demoted player's
next act is `forbidden`, they get a new `hello` with their role, and from then on they
watch with the spectators (delayed like them); one no longer a member is closed (4403).
"""

import pytest

from tabletop.models import Battle, Membership, Role
from tests.live.conftest import move
from tests.live.helpers import in_thread

pytestmark = pytest.mark.django_db(transaction=True)


@in_thread
def set_role(battle_id: int, user, role: str | None) -> None:
    campaign_id = Battle.objects.get(pk=battle_id).campaign_id
    memberships = Membership.objects.filter(campaign_id=campaign_id, user=user)
    if role is None:
        memberships.delete()
    else:
        memberships.update(role=role)


async def test_a_player_demoted_to_spectator_can_no_longer_act_on_an_open_socket(table):
    await set_role(table.battle.id, table.users["p1"], Role.SPECTATOR)
    act = {"type": "act", "id": "m-1", "seen": 0, "action": move(table.u1, [1.5, 6.5])}
    await table.p1.send(act)
    hello = await table.p1.get("hello")
    assert (hello["you"]["role"], hello["you"]["sides"]) == ("spectator", [])
    error = await table.p1.get("error", "ack")
    assert (error["code"], error["ref"]) == ("forbidden", "m-1")


async def test_a_demoted_player_watches_with_the_spectators_delay(table):
    await table.gm.send({"type": "set_delay", "id": "g-1", "seconds": 3600})
    await table.gm.get("ack")
    await table.p1.get("event")
    await set_role(table.battle.id, table.users["p1"], Role.SPECTATOR)
    await table.p1.send({"type": "chat", "id": "c-1", "text": "I only watch now"})
    assert (await table.p1.get("ack"))["seq"] is None
    await table.p2.send({"type": "chat", "id": "c-2", "text": "their plan"})
    await table.p2.get("ack")
    # Their own line may still come the players' way (it was sent as they changed group);
    # the next one is held back an hour.
    while not await table.p1.quiet(timeout=0.5):
        pass
    assert "their plan" not in [f.get("text") for f in table.p1.frames]


async def test_a_spectator_promoted_to_gm_may_use_gm_commands_at_once(table):
    await set_role(table.battle.id, table.users["spectator"], Role.GM)
    await table.spectator.send({"type": "set_delay", "id": "g-9", "seconds": 5})
    assert (await table.spectator.get("ack", "error"))["type"] == "ack"


async def test_one_removed_from_the_campaign_is_closed_at_their_next_frame(table):
    await set_role(table.battle.id, table.users["p2"], None)
    await table.p2.send({"type": "chat", "id": "c-1", "text": "still here?"})
    closed = await table.p2.io.receive_output(timeout=5)
    while closed["type"] != "websocket.close":
        closed = await table.p2.io.receive_output(timeout=5)
    assert closed["code"] == 4403
