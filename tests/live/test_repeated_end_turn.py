"""A double-clicked End turn is answered as a repeat, not as a race (issue 20).

The second press leaves the board before the first one's event is back, so it carries
the same `seen` under a new id: the table has moved on, but by this player's own end.
"""

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_second_end_turn_with_the_same_seen_says_the_turn_already_ended(table):
    await table.p1.send({"type": "end_turn", "id": "e-1", "seen": 0})
    await table.p1.send({"type": "end_turn", "id": "e-2", "seen": 0})
    assert (await table.p1.get("ack"))["id"] == "e-1"
    reject = await table.p1.get("reject")
    assert reject["id"] == "e-2"
    assert [(r["code"], r["message"]) for r in reject["reasons"]] == [
        ("turn_already_ended", "Your turn has already ended.")
    ]
    await table.p2.get("event")
    assert table.p2.turn["active_side"] == "P2", "ended once: P2 acts"
    assert table.p2.seq == 1


async def test_an_end_turn_behind_another_ones_end_is_still_stale(table):
    """The GM ended P1's turn first: P1's press lost a race, and is told so."""
    await table.gm.send({"type": "end_turn", "id": "g-1", "seen": 0})
    await table.gm.get("ack")
    await table.p1.send({"type": "end_turn", "id": "e-1", "seen": 0})
    assert (await table.p1.get("reject"))["reasons"][0]["code"] == "stale"
