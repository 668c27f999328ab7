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
from django.template.loader import render_to_string
from django.urls import reverse

from tabletop.models import Battle, Role, TurnNoticeSettings, TurnNotified

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


def players_of_side(battle: Battle, side: str, **more: Any) -> list[Any]:
    """The members who play `side` now: they own a roster on it and are still in the
    campaign as a player (or its GM fielding a roster), not as a spectator (`more`: any
    further condition on them)."""
    return list(
        get_user_model()
        .objects.filter(
            rosters__battle_sides__battle=battle,
            rosters__battle_sides__side=side,
            memberships__campaign_id=battle.campaign_id,
            memberships__role__in=ACTING_ROLES,
            **more,
        )
        .distinct()
        .order_by("pk")
    )


def turn_changed(
    battle: Battle, *, actor_id: int, before: dict[str, Any], after: dict[str, Any]
) -> None:
    """Called with the locked battle when a change moves its turn state from `before` to
    `after`: records who is to be told and mails them once the change commits."""
    side = str(after.get("active_side") or "")
    key = turn_key(after)
    if not side or key == turn_key(before):
        return
    told = []
    # Only those who asked for mail: one query, however many users of the site did.
    for user in players_of_side(battle, side, turn_notice_settings__mail=True):
        if user.pk == actor_id or not user.email:
            continue
        notice, made = TurnNotified.objects.get_or_create(
            battle=battle, user=user, defaults={"turn_key": key}
        )
        if not made:
            if notice.turn_key == key:
                continue  # told of this very turn already
            notice.turn_key = key
            notice.save(update_fields=["turn_key", "at"])
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
