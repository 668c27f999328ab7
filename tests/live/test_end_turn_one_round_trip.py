"""An end of turn costs one round trip to PostgreSQL, as a move does, and is still the
same end of turn: the same frames, the same stored event and answer, the same notices
(issue 25: the capacity bench's tables end their turns in the same seconds).

Round trips are counted on the wire (test_one_round_trip.round_trips)."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from tabletop import protocol
from tabletop.consumers import serve_now
from tabletop.models import Battle, BattleSide, CommandReply, Event, TurnNotified
from tabletop.services.table import log, one_trip
from tabletop.services.table.turn_end import battle_end_turn
from tabletop.services.turn_notices import notice_settings_update
from tests.live.helpers import captured_events
from tests.live.test_one_round_trip import (
    _runs_of_prepared_moves,
    act,
    keep_connection_and_end_request,
    postgresql,  # noqa: F401  (the fixture: PostgreSQL or skip)
    round_trips,
    seat_of,
    table,
    where,
)

pytestmark = pytest.mark.django_db(transaction=True)


def moved():
    """The table after two P1 moves (the second in one round trip): this process knows
    it, as it knows a live table it serves."""
    battle, people, (u1, u3, u5) = table()
    act(battle, people["p1"], "m-1", 0, u3, [7.5, 4.5])
    act(battle, people["p1"], "m-2", 1, u1, [1.5, 5.5])
    return battle, people


def end_turn(battle, actor, msg_id="e-1", seen=2):
    return battle_end_turn(battle_id=battle.id, actor=actor, client_msg_id=msg_id, seen=seen)


def end_turn_frame(msg_id, seen, kind="end_turn") -> protocol.Frame:
    return protocol.parse(json.dumps({"type": kind, "id": msg_id, "seen": seen}))


def test_an_end_of_turn_on_a_table_the_process_knows_is_one_round_trip_after_commit():
    with captured_events() as sent:
        battle, people = moved()
        with round_trips() as counted:
            reply = end_turn(battle, people["p1"])
    assert counted == [1]
    assert reply == {"type": "ack", "id": "e-1", "seq": 3}
    stored = Battle.objects.get(pk=battle.id)
    assert (stored.last_seq, stored.turn_state["active_side"]) == (3, "P2")
    turn = Event.objects.get(battle=battle, seq=3)
    assert (turn.kind, turn.client_msg_id, turn.payload["ended"]) == ("turn", "e-1", "part")
    assert log.position_at(stored, 3) == {"state": stored.state, "turn": stored.turn_state}
    assert CommandReply.objects.get(battle=battle, client_msg_id="e-1").reply == reply
    assert [group for group, _ in sent[-2:]] == [f"battle-{battle.id}", f"battle-{battle.id}-watch"]


def twin(battle) -> Battle:
    """A copy of the battle (its row, sides and events) under a new id: the same units,
    the same position, the same log."""
    copy = Battle.objects.get(pk=battle.id)
    copy.pk = None
    copy.save()
    for model in (BattleSide, Event):
        rows = model.objects.filter(battle=battle).values()
        model.objects.bulk_create(
            model(**{**row, "id": None, "battle_id": copy.pk}) for row in rows
        )
    return copy


def as_sent(sent, battle) -> str:
    """The end of turn's frames, its stored event and its stored answer, less what names
    the battle and the moment."""
    frames = []
    for group, message in sent:
        body = json.loads(message["text"])
        assert body.pop("at") == message.pop("at")
        frames.append([group.replace(str(battle.id), "B"), {**message, "text": body}])
    event = Event.objects.filter(battle=battle).order_by("seq").last()
    reply = CommandReply.objects.get(battle=battle, client_msg_id="e-1").reply
    return json.dumps([frames, event.payload, event.change, event.base, event.kind, reply])


@pytest.mark.parametrize("ender", ["p1", "gm"])
def test_an_end_of_turn_in_one_round_trip_sends_and_stores_what_the_locked_way_does(ender):
    """The same table twice: its twin ends the turn the locked way (this process knows
    nothing of it), the table itself in one round trip; what clients get and what the log
    keeps is the same, byte for byte (the GM's end of turn too: the whole turn in a phased
    system)."""
    with captured_events():
        battle, people = moved()
    locked = twin(battle)
    outcomes = []
    for which, trips in ((locked, 8), (battle, 1)):
        with captured_events() as sent, round_trips() as counted:
            assert end_turn(which, people[ender])["type"] == "ack"
        assert counted[0] >= trips if trips > 1 else counted == [1]
        outcomes.append(as_sent(sent, which))
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("kind", ["end_turn", "end_phase"])
def test_an_end_turn_frame_served_as_the_server_serves_it_is_one_round_trip(kind):
    """As the socket serves it: on the rights the seat's last frame read, which the
    statement checks, and without Django's health check of the kept connection."""
    with captured_events():
        battle, people = moved()
        seat = seat_of(people["p1"])
        serve_now(end_turn_frame("e-0", 1, kind), battle_id=battle.id, user=seat)  # stale
        keep_connection_and_end_request()
        with round_trips() as counted:
            actor, reply = serve_now(end_turn_frame("e-1", 2, kind), battle_id=battle.id, user=seat)
    assert counted == [1]
    assert actor == people["p1"]
    assert reply == {"type": "ack", "id": "e-1", "seq": 3}
    assert Battle.objects.get(pk=battle.id).turn_state["active_side"] == "P2"


@pytest.mark.parametrize("lost", ["by the connection", "by the process"])
def test_an_end_of_turn_s_prepared_statement_lost_is_prepared_again(lost):
    """Its statement prepared with the first end of turn, then lost (a pooler's DEALLOCATE
    ALL, or a process that forgot what its connection holds): the next is prepared again
    at the cost of one more round trip, and made once."""
    with captured_events():
        battle, people = moved()
        end_turn(battle, people["p1"])  # prepares the statement
        if lost == "by the connection":
            with connection.cursor() as cursor:
                cursor.execute("DEALLOCATE ALL")
        else:
            one_trip._prepared.clear()
        with round_trips() as counted:
            reply = end_turn(battle, people["p2"], "e-2", 3)
    assert counted == [2]
    assert reply == {"type": "ack", "id": "e-2", "seq": 4}
    assert where(battle)[1] == 4 and Event.objects.filter(client_msg_id="e-2").count() == 1
    assert _runs_of_prepared_moves() >= 1  # held by the connection again


def test_an_end_of_turn_that_mails_a_notice_is_made_the_locked_way_and_mails_once(mailoutbox):
    """p2 asked for mail: the statement finds them to be told and writes nothing; the
    locked way records the notice and mails them after the commit. The frame resent mails
    no one again."""
    with captured_events():
        battle, people = moved()
        p2 = people["p2"]
        user = get_user_model().objects.get(pk=p2.user_id)
        user.email = "p2@example.org"
        user.save(update_fields=["email"])
        notice_settings_update(user=user, mail=True, browser=False)
        with round_trips() as counted:
            reply = end_turn(battle, people["p1"])
        assert reply == {"type": "ack", "id": "e-1", "seq": 3}
        assert counted[0] > 1
        assert [m.to for m in mailoutbox] == [["p2@example.org"]]
        told = TurnNotified.objects.get(battle=battle, user_id=p2.user_id).turn_key
        assert told.endswith("|P2")
        again = end_turn(battle, people["p1"], "e-1")  # resent
    assert again == reply and len(mailoutbox) == 1
    assert Event.objects.filter(battle=battle, kind="turn").count() == 1
