"""LaserGrenadiers at the live table: alternate activations of single pieces, run from the
engine's turn hooks (lasergrenadiers.md 12b; LG-D31, LG-D37; docs/protocol.md).

The battle is the demo's map and forces (tests.web.factories.make_lasergrenadiers_battle_sync):
P1's grav tank, carrier, troopers in contact with it and jetpack squad face north; P2's
armoured car, hover tank, laser team and militia face south.
"""

import pytest

from tests.live.helpers import NamedTable, Socket, in_thread, seated_by_name
from tests.web.factories import make_lasergrenadiers_battle_sync

pytestmark = pytest.mark.django_db(transaction=True)

make_battle = in_thread(make_lasergrenadiers_battle_sync)


@pytest.fixture
async def lg(transactional_db):
    async with seated_by_name(*await make_battle("lg")) as table:
        yield table


async def everyone_gets(table: NamedTable, seq: int) -> dict:
    """Event `seq` as each socket received it (the same for all); P1's copy."""
    frames = [await socket.get("event") for socket in table.sockets]
    assert {frame["seq"] for frame in frames} == {seq}
    return frames[1]


async def order(table: NamedTable, player: Socket, action: dict) -> dict:
    """Sends `action`; an accepted one's event once everyone has it, else the reject."""
    frame_id = f"a-{player.seq}-{action['unit']}-{action['type']}"
    await player.send({"type": "act", "id": frame_id, "seen": player.seq, "action": action})
    answer = await player.get("ack", "reject")
    if answer["type"] == "reject":
        return answer
    return await everyone_gets(table, answer["seq"])


async def end(table: NamedTable, player: Socket) -> dict:
    await player.send({"type": "end_turn", "id": f"e-{player.seq}"})
    answer = await player.get("ack", "reject")
    assert answer["type"] == "ack", answer
    return await everyone_gets(table, answer["seq"])


def step(table: NamedTable, socket: Socket, name: str, dx: float, dy: float) -> dict:
    """A move of the piece `name` by (dx, dy) inches from where `socket` sees it."""
    unit = socket.unit(table.ids[name])
    x, y = unit["position"][:2]
    return {"unit": unit["id"], "type": "move", "path": [[x + dx, y + dy]]}


async def test_the_piece_that_acts_is_active_and_another_piece_of_its_side_waits(lg):
    """LG-D31: the side with the initiative names a piece by acting with it; that piece
    makes any number of actions, and no other piece acts until the activation ends."""
    tank = lg.ids["Grav tank"]
    event = await order(lg, lg.p1, step(lg, lg.p1, "Grav tank", 0, 4))
    assert event["verdict"]["legal"]
    for socket in lg.sockets:
        assert socket.turn["active_unit"] == tank
    assert event["active_unit"] == tank

    refused = await order(lg, lg.p1, step(lg, lg.p1, "Jetpack squad", 0, 2))
    assert refused["type"] == "reject"
    assert [r["code"] for r in refused["reasons"]] == ["not_your_turn"]
    assert refused["reasons"][0]["message"].startswith(f"{tank} is active")

    # The active piece acts again within its allowance (LG-D31: any number of actions).
    again = await order(lg, lg.p1, step(lg, lg.p1, "Grav tank", 0, 4))
    assert again["verdict"]["legal"]
    assert lg.p1.state["state"]["moved"][tank] == pytest.approx(8)

    # Ending the activation passes the initiative; the tank has activated this turn.
    await end(lg, lg.p1)
    for socket in lg.sockets:
        assert socket.turn["active_side"] == "P2"
        assert "active_unit" not in socket.turn
        assert socket.state["state"]["activated"] == [tank]


