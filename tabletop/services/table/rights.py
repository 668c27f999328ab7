"""What an open socket may still see: its login session and its role, read again.

A socket is opened for one login session of one user, in the role they had then. The
rights it was opened with are read again (`socket_rights`) on every frame a service
answers and on every frame that reads the table (`ping`, `resume`), and at once when the
user's rights change: every change (a role, a removal from the campaign, a logout, a
new password, a deactivated account) sends a notice, after its transaction commits, to
the channel-layer group of the user's sockets (`events.user_group`, in every process),
and each of them reads its rights again (docs/protocol.md, "Rights on an open socket").
"""

import contextlib
import contextvars
import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.auth.models import User
from django.contrib.auth.signals import user_logged_out
from django.contrib.sessions.models import Session
from django.db import connection, transaction
from django.db.models import Aggregate, OuterRef, QuerySet, Subquery, TextField
from django.db.models.signals import post_delete, post_save, pre_save
from django.utils import timezone
from django.utils.crypto import constant_time_compare

from tabletop import events, limits
from tabletop.models import BattleSide, Membership, Role
from tabletop.services.table.actor import Actor
from tabletop.services.table.compiled_query import (
    STAND_ID,
    STAND_NOW,
    STAND_OTHER_ID,
    STAND_TEXT,
    CompiledQuery,
)

#: Close code: the socket's rights changed (a new role, or its login session ended):
#: the board reconnects at once and is told its new role, or refused with 4403.
CLOSE_RIGHTS_CHANGED = 4401


@dataclass(frozen=True)
class Seat:
    """Whom a socket was opened for: the user and their login session."""

    user_id: int
    session_key: str | None


def session_digest(session_key: str | None) -> str:
    """A session named in a notice, without its key (which would log anyone in)."""
    return hashlib.sha256((session_key or "").encode()).hexdigest()


class SideList(Aggregate):
    """The aggregated sides as the text of a JSON array (PostgreSQL's `json_agg`, SQLite's
    `json_group_array`): a column of the one row `socket_rights` reads."""

    function = "JSON_AGG"
    template = "%(function)s(%(expressions)s)::text"
    output_field = TextField()

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return super().as_sql(
            compiler,
            connection,
            function="JSON_GROUP_ARRAY",
            template="%(function)s(%(expressions)s)",
            **extra,
        )


def _sides(battle_id: int, **owned: Any) -> Subquery:
    return Subquery(
        BattleSide.objects.filter(battle_id=battle_id, **owned)
        .values("battle_id")
        .annotate(sides=SideList("side"))
        .values("sides")
    )


def _seat_query(user_id: int, session_key: str, battle_id: int, now: datetime) -> QuerySet:
    """The seat's user (only what the rights need: never the battle's row, whose position
    can be large), with, read in the same query (every frame of every socket reads it: one
    round trip per frame): its login session's data (None when ended or expired at `now`),
    its role in the battle's campaign (None when not a member, or no such battle), the
    battle's sides and its own.
    The session is read from Django's session table: the sessions are stored in the
    database (settings.SESSION_ENGINE, Django's default)."""
    session = Session.objects.filter(session_key=session_key, expire_date__gt=now)
    role = Membership.objects.filter(
        user_id=OuterRef("pk"), campaign__battles__id=battle_id
    ).values("role")
    return (
        get_user_model()
        ._default_manager.filter(pk=user_id)
        .only("pk", "password", "is_active", get_user_model().USERNAME_FIELD)
        .annotate(
            session_data=Subquery(session.values("session_data")[:1]),
            role=Subquery(role[:1]),
            all_sides=_sides(battle_id),
            own_sides=_sides(battle_id, roster__owner_id=OuterRef("pk")),
        )
    )


#: The seat's query, built once per thread: every frame of every socket reads it, and
#: building it cost several times its round trip.
_SEAT_QUERY = CompiledQuery(_seat_query, STAND_ID, STAND_TEXT, STAND_OTHER_ID, STAND_NOW)


def _seat_args(
    seat: Seat, battle_id: int, now: datetime | None = None
) -> tuple[int, str, int, datetime]:
    return seat.user_id, seat.session_key or "", battle_id, now or timezone.now()


def _seat_row(seat: Seat, battle_id: int) -> User | None:
    """The seat's row (`_seat_query`): at most one, its user's key being given."""
    return _SEAT_QUERY.first(*_seat_args(seat, battle_id))  # type: ignore[return-value]


def _row_columns() -> tuple[str, ...]:
    """The columns of the seat's row its rights are made of, but the sides (the role's
    own: `_SIDES`), which are compared as sets."""
    return (get_user_model().USERNAME_FIELD, "password", "is_active", "session_data", "role")


#: The sides column a role's rights are made of (a spectator's: none).
_SIDES: dict[str, str] = {Role.GM: "all_sides", Role.PLAYER: "own_sides"}


