"""A move, or an end of turn, in one round trip to PostgreSQL, and the locked
way when it cannot.

The locked way (command.run) costs eight round trips: BEGIN, the battle row locked, the
resend looked up, the take-back request looked up, the event, the battle, the answer,
COMMIT. Here the move is decided on the battle as this process last left it
(known_battles), and one statement, in a transaction of its own, does the rest: it locks
the battle row by updating it only where the row is still exactly what the decision read
(the sequence number, status, spectator delay, position, turn and the seq of its last
kept base: the sequence check), where no answer is stored for the message id (the resend
check), no take-back request waits (which the event would have to name as lapsed) and,
when the turn changes hands, no player of the side now to act is to be mailed (the
turn's notices, turn_notices.to_mail_sql: the locked way records and mails them);
only if it updated the row does it write the event (its change, and the whole position
when one is due: changes.py) and the stored answer. Served on rights not read first
(rights.assumed: the socket's move frame), it also writes only where the seat's row is
still the one they were made of, so that the whole frame is one round trip. It returns
once committed, so the answer is still sent after the commit, and the event broadcast
after it too. The statement is a prepared one of the connection (`_run_prepared`):
PostgreSQL parses and plans it once per connection, not once per move (planning took
longer than running it: docs/benchmarks.md).

When the statement writes nothing (another process moved, a resend, a guess that was
stale, a change of turn that mails a notice), or the decision needs the database (a
client that saw an older sequence number, a second press of End turn: any query under
`_no_queries`), or it is a refusal (which stores only its answer), the command runs the
locked way from the start: it is decided again there, dice included. Nothing of the
first decision was stored or shown, so this is one roll, never a second chance. Rights
not yet checked are read again before it (rights.Assumed.confirm): if they changed,
nothing is written and the frame is served again on them.
"""

import functools
import hashlib
import json
import re
import weakref
from typing import Any

from django.db import DatabaseError, IntegrityError, connection
from django.utils import timezone
from psycopg import errors as pg_errors

from tabletop import events
from tabletop.models import Battle, CommandReply, Event
from tabletop.services import turn_notices
from tabletop.services.table import command, known_battles, rights
from tabletop.services.table.actor import Actor
from tabletop.services.table.command import TABLE_KINDS, Change, Decide

#: The newest event that may be a take-back request (takeback_log.pending_request).
_REQUEST_KINDS = (*TABLE_KINDS, "takeback")


class NeedsLock(Exception):
    """The decision asked the database: it must be made under the battle row's lock."""


def _no_queries(execute, sql, params, many, context):
    raise NeedsLock(sql)


def _none(battle: Battle) -> None:
    return None


#: The seat check of a move served on rights already read: always passes.
_READ_RIGHTS = "SELECT 1"


@functools.lru_cache(maxsize=16)
def _statement(seat_check: str = _READ_RIGHTS, to_mail: str = "") -> str:
    """`seat_check`: a SELECT of a row when the rights the move is served on still hold;
    `to_mail`: a SELECT of the users a change of turn mails (none: it writes; any: it
    writes nothing, and the locked way records and mails the notices)."""
    mails = f"AND NOT EXISTS ({to_mail})" if to_mail else ""
    battle, event, reply = (m._meta.db_table for m in (Battle, Event, CommandReply))
    kinds = ", ".join(f"'{kind}'" for kind in _REQUEST_KINDS)
    return f"""
WITH seat AS (
    {seat_check}
), given AS (
    SELECT %(before)s::jsonb AS before, %(after)s::jsonb AS after
), written AS (
    UPDATE {battle} AS b
       SET last_seq = b.last_seq + 1,
           state = given.after -> 'state',
           turn_state = given.after -> 'turn',
           base_seq = %(base_seq)s
      FROM given
     WHERE b.id = %(battle)s
       AND b.last_seq = %(seq)s
       AND b.status = %(status)s
       AND b.spectator_delay_s = %(delay)s
       AND b.base_seq = %(base_was)s
       AND b.state = given.before -> 'state'
       AND b.turn_state = given.before -> 'turn'
       AND EXISTS (SELECT 1 FROM seat)
       {mails}
       AND NOT EXISTS (
           SELECT 1 FROM {reply} AS r
            WHERE r.battle_id = b.id AND r.actor_id = %(actor)s AND r.client_msg_id = %(id)s)
       AND NOT EXISTS (
           SELECT 1 FROM (
               SELECT e.kind, e.payload ->> 'step' AS step FROM {event} AS e
                WHERE e.battle_id = b.id AND e.kind IN ({kinds})
                ORDER BY e.seq DESC LIMIT 1) AS newest
            WHERE newest.kind = 'takeback' AND newest.step = 'asked')
    RETURNING b.last_seq
), event AS (
    INSERT INTO {event} (battle_id, seq, actor_id, kind, payload, change, base,
                         client_msg_id, created_at)
    SELECT %(battle)s, written.last_seq, %(actor)s, %(kind)s, %(payload)s::jsonb,
           %(change)s::jsonb, %(base)s::jsonb, %(id)s, %(at)s
      FROM written, given
    RETURNING id
), answer AS (
    INSERT INTO {reply} (battle_id, actor_id, client_msg_id, reply, created_at)
    SELECT %(battle)s, %(actor)s, %(id)s, %(reply)s::jsonb, %(at)s FROM written
)
SELECT (SELECT id FROM event), EXISTS (SELECT 1 FROM seat)
"""


