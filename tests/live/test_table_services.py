"""The table services without a socket: events after commit, undo as a stack, turn orders."""

import json

import pytest
from django.db import transaction

from tabletop import events
from tabletop.models import Battle, Event
from tabletop.services.table import turns
from tabletop.services.table.act import battle_act
from tabletop.services.table.actor import actor_for
from tabletop.services.table.chat import battle_chat
from tabletop.services.table.undo import battle_undo
from tests.live.conftest import make_table_sync, move
from tests.live.helpers import captured_events

pytestmark = pytest.mark.django_db(transaction=True)


def actors(battle):
    from tabletop.models import Membership

    return {
        m.user.username: actor_for(battle, m.user, m)
        for m in Membership.objects.filter(campaign=battle.campaign).select_related("user")
    }


def test_an_event_is_sent_only_after_its_transaction_commits():
    battle, _ = make_table_sync()
    people = actors(battle)
    with captured_events() as sent:
        with pytest.raises(RuntimeError), transaction.atomic():
            battle_chat(battle_id=battle.id, actor=people["p1"], client_msg_id="c-1", text="hi")
            assert sent == []
            raise RuntimeError("rolled back")
        assert sent == []
        assert not Event.objects.filter(battle=battle).exists()
        battle_chat(battle_id=battle.id, actor=people["p1"], client_msg_id="c-1", text="hi")
    groups = [group for group, _ in sent]
    assert groups == [f"battle-{battle.id}", f"battle-{battle.id}-watch"]
    assert json.loads(sent[0][1]["text"])["text"] == "hi"


def test_undo_takes_changes_back_like_a_stack_and_never_deletes():
    battle, _ = make_table_sync(orders=5)
    people = actors(battle)
    u1 = next(u["id"] for u in battle.state["units"] if u["side"] == "P1")
    start = Battle.objects.get(pk=battle.id).state
    with captured_events():
        battle_act(
            battle_id=battle.id,
            actor=people["p1"],
            client_msg_id="m-1",
            seen=0,
            action=move(u1, [1.5, 4.5]),
        )
        after_first = Battle.objects.get(pk=battle.id).state
        battle_undo(battle_id=battle.id, actor=people["gm"], client_msg_id="g-1", reason_text="a")
        assert Battle.objects.get(pk=battle.id).state == start
        battle_act(
            battle_id=battle.id,
            actor=people["p1"],
            client_msg_id="m-2",
            seen=2,
            action=move(u1, [1.5, 5.5]),
        )
        battle_undo(battle_id=battle.id, actor=people["gm"], client_msg_id="g-2", reason_text="b")
        assert Battle.objects.get(pk=battle.id).state == start
        reply = battle_undo(
            battle_id=battle.id, actor=people["gm"], client_msg_id="g-3", reason_text="c"
        )
    assert reply["reasons"][0]["code"] == "nothing_to_undo"
    assert after_first != start
    kinds = list(Event.objects.filter(battle=battle).values_list("kind", flat=True))
    assert kinds == ["act", "undo", "act", "undo"]


def test_aod_sides_alternate_and_the_turn_count_goes_up_after_the_last():
    turn = {"turn": 1, "active_side": "P1", "sides": ["P1", "P2"]}
    state = {"orders_available": 2, "orders_used": 2, "ordered": ["U1"], "order_log": []}
    turn, state = turns.advance("aod", turn, state, whole_turn=False)
    assert turn["active_side"] == "P2" and turn["turn"] == 1
    assert state == {"orders_available": 2}
    turn, state = turns.advance("aod", turn, state, whole_turn=False)
    assert (turn["active_side"], turn["turn"]) == ("P1", 2)


def test_mswars_has_two_phases_a_turn_and_the_gm_may_end_the_whole_turn():
    turn = {"turn": 1, "active_side": "A", "sides": ["A", "B"], "phase": 1}
    state = {"phase": 1, "actions_taken": {"X": []}, "free_turn_used": {"X": True}}
    turn, state = turns.advance("mswars", turn, state, whole_turn=False)
    assert (turn["active_side"], turn["phase"]) == ("B", 1)
    turn, state = turns.advance("mswars", turn, state, whole_turn=False)
    assert (turn["active_side"], turn["phase"], state["phase"]) == ("A", 2, 2)
    assert "free_turn_used" not in state and "actions_taken" in state
    turn, state = turns.advance("mswars", turn, state, whole_turn=True)
    assert (turn["turn"], turn["phase"], state) == (2, 1, {"phase": 1})


def test_a_side_out_of_orders_may_not_act_before_the_engine_is_asked():
    refusal = turns.refusal(
        "aod", {"active_side": "P1"}, {"orders_available": 1, "orders_used": 1}, "P1"
    )
    assert refusal["code"] == "no_actions_left"
    assert turns.refusal("aod", {"active_side": "P1"}, {}, "P2")["code"] == "not_your_turn"
    assert turns.refusal("aod", {"active_side": "P1"}, {}, "P1") is None


def test_a_failed_broadcast_does_not_undo_the_ack_of_a_committed_act(monkeypatch):
    battle, _ = make_table_sync()
    people = actors(battle)
    u1 = next(u["id"] for u in battle.state["units"] if u["side"] == "P1")

    def redis_down(sends):
        raise ConnectionError("Connection closed by server.")

    monkeypatch.setattr(events, "deliver", redis_down)
    reply = battle_act(
        battle_id=battle.id,
        actor=people["p1"],
        client_msg_id="m-1",
        seen=0,
        action=move(u1, [1.5, 4.5]),
    )
    assert reply == {"type": "ack", "id": "m-1", "seq": 1}
    assert Battle.objects.get(pk=battle.id).last_seq == 1
    assert list(Event.objects.filter(battle=battle).values_list("kind", flat=True)) == ["act"]
