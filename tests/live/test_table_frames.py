"""Every frame of the live table, through Channels' WebsocketCommunicator (docs/protocol.md)."""

import pytest

from rules.geometry import visibility
from tabletop import limits
from tabletop.models import Battle
from tests.live.conftest import move
from tests.live.helpers import battle_row, event_count, in_thread, open_socket

pytestmark = pytest.mark.django_db(transaction=True)


@in_thread
def set_engine_state(battle_id: int, **keys) -> None:
    battle = Battle.objects.get(pk=battle_id)
    battle.state = {**battle.state, "state": {**battle.state["state"], **keys}}
    battle.save()


@in_thread
def add_terrain(battle_id: int, *features: dict) -> None:
    battle = Battle.objects.get(pk=battle_id)
    battle.state = {**battle.state, "terrain": [*battle.state["terrain"], *features]}
    battle.save()


async def test_hello_names_the_role_and_sides_then_the_snapshot_carries_the_position(table):
    assert table.p1.hello["you"] == {"user": "p1", "role": "player", "sides": ["P1"]}
    assert table.gm.hello["you"]["sides"] == ["P1", "P2"]
    assert table.spectator.hello["you"]["sides"] == []
    assert table.p1.hello["limits"]["path_steps"] == limits.PATH_STEPS
    snapshot = table.p1.frames[1]
    assert snapshot["seq"] == 0
    assert snapshot["turn"]["active_side"] == "P1"
    assert {u["id"] for u in snapshot["state"]["units"]} == {table.u1, table.u2}
    assert snapshot["hash"] == table.p1.hash


async def test_the_snapshot_and_each_table_event_carry_the_header_line_and_the_offers(table):
    """The board shows the engine's turn line and only what a unit may do now (issue 10, 5)."""
    snapshot = table.p1.frames[1]
    assert snapshot["summary"].startswith("Turn 1 · P1 to act")
    assert "move" in snapshot["actions"][table.u1]
    assert snapshot["actions"][table.u2] == [], "it is P1's turn"
    await table.p1.send(
        {"type": "act", "id": "m-1", "seen": 0, "action": move(table.u1, [1.5, 6.5])}
    )
    await table.p1.get("ack")
    event = await table.p2.get("event")
    assert event["actions"][table.u1] == [], "one order per unit a turn (aod.md 3)"
    await table.p1.send({"type": "end_turn", "id": "e-1", "seen": 1})
    event = await table.p2.get("event")
    assert event["summary"].startswith("Turn 1 · P2 to act")
    assert "move" in event["actions"][table.u2]


async def test_presence_lists_everyone_connected_with_their_role(table):
    frame = await table.p1.get("presence")
    while len(frame["present"]) < 4:
        frame = await table.p1.get("presence")
    assert {(p["user"], p["role"]) for p in frame["present"]} == {
        ("gm", "gm"),
        ("p1", "player"),
        ("p2", "player"),
        ("spectator", "spectator"),
    }
    await table.p2.close()
    frame = await table.p1.get("presence")
    assert "p2" not in {p["user"] for p in frame["present"]}


async def test_a_legal_preview_is_answered_to_the_sender_alone(table):
    await table.p1.send({"type": "preview", "ref": "d1", "action": move(table.u1, [1.5, 6.5])})
    answer = await table.p1.get("verdict")
    assert answer["ref"] == "d1"
    assert answer["verdict"]["legal"] is True, answer["verdict"]["reasons"]
    assert answer["verdict"]["cost"] == 5
    assert await table.p2.quiet()
    assert await event_count(table.battle.id) == 0


async def test_an_illegal_preview_gives_the_engines_reasons(table):
    await table.p1.send({"type": "preview", "action": move(table.u1, [1.5, 16.5])})
    answer = await table.p1.get("verdict")
    assert answer["verdict"]["legal"] is False
    assert answer["verdict"]["reasons"][0]["code"] == "speed_exceeded"


