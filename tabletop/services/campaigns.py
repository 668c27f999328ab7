"""Campaigns, their members, and the links that invite new ones."""

from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from tabletop.models import Campaign, Invitation, Membership, Role
from tabletop.services import game_systems
from tabletop.services.errors import ServiceError
from tabletop.services.inputs import first_non_finite
from tabletop.services.log import campaign_log_add
from tabletop.services.permissions import require_gm

MAX_POINTS_LIMIT = 100_000
MAX_INVITATION_DAYS = 90


def _clean_name(name: Any, what: str) -> str:
    if not isinstance(name, str) or not name.strip():
        raise ServiceError(f"A {what} needs a name.", field="name")
    if len(name.strip()) > 120:
        raise ServiceError("A name is at most 120 characters.", field="name")
    return name.strip()


def _clean_points_limit(points_limit: Any) -> int:
    if isinstance(points_limit, bool) or not isinstance(points_limit, int):
        raise ServiceError("The points limit is a whole number.", field="points_limit")
    if not 1 <= points_limit <= MAX_POINTS_LIMIT:
        raise ServiceError(
            f"The points limit is between 1 and {MAX_POINTS_LIMIT}.", field="points_limit"
        )
    return points_limit


def _clean_table_options(system: str, options: Any) -> dict:
    """The system's table options, as the engine will read them for every battle."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise ServiceError("Table options are a JSON object.", field="table_options")
    if first_non_finite(options):
        raise ServiceError("Table options hold a number that is not finite.", field="table_options")
    error = game_systems.position_error(
        {"system": system, "table": {"width": 36, "height": 36, "options": options}}
    )
    if error:
        key, message = error
        raise ServiceError(
            f"{key.removeprefix('table.options.')}: {message}", field="table_options"
        )
    return options


@transaction.atomic
def campaign_create(
    *,
    gm: User,
    name: str,
    system: str,
    points_limit: int = 300,
    table_options: dict | None = None,
) -> Campaign:
    """A new campaign with `gm` as its game master (the actor is the GM)."""
    name = _clean_name(name, "campaign")
    game_systems.require_system(system)
    campaign = Campaign.objects.create(
        name=name,
        system=system,
        gm=gm,
        points_limit=_clean_points_limit(points_limit),
        table_options=_clean_table_options(system, table_options),
    )
    Membership.objects.create(campaign=campaign, user=gm, role=Role.GM)
    campaign_log_add(campaign=campaign, actor=gm, text=f"{gm} started the campaign.")
    return campaign


@transaction.atomic
def campaign_update(
    *,
    actor: User,
    campaign: Campaign,
    name: str,
    points_limit: int,
    table_options: dict | None,
) -> Campaign:
    """Renames the campaign, changes its points limit or table options (the system stays)."""
    require_gm(actor, campaign)
    campaign.name = _clean_name(name, "campaign")
    campaign.points_limit = _clean_points_limit(points_limit)
    campaign.table_options = _clean_table_options(campaign.system, table_options)
    campaign.save(update_fields=["name", "points_limit", "table_options"])
    campaign_log_add(campaign=campaign, actor=actor, text=f"{actor} changed the campaign settings.")
    return campaign


@transaction.atomic
def membership_set(
    *,
    campaign: Campaign,
    user: User,
    role: str,
    actor: User | None = None,
) -> Membership:
    """Adds `user` to the campaign in `role`, or changes the role they have.

    `actor=None` is a trusted caller (the demo command, test fixtures); pages pass
    the signed-in user, who must be the GM.
    """
    if actor is not None:
        require_gm(actor, campaign)
    if role not in Role.values:
        raise ServiceError(f"Unknown role {role!r}.", field="role")
    if user.pk == campaign.gm_id and role != Role.GM:
        raise ServiceError("The campaign's GM keeps the GM role.", field="role")
    if role == Role.GM and user.pk != campaign.gm_id:
        raise ServiceError("A campaign has one GM.", field="role")
    membership, _ = Membership.objects.update_or_create(
        campaign=campaign, user=user, defaults={"role": role}
    )
    campaign_log_add(campaign=campaign, actor=actor, text=f"{user} is now a {role}.")
    return membership


@transaction.atomic
def invitation_create(
    *,
    campaign: Campaign,
    created_by: User,
    role: str = Role.PLAYER,
    valid_for: timedelta = timedelta(days=7),
    single_use: bool = True,
) -> Invitation:
    """A link that lets whoever opens it join as `role`; only the GM makes them."""
    require_gm(created_by, campaign)
    if role not in (Role.PLAYER, Role.SPECTATOR):
        raise ServiceError("An invitation is for a player or a spectator.", field="role")
    if not timedelta(0) < valid_for <= timedelta(days=MAX_INVITATION_DAYS):
        raise ServiceError(
            f"An invitation is valid for 1 to {MAX_INVITATION_DAYS} days.", field="valid_days"
        )
    return Invitation.objects.create(
        campaign=campaign,
        created_by=created_by,
        role=role,
        expires_at=timezone.now() + valid_for,
        single_use=single_use,
    )


def invitation_problem(invitation: Invitation | None) -> str | None:
    """Why a link cannot be used to join now, in the words its page shows; None if it can."""
    if invitation is None:
        return "This invitation link is not valid."
    if invitation.expires_at <= timezone.now():
        return "This invitation link has expired; ask the game master for a new one."
    if invitation.single_use and invitation.uses >= 1:
        return "This invitation link has already been used; ask the game master for a new one."
    return None


@transaction.atomic
def invitation_accept(*, token: str, user: User) -> Membership:
    invitation = Invitation.objects.select_for_update().filter(token=token).first()
    if invitation is not None:
        existing = Membership.objects.filter(campaign=invitation.campaign, user=user).first()
        if existing is not None:
            return existing  # joining twice changes nothing, not even a GM's role
    problem = invitation_problem(invitation)
    if problem:
        raise ServiceError(problem, field="token")
    assert invitation is not None
    invitation.uses += 1
    invitation.save(update_fields=["uses"])
    campaign_log_add(
        campaign=invitation.campaign,
        actor=user,
        text=f"{user} joined as a {invitation.role}.",
    )
    return Membership.objects.create(campaign=invitation.campaign, user=user, role=invitation.role)
