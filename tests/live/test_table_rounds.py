"""Rounds and activations of the action-point skirmish game at the live table, with real
websocket clients (apskirmish.md 5, 6, 6b; APS-D1, APS-D22, APS-D23; docs/protocol.md,
"Rolls the GM makes").

The battle is tests.web.factories' APSKIRMISH_UNITS on APSKIRMISH_TERRAIN: P1's Kell
and Brannock, P2's Handler and Rook, 3 AP each a round.
"""

import pytest

import rules.engine.dice
from tests.live.helpers import NamedTable, in_thread, open_socket, seated_by_name
from tests.web.factories import make_apskirmish_battle_sync

pytestmark = pytest.mark.django_db(transaction=True)

make_battle = in_thread(make_apskirmish_battle_sync)


@pytest.fixture
async def d10(transactional_db):
    """The engine rolls every test on a d10 (APS-D1, the default)."""
    async with seated_by_name(*await make_battle(tests="d10")) as table:
        yield table


@pytest.fixture
async def gm_rolls(transactional_db):
    """The table option `tests: "gm"`: the GM gives every roll's result (APS-D1)."""
    async with seated_by_name(*await make_battle(tests="gm")) as table:
        yield table


class FixedDie:
    """Stands in for `secrets` in the engine's dice: always `face`."""

    def __init__(self, face: int) -> None:
        self.face = face

    def randbelow(self, sides: int) -> int:
        return self.face - 1


def act(frame_id: str, seen: int, action: dict) -> dict:
    return {"type": "act", "id": frame_id, "seen": seen, "action": action}


def end(frame_id: str) -> dict:
    return {"type": "end_turn", "id": frame_id}


async def everyone_gets(table: NamedTable, seq: int) -> list[dict]:
    """Event `seq` as each socket received it."""
    frames = [await socket.get("event") for socket in table.sockets]
    assert {frame["seq"] for frame in frames} == {seq}
    return frames


async def kell_waits_in_the_rubble(table: NamedTable) -> list[dict]:
    """P1's Kell moves 3" north, ending in the Rubble (004 Rough Terrain): with `tests:
    "gm"` the act waits for the GM's Terrain roll. Event 1, as each socket received it."""
    kell = table.ids["Kell"]
    await table.p1.send(act("m-1", 0, {"unit": kell, "type": "move", "path": [[5, 9.5]]}))
    assert (await table.p1.get("ack"))["seq"] == 1
    return await everyone_gets(table, 1)


async def test_a_new_round_gives_back_ap_and_clears_activated_and_running(d10):
    """APS-D22, APS-D23: the round ends when nobody is left to activate; then every
    soldier has its ap_max again, is not activated, and loses its Running token."""
    kell = d10.ids["Kell"]
    # Kell runs 8" east on open ground: 3 AP together, marked Running (004 Running).
    await d10.p1.send(act("r-1", 0, {"unit": kell, "type": "run", "path": [[13, 6.5]]}))
    assert (await d10.p1.get("ack"))["seq"] == 1
    [event, *_] = await everyone_gets(d10, 1)
    assert event["summary"] == "Round 1 · P1 to act · Kell: 0 AP left"
    assert event["active_unit"] == kell
    for socket in d10.sockets:
        ran = socket.unit(kell)
        assert (ran["ap"], ran["activated"], ran["running"]) == (0, True, True)

    # Each side ends an activation in turn; a side that picked nobody has its first
    # soldier not yet activated stand for it, so four ends use up the four soldiers.
    for seq, (socket, turn_after) in enumerate(
        [(d10.p1, (1, "P2")), (d10.p2, (1, "P1")), (d10.p1, (1, "P2")), (d10.p2, (2, "P1"))],
        start=2,
    ):
        await socket.send(end(f"e-{seq}"))
        assert (await socket.get("ack"))["seq"] == seq
        [event, *_] = await everyone_gets(d10, seq)
        assert (event["turn"]["turn"], event["turn"]["active_side"]) == turn_after

    assert event["ended"] == "turn"
    assert event["summary"] == "Round 2 · P1 to act · 2 soldiers to activate"
    assert "active_unit" not in event
    for socket in d10.sockets:
        for unit in socket.state["units"]:
            assert (unit["ap"], unit["activated"]) == (3, False), unit["id"]
            assert "running" not in unit, unit["id"]

    # Round 2: Kell moves 2" east for 1 AP; the header tells its AP left.
    await d10.p1.send(act("r-2", 5, {"unit": kell, "type": "move", "path": [[15, 6.5]]}))
    assert (await d10.p1.get("ack"))["seq"] == 6
    [event, *_] = await everyone_gets(d10, 6)
    assert event["summary"] == "Round 2 · P1 to act · Kell: 2 AP left"