def _session_stands(seat: Seat, user: User) -> bool:
    """The seat's login session is the user's, not logged out, and the password unchanged
    since (Django's session hash)."""
    if user.session_data is None:  # type: ignore[attr-defined]
        return False
    store = import_module(settings.SESSION_ENGINE).SessionStore(seat.session_key)
    session = store.decode(user.session_data)  # type: ignore[attr-defined]
    if str(session.get(SESSION_KEY)) != str(seat.user_id):
        return False
    stored = session.get(HASH_SESSION_KEY) or ""
    hashes = [user.get_session_auth_hash(), *user.get_session_auth_fallback_hash()]
    return any(constant_time_compare(stored, h) for h in hashes)


def socket_rights(seat: Seat, battle_id: int) -> Actor | int:
    """The seat at the battle's table as the database has it now, or the code its socket
    is closed with: 4401 when its login session ended (the board reconnects, and a browser
    still logged in gets its new session's rights), 4403 when the user is no longer a
    member of the campaign or their account is deactivated. One query (`_seat_row`).
    The rights read are kept for the seat (`assumable`)."""
    return _followed(seat, battle_id, _seat_row(seat, battle_id))


def many_sockets_rights(seats: list[tuple[Seat, int]]) -> list[Actor | int]:
    """`socket_rights` of each (seat, battle id), in one query on PostgreSQL (the
    seat's query run for each pair: `CompiledQuery.first_for_each`): the periodic
    re-reads and pings of a process's sockets, batched (table_socket/batches.py)."""
    if connection.vendor != "postgresql":
        return [socket_rights(seat, battle_id) for seat, battle_id in seats]
    now = timezone.now()
    users = _SEAT_QUERY.first_for_each([_seat_args(s, b, now) for s, b in seats])
    return [
        _followed(seat, battle_id, user)  # type: ignore[arg-type]
        for (seat, battle_id), user in zip(seats, users, strict=True)
    ]


def _followed(seat: Seat, battle_id: int, user: User | None) -> Actor | int:
    """The rights of the seat's row (`_seat_row`), kept for the seat or forgotten."""
    now = _rights_of(seat, user)
    if isinstance(now, Actor):
        assert user is not None
        _keep(seat, battle_id, now, user)
    else:
        _forget(seat, battle_id)
    return now


def _rights_of(seat: Seat, user: User | None) -> Actor | int:
    if user is None or not user.is_active:
        return limits.CLOSE_FORBIDDEN
    if not _session_stands(seat, user):
        return CLOSE_RIGHTS_CHANGED
    role = user.role  # type: ignore[attr-defined]
    if role is None:
        return limits.CLOSE_FORBIDDEN
    sides = getattr(user, _SIDES[role]) if role in _SIDES else None
    return Actor(user.pk, user.get_username(), role, frozenset(json.loads(sides or "[]")))


# -- rights assumed, and checked by the statement that writes ------------------------------


class RightsChanged(Exception):
    """The rights a frame was served on are no longer the database's (nothing was written):
    `now`, the seat's rights as read again, or the code its socket is closed with."""

    def __init__(self, now: Actor | int) -> None:
        super().__init__(now)
        self.now = now


@dataclass
class Assumed:
    """The rights a frame is served on without reading them first: the last read for the
    seat (`actor`, whose sides are the row's), and the columns of the row they were made
    of (`row`: `_row_columns`). `checked` once the database is known to hold them still."""

    seat: Seat
    battle_id: int
    actor: Actor
    row: dict[str, Any]
    checked: bool = field(default=False)

    def check_sql(self) -> tuple[str, dict[str, Any]]:
        """A SELECT (and its named parameters) of one row when the seat's row is still
        `row`, of none otherwise: the seat's query (`_seat_query`), compared column by
        column, the sides as sets (the rights hold them as a set; the aggregate's order
        is not fixed)."""
        named = _SEAT_QUERY.named_sql_with_params("seat", *_seat_args(self.seat, self.battle_id))
        quote = connection.ops.quote_name
        wheres = [f"seat.{quote(c)} = %(seat_{c})s" for c in _row_columns()]
        given = {f"seat_{c}": self.row[c] for c in _row_columns()}
        sides = _SIDES.get(self.actor.role)
        if sides is not None:
            wheres.append(
                f"COALESCE(seat.{quote(sides)}, '[]')::jsonb @> %(seat_sides)s::jsonb"
                f" AND COALESCE(seat.{quote(sides)}, '[]')::jsonb <@ %(seat_sides)s::jsonb"
            )
            given["seat_sides"] = json.dumps(sorted(self.actor.sides))
        where = " AND ".join(wheres)
        return f"SELECT 1 FROM ({named[0]}) AS seat WHERE {where}", {**named[1], **given}

    def confirm(self) -> None:
        """The rights read again unless checked already; RightsChanged when they are not
        `actor` any more. Before anything is written on them."""
        if self.checked:
            return
        now = socket_rights(self.seat, self.battle_id)
        self.checked = True
        if now != self.actor:
            raise RightsChanged(now)