async def test_a_piece_activates_at_most_once_a_turn(lg):
    """LG-D31, LG-D37: `state.activated` keeps the pieces that have activated; another
    action of one of them this turn is `not_your_turn`, though it has allowance left."""
    await order(lg, lg.p1, step(lg, lg.p1, "Grav tank", 0, 2))
    await end(lg, lg.p1)
    await order(lg, lg.p2, step(lg, lg.p2, "Militia", 0, -1))
    await end(lg, lg.p2)
    assert lg.p1.turn["active_side"] == "P1"

    refused = await order(lg, lg.p1, step(lg, lg.p1, "Grav tank", 0, 2))
    assert refused["type"] == "reject"
    assert refused["reasons"][0]["code"] == "not_your_turn"
    assert "already activated" in refused["reasons"][0]["message"]
    # Another piece of P1's may still activate.
    assert (await order(lg, lg.p1, step(lg, lg.p1, "Jetpack squad", 0, 2)))["verdict"]["legal"]


async def test_when_every_side_passes_in_a_row_the_turn_ends_and_moved_and_transfers_reset(lg):
    """LG-D31: a side may end without activating (a pass); when every side has passed in a
    row the turn ends, `moved`, `transfers` and `activated` start afresh and the first
    initiative alternates (P2 begins turn 2)."""
    troopers, carrier = lg.ids["Troopers"], lg.ids["Carrier"]
    loaded = await order(lg, lg.p1, {"unit": troopers, "type": "load", "carrier": carrier})
    assert loaded["verdict"]["legal"], loaded["verdict"]["reasons"]
    assert lg.p1.unit(troopers)["aboard"] == carrier
    assert lg.p1.state["state"]["transfers"]
    await end(lg, lg.p1)
    passed = await end(lg, lg.p2)
    assert passed["turn"]["turn"] == 1 and passed["turn"]["active_side"] == "P1"
    await end(lg, lg.p1)
    for socket in lg.sockets:
        assert (socket.turn["turn"], socket.turn["active_side"]) == (2, "P2")
        turn_state = socket.state["state"]
        assert not turn_state.get("moved") and not turn_state.get("transfers")
        assert not turn_state.get("activated")


async def test_the_turn_ends_when_no_piece_is_left_to_activate(lg):
    """LG-D31: a side with no piece left passes; when no side has one, the turn ends."""
    p1 = ["Grav tank", "Carrier", "Jetpack squad", "Troopers"]
    p2 = ["Armoured car", "Hover tank", "Laser team", "Militia"]
    for k, (mine, theirs) in enumerate(zip(p1, p2, strict=True)):
        # The troopers step east, away from the carrier they stand against.
        dx, dy = (1, 0) if mine == "Troopers" else (0, 1)
        assert (await order(lg, lg.p1, step(lg, lg.p1, mine, dx, dy)))["verdict"]["legal"]
        await end(lg, lg.p1)
        assert (await order(lg, lg.p2, step(lg, lg.p2, theirs, 0, -1)))["verdict"]["legal"]
        last = await end(lg, lg.p2)
        if k < 3:
            assert (last["turn"]["turn"], last["turn"]["active_side"]) == (1, "P1")
    for socket in lg.sockets:
        assert (socket.turn["turn"], socket.turn["active_side"]) == (2, "P2")
        assert not socket.state["state"].get("moved")
        assert not socket.state["state"].get("activated")


async def test_the_header_names_the_active_piece_with_its_allowance_left_and_speed_band(lg):
    """lasergrenadiers.md 8, 12b: the summary names the active piece, what it has left and
    its speed band; the board's end button says "End activation"."""
    from tabletop.services import game_systems

    event = await order(lg, lg.p1, step(lg, lg.p1, "Grav tank", 0, 15))
    assert event["verdict"]["speed_band"] == "moderate"
    # (The table keeps names beside the position: the engine's line names the unit id.)
    tank = lg.ids["Grav tank"]
    assert event["summary"] == f'Turn 1 · P1 to act · {tank}: 21" left, moderate'
    assert game_systems.board_config("lasergrenadiers")["endLabel"] == "End activation"