async def test_a_gm_roll_waits_for_the_gms_result_and_then_the_move_completes(gm_rolls):
    """APS-D1 with `tests: "gm"`: Kell's 3" move north ends in the Rubble (004 Rough
    Terrain): the engine refuses it only for the Terrain roll the GM must give; the table
    records it as waiting, every client sees it, and the GM's success completes it."""
    table, kell = gm_rolls, gm_rolls.ids["Kell"]
    for event in await kell_waits_in_the_rubble(table):
        assert event["kind"] == "act"
        assert event["waiting"]["prompt"] == "Kell's Terrain roll (Normal PSQ 4)"
        assert event["turn"]["pending"]["action"]["unit"] == kell
        assert event["rolls"] == []
    for socket in table.sockets:
        assert socket.unit(kell)["position"] == [5, 6.5]  # not moved yet
        assert socket.turn["pending"]["by"] == "p1"

    # While it waits, nothing else happens at the table.
    await table.p1.send(
        act("m-2", 1, {"unit": table.ids["Brannock"], "type": "move", "path": [[17, 12.5]]})
    )
    assert (await table.p1.get("reject"))["reasons"][0]["code"] == "roll_pending"
    await table.p1.send(end("e-1"))
    assert (await table.p1.get("reject"))["reasons"][0]["code"] == "roll_pending"
    # Only the GM gives the result.
    await table.p1.send({"type": "roll_result", "id": "g-0", "result": "success"})
    assert (await table.p1.get("error"))["code"] == "forbidden"

    await table.gm.send({"type": "roll_result", "id": "g-1", "result": "success"})
    assert (await table.gm.get("ack"))["seq"] == 2
    for event in await everyone_gets(table, 2):
        assert (event["kind"], event["answers"], event["by"]) == ("act", 1, "p1")
        assert event["verdict"]["legal"] is True
        assert event["rolls"] == [
            {
                "what": "terrain",
                "result": "success",
                "success": True,
                "die": "GM",
                "needed": "Terrain roll (Normal PSQ 4)",
                "entered_by": "gm",
            }
        ]
        assert "pending" not in event["turn"]
        assert event["summary"] == "Round 1 · P1 to act · Kell: 2 AP left"
    for socket in table.sockets:
        assert socket.unit(kell)["position"] == [5, 9.5]
        assert socket.unit(kell)["ap"] == 2

    # A client that arrives later has the roll in its dice log.
    late = await open_socket(table.battle.id, table.users["spectator"])
    [roll] = late.frames[-1]["dice"]
    assert (roll["seq"], roll["actor"], roll["what"], roll["result"]) == (
        2,
        "gm",
        "terrain",
        "success",
    )
    await late.close()


async def test_a_failed_gm_roll_commits_the_failure_and_a_second_answer_finds_nothing(gm_rolls):
    """A failed Terrain roll takes 1" off the move (004 Rough Terrain): the default
    "shorten" cuts Kell's 3" back to 2", and the AP is spent."""
    table, kell = gm_rolls, gm_rolls.ids["Kell"]
    await kell_waits_in_the_rubble(table)
    await table.gm.send({"type": "roll_result", "id": "g-1", "result": "fail"})
    assert (await table.gm.get("ack"))["seq"] == 2
    [event, *_] = await everyone_gets(table, 2)
    assert event["rolls"][0]["success"] is False
    assert event["verdict"]["allowance"] == 2
    moved = table.p2.unit(kell)
    assert moved["position"] == pytest.approx([5, 8.5], abs=1e-6)
    assert moved["ap"] == 2

    await table.gm.send({"type": "roll_result", "id": "g-2", "result": "success"})
    assert (await table.gm.get("reject"))["reasons"][0]["code"] == "no_roll_pending"


async def test_a_dodge_out_of_turn_is_accepted_for_the_side_not_acting(d10, monkeypatch):
    """004 Dodging, apskirmish.md 6b: a Dodge is a reaction, made by a soldier of the side
    that is not active at any time; its other actions wait for its turn (APS-D3)."""
    monkeypatch.setattr(rules.engine.dice, "secrets", FixedDie(1))  # 1 passes INS 6
    handler, kell = d10.ids["Handler"], d10.ids["Kell"]
    assert d10.p2.frames[-1]["turn"]["active_side"] == "P1"
    # The board offers the Handler nothing but a Dodge while P1 acts.
    assert d10.p2.frames[-1]["actions"][handler] == ["dodge"]

    await d10.p2.send(act("m-1", 0, {"unit": handler, "type": "move", "path": [[25, 24]]}))
    assert (await d10.p2.get("reject"))["reasons"][0]["code"] == "not_your_turn"

    # Kell attacks from (5, 6.5): the Handler dodges 1" straight away from it.
    dodge = {"unit": handler, "type": "dodge", "source": [5, 6.5]}
    await d10.p2.send(act("m-2", 0, dodge))
    assert (await d10.p2.get("ack"))["seq"] == 1
    for event in await everyone_gets(d10, 1):
        assert event["verdict"]["legal"] is True
        assert event["rolls"][0]["what"] == "dodge"
        assert event["turn"]["active_side"] == "P1"  # still P1's turn
    dodged = d10.p1.unit(handler)
    dx, dy = 25 - 5, 26 - 6.5
    length = (dx**2 + dy**2) ** 0.5
    assert dodged["position"] == pytest.approx([25 + dx / length, 26 + dy / length], abs=1e-6)
    # 1 AP, and no activation: the Handler may still activate this round (004 Dodging).
    assert (dodged["ap"], dodged["activated"]) == (2, False)
    assert d10.p1.unit(kell)["position"] == [5, 6.5]


async def test_the_gms_undo_of_a_waiting_act_withdraws_it(gm_rolls):
    """docs/protocol.md, "Rolls the GM makes": the waiting act is a table change like any
    other, so an undo takes it back and the table no longer waits."""
    table, kell = gm_rolls, gm_rolls.ids["Kell"]
    await kell_waits_in_the_rubble(table)
    await table.gm.send({"type": "undo", "id": "u-1", "reason": "Kell goes round instead"})
    assert (await table.gm.get("ack"))["seq"] == 2
    for event in await everyone_gets(table, 2):
        assert (event["kind"], event["undoes"]) == ("undo", 1)
        assert "pending" not in event["turn"]
    await table.gm.send({"type": "roll_result", "id": "g-1", "result": "success"})
    assert (await table.gm.get("reject"))["reasons"][0]["code"] == "no_roll_pending"
    # The table goes on: Kell may move elsewhere.
    await table.p1.send(act("m-2", 2, {"unit": kell, "type": "move", "path": [[7.5, 6.5]]}))
    assert (await table.p1.get("ack"))["seq"] == 3