async def test_a_preview_can_ask_for_the_reachable_area(table):
    await table.p1.send({"type": "preview", "action": move(table.u1, [1.5, 6.5]), "reach": True})
    answer = await table.p1.get("verdict")
    assert answer["reach"]["type"] in ("Polygon", "MultiPolygon")
    assert "complete" not in answer["reach"] and "to" not in answer["reach"]


async def test_a_reach_cut_short_by_the_engines_work_bound_says_how_far_it_is_exact(
    table, monkeypatch
):
    """Issue 15: reach's work is bounded (rules/geometry/visibility.py, `Work`); an area
    the bound cut short says so, and to how many inches of path it is exact."""
    monkeypatch.setattr(visibility, "WORK", visibility.Work(tests=2, corners=2))
    wall = [[3, 3], [6, 3], [6, 4], [3, 4]]
    await add_terrain(table.battle.id, {"id": "W", "type": "blocking", "polygon": wall})
    await table.p1.send({"type": "preview", "action": move(table.u1, [1.5, 6.5]), "reach": True})
    reach = (await table.p1.get("verdict"))["reach"]
    assert reach["type"] in ("Polygon", "MultiPolygon")
    assert reach["complete"] is False
    assert 0 < reach["to"] < 8


async def test_a_preview_out_of_turn_is_refused_by_the_table(table):
    await table.p2.send({"type": "preview", "action": move(table.u2, [1.5, 28.5])})
    answer = await table.p2.get("verdict")
    assert answer["verdict"]["reasons"][0]["code"] == "not_your_turn"


async def test_a_legal_act_is_acked_to_the_sender_and_sent_to_everyone(table):
    await table.p1.send(
        {"type": "act", "id": "m-1", "seen": 0, "action": move(table.u1, [1.5, 6.5])}
    )
    assert await table.p1.get("ack") == {"type": "ack", "id": "m-1", "seq": 1}
    for socket in table.sockets:
        event = await socket.get("event")
        assert (event["seq"], event["kind"], event["actor"]) == (1, "act", "p1")
        assert socket.unit(table.u1)["position"] == [1.5, 6.5]
        assert event["hash"] == socket.hash
    battle = await battle_row(table.battle.id)
    assert battle.last_seq == 1
    assert battle.state["state"]["orders_used"] == 1


async def test_an_illegal_act_is_rejected_to_the_sender_and_changes_nothing(table):
    await table.p1.send(
        {"type": "act", "id": "m-1", "seen": 0, "action": move(table.u1, [1.5, 16.5])}
    )
    reject = await table.p1.get("reject")
    assert reject["reasons"][0]["code"] == "speed_exceeded"
    assert reject["verdict"]["legal"] is False
    assert await table.p2.quiet()
    assert (await battle_row(table.battle.id)).last_seq == 0


@pytest.mark.parametrize(
    "who, unit, code",
    [
        ("p2", "u2", "not_your_turn"),
        ("p1", "u2", "not_your_unit"),
        ("p1", "ghost", "unknown_unit"),
    ],
)
async def test_the_table_refuses_acts_out_of_turn_or_of_others_units(table, who, unit, code):
    unit_id = getattr(table, unit, "U999")
    socket = getattr(table, who)
    await socket.send({"type": "act", "id": "m-1", "seen": 0, "action": move(unit_id, [5, 5])})
    reject = await socket.get("reject")
    assert reject["reasons"][0]["code"] == code
    assert reject["verdict"] is None


async def test_an_act_on_a_battle_not_in_play_is_refused(table):
    await in_thread(Battle.objects.filter(pk=table.battle.id).update)(status="finished")
    await table.p1.send(
        {"type": "act", "id": "m-1", "seen": 0, "action": move(table.u1, [1.5, 6.5])}
    )
    assert (await table.p1.get("reject"))["reasons"][0]["code"] == "battle_not_active"


