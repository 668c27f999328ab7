"""A move costs one round trip to PostgreSQL, and is still the same move (issue 25).

Round trips are counted on the wire: libpq's trace of the connection, one ReadyForQuery
from the server for each exchange (BEGIN and COMMIT included)."""

import contextlib
import json
import tempfile
from collections.abc import Iterator
from datetime import timedelta

import psycopg
import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db import connection
from django.utils import timezone

from tabletop import limits, protocol
from tabletop.consumers import serve_now
from tabletop.models import Battle, CommandReply, Event, Membership, Role, Roster
from tabletop.services.errors import ServiceError
from tabletop.services.table import changes, known_battles, log, one_trip, rights
from tabletop.services.table.act import battle_act
from tabletop.services.table.takeback import battle_takeback_ask
from tests.conftest import need
from tests.live.conftest import make_table_sync, move
from tests.live.helpers import captured_events, session_cookie_for
from tests.live.test_table_services import actors

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def postgresql():
    need("PostgreSQL", connection.vendor == "postgresql", "DATABASE_URL is not PostgreSQL")


@contextlib.contextmanager
def round_trips() -> Iterator[list[int]]:
    """[the number of exchanges with the database server inside the block], once left."""
    from psycopg.pq import Trace

    connection.ensure_connection()
    pgconn = connection.connection.pgconn
    counted: list[int] = []
    with tempfile.TemporaryFile("w+") as log:
        pgconn.trace(log.fileno())
        pgconn.set_trace_flags(Trace.SUPPRESS_TIMESTAMPS | Trace.REGRESS_MODE)
        try:
            yield counted
        finally:
            pgconn.untrace()
            log.seek(0)
            counted.append(sum("\tReadyForQuery" in line for line in log))


def table():
    """The live tests' battle with two more P1 mechs (U<n>b and U<n>c, 6" and 12" east of
    the first; each mech moves once a turn); the P1 mechs' ids."""
    battle, _ = make_table_sync(orders=5)
    first = next(u for u in battle.state["units"] if u["side"] == "P1")
    twins = [
        {**first, "id": first["id"] + k, "position": [x, 1.5]} for k, x in (("b", 7.5), ("c", 13.5))
    ]
    battle.state = {**battle.state, "units": [*battle.state["units"], *twins]}
    battle.save(update_fields=["state"])
    return battle, actors(battle), (first["id"], *(t["id"] for t in twins))


def act(battle, actor, msg_id, seen, unit, to):
    return battle_act(
        battle_id=battle.id, actor=actor, client_msg_id=msg_id, seen=seen, action=move(unit, to)
    )


def test_a_move_on_a_table_the_process_knows_is_one_round_trip_acknowledged_after_commit():
    battle, people, (u1, u3, u5) = table()
    with captured_events() as sent:
        assert act(battle, people["p1"], "m-1", 0, u3, [7.5, 4.5])["type"] == "ack"
        with round_trips() as counted:
            reply = act(battle, people["p1"], "m-2", 1, u1, [1.5, 5.5])
    assert counted == [1]
    assert reply == {"type": "ack", "id": "m-2", "seq": 2}
    # Committed, as the locked way writes it: the battle, the event and the stored answer.
    stored = Battle.objects.get(pk=battle.id)
    assert stored.last_seq == 2
    assert next(u for u in stored.state["units"] if u["id"] == u1)["position"][:2] == [1.5, 5.5]
    second = Event.objects.get(battle=battle, seq=2)
    assert (second.kind, second.client_msg_id, second.actor_id) == (
        "act",
        "m-2",
        people["p1"].user_id,
    )
    # Its change, which the log follows to the position the battle row has.
    assert log.position_at(stored, 2) == {"state": stored.state, "turn": stored.turn_state}
    assert second.change is not None and "units" in second.payload
    assert CommandReply.objects.get(battle=battle, client_msg_id="m-2").reply == reply
    # ... and broadcast to both groups.
    assert [group for group, _ in sent[2:]] == [f"battle-{battle.id}", f"battle-{battle.id}-watch"]


