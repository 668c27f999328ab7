"""Table annotations and pings, the services without a socket (issue 23, "Point and draw").

An annotation is the table's talk, not its position: drawing one, or removing it, must
leave the position, its hash and the engine's verdicts as they were. A ping is broadcast
and forgotten: no event, no row.
"""

import json

import pytest

from tabletop import limits
from tabletop.models import Annotation, Battle, Event
from tabletop.models.battle import BattleStatus
from tabletop.records.horizon import Horizon
from tabletop.records.report_svg import battle_report
from tabletop.records.story import battle_story
from tabletop.services.errors import ServiceError
from tabletop.services.table import annotations, log
from tabletop.services.table.annotations import battle_annotate, battle_erase
from tabletop.services.table.point import battle_point
from tests.live.conftest import make_table_sync, move
from tests.live.helpers import assert_beside_the_rules, captured_events
from tests.live.test_table_services import actors

pytestmark = pytest.mark.django_db(transaction=True)

ARROW = {"kind": "arrow", "from": [1.5, 1.5], "to": [1.5, 10]}


def a_table():
    battle, _ = make_table_sync(orders=3)
    u1 = next(u["id"] for u in battle.state["units"] if u["side"] == "P1")
    return battle, actors(battle), u1


def draw(battle, actor, shape, msg="a-1"):
    return battle_annotate(battle_id=battle.id, actor=actor, client_msg_id=msg, shape=shape)


def erase(battle, actor, seq, msg="e-1"):
    return battle_erase(battle_id=battle.id, actor=actor, client_msg_id=msg, annotation=seq)


def codes(reply):
    return [r["code"] for r in reply["reasons"]]


def test_an_annotation_is_an_event_everyone_gets_and_the_snapshot_keeps():
    battle, people, _ = a_table()
    with captured_events() as sent:
        reply = draw(battle, people["p1"], ARROW)
    assert reply == {"type": "ack", "id": "a-1", "seq": 1}
    frame = json.loads(sent[0][1]["text"])
    assert [group for group, _ in sent] == [f"battle-{battle.id}", f"battle-{battle.id}-watch"]
    assert frame["kind"] == "annotate" and frame["actor"] == "p1"
    assert frame["annotation"] == {"seq": 1, "by": "p1", **ARROW}
    snapshot, _ = log.snapshot(battle.id)
    assert snapshot["annotations"] == [{"seq": 1, "by": "p1", **ARROW}]


def test_annotations_never_touch_the_position_nor_the_verdicts():
    """Every kind drawn right across a move's path, then removed: the engine's position,
    the hash, the preview's verdict and the act's are what they were without them."""
    battle, people, u1 = a_table()
    shapes = [
        {"kind": "line", "from": [0.5, 5], "to": [3, 5]},
        ARROW,
        {"kind": "circle", "at": [1.5, 6], "radius": 2},
        {"kind": "label", "at": [1.5, 7], "text": "stop here"},
    ]

    def draw_and_erase():
        for i, shape in enumerate(shapes):
            assert draw(battle, people["p1"], shape, f"a-{i}")["type"] == "ack"
        assert erase(battle, people["gm"], 2)["type"] == "ack"

    assert_beside_the_rules(battle, people["p1"], move(u1, [1.5, 8.5]), draw_and_erase)


def test_the_author_and_the_gm_may_remove_an_annotation_another_player_may_not():
    battle, people, _ = a_table()
    with captured_events():
        draw(battle, people["p1"], ARROW, "a-1")
        draw(battle, people["p1"], {"kind": "label", "at": [5, 5], "text": "hold"}, "a-2")
        refused = erase(battle, people["p2"], 1, "e-1")
        assert refused["type"] == "reject"
        assert codes(refused) == ["not_your_annotation"]
        assert refused["reasons"][0]["message"] == (
            "Annotation #1 is p1's: only they or the GM may remove it."
        )
        assert Event.objects.filter(battle=battle).count() == 2
        assert [a["seq"] for a in annotations.live_at(battle.id, 99)] == [1, 2]
        assert erase(battle, people["p1"], 1, "e-2") == {"type": "ack", "id": "e-2", "seq": 3}
        assert erase(battle, people["gm"], 2, "e-3") == {"type": "ack", "id": "e-3", "seq": 4}
        gone = erase(battle, people["gm"], 2, "e-4")
    assert codes(gone) == ["unknown_annotation"]
    assert annotations.live_at(battle.id, 99) == []
    assert Event.objects.get(battle=battle, seq=4).payload["annotation"] == 2


def test_what_is_drawn_at_a_seq_is_what_a_reader_at_that_seq_sees():
    battle, people, _ = a_table()
    with captured_events():
        battle_point(battle_id=battle.id, actor=people["p1"], at=[3, 3])  # no seq taken
        draw(battle, people["p1"], ARROW, "a-1")  # seq 1
        draw(battle, people["p2"], {"kind": "circle", "at": [9, 9], "radius": 3}, "a-2")  # 2
        erase(battle, people["p1"], 1)  # seq 3
    assert [[a["seq"] for a in annotations.live_at(battle.id, s)] for s in range(4)] == [
        [],
        [1],
        [1, 2],
        [2],
    ]


