"""Markers on pieces, the services without a socket (issue 23, "Markers on pieces").

A free marker is the table's talk, not its position: putting one on a piece, or taking
it off, must leave the position, its hash and the engine's verdicts as they were. The
system's own states (shut down, activated) come from the engine's catalogue, with every
snapshot and table event.
"""

import json

import pytest

from tabletop import limits
from tabletop.models import Battle, Event, PieceMarker
from tabletop.models.battle import BattleStatus
from tabletop.records.horizon import Horizon
from tabletop.records.report_svg import battle_report
from tabletop.records.story import battle_story
from tabletop.services.errors import ServiceError
from tabletop.services.table import log, piece_markers
from tabletop.services.table.act import battle_act
from tabletop.services.table.marker_palette import COLOURS
from tabletop.services.table.piece_markers import battle_mark, battle_unmark
from tests.live.conftest import make_table_sync, move
from tests.live.helpers import assert_beside_the_rules, captured_events
from tests.live.test_table_services import actors

pytestmark = pytest.mark.django_db(transaction=True)


def a_table():
    battle, _ = make_table_sync(orders=3)
    side = {s: next(u["id"] for u in battle.state["units"] if u["side"] == s) for s in ("P1", "P2")}
    return battle, actors(battle), side["P1"], side["P2"]


def mark(battle, actor, unit, text="pinned", colour="magenta", msg="m-1"):
    return battle_mark(
        battle_id=battle.id, actor=actor, client_msg_id=msg, unit=unit, text=text, colour=colour
    )


def unmark(battle, actor, seq, msg="u-1"):
    return battle_unmark(battle_id=battle.id, actor=actor, client_msg_id=msg, marker=seq)


def codes(reply):
    return [r["code"] for r in reply["reasons"]]


def test_a_marker_is_an_event_everyone_gets_and_the_snapshot_keeps():
    battle, people, u1, _ = a_table()
    with captured_events() as sent:
        reply = mark(battle, people["p1"], u1)
    assert reply == {"type": "ack", "id": "m-1", "seq": 1}
    assert [group for group, _ in sent] == [f"battle-{battle.id}", f"battle-{battle.id}-watch"]
    frame = json.loads(sent[0][1]["text"])
    marker = {"seq": 1, "by": "p1", "unit": u1, "text": "pinned", "colour": "magenta"}
    assert (frame["kind"], frame["actor"], frame["marker"]) == ("mark", "p1", marker)
    snapshot, _ = log.snapshot(battle.id)
    assert snapshot["markers"] == [marker]


def test_markers_never_touch_the_position_nor_the_verdicts():
    battle, people, u1, u2 = a_table()

    def mark_and_unmark():
        assert mark(battle, people["p1"], u1, "objective", "blue", "m-1")["type"] == "ack"
        assert mark(battle, people["gm"], u2, "pinned", "yellow", "m-2")["type"] == "ack"
        assert unmark(battle, people["gm"], 1)["type"] == "ack"

    assert_beside_the_rules(battle, people["p1"], move(u1, [1.5, 8.5]), mark_and_unmark)


def test_a_player_marks_only_their_own_pieces_the_gm_any():
    battle, people, u1, u2 = a_table()
    with captured_events():
        refused = mark(battle, people["p2"], u1, msg="m-1")
        assert codes(refused) == ["not_your_unit"]
        name = battle.unit_labels.get(u1, {}).get("name") or u1
        assert refused["reasons"][0]["message"] == (
            f"{name} belongs to P1: only its player or the GM may mark it."
        )
        assert mark(battle, people["p2"], u2, msg="m-2")["type"] == "ack"
        assert mark(battle, people["gm"], u1, msg="m-3")["type"] == "ack"
        # Taken off by whoever may mark the piece: not by the other side's player.
        assert codes(unmark(battle, people["p1"], 1, "u-1")) == ["not_your_unit"]
        assert unmark(battle, people["p2"], 1, "u-2")["type"] == "ack"
        assert unmark(battle, people["p1"], 2, "u-3")["type"] == "ack"
        gone = unmark(battle, people["gm"], 2, "u-4")
    assert codes(gone) == ["unknown_marker"]
    assert gone["reasons"][0]["message"] == "There is no marker #2 on a piece (removed already?)."
    assert piece_markers.live_at(battle.id, 99) == []
    assert [e.kind for e in Event.objects.filter(battle=battle).order_by("seq")] == [
        "mark", "mark", "unmark", "unmark",
    ]  # fmt: skip


def test_a_spectator_neither_marks_nor_removes():
    battle, people, u1, _ = a_table()
    with captured_events() as sent:
        mark(battle, people["p1"], u1)
        for attempt in (
            lambda: mark(battle, people["spectator"], u1, msg="s-1"),
            lambda: unmark(battle, people["spectator"], 1, "s-2"),
        ):
            with pytest.raises(ServiceError) as refused:
                attempt()
            assert refused.value.code == "forbidden"
            assert refused.value.message == "Spectators watch; they cannot change the table."
    assert len(sent) == 2
    assert PieceMarker.objects.filter(battle=battle, removed_seq__isnull=True).count() == 1