#: A named parameter of the statement (`%(name)s`).
_PARAMETER = re.compile(r"%\((\w+)\)s")
#: The statements each database connection (the driver's object, which lives as long as
#: the session does) has prepared, by name.
_prepared: "weakref.WeakKeyDictionary[Any, set[str]]" = weakref.WeakKeyDictionary()


@functools.lru_cache(maxsize=16)
def _prepared_form(sql: str) -> tuple[str, str, str]:
    """(name, PREPARE, EXECUTE) of `sql`, a statement of named parameters: PREPARE has
    them as $1, $2, ... (their types inferred where they are used, as for the statement
    itself), EXECUTE passes them in that order, still named."""
    order: list[str] = []

    def numbered(parameter: re.Match) -> str:
        if parameter.group(1) not in order:
            order.append(parameter.group(1))
        return f"${order.index(parameter.group(1)) + 1}"

    body = _PARAMETER.sub(numbered, sql)
    name = "one_trip_" + hashlib.sha256(body.encode()).hexdigest()[:16]
    arguments = ", ".join(f"%({key})s" for key in order)
    return name, f"PREPARE {name} AS {body}", f"EXECUTE {name}({arguments})"


def _run_prepared(cursor: Any, sql: str, params: dict[str, Any]) -> None:
    """Runs `sql` as the connection's prepared statement: prepared with its first run, in
    the same round trip (one message of two statements, PREPARE then EXECUTE), and only
    executed after that. A connection that turns out to hold it already, or no longer,
    is believed and the statement run again."""
    name, prepare, execute = _prepared_form(sql)
    names = _prepared.setdefault(connection.connection, set())
    for _ in range(2):
        try:
            if name in names:
                cursor.execute(execute, params)
            else:
                cursor.execute(f"{prepare};\n{execute}", params)
                cursor.nextset()  # PREPARE's result (none), then EXECUTE's
                names.add(name)
            return
        except DatabaseError as error:
            if isinstance(error.__cause__, pg_errors.DuplicatePreparedStatement):
                names.add(name)
            elif isinstance(error.__cause__, pg_errors.InvalidSqlStatementName):
                names.discard(name)
            else:
                raise
    raise DatabaseError(f"the prepared statement {name} could not be run")


def run(*, battle_id: int, actor: Actor, client_msg_id: str, decide: Decide) -> dict[str, Any]:
    """command.run's answer, in one round trip when the move allows (see above). `decide`
    must read no more of the battle than the statement checks (a move's does not)."""
    assumed = rights.assumed()
    if connection.vendor == "postgresql" and not connection.in_atomic_block:
        answer = _in_one_trip(battle_id, actor, client_msg_id, decide, assumed)
        if answer is not None:
            return answer
    if assumed is not None:
        assumed.confirm()  # RightsChanged, with nothing written, when they changed
    return command.run(battle_id=battle_id, actor=actor, client_msg_id=client_msg_id, decide=decide)