async def test_an_act_after_all_orders_are_given_is_refused(table):
    await set_engine_state(table.battle.id, orders_available=1, orders_used=1)
    await table.p1.send(
        {"type": "act", "id": "m-1", "seen": 0, "action": move(table.u1, [1.5, 6.5])}
    )
    assert (await table.p1.get("reject"))["reasons"][0]["code"] == "no_actions_left"


async def test_an_act_planned_on_an_old_position_is_stale(table):
    await table.gm.send({"type": "fiat", "id": "g-1", "unit": table.u2, "position": [20, 30]})
    await table.gm.get("ack")
    await table.p1.send(
        {"type": "act", "id": "m-1", "seen": 0, "action": move(table.u1, [1.5, 6.5])}
    )
    assert (await table.p1.get("reject"))["reasons"][0]["code"] == "stale"


async def test_chat_does_not_make_an_act_stale(table):
    await table.p2.send({"type": "chat", "id": "c-1", "text": "go on"})
    await table.p2.get("ack")
    await table.p1.send(
        {"type": "act", "id": "m-1", "seen": 0, "action": move(table.u1, [1.5, 6.5])}
    )
    assert (await table.p1.get("ack", "reject"))["type"] == "ack"


async def test_a_resent_act_gets_the_same_answer_and_is_applied_once(table):
    frame = {"type": "act", "id": "m-1", "seen": 0, "action": move(table.u1, [1.5, 6.5])}
    await table.p1.send(frame)
    first = await table.p1.get("ack")
    await table.p1.send(frame)
    assert await table.p1.get("ack") == first
    other = await open_socket(table.battle.id, table.users["p1"])
    await other.send(frame)
    assert await other.get("ack") == first
    assert await event_count(table.battle.id) == 1
    await other.close()


async def test_a_resent_refused_act_gets_the_same_refusal(table):
    frame = {"type": "act", "id": "m-1", "seen": 0, "action": move(table.u1, [1.5, 16.5])}
    await table.p1.send(frame)
    first = await table.p1.get("reject")
    await table.p1.send(frame)
    assert await table.p1.get("reject") == first


async def test_a_resuming_client_gets_what_it_missed_from_the_log(table):
    await table.p1.send({"type": "chat", "id": "c-1", "text": "one"})
    await table.p1.send({"type": "chat", "id": "c-2", "text": "two"})
    await table.p1.get("ack")
    await table.p1.get("ack")
    late = await open_socket(table.battle.id, table.users["p2"], query="seq=0")
    late.state, late.turn = table.p2.state, table.p2.turn
    first, second = await late.get("event"), await late.get("event")
    assert [first["text"], second["text"]] == ["one", "two"]
    assert (await late.get("resumed"))["seq"] == 2
    await late.send({"type": "resume", "seq": 1})
    # The same socket asked again from 1: it gets 2 once more, then the marker.
    late.seq = 1
    assert (await late.get("event"))["seq"] == 2
    assert (await late.get("resumed"))["seq"] == 2
    await late.close()


async def test_a_client_too_far_behind_gets_a_fresh_snapshot(table, monkeypatch):
    monkeypatch.setattr(limits, "RESUME_EVENTS", 1)
    for n in range(3):
        await table.p1.send({"type": "chat", "id": f"c-{n}", "text": "x"})
        await table.p1.get("ack")
    await table.p1.send({"type": "resume", "seq": 0})
    assert (await table.p1.get("snapshot"))["seq"] == 3


async def test_a_client_ahead_of_the_log_gets_a_fresh_snapshot(table):
    await table.p1.send({"type": "resume", "seq": 99})
    assert (await table.p1.get("snapshot"))["seq"] == 0


