"""Client message ids, as docs/protocol.md ("Message ids") says: one rule for a resend.

A resent id gets the answer stored for it, a refusal included (it is not judged again),
and is applied at most once; the same id with another frame is refused with its own
code, `id_reused`, instead of silently getting the answer meant for the first frame
(issue 15).
"""

import pytest

from tabletop.models import Event
from tests.live.conftest import move
from tests.live.helpers import in_thread

pytestmark = pytest.mark.django_db(transaction=True)


@in_thread
def event_count(battle_id: int) -> int:
    return Event.objects.filter(battle_id=battle_id).count()


async def test_an_id_reused_for_another_act_is_refused_with_its_own_code(table):
    await table.p1.send(
        {"type": "act", "id": "m-1", "seen": 0, "action": move(table.u1, [1.5, 6.5])}
    )
    assert (await table.p1.get("ack"))["seq"] == 1
    other = {"type": "act", "id": "m-1", "seen": 1, "action": move(table.u1, [1.5, 7.5])}
    await table.p1.send(other)
    error = await table.p1.get("error", "ack", "reject")
    assert (error["type"], error["code"], error["field"], error["ref"]) == (
        "error",
        "id_reused",
        "id",
        "m-1",
    )
    assert await event_count(table.battle.id) == 1


async def test_an_id_reused_for_another_chat_line_is_refused(table):
    await table.p1.send({"type": "chat", "id": "c-1", "text": "first"})
    await table.p1.get("ack")
    await table.p1.send({"type": "chat", "id": "c-1", "text": "second"})
    assert (await table.p1.get("error", "ack"))["code"] == "id_reused"
    assert await event_count(table.battle.id) == 1


async def test_a_resent_refused_id_gets_the_stored_refusal_even_when_the_table_changed(table):
    """P2 orders out of turn; after P1's turn ends, the same frame would be judged
    differently, yet its resend gets the refusal it had: a refused id is spent."""
    frame = {"type": "act", "id": "m-2", "seen": 0, "action": move(table.u2, [10.5, 6.5])}
    await table.p2.send(frame)
    first = await table.p2.get("reject")
    assert first["reasons"][0]["code"] == "not_your_turn"
    await table.p1.send({"type": "end_turn", "id": "e-1"})
    await table.p1.get("ack")
    await table.p2.send(frame)
    assert await table.p2.get("reject") == first
    assert await event_count(table.battle.id) == 1
