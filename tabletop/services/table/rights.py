"""What an open socket may still see: its login session and its role, read again.

A socket is opened for one login session of one user, in the role they had then. The
rights it was opened with are read again (`socket_rights`) on every frame a service
answers and on every frame that reads the table (`ping`, `resume`), and at once when the
user's rights change: every change (a role, a removal from the campaign, a logout, a
new password, a deactivated account) sends a notice, after its transaction commits, to
the channel-layer group of the user's sockets (`events.user_group`, in every process),
and each of them reads its rights again (docs/protocol.md, "Rights on an open socket").
"""

import hashlib
import json
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.auth.models import User
from django.contrib.auth.signals import user_logged_out
from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models import Aggregate, OuterRef, Subquery, TextField
from django.db.models.signals import post_delete, post_save, pre_save
from django.utils import timezone
from django.utils.crypto import constant_time_compare

from tabletop import events, limits
from tabletop.models import BattleSide, Membership, Role
from tabletop.services.table.actor import Actor

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


def _seat_row(seat: Seat, battle_id: int) -> User | None:
    """The seat's user (only what the rights need: never the battle's row, whose position
    can be large), with, read in the same query (one round trip per frame: issue 25): its
    login session's data (None when ended or expired), its role in the battle's campaign
    (None when not a member, or no such battle), the battle's sides and its own. The
    session is read from Django's session table: the sessions are stored in the database
    (settings.SESSION_ENGINE, Django's default)."""
    now = timezone.now()
    session = Session.objects.filter(session_key=seat.session_key or "", expire_date__gt=now)
    role = Membership.objects.filter(
        user_id=OuterRef("pk"), campaign__battles__id=battle_id
    ).values("role")
    return (
        get_user_model()
        ._default_manager.filter(pk=seat.user_id)
        .only("pk", "password", "is_active", get_user_model().USERNAME_FIELD)
        .annotate(
            session_data=Subquery(session.values("session_data")[:1]),
            role=Subquery(role[:1]),
            all_sides=_sides(battle_id),
            own_sides=_sides(battle_id, roster__owner_id=OuterRef("pk")),
        )
        .first()
    )


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
    member of the campaign or their account is deactivated. One query (`_seat_row`)."""
    user = _seat_row(seat, battle_id)
    if user is None or not user.is_active:
        return limits.CLOSE_FORBIDDEN
    if not _session_stands(seat, user):
        return CLOSE_RIGHTS_CHANGED
    role = user.role  # type: ignore[attr-defined]
    if role is None:
        return limits.CLOSE_FORBIDDEN
    sides = {Role.GM: user.all_sides, Role.PLAYER: user.own_sides}.get(role)  # type: ignore[attr-defined]
    return Actor(user.pk, user.get_username(), role, frozenset(json.loads(sides or "[]")))


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
