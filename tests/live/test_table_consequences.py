"""What a move does besides moving, at the live table: the preview says it before the drop
and the committed event keeps it for the log (rules/engine/consequences.py; ui.md "One
truth"). LaserGrenadiers' demo battle: P1's grav tank stands 3" from the south edge."""

import pytest

from tests.live.helpers import NamedTable, in_thread, seated_by_name
from tests.web.factories import make_lasergrenadiers_battle_sync

pytestmark = pytest.mark.django_db(transaction=True)

make_battle = in_thread(make_lasergrenadiers_battle_sync)


@pytest.fixture
async def lg(transactional_db):
    async with seated_by_name(*await make_battle("lgc")) as table:
        yield table


def off_the_south_edge(table: NamedTable) -> dict:
    """Straight back over the south edge until the whole base is off the table."""
    tank = table.p1.unit(table.ids["Grav tank"])
    x, _ = tank["position"][:2]
    return {"unit": tank["id"], "type": "move", "path": [[x, -3.0]]}


async def test_the_preview_says_the_grav_tank_leaves_the_board_as_a_loss(lg):
    # 003 Leaving the board 1: legal, and counted as a loss against its owner.
    tank = lg.ids["Grav tank"]
    await lg.p1.send({"type": "preview", "ref": "drag-1", "action": off_the_south_edge(lg)})
    verdict = (await lg.p1.get("verdict"))["verdict"]
    assert verdict["legal"], verdict
    loss = [c for c in verdict.get("consequences", []) if c["kind"] == "loses_unit"]
    assert [c["unit"] for c in loss] == [tank]
    assert "leaves the board" in loss[0]["text"] and "counts as a loss" in loss[0]["text"]
    assert lg.p1.unit(tank)["position"][1] > 0  # a preview changes nothing


async def test_the_committed_move_keeps_left_the_board_for_the_log_and_the_header_drops_it(lg):
    tank = lg.ids["Grav tank"]
    await lg.p1.send(
        {"type": "act", "id": "a-off", "seen": lg.p1.seq, "action": off_the_south_edge(lg)}
    )
    answer = await lg.p1.get("ack", "reject")
    assert answer["type"] == "ack", answer
    for socket in lg.sockets:
        event = await socket.get("event")
        done = [c.get("done") for c in event["verdict"].get("consequences", [])]
        assert f"{tank} left the board (a loss)" in done
        # The header names no piece that is off the table (and none is highlighted).
        assert tank not in event.get("summary", "")
        assert event.get("active_unit") is None
        assert tank not in [u["id"] for u in socket.state["units"]]