def test_a_marker_on_a_unit_not_on_the_table_is_refused_and_changes_nothing():
    battle, people, _, _ = a_table()
    with captured_events() as sent:
        reply = mark(battle, people["gm"], "ghost")
    assert codes(reply) == ["unknown_unit"]
    assert reply["reasons"][0]["message"] == "There is no unit 'ghost' on the table."
    assert sent == [] and not PieceMarker.objects.exists() and not Event.objects.exists()


def test_a_piece_takes_so_many_markers_at_once(monkeypatch):
    battle, people, u1, _ = a_table()
    monkeypatch.setattr(limits, "MARKERS_PER_PIECE", 2)
    with captured_events():
        mark(battle, people["p1"], u1, msg="m-1")
        mark(battle, people["p1"], u1, msg="m-2")
        full = mark(battle, people["gm"], u1, msg="m-3")
        assert codes(full) == ["too_many_markers"]
        assert full["reasons"][0]["message"] == (
            "That piece already carries 2 markers: remove one first."
        )
        assert Event.objects.filter(battle=battle).count() == 2
        unmark(battle, people["p1"], 1)
        assert mark(battle, people["gm"], u1, msg="m-4")["type"] == "ack"


def test_a_finished_battles_record_takes_no_more_markers():
    battle, people, u1, _ = a_table()
    with captured_events():
        mark(battle, people["p1"], u1)
        Battle.objects.filter(pk=battle.id).update(status=BattleStatus.FINISHED)
        assert codes(mark(battle, people["p1"], u1, msg="m-2")) == ["battle_not_active"]
        assert codes(unmark(battle, people["gm"], 1)) == ["battle_not_active"]
    assert len(piece_markers.live_at(battle.id, 99)) == 1


def test_what_is_marked_at_a_seq_is_what_a_reader_at_that_seq_sees():
    battle, people, u1, u2 = a_table()
    with captured_events():
        mark(battle, people["p1"], u1, msg="m-1")  # seq 1
        mark(battle, people["p2"], u2, msg="m-2")  # 2
        unmark(battle, people["p1"], 1)  # 3
    assert [[m["seq"] for m in piece_markers.live_at(battle.id, s)] for s in range(4)] == [
        [],
        [1],
        [1, 2],
        [2],
    ]


def _luminance(colour: str) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(int(colour[i : i + 2], 16) / 255) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


@pytest.mark.parametrize("name", sorted(COLOURS))
def test_each_palette_colour_passes_wcag_aa_with_its_text(name):
    fill, ink = COLOURS[name]
    light, dark = sorted((_luminance(fill), _luminance(ink)), reverse=True)
    assert (light + 0.05) / (dark + 0.05) >= 4.5


def test_the_system_states_come_with_the_snapshot_and_every_table_event():
    """aod's catalogue shows `shutdown` as "shut down" and `ordered` as "ordered"; the web
    side names neither."""
    battle, people, u1, u2 = a_table()
    state = battle.state
    state["units"] = [{**u, "shutdown": True} if u["id"] == u2 else u for u in state["units"]]
    Battle.objects.filter(pk=battle.id).update(state=state)
    snapshot, _ = log.snapshot(battle.id)
    assert [m["label"] for m in snapshot["unit_states"][u2]] == ["shut down"]
    assert u1 not in snapshot["unit_states"]
    with captured_events() as sent:
        battle_act(
            battle_id=battle.id,
            actor=people["p1"],
            client_msg_id="a-1",
            seen=0,
            action=move(u1, [1.5, 8.5]),
        )
    frame = json.loads(sent[0][1]["text"])
    assert frame["kind"] == "act"
    assert [m["label"] for m in frame["unit_states"][u1]] == ["ordered"]
    assert [m["label"] for m in frame["unit_states"][u2]] == ["shut down"]


def test_the_report_shows_states_and_markers_at_the_readers_horizon():
    battle, people, u1, u2 = a_table()
    state = battle.state
    state["units"] = [{**u, "shutdown": True} if u["id"] == u2 else u for u in state["units"]]
    Battle.objects.filter(pk=battle.id).update(state=state)
    with captured_events():
        mark(battle, people["p1"], u1, "<objective>", "teal", "m-1")  # seq 1
        mark(battle, people["gm"], u2, "pinned", "yellow", "m-2")  # 2
    battle = Battle.objects.get(pk=battle.id)
    names = {uid: label.get("name", uid) for uid, label in battle.unit_labels.items()}
    full = battle_report(battle_story(battle, Horizon(2)))
    assert full.svg.count('class="marker"') == 2 and full.svg.count('class="state"') == 1
    assert 'fill="#00695c"' in full.svg and 'fill="#ffd54f"' in full.svg
    assert "&lt;objective&gt;" in full.svg and "<objective>" not in full.svg
    line = next(line for line in full.lines if line.startswith("Markers on pieces: "))
    assert f"{names.get(u1, u1)}: <objective>" in line
    assert f"{names.get(u2, u2)}: shut down, pinned" in line
    early = battle_report(battle_story(battle, Horizon(1)))
    assert early.svg.count('class="marker"') == 1 and "pinned" not in early.svg