def test_a_move_in_one_round_trip_keeps_the_whole_position_when_its_turn_comes(monkeypatch):
    """A base at every seq: the second move's statement writes it, in its one round trip."""
    monkeypatch.setattr(changes, "SNAPSHOT_EVERY", 1)
    battle, people, (u1, u3, u5) = table()
    with captured_events():
        act(battle, people["p1"], "m-1", 0, u3, [7.5, 4.5])
        before = Battle.objects.get(pk=battle.id)
        with round_trips() as counted:
            act(battle, people["p1"], "m-2", 1, u1, [1.5, 5.5])
        act(battle, people["p1"], "m-3", 2, u5, [13.5, 4.0])
    assert counted == [1]
    stored = Battle.objects.get(pk=battle.id)
    bases = Event.objects.filter(battle=battle, base__isnull=False).order_by("seq")
    assert list(bases.values_list("seq", flat=True)) == [1, 2, 3] and stored.base_seq == 3
    kept = Event.objects.filter(battle=battle, seq=2).values_list("base", flat=True)[0]
    assert kept == {"state": before.state, "turn": before.turn_state}
    assert log.position_at(stored, 3) == {"state": stored.state, "turn": stored.turn_state}


def test_a_move_compares_the_row_with_the_text_the_last_move_stored(monkeypatch):
    """The statement writes only where the row is still the position the move was decided
    on; when this process wrote that position itself with the last move, that text serves
    again and the move writes one position's JSON, its own, not two."""
    battle, people, (u1, u3, u5) = table()
    written: list[dict] = []
    real = json.dumps

    def counted(value, *args, **kwargs):
        if isinstance(value, dict) and set(value) == {"state", "turn"}:
            written.append(value)
        return real(value, *args, **kwargs)

    with captured_events():
        act(battle, people["p1"], "m-1", 0, u3, [7.5, 4.5])  # the locked way: no text kept
        monkeypatch.setattr(json, "dumps", counted)
        act(battle, people["p1"], "m-2", 1, u1, [1.5, 5.5])
        after_m2 = written[-1]
        assert len(written) == 2  # the position it was decided on, and its own
        written.clear()
        with round_trips() as counted_trips:
            reply = act(battle, people["p1"], "m-3", 2, u5, [13.5, 4.0])
    assert counted_trips == [1] and reply == {"type": "ack", "id": "m-3", "seq": 3}
    stored = Battle.objects.get(pk=battle.id)
    assert written == [{"state": stored.state, "turn": stored.turn_state}]
    assert after_m2 != written[0]
    assert next(u for u in stored.state["units"] if u["id"] == u5)["position"][:2] == [13.5, 4.0]
    assert log.position_at(stored, 3) == {"state": stored.state, "turn": stored.turn_state}


def test_a_resent_move_gets_its_first_answer_and_moves_nothing_again():
    battle, people, (u1, u3, u5) = table()
    with captured_events():
        act(battle, people["p1"], "m-1", 0, u3, [7.5, 4.5])
        first = act(battle, people["p1"], "m-2", 1, u1, [1.5, 5.5])
        again = act(battle, people["p1"], "m-2", 1, u1, [1.5, 5.5])
    assert again == first
    assert Event.objects.filter(battle=battle).count() == 2
    assert Battle.objects.get(pk=battle.id).last_seq == 2


def moved_elsewhere(battle, people, units) -> None:
    """P1 moves its third mech here (seq 1), then its second "in another process" (seq 2),
    and this process is left with its guess of seq 1."""
    act(battle, people["p1"], "m-1", 0, units[2], [13.5, 4.5])
    stale = known_battles.get(battle.id)
    act(battle, people["p1"], "m-2", 1, units[1], [7.5, 4.0])
    known_battles.keep(stale)


def where(battle) -> tuple[dict[str, list[float]], int]:
    """({unit id: [x, y]}, last seq) as stored."""
    stored = Battle.objects.get(pk=battle.id)
    return {u["id"]: u["position"][:2] for u in stored.state["units"]}, stored.last_seq


