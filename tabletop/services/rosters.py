"""Rosters and their unit profiles."""

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from tabletop.models import Campaign, Roster, UnitProfile
from tabletop.services.errors import ServiceError


@transaction.atomic
def roster_create(
    *, campaign: Campaign, owner: AbstractBaseUser, name: str, faction: str = ""
) -> Roster:
    if not name.strip():
        raise ServiceError("A roster needs a name.", field="name")
    return Roster.objects.create(
        campaign=campaign, owner=owner, name=name.strip(), faction=faction.strip()
    )


@transaction.atomic
def unit_profile_add(
    *, roster: Roster, name: str, unit_type: str, stats: dict, points: int = 0
) -> UnitProfile:
    if not name.strip():
        raise ServiceError("A unit needs a name.", field="name")
    if points < 0:
        raise ServiceError("Points cannot be negative.", field="points")
    return UnitProfile.objects.create(
        roster=roster, name=name.strip(), unit_type=unit_type, stats=stats, points=points
    )