async def test_chat_goes_to_everyone_and_into_the_next_snapshot(table):
    await table.spectator.send({"type": "chat", "id": "c-1", "text": "  nice move  "})
    assert (await table.spectator.get("ack"))["seq"] == 1
    for socket in table.sockets:
        event = await socket.get("event")
        assert (event["kind"], event["text"], event["role"]) == ("chat", "nice move", "spectator")
    late = await open_socket(table.battle.id, table.users["p1"])
    assert [c["text"] for c in late.frames[-1]["chat"]] == ["nice move"]
    await late.close()


async def test_dice_are_rolled_on_the_server_and_kept_in_the_dice_log(table):
    await table.p1.send({"type": "roll", "id": "r-1", "dice": 3, "sides": 6, "what": "attack"})
    await table.p1.get("ack")
    event = await table.p2.get("event")
    assert event["kind"] == "roll"
    assert len(event["rolls"]) == 3
    assert all(1 <= r["result"] <= 6 and r["die"] == "d6" for r in event["rolls"])
    late = await open_socket(table.battle.id, table.users["gm"])
    assert [r["result"] for r in late.frames[-1]["dice"]] == [r["result"] for r in event["rolls"]]
    await late.close()


async def test_ending_the_turn_hands_over_and_resets_the_orders(table):
    await table.p1.send(
        {"type": "act", "id": "m-1", "seen": 0, "action": move(table.u1, [1.5, 6.5])}
    )
    await table.p1.get("ack")
    await table.p2.send({"type": "end_turn", "id": "e-1"})
    assert (await table.p2.get("reject"))["reasons"][0]["code"] == "not_your_turn"
    await table.p1.send({"type": "end_turn", "id": "e-1", "seen": 1})
    await table.p1.get("ack")
    event = await table.p2.get("event")
    event = await table.p2.get("event")
    assert event["kind"] == "turn"
    assert event["ended"] == "part"  # P1 handed over; the turn goes on
    assert table.p2.turn["active_side"] == "P2"
    assert "orders_used" not in table.p2.state["state"]
    await table.p2.send({"type": "end_phase", "id": "e-2"})
    await table.p2.get("ack")
    event = await table.p2.get("event")
    assert event["ended"] == "turn"  # the last side's part ends the turn
    assert table.p2.turn == {"turn": 2, "active_side": "P1", "sides": ["P1", "P2"]}


async def test_the_gm_undoes_the_last_change_as_a_new_event(table):
    start = table.p2.hash
    await table.p1.send(
        {"type": "act", "id": "m-1", "seen": 0, "action": move(table.u1, [1.5, 6.5])}
    )
    await table.p1.get("ack")
    await table.gm.send({"type": "undo", "id": "g-1", "reason": "misclick"})
    assert (await table.gm.get("ack"))["seq"] == 2
    await table.p2.get("event")
    undo = await table.p2.get("event")
    assert (undo["kind"], undo["undoes"], undo["reason"]) == ("undo", 1, "misclick")
    assert table.p2.hash == start == undo["hash"]
    assert await event_count(table.battle.id) == 2
    await table.gm.send({"type": "undo", "id": "g-2", "reason": "again"})
    assert (await table.gm.get("reject"))["reasons"][0]["code"] == "nothing_to_undo"


async def test_the_gm_moves_a_piece_by_fiat(table):
    await table.gm.send(
        {"type": "fiat", "id": "g-1", "unit": table.u2, "position": [20, 30], "facing": 450}
    )
    await table.gm.get("ack")
    event = await table.spectator.get("event")
    assert (event["kind"], event["unit"]) == ("fiat", table.u2)
    assert table.spectator.unit(table.u2)["position"] == [20, 30]
    assert table.spectator.unit(table.u2)["facing"] == 90
    await table.gm.send({"type": "fiat", "id": "g-2", "unit": table.u2, "position": [99, 3]})
    assert (await table.gm.get("reject"))["reasons"][0]["code"] == "off_table"
    await table.gm.send({"type": "fiat", "id": "g-3", "unit": "nope", "position": [9, 3]})
    assert (await table.gm.get("reject"))["reasons"][0]["code"] == "unknown_unit"