def test_a_move_decided_on_a_stale_guess_is_decided_again_under_the_lock():
    """Another process moved since this one last wrote: the statement writes nothing, and
    the locked way answers with the table as it is."""
    battle, people, (u1, u3, u5) = table()
    with captured_events():
        moved_elsewhere(battle, people, (u1, u3, u5))
        with round_trips() as counted:
            reply = act(battle, people["p1"], "m-3", 2, u1, [1.5, 5.5])
    assert reply == {"type": "ack", "id": "m-3", "seq": 3}
    assert counted[0] > 1
    at, seq = where(battle)
    assert (at[u1], at[u3], seq) == ([1.5, 5.5], [7.5, 4.0], 3)
    stored = Battle.objects.get(pk=battle.id)
    assert log.position_at(stored, 3) == {"state": stored.state, "turn": stored.turn_state}


def test_a_move_sent_before_another_process_s_move_arrived_is_stale():
    """The player saw seq 1; another move (seq 2) was made in another process, which this
    one's guess (seq 1) knows nothing of: the move is refused as stale, and the other
    move stands."""
    battle, people, (u1, u3, u5) = table()
    with captured_events():
        moved_elsewhere(battle, people, (u1, u3, u5))
        reply = act(battle, people["p1"], "m-3", 1, u1, [1.5, 5.5])
    assert (reply["type"], reply["seq"], reply["reasons"][0]["code"]) == ("reject", 2, "stale")
    at, seq = where(battle)
    assert (at[u1], at[u3], seq) == ([1.5, 1.5], [7.5, 4.0], 2)


def test_a_move_made_while_a_take_back_request_waits_says_the_request_lapsed():
    battle, people, (u1, u3, u5) = table()
    with captured_events():
        act(battle, people["p1"], "m-1", 0, u1, [1.5, 4.5])
        asked = battle_takeback_ask(
            battle_id=battle.id, actor=people["p1"], client_msg_id="t-1", order=1
        )
        assert asked["type"] == "ack"
        reply = act(battle, people["p1"], "m-2", 2, u3, [7.5, 4.0])
    assert reply["type"] == "ack"
    assert Event.objects.get(battle=battle, seq=3).payload["takeback_lapsed"] == 2


def seat_of(actor) -> rights.Seat:
    """A new login session of the actor's user, as their socket would hold it."""
    cookie = session_cookie_for(get_user_model().objects.get(pk=actor.user_id))
    return rights.Seat(actor.user_id, cookie.decode().split("=", 1)[1])


def move_frame(msg_id, seen, unit, to) -> protocol.Frame:
    return protocol.parse(
        json.dumps({"type": "act", "id": msg_id, "seen": seen, "action": move(unit, to)})
    )


def test_a_whole_move_frame_checks_its_rights_and_moves_in_one_round_trip():
    """As the table's socket serves it: the rights its last frame read, checked by the
    act's one statement, which writes the move only where they still hold."""
    battle, people, (u1, u3, u5) = table()
    seat = seat_of(people["p1"])
    with captured_events():
        serve_now(move_frame("m-1", 0, u3, [7.5, 4.5]), battle_id=battle.id, user=seat)
        with round_trips() as counted:
            actor, reply = serve_now(
                move_frame("m-2", 1, u1, [1.5, 5.5]), battle_id=battle.id, user=seat
            )
    assert counted == [1]
    assert actor == people["p1"]
    assert reply == {"type": "ack", "id": "m-2", "seq": 2}
    assert where(battle)[0][u1] == [1.5, 5.5]


def _user(battle, name):
    return Membership.objects.get(campaign_id=battle.campaign_id, user__username=name).user


def _quietly(battle, name, seat, change):
    """A change of the user's rights made in bulk: no notice reaches any socket."""
    user = _user(battle, name)
    members = Membership.objects.filter(campaign_id=battle.campaign_id, user=user)
    users = get_user_model().objects.filter(pk=user.pk)
    sessions = Session.objects.filter(session_key=seat.session_key)
    {
        "deactivated": lambda: users.update(is_active=False),
        "new password": lambda: users.update(password="md5$other$0"),
        "renamed": lambda: users.update(username=f"{name}-renamed"),
        "logged out": lambda: sessions.delete(),
        "expired": lambda: sessions.update(expire_date=timezone.now() - timedelta(seconds=1)),
        "removed": lambda: members.delete(),
        "demoted": lambda: members.update(role=Role.SPECTATOR),
        "made gm": lambda: members.update(role=Role.GM),
        "side given away": lambda: Roster.objects.filter(
            campaign_id=battle.campaign_id, owner=user
        ).update(owner=_user(battle, "gm")),
    }[change]()


