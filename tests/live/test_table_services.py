"""The table services without a socket: events after commit, undo as a stack, acks."""

import json

import pytest
from django.db import transaction

from tabletop import events
from tabletop.models import Battle, Event
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
