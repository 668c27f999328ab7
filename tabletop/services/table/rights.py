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
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.auth.models import User
from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.db.models.signals import post_delete, post_save, pre_save
from django.utils.crypto import constant_time_compare

from tabletop import events, limits
from tabletop.models import Membership
from tabletop.services.table.actor import Actor, actor_for

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


def _session_user(seat: Seat) -> User | None:
    """The seat's user while its login session stands (not logged out, and the password
    unchanged since: Django's session hash), else None."""
    session = import_module(settings.SESSION_ENGINE).SessionStore(seat.session_key)
    if str(session.get(SESSION_KEY)) != str(seat.user_id):
        return None
    user = get_user_model()._default_manager.filter(pk=seat.user_id).first()
    if user is None:
        return None
    stored = session.get(HASH_SESSION_KEY) or ""
    hashes = [user.get_session_auth_hash(), *user.get_session_auth_fallback_hash()]
    if not any(constant_time_compare(stored, h) for h in hashes):
        return None
    return user


def socket_rights(seat: Seat, battle_id: int) -> Actor | int:
    """The seat at the battle's table as the database has it now, or the code its socket
    is closed with: 4401 when its login session ended (the board reconnects, and a browser
    still logged in gets its new session's rights), 4403 when the user is no longer a
    member of the campaign or their account is deactivated."""
    from tabletop import selectors  # selectors imports the models this module does

    user = _session_user(seat)
    if user is None:
        if not get_user_model()._default_manager.filter(pk=seat.user_id, is_active=True).exists():
            return limits.CLOSE_FORBIDDEN
        return CLOSE_RIGHTS_CHANGED
    if not user.is_active:
        return limits.CLOSE_FORBIDDEN
    found = selectors.battle_membership(user, battle_id)
    if found is None:
        return limits.CLOSE_FORBIDDEN
    battle, membership = found
    return actor_for(battle, user, membership)


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