#: (who, a change made without a notice, the move frame's outcome: the code its socket is
#: closed with or the role and sides it is served as, then the answer's type or code)
QUIET_CHANGES = [
    ("p1", "deactivated", limits.CLOSE_FORBIDDEN, "forbidden"),
    ("p1", "new password", rights.CLOSE_RIGHTS_CHANGED, "forbidden"),
    ("p1", "logged out", rights.CLOSE_RIGHTS_CHANGED, "forbidden"),
    ("p1", "expired", rights.CLOSE_RIGHTS_CHANGED, "forbidden"),
    ("p1", "removed", limits.CLOSE_FORBIDDEN, "forbidden"),
    ("p1", "demoted", ("spectator", set()), "forbidden"),
    ("p1", "side given away", ("player", set()), "reject"),
    ("p1", "renamed", ("player", {"P1"}), "ack"),
    # Refused on the rights last read (a spectator does not act), before any statement.
    ("spectator", "made gm", ("gm", {"P1", "P2"}), "ack"),
]


@pytest.mark.parametrize(("who", "change", "seated", "answered"), QUIET_CHANGES)
def test_a_move_frame_finds_a_change_of_rights_made_without_a_notice(who, change, seated, answered):
    """The rights a move frame is served on without a read are the ones its socket's last
    frame read: a change since, which sent no notice, is found by the move's statement
    (or read before anything is written), and the move is served on the rights as they
    are now, exactly as if they had been read first. Nothing is written on the old ones."""
    battle, people, (u1, u3, u5) = table()
    seat = seat_of(people[who])
    first = "m-1" if who == "p1" else None
    with captured_events():
        if first:
            serve_now(move_frame(first, 0, u3, [7.5, 4.5]), battle_id=battle.id, user=seat)
        else:
            assert rights.socket_rights(seat, battle.id) == people[who]
        seen = where(battle)[1]
        _quietly(battle, who, seat, change)
        actor, reply = serve_now(
            move_frame("m-2", seen, u1, [1.5, 5.5]), battle_id=battle.id, user=seat
        )
    assert actor == rights.socket_rights(seat, battle.id)  # as read now
    if isinstance(seated, int):
        assert actor == seated
    else:
        assert (actor.role, set(actor.sides)) == seated
    got = reply.code if isinstance(reply, ServiceError) else reply["type"]
    assert got == answered
    moved = answered == "ack"
    assert where(battle) == (
        {**where(battle)[0], u1: [1.5, 5.5] if moved else [1.5, 1.5]},
        seen + moved,
    )
    if moved:
        assert Event.objects.get(battle=battle, seq=seen + 1).payload["actor"] == actor.name


def test_each_role_s_rights_are_read_in_one_round_trip():
    """The GM controls every side, a player theirs, a spectator none."""
    battle, people, _ = table()
    for name in ("gm", "p1", "p2", "spectator"):
        seat = seat_of(people[name])
        with round_trips() as counted:
            now = rights.socket_rights(seat, battle.id)
        assert (name, counted, now) == (name, [1], people[name])
    assert people["gm"].sides == {"P1", "P2"} and people["p2"].sides == {"P2"}