def _in_one_trip(
    battle_id: int,
    actor: Actor,
    client_msg_id: str,
    decide: Decide,
    assumed: rights.Assumed | None,
) -> dict[str, Any] | None:
    """The answer, written and committed by one statement; None when the locked way must
    answer (nothing is written then). `assumed`: the rights `actor` is, unread, which the
    statement checks (and marks checked when they hold)."""
    battle = known_battles.get(battle_id)
    if battle is None:
        return None
    guard: dict[str, Any] = {
        "battle": battle.pk,
        "seq": battle.last_seq,
        "status": battle.status,
        "delay": battle.spectator_delay_s,
        "base_was": battle.base_seq,
    }
    try:
        with connection.execute_wrapper(_no_queries):
            outcome = decide(battle)
            if not isinstance(outcome, Change) or outcome.kind not in TABLE_KINDS:
                return None
            if outcome.delay_s is not None:
                return None
            # No take-back request waits: the statement checks it.
            prepared = command.prepare(battle, actor, outcome, client_msg_id, pending=_none)
    except NeedsLock:
        return None
    answer, kept = command.answer_of(outcome, client_msg_id, battle.last_seq)
    event = prepared.event
    event.created_at = timezone.now()
    seat_check, seat_params = (_READ_RIGHTS, {}) if assumed is None else assumed.check_sql()
    before = prepared.before or {}
    # The turn's notices: the statement writes only where a change of turn mails no one
    # (no player of the side now to act asked for mail, or all were told); else they are
    # recorded and mailed the locked way (command.notify_turn).
    to_mail, mail_params = turn_notices.to_mail_sql(
        battle, actor_id=actor.user_id, before=before["turn"], after=battle.turn_state
    ) or ("", {})
    # The position the move was decided on is the one this process wrote last, as a rule:
    # its text then serves again (a position is tens of units, written once, not twice).
    before_text = known_battles.written_text(
        battle_id, before.get("state"), before.get("turn")
    ) or json.dumps(prepared.before)
    after_text = json.dumps({"state": battle.state, "turn": battle.turn_state})
    # The statement is the frame's first query, and the connection's check: Django's own
    # (CONN_HEALTH_CHECKS: a `SELECT 1` before each frame's first query, Channels ending a
    # "request" around every call) would be a second round trip. A connection found dead
    # by the statement is closed, and the move made the locked way on a new one, whose
    # resend check answers it if the statement committed before the connection died.
    connection.health_check_done = True  # type: ignore[attr-defined]  # (not in the stubs)
    try:
        with connection.cursor() as cursor:
            _run_prepared(
                cursor,
                _statement(seat_check, to_mail),
                {
                    **seat_params,
                    **mail_params,
                    **guard,
                    "before": before_text,
                    "after": after_text,
                    "base_seq": battle.base_seq,
                    "change": _json_or_null(event.change),
                    "base": _json_or_null(event.base),
                    "actor": actor.user_id,
                    "id": client_msg_id,
                    "kind": event.kind,
                    "payload": json.dumps(event.payload),
                    "reply": json.dumps(kept),
                    "at": event.created_at,
                },
            )
            written, seated = cursor.fetchone()
    except IntegrityError:
        # An answer for this id stored while the statement waited for the row (the rights
        # unknown: read again before the locked way).
        written, seated = None, False
        known_battles.forget(battle_id)
    except DatabaseError:
        if connection.is_usable():
            raise
        connection.close()
        known_battles.forget(battle_id)
        return None
    if assumed is not None and seated:
        assumed.checked = True
    if written is None:
        if seated:  # the rights held: the battle was not the row guessed
            known_battles.forget(battle_id)
        return None
    event.pk = written
    known_battles.keep(battle, after_text)
    # Committed already (the statement was its own transaction): broadcast now.
    events.send_event_on_commit(battle.id, prepared.frame(), battle.spectator_delay_s)
    return answer


def _json_or_null(value: Any) -> str | None:
    """A JSON column's parameter: SQL NULL for None (never JSON's `null`)."""
    return None if value is None else json.dumps(value)
