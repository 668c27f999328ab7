"""An end of turn's server work (issue 25, "A club night on one machine").

On the capacity bench's table an end of turn cost 36 ms of a thread's CPU against 2.4 ms
for a move (one move in five ends a turn: most of a table's server CPU), and the bench's
tables end their turns in the same seconds, where its act p99 was made. Of it: the new
position read whole again by the engine (every unit's schema checked: 9 ms), although an
end of turn changes only the turn keys of a position the process has just read; and the
mail notice read every user of the site who asked for mail, then the side's players
(docs/benchmarks.md, "What the bursts were").
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

import rules
from tabletop.models import Battle
from tabletop.services.table import referee
from tabletop.services.table.turn_end import battle_end_turn
from tabletop.services.turn_notices import notice_settings_update, turn_changed
from tests.live.conftest import make_table_sync
from tests.live.helpers import captured_events
from tests.live.test_one_round_trip import act
from tests.live.test_table_services import actors

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_end_of_turn_after_a_move_reads_no_position_whole(monkeypatch):
    """The move's reading is kept; the end of turn's position differs from it only in its
    turn keys: the reading at the new seq is the kept one with those keys, equal to what
    reading the stored position whole gives."""
    battle, _ = make_table_sync()
    people = actors(battle)
    u1 = next(u["id"] for u in battle.state["units"] if u["side"] == "P1")
    read = rules.state_from_json
    readings = []

    def counted(state):
        readings.append(state)
        return read(state)

    with captured_events():
        act(battle, people["p1"], "m-1", 0, u1, [1.5, 4.5])
        monkeypatch.setattr(rules, "state_from_json", counted)
        answer = battle_end_turn(battle_id=battle.id, actor=people["p1"], client_msg_id="e-1")
    assert answer["type"] == "ack" and answer["seq"] == 2
    assert readings == []
    stored = Battle.objects.get(pk=battle.id)
    kept = referee.positions.find((battle.id, 2), stored.state)
    assert kept is not None and kept == read(stored.state)
    assert kept.turn == stored.state["state"]


def test_an_end_of_turn_whose_units_change_is_read_whole():
    """A new position whose units changed too is not the kept one with new turn keys."""
    battle, _ = make_table_sync()
    before = battle.state
    after = {
        **before,
        "units": [{**before["units"][0], "position": [2.5, 2.5]}, *before["units"][1:]],
    }
    referee.readable((battle.id, 0), before)
    assert referee.with_new_turn_keys((battle.id, 0), before, after) is None
    assert (
        referee.with_new_turn_keys((battle.id, 0), before, {**before, "state": {"x": 1}})
        is not None
    )
    assert (
        referee.with_new_turn_keys((battle.id, 0), before, {**before, "state": {"x": float("nan")}})
        is None
    )


def test_the_turn_notice_reads_the_side_s_players_who_asked_for_mail_in_one_query():
    """Users of other battles who asked for mail are not read (a league has thousands)."""
    battle, users = make_table_sync()
    other, others = make_table_sync("o-")
    for user in others.values():
        notice_settings_update(user=user, mail=True, browser=False)
    before = {**battle.turn_state}
    after = {**before, "active_side": "P2", "turn": before.get("turn", 1)}
    with CaptureQueriesContext(connection) as queries:
        turn_changed(battle, actor_id=users["p1"].pk, before=before, after=after)
    assert len(queries) == 1, [q["sql"] for q in queries]