def _runs_of_prepared_moves() -> int:
    """How often this connection ran a move's prepared statement (PostgreSQL's count)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT COALESCE(SUM(generic_plans + custom_plans), 0) FROM pg_prepared_statements"
            " WHERE name LIKE 'one\\_trip\\_%%'"
        )
        return int(cursor.fetchone()[0])


def test_a_connection_prepares_the_move_s_statement_in_the_move_s_own_round_trip():
    """PostgreSQL plans the statement once per connection, not once per move (its
    planning took longer than running it), and preparing it costs no round trip."""
    battle, people, (u1, u3, u5) = table()
    ran = _runs_of_prepared_moves()
    with captured_events():
        act(battle, people["p1"], "m-1", 0, u3, [7.5, 4.5])  # the locked way
        with round_trips() as counted:
            act(battle, people["p1"], "m-2", 1, u1, [1.5, 5.5])
            act(battle, people["p1"], "m-3", 2, u5, [13.5, 4.0])
    assert counted == [2]
    assert _runs_of_prepared_moves() == ran + 2
    assert where(battle) == ({**where(battle)[0], u1: [1.5, 5.5], u5: [13.5, 4.0]}, 3)


@pytest.mark.parametrize("lost", ["by the connection", "by the process"])
def test_a_move_s_prepared_statement_lost_on_either_side_is_prepared_again(lost):
    """A connection reset under the process (DEALLOCATE ALL, as a pooler resets one), or a
    process that forgot what its connection holds: the move is still made, once."""
    battle, people, (u1, u3, u5) = table()
    with captured_events():
        act(battle, people["p1"], "m-1", 0, u3, [7.5, 4.5])
        act(battle, people["p1"], "m-2", 1, u1, [1.5, 5.5])
        if lost == "by the connection":
            with connection.cursor() as cursor:
                cursor.execute("DEALLOCATE ALL")
        else:
            one_trip._prepared.clear()
        reply = act(battle, people["p1"], "m-3", 2, u5, [13.5, 4.0])
    assert reply == {"type": "ack", "id": "m-3", "seq": 3}
    assert where(battle)[0][u5] == [13.5, 4.0] and where(battle)[1] == 3
    assert _runs_of_prepared_moves() >= 1  # held by the connection again


def keep_connection_and_end_request() -> None:
    """What Channels does around each call into a database thread (close_old_connections)
    on a server that keeps its connections (CONN_MAX_AGE > 0, as the benches run)."""
    connection.close_at = None
    connection.close_if_unusable_or_obsolete()


def test_a_move_frame_served_as_the_server_serves_it_is_one_round_trip():
    """Channels ends a "request" around every call into a database thread (its
    close_old_connections), after which Django checks a kept connection with a `SELECT 1`
    (CONN_HEALTH_CHECKS) before the first query: a move's statement checks it instead."""
    battle, people, (u1, u3, u5) = table()
    seat = seat_of(people["p1"])
    with captured_events():
        serve_now(move_frame("m-1", 0, u3, [7.5, 4.5]), battle_id=battle.id, user=seat)
        serve_now(move_frame("m-2", 1, u1, [1.5, 5.5]), battle_id=battle.id, user=seat)
        keep_connection_and_end_request()  # as Channels does before each call
        with round_trips() as counted:
            _, reply = serve_now(
                move_frame("m-3", 2, u5, [13.5, 4.0]), battle_id=battle.id, user=seat
            )
    assert counted == [1]
    assert reply == {"type": "ack", "id": "m-3", "seq": 3}


def test_a_move_on_a_connection_the_database_dropped_is_made_once():
    """Without the health check first, the statement finds a dead connection: the move is
    made the locked way on a new one, once."""
    battle, people, (u1, u3, u5) = table()
    seat = seat_of(people["p1"])
    with captured_events():
        serve_now(move_frame("m-1", 0, u3, [7.5, 4.5]), battle_id=battle.id, user=seat)
        serve_now(move_frame("m-2", 1, u1, [1.5, 5.5]), battle_id=battle.id, user=seat)
        with psycopg.connect(connection.connection.info.dsn, autocommit=True) as other:
            other.execute(
                "SELECT pg_terminate_backend(%s)", [connection.connection.info.backend_pid]
            )
        keep_connection_and_end_request()
        _, reply = serve_now(move_frame("m-3", 2, u5, [13.5, 4.0]), battle_id=battle.id, user=seat)
    assert reply == {"type": "ack", "id": "m-3", "seq": 3}
    assert where(battle)[0][u5] == [13.5, 4.0] and where(battle)[1] == 3
    assert Event.objects.filter(battle=battle, client_msg_id="m-3").count() == 1
