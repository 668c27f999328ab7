"""Campaigns and their members."""

from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

import rules
from tabletop.models import Campaign, Invitation, Membership, Role
from tabletop.services.errors import ServiceError


@transaction.atomic
def campaign_create(
    *,
    gm: AbstractBaseUser,
    name: str,
    system: str,
    points_limit: int = 300,
    table_options: dict | None = None,
) -> Campaign:
    if not name.strip():
        raise ServiceError("A campaign needs a name.", field="name")
    if system not in rules.SYSTEMS:
        raise ServiceError(
            f"Unknown game system {system!r}; choose one of {', '.join(sorted(rules.SYSTEMS))}.",
            field="system",
        )
    campaign = Campaign.objects.create(
        name=name.strip(),
        system=system,
        gm=gm,
        points_limit=points_limit,
        table_options=table_options or {},
    )
    Membership.objects.create(campaign=campaign, user=gm, role=Role.GM)
    return campaign


@transaction.atomic
def membership_set(*, campaign: Campaign, user: AbstractBaseUser, role: str) -> Membership:
    """Adds `user` to the campaign in `role`, or changes the role they have."""
    if role not in Role.values:
        raise ServiceError(f"Unknown role {role!r}.", field="role")
    membership, _ = Membership.objects.update_or_create(
        campaign=campaign, user=user, defaults={"role": role}
    )
    return membership


@transaction.atomic
def invitation_create(
    *,
    campaign: Campaign,
    created_by: AbstractBaseUser,
    role: str = Role.PLAYER,
    valid_for: timedelta = timedelta(days=7),
    single_use: bool = True,
) -> Invitation:
    if role not in Role.values or role == Role.GM:
        raise ServiceError("An invitation is for a player or a spectator.", field="role")
    return Invitation.objects.create(
        campaign=campaign,
        created_by=created_by,
        role=role,
        expires_at=timezone.now() + valid_for,
        single_use=single_use,
    )


@transaction.atomic
def invitation_accept(*, token: str, user: AbstractBaseUser) -> Membership:
    invitation = Invitation.objects.select_for_update().filter(token=token).first()
    if invitation is None:
        raise ServiceError("This invitation link is not valid.", field="token")
    if invitation.expires_at <= timezone.now():
        raise ServiceError("This invitation link has expired.", field="token")
    if invitation.single_use and invitation.uses >= 1:
        raise ServiceError("This invitation link has already been used.", field="token")
    existing = Membership.objects.filter(campaign=invitation.campaign, user=user).first()
    if existing is not None:
        return existing  # joining twice changes nothing, not even a GM's role
    invitation.uses += 1
    invitation.save(update_fields=["uses"])
    return Membership.objects.create(campaign=invitation.campaign, user=user, role=invitation.role)