#: Rights kept per process: one per seat at a live table is enough.
SIZE = 4096

_read: OrderedDict[tuple[Seat, int], tuple[Actor, dict[str, Any]]] = OrderedDict()
_lock = threading.Lock()
_assumed: contextvars.ContextVar[Assumed | None] = contextvars.ContextVar(
    "assumed_rights", default=None
)


def _keep(seat: Seat, battle_id: int, actor: Actor, user: User) -> None:
    row = {c: getattr(user, c) for c in _row_columns()}
    with _lock:
        _read[seat, battle_id] = (actor, row)
        _read.move_to_end((seat, battle_id))
        while len(_read) > SIZE:
            _read.popitem(last=False)


def _forget(seat: Seat, battle_id: int) -> None:
    with _lock:
        _read.pop((seat, battle_id), None)


def assumable(seat: Seat, battle_id: int) -> Assumed | None:
    """The rights last read for the seat at the battle, to serve a frame on, on
    PostgreSQL (whose statement checks them); None when none are kept, or on SQLite."""
    if connection.vendor != "postgresql":
        return None
    with _lock:
        kept = _read.get((seat, battle_id))
    return None if kept is None else Assumed(seat, battle_id, kept[0], kept[1])


@contextlib.contextmanager
def assuming(rights: Assumed) -> Iterator[None]:
    """Serves what runs inside on `rights`, unread (`assumed`)."""
    token = _assumed.set(rights)
    try:
        yield
    finally:
        _assumed.reset(token)


def assumed() -> Assumed | None:
    """The rights the frame being served is served on unread, or None (read already)."""
    return _assumed.get()


# -- notices -------------------------------------------------------------------------


def rights_changed(user_id: int, *, ended_session: str | None = None) -> None:
    """Tells the user's open sockets, in every process, to read their rights again, once
    the transaction commits; `ended_session`: a login session that ends (logout), whose
    sockets close whatever the database says meanwhile."""
    message: dict[str, Any] = {"type": "table.rights"}
    if ended_session is not None:
        message["ended_session"] = session_digest(ended_session)
    transaction.on_commit(
        lambda: events.deliver([(events.user_group(user_id), message)]), robust=True
    )


def _membership_changed(instance: Membership, created: bool = False, **_: Any) -> None:
    if not created:  # a new member has no socket at the campaign's tables yet
        rights_changed(instance.user_id)


def _logged_out(request: Any, user: User | None, **_: Any) -> None:
    # Sent before the session is flushed: the notice names it, so that a socket reading
    # it meanwhile does not find it still standing.
    if user is not None and user.pk is not None:
        rights_changed(user.pk, ended_session=request.session.session_key)


#: The fields of a user whose change ends their sockets' rights: a new password ends
#: their other login sessions (Django's session hash), a deactivation all of them.
USER_ACCESS_FIELDS = ("password", "is_active")


def _user_saving(sender: Any, instance: User, update_fields: Any = None, **_: Any) -> None:
    if instance.pk is None:
        return
    if update_fields is not None and not set(USER_ACCESS_FIELDS) & set(update_fields):
        return  # a login's last_login: no query
    before = sender._default_manager.filter(pk=instance.pk).values_list(*USER_ACCESS_FIELDS)
    instance._access_before = before.first()  # type: ignore[attr-defined]


def _user_saved(instance: User, created: bool, **_: Any) -> None:
    before = instance.__dict__.pop("_access_before", None)
    now = tuple(getattr(instance, f) for f in USER_ACCESS_FIELDS)
    if not created and before is not None and tuple(before) != now:
        rights_changed(instance.pk)


def _user_deleted(instance: User, **_: Any) -> None:
    rights_changed(instance.pk)


def connect_signals() -> None:
    """Wires the notices to every way rights change: services, the admin, Django's auth
    views (logout, password change and reset) and any other save of the models."""
    user_model = get_user_model()
    post_save.connect(_membership_changed, sender=Membership, dispatch_uid="rights-membership")
    post_delete.connect(_membership_changed, sender=Membership, dispatch_uid="rights-member-gone")
    pre_save.connect(_user_saving, sender=user_model, dispatch_uid="rights-user-saving")
    post_save.connect(_user_saved, sender=user_model, dispatch_uid="rights-user-saved")
    post_delete.connect(_user_deleted, sender=user_model, dispatch_uid="rights-user-deleted")
    user_logged_out.connect(_logged_out, dispatch_uid="rights-logout")
