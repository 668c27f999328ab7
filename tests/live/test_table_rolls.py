"""Dice the engine rolls at the live table: only a commit rolls, and a failed roll that the
rules make costly is committed (design.md, "The life of a move" 5 and 6; docs/protocol.md).

P1's 'Mech starts in base contact with P2's, so moving it away needs a breakaway roll of
3-6 on a d6 (000 [16]); a failure spends the order (000 [16-17], AOD-D23).
"""

from dataclasses import dataclass

import pytest

import rules.engine.dice
from tabletop.models import Battle
from tests.live.conftest import Table, make_table_sync, move, seat
from tests.live.helpers import battle_row, event_count, in_thread, open_socket

pytestmark = pytest.mark.django_db(transaction=True)

#: Away from the enemy, well within the 'Mech's 10" and clear of its base.
AWAY = [10, 14]


def make_contact_table_sync(orders: int) -> tuple[Battle, dict]:
    """The live tests' battle with P1's 'Mech (base 1.75") touching P2's at the start."""
    battle, users = make_table_sync(orders=orders)
    units = battle.state["units"]
    p1 = next(u for u in units if u["side"] == "P1")
    p2 = next(u for u in units if u["side"] == "P2")
    p1.update(position=[10, 10], facing=0)
    p2.update(position=[11.75, 10], facing=180)
    battle.save(update_fields=["state"])
    return battle, users


make_contact_table = in_thread(make_contact_table_sync)


async def open_table(orders: int) -> Table:
    return await seat(*await make_contact_table(orders))


@pytest.fixture
async def contact(transactional_db):
    table = await open_table(orders=2)
    yield table
    await table.leave()


@dataclass
class RecordedDie:
    """Stands in for `secrets` in the engine's dice: answers `face` and counts the calls."""

    face: int
    calls: int = 0

    def randbelow(self, sides: int) -> int:
        self.calls += 1
        return self.face - 1


@pytest.fixture
def die(monkeypatch):
    """The engine's random source, fixed to a face per test; `die.calls` counts rolls."""
    recorded = RecordedDie(face=1)
    monkeypatch.setattr(rules.engine.dice, "secrets", recorded)
    return recorded


def act(frame_id: str, seen: int, unit: str) -> dict:
    return {"type": "act", "id": frame_id, "seen": seen, "action": move(unit, AWAY)}


async def test_a_failed_breakaway_spends_the_order_and_shows_its_roll_to_every_client(contact, die):
    die.face = 2  # 2 fails against 3-6 (000 [16])
    await contact.p1.send(act("m-1", 0, contact.u1))

    reply = await contact.p1.get("reject")
    assert reply["reasons"][0]["code"] == "breakaway_failed"
    assert "needed 3-6" in reply["reasons"][0]["message"]
    assert (reply["event"], reply["seq"]) == (1, 1)  # refused, with a consequence: event 1
    for socket in contact.sockets:
        event = await socket.get("event")
        assert (event["seq"], event["kind"], event["id"]) == (1, "act", "m-1")
        assert event["verdict"]["legal"] is False
        assert event["verdict"]["reasons"][0]["code"] == "breakaway_failed"
        assert event["rolls"] == [
            {"what": "breakaway", "die": "d6", "result": 2, "needed": "3-6", "success": False}
        ]
        # The unit stays; its order is spent (AOD-D23).
        assert socket.unit(contact.u1)["position"] == [10, 10]
        assert socket.state["state"]["orders_used"] == 1
        assert socket.state["state"]["ordered"] == [contact.u1]
    assert die.calls == 1

    late = await open_socket(contact.battle.id, contact.users["spectator"])
    [roll] = late.frames[-1]["dice"]
    assert (roll["seq"], roll["actor"], roll["what"], roll["result"]) == (1, "p1", "breakaway", 2)
    await late.close()


async def test_after_a_failed_breakaway_a_retry_is_refused_and_rolls_no_die(contact, die):
    """The unit has been given its order this turn (001 [13]): no second roll."""
    die.face = 1
    await contact.p1.send(act("m-1", 0, contact.u1))
    await contact.p1.get("reject")
    await contact.p1.send(act("m-2", 1, contact.u1))

    retry = await contact.p1.get("reject")
    assert retry["reasons"][0]["code"] == "order_not_allowed"
    assert "already been given an order" in retry["reasons"][0]["message"]
    assert retry["event"] is None
    assert die.calls == 1
    assert (await battle_row(contact.battle.id)).last_seq == 1


async def test_a_failed_breakaway_that_spends_the_last_order_leaves_none_to_retry(
    transactional_db, die
):
    table = await open_table(orders=1)
    try:
        await table.p1.send(act("m-1", 0, table.u1))
        assert (await table.p1.get("reject"))["event"] == 1
        await table.p1.send(act("m-2", 1, table.u1))
        assert (await table.p1.get("reject"))["reasons"][0]["code"] == "no_actions_left"
        assert die.calls == 1
    finally:
        for socket in table.sockets:
            await socket.close()


async def test_a_resent_failed_breakaway_gets_the_same_answer_and_never_rerolls(contact, die):
    await contact.p1.send(act("m-1", 0, contact.u1))
    first = await contact.p1.get("reject")
    await contact.p1.send(act("m-1", 0, contact.u1))
    assert await contact.p1.get("reject") == first
    assert die.calls == 1
    assert await event_count(contact.battle.id) == 1


async def test_a_preview_of_a_breakaway_reports_the_roll_needed_and_rolls_nothing(contact, die):
    await contact.p1.send({"type": "preview", "ref": "d1", "action": move(contact.u1, AWAY)})

    answer = await contact.p1.get("verdict")
    verdict = answer["verdict"]
    assert verdict["legal"] is True, verdict["reasons"]
    [roll] = verdict["rolls"]
    assert (roll["what"], roll["die"], roll["needed"]) == ("breakaway", "d6", "3-6")
    assert (roll["result"], roll["success"], roll["pending"]) == (None, None, True)
    assert "order is spent" in roll["decides"]
    assert die.calls == 0
    assert answer["seq"] == 0
    assert (await battle_row(contact.battle.id)).last_seq == 0
    assert await event_count(contact.battle.id) == 0
    assert await contact.p2.quiet()


async def test_the_commit_after_a_preview_rolls_on_the_server_and_a_success_moves(contact, die):
    die.face = 3  # 3 succeeds against 3-6 (000 [16])
    await contact.p1.send({"type": "preview", "ref": "d1", "action": move(contact.u1, AWAY)})
    await contact.p1.get("verdict")
    await contact.p1.send(act("m-1", 0, contact.u1))

    assert (await contact.p1.get("ack"))["seq"] == 1
    event = await contact.p2.get("event")
    assert event["verdict"]["legal"] is True
    assert event["rolls"] == [
        {"what": "breakaway", "die": "d6", "result": 3, "needed": "3-6", "success": True}
    ]
    assert contact.p2.unit(contact.u1)["position"] == AWAY
    assert die.calls == 1


async def test_a_refusal_that_changes_nothing_names_no_event(contact, die):
    await contact.p1.send(
        {"type": "act", "id": "m-1", "seen": 0, "action": move(contact.u1, [10, 30])}
    )
    reject = await contact.p1.get("reject")
    assert reject["reasons"][0]["code"] == "speed_exceeded"
    assert reject["event"] is None
    assert die.calls == 0
    assert await contact.p2.quiet()