async def test_spectators_watch_with_the_delay_the_gm_sets(table):
    await table.gm.send({"type": "set_delay", "id": "g-1", "seconds": 3600})
    await table.gm.get("ack")
    await table.p1.send({"type": "chat", "id": "c-1", "text": "secret plan"})
    await table.p1.get("ack")
    # Told the delay at once (the header says so); the events themselves are held back.
    assert await table.spectator.get("delay") == {"type": "delay", "delay_s": 3600}
    assert await table.spectator.quiet(timeout=0.5)
    late = await open_socket(table.battle.id, table.users["spectator"])
    assert late.frames[-1]["seq"] == 0
    assert late.frames[-1]["delay_s"] == 3600
    await late.close()
    assert (await battle_row(table.battle.id)).spectator_delay_s == 3600


async def test_spectators_get_events_after_a_short_delay_in_order(table):
    await table.gm.send({"type": "set_delay", "id": "g-1", "seconds": 1})
    await table.gm.get("ack")
    await table.p1.send({"type": "chat", "id": "c-1", "text": "a"})
    await table.p1.send({"type": "chat", "id": "c-2", "text": "b"})
    kinds = [(await table.spectator.get("event"))["kind"] for _ in range(3)]
    assert kinds == ["delay", "chat", "chat"]


async def test_ping_gets_pong(table):
    await table.spectator.send({"type": "ping"})
    assert await table.spectator.get("pong") == {"type": "pong"}


@in_thread
def act_without_broadcast(battle_id: int, user, action: dict) -> dict:
    """An act whose broadcast is lost on the way (as Redis pub/sub may lose one)."""
    from tabletop.models import Membership
    from tabletop.services.table.act import battle_act
    from tabletop.services.table.actor import actor_for
    from tests.live.helpers import captured_events

    battle = Battle.objects.get(pk=battle_id)
    membership = Membership.objects.get(campaign=battle.campaign, user=user)
    with captured_events() as lost:
        reply = battle_act(
            battle_id=battle_id,
            actor=actor_for(battle, user, membership),
            client_msg_id="lost-1",
            seen=battle.last_seq,
            action=action,
        )
    assert lost, "the act would have been broadcast"
    return reply


async def test_an_event_whose_broadcast_was_lost_reaches_the_client_at_its_next_ping(table):
    reply = await act_without_broadcast(
        table.battle.id, table.users["p1"], move(table.u1, [1.5, 6.5])
    )
    assert reply["type"] == "ack"
    assert await table.p2.quiet()
    await table.p2.send({"type": "ping"})
    event = await table.p2.get("event")
    assert (event["seq"], event["kind"]) == (reply["seq"], "act")
    assert table.p2.unit(table.u1)["position"] == [1.5, 6.5]
    assert table.p2.hash == event["hash"]
    await table.p2.get("pong")
    # Already up to date: a second ping sends nothing but its pong.
    await table.p2.send({"type": "ping"})
    assert (await table.p2.get("pong", "event"))["type"] == "pong"


async def test_a_broadcast_reaches_sockets_without_a_database_hop_each(table, monkeypatch):
    """Channels' default dispatch hops to the database thread before every message; the
    table's consumer does not (DirectDispatchMixin), so a broadcast to 200 spectators
    is not 200 hops through one thread."""
    import channels.consumer

    hops = []

    async def counting_hop():
        hops.append(1)

    monkeypatch.setattr(channels.consumer, "aclose_old_connections", counting_hop)
    await table.p1.send(
        {"type": "act", "id": "m-1", "seen": 0, "action": move(table.u1, [1.5, 6.5])}
    )
    assert (await table.p1.get("ack"))["seq"] == 1
    for socket in (table.p2, table.gm, table.spectator):
        assert (await socket.get("event"))["seq"] == 1
    assert hops == []
