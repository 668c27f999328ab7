"""Play by correspondence: tell a player by mail that it is their turn.

A change that hands the table to another side (`end_turn`, an undo, a fiat: whatever
changes the turn state's active side, phase or turn) mails the players of the side now
to act who asked for it in their settings; never a spectator, never a user no longer a
member of the campaign, never the user who made the change. The last turn each player
was told of is stored with the change, under the battle's row lock, so that the same
turn reached again (an undo and the same end of turn, a resent frame) is not mailed
twice; the mail itself goes once the change has committed (a rollback mails no one).
Browser notifications are the board's (static/js/board/turnnotice.js): it sees the turn
event itself.
"""

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.template.loader import render_to_string
from django.urls import reverse

from tabletop.models import Battle, Role, TurnNoticeSettings, TurnNotified
from tabletop.services.table.compiled_query import (
    STAND_ID,
    STAND_OTHER_ID,
    STAND_OTHER_TEXT,
    STAND_TEXT,
    STAND_THIRD_ID,
    CompiledQuery,
)

#: Roles whose members may be told it is their turn (a spectator never is).
ACTING_ROLES = (Role.PLAYER, Role.GM)


def turn_key(turn: dict[str, Any]) -> str:
    """Names one side's part of one turn (and phase, in phased systems)."""
    return f"{turn.get('turn', '')}|{turn.get('phase', '')}|{turn.get('active_side', '')}"


def notice_settings_of(user: User) -> TurnNoticeSettings:
    """The user's choice (unsaved defaults, both off, when they never chose)."""
    found = TurnNoticeSettings.objects.filter(user=user).first()
    return found or TurnNoticeSettings(user=user)


@transaction.atomic
def notice_settings_update(*, user: User, mail: bool, browser: bool) -> None:
    TurnNoticeSettings.objects.update_or_create(
        user=user, defaults={"mail": mail, "browser": browser}
    )


def players_of_side(battle_id: int, campaign_id: int, side: str, **more: Any) -> QuerySet:
    """The members who play `side` now: they own a roster on it and are still in the
    campaign as a player (or its GM fielding a roster), not as a spectator (`more`: any
    further condition on them)."""
    return (
        get_user_model()
        .objects.filter(
            rosters__battle_sides__battle_id=battle_id,
            rosters__battle_sides__side=side,
            memberships__campaign_id=campaign_id,
            memberships__role__in=ACTING_ROLES,
            **more,
        )
        .distinct()
        .order_by("pk")
    )


def _to_mail(battle_id: int, campaign_id: int, side: str, actor_id: int, key: str) -> QuerySet:
    """Those `turn_changed` mails: the side's players who asked for mail, have an address
    and were not told of `key` already, but the user who made the change."""
    told = TurnNotified.objects.filter(battle_id=battle_id, user=OuterRef("pk"), turn_key=key)
    return (
        players_of_side(battle_id, campaign_id, side, turn_notice_settings__mail=True)
        .exclude(pk=actor_id)
        .exclude(email="")
        .exclude(Exists(told))
    )


#: `_to_mail`'s ids, its SQL compiled once (one_trip.py's statement holds it).
_TO_MAIL = CompiledQuery(
    lambda *args: _to_mail(*args).values("pk"),
    STAND_ID,
    STAND_OTHER_ID,
    STAND_TEXT,
    STAND_THIRD_ID,
    STAND_OTHER_TEXT,
)


def handed_over(before: dict[str, Any], after: dict[str, Any]) -> tuple[str, str] | None:
    """(the side now to act, its turn key) when the turn state going from `before` to
    `after` hands the table to another part of a turn (a side's); None when it does not."""
    side = str(after.get("active_side") or "")
    key = turn_key(after)
    if not side or key == turn_key(before):
        return None
    return side, key


def to_mail_sql(
    battle: Battle, *, actor_id: int, before: dict[str, Any], after: dict[str, Any]
) -> tuple[str, dict[str, Any]] | None:
    """A SELECT (and its named parameters, `mail<n>`) of the users `turn_changed` would
    mail for this change, for a statement that writes the change only where it finds
    none (one_trip.py); None when the change hands nothing over."""
    handed = handed_over(before, after)
    if handed is None:
        return None
    args = (battle.pk, battle.campaign_id, handed[0], actor_id, handed[1])
    return _TO_MAIL.named_sql_with_params("mail", *args)


def turn_changed(
    battle: Battle, *, actor_id: int, before: dict[str, Any], after: dict[str, Any]
) -> None:
    """Called with the locked battle when a change moves its turn state from `before` to
    `after`: records who is to be told and mails them once the change commits."""
    handed = handed_over(before, after)
    if handed is None:
        return
    side, key = handed
    told = []
    # Only those who asked for mail: one query, however many users of the site did.
    for user in _to_mail(battle.pk, battle.campaign_id, side, actor_id, key):
        TurnNotified.objects.update_or_create(battle=battle, user=user, defaults={"turn_key": key})
        told.append(user)
    if told:
        context = {
            "battle": battle,
            "turn": after,
            "side": side,
            "link": board_link(battle),
            "settings_link": settings.SITE_URL + reverse("turn_notice_settings"),
        }
        transaction.on_commit(lambda: mail_turn(told, context), robust=True)


def board_link(battle: Battle) -> str:
    return settings.SITE_URL + reverse("board", args=[battle.pk])


def mail_turn(users: list[Any], context: dict[str, Any]) -> None:
    for user in users:
        page = {"user": user, **context}
        # One line whatever the battle's name holds: a header cannot carry a line break.
        subject = " ".join(render_to_string("tabletop/turn_notice_subject.txt", page).split())
        body = render_to_string("tabletop/turn_notice_email.txt", page)
        send_mail(subject, body, None, [user.email])