def test_a_spectator_neither_draws_nor_removes_nor_pings():
    battle, people, _ = a_table()
    with captured_events() as sent:
        draw(battle, people["p1"], ARROW)
        for attempt in (
            lambda: draw(battle, people["spectator"], ARROW, "s-1"),
            lambda: erase(battle, people["spectator"], 1, "s-2"),
            lambda: battle_point(battle_id=battle.id, actor=people["spectator"], at=[3, 3]),
        ):
            with pytest.raises(ServiceError) as refused:
                attempt()
            assert refused.value.code == "forbidden"
    assert len(sent) == 2  # the one annotation's event, to both groups
    assert Annotation.objects.filter(battle=battle, erased_seq__isnull=True).count() == 1


@pytest.mark.parametrize(
    "shape",
    [
        {"kind": "line", "from": [1, 1], "to": [40, 1]},
        {"kind": "arrow", "from": [-0.5, 1], "to": [4, 1]},
        {"kind": "circle", "at": [1, 37], "radius": 1},
        {"kind": "circle", "at": [18, 18], "radius": 50},
        {"kind": "label", "at": [36.01, 3], "text": "over here"},
    ],
)
def test_an_annotation_off_the_table_is_refused_and_changes_nothing(shape):
    battle, people, _ = a_table()
    with captured_events() as sent:
        reply = draw(battle, people["p1"], shape)
    assert codes(reply) == ["off_table"]
    assert reply["reasons"][0]["rule"] == "Table edge, table rules"
    assert sent == [] and not Annotation.objects.exists() and not Event.objects.exists()


def test_a_battle_takes_so_many_annotations_at_once(monkeypatch):
    battle, people, _ = a_table()
    monkeypatch.setattr(limits, "ANNOTATIONS_PER_BATTLE", 2)
    with captured_events():
        draw(battle, people["p1"], ARROW, "a-1")
        draw(battle, people["p2"], ARROW, "a-2")
        full = draw(battle, people["gm"], ARROW, "a-3")
        assert codes(full) == ["too_many_annotations"]
        assert Event.objects.filter(battle=battle).count() == 2
        erase(battle, people["p1"], 1)
        assert draw(battle, people["gm"], ARROW, "a-4")["type"] == "ack"


def test_a_finished_battles_record_takes_no_more_drawing():
    battle, people, _ = a_table()
    with captured_events():
        draw(battle, people["p1"], ARROW, "a-1")
        Battle.objects.filter(pk=battle.id).update(status=BattleStatus.FINISHED)
        assert codes(draw(battle, people["p1"], ARROW, "a-2")) == ["battle_not_active"]
        assert codes(erase(battle, people["gm"], 1)) == ["battle_not_active"]
    assert len(annotations.live_at(battle.id, 99)) == 1


def test_a_ping_is_broadcast_with_the_name_and_never_stored():
    battle, people, _ = a_table()
    with captured_events() as sent:
        battle_point(battle_id=battle.id, actor=people["p2"], at=[12.5, 30])
    (players, to_players), (watchers, to_watchers) = sent
    assert (players, watchers) == (f"battle-{battle.id}", f"battle-{battle.id}-watch")
    assert to_players["type"] == "table.point"
    assert json.loads(to_players["text"]) == {
        "type": "point",
        "user": "p2",
        "role": "player",
        "at": [12.5, 30],
    }
    assert to_watchers["text"] == to_players["text"] and to_watchers["delay_s"] == 0
    assert not Event.objects.exists()
    assert Battle.objects.get(pk=battle.id).last_seq == 0


def test_a_ping_off_the_table_is_refused():
    battle, people, _ = a_table()
    with captured_events() as sent, pytest.raises(ServiceError) as refused:
        battle_point(battle_id=battle.id, actor=people["p1"], at=[36.5, 3])
    assert refused.value.code == "off_table"
    assert refused.value.message == "(36.5, 3) is off the table."
    assert sent == []


def test_the_report_draws_what_was_on_the_table_at_the_readers_horizon():
    battle, people, _ = a_table()
    with captured_events():
        draw(battle, people["p1"], ARROW, "a-1")
        draw(battle, people["p2"], {"kind": "label", "at": [5, 5], "text": "<objective>"}, "a-2")
    battle = Battle.objects.get(pk=battle.id)
    full = battle_report(battle_story(battle, Horizon(2)))
    assert full.svg.count('class="annotation"') == 2
    assert 'data-kind="arrow" data-by="p1" data-seq="1"' in full.svg
    assert "&lt;objective&gt;" in full.svg and "<objective>" not in full.svg
    assert full.lines[-1] == "Drawn on the table: p1's arrow; p2's label \"<objective>\"."
    early = battle_report(battle_story(battle, Horizon(1)))
    assert early.svg.count('class="annotation"') == 1
    assert "objective" not in early.svg
