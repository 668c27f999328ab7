"""Rosters and their unit profiles, checked against the system and the points limit."""

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from tabletop.models import Campaign, Roster, UnitProfile
from tabletop.models.roster import UnitStatus
from tabletop.selectors import ROSTER_FORMAT, roster_points
from tabletop.services import game_systems
from tabletop.services.errors import InvalidInput, ServiceError
from tabletop.services.log import campaign_log_add
from tabletop.services.permissions import require_fielding_member, require_roster_owner

MAX_UNITS_PER_ROSTER = 60


def _clean_text(value: Any, *, field: str, what: str, required: bool, limit: int) -> str:
    if not isinstance(value, str):
        raise ServiceError(f"The {what} is text.", field=field)
    value = value.strip()
    if required and not value:
        raise ServiceError(f"A {what} is required.", field=field)
    if len(value) > limit:
        raise ServiceError(f"The {what} is at most {limit} characters.", field=field)
    return value


def _clean_unit(
    *, campaign: Campaign, name: Any, unit_type: Any, stats: Any, points: Any, prefix: str = ""
) -> tuple[str, str, dict, int]:
    """A unit's fields, checked against the engine's unit schema; all errors at once."""
    errors: dict[str, str] = {}
    try:
        name = _clean_text(name, field="name", what="unit name", required=True, limit=120)
    except ServiceError as error:
        errors["name"] = error.message
    if isinstance(points, bool) or not isinstance(points, int) or points < 0:
        errors["points"] = "Points are a whole number, 0 or more."
    schema = game_systems.unit_schema(campaign.system)
    if isinstance(stats, dict) and "points" in schema["properties"] and "points" not in errors:
        # The engine reads a unit's points from its stats (a system may count orders by points).
        stats = {**stats, "points": points}
    errors.update(game_systems.unit_errors(campaign.system, unit_type, stats))
    if errors:
        raise InvalidInput({f"{prefix}{k}": v for k, v in errors.items()})
    return name, unit_type, stats, points


def _require_within_limit(roster: Roster, total: int, field: str = "points") -> None:
    limit = roster.campaign.points_limit
    if total > limit:
        raise ServiceError(
            f"That makes the roster {total} points; the campaign's limit is {limit}.",
            field=field,
        )


def _lock(roster: Roster) -> Roster:
    """Locks the roster row, so that two tabs adding units cannot pass the limit together."""
    return Roster.objects.select_for_update().select_related("campaign").get(pk=roster.pk)


@transaction.atomic
def roster_create(
    *,
    campaign: Campaign,
    owner: User,
    name: str,
    faction: str = "",
    actor: User | None = None,
) -> Roster:
    """A new, empty roster of `owner`. Pages pass `actor` (who must be the owner)."""
    if actor is not None:
        if actor.pk != owner.pk:
            raise ServiceError("You may only create your own rosters.", field="owner")
        require_fielding_member(actor, campaign)
    roster = Roster.objects.create(
        campaign=campaign,
        owner=owner,
        name=_clean_text(name, field="name", what="roster name", required=True, limit=120),
        faction=_clean_text(faction, field="faction", what="faction", required=False, limit=80),
    )
    campaign_log_add(campaign=campaign, actor=owner, text=f"{owner} mustered {roster.name}.")
    return roster


@transaction.atomic
def roster_update(*, actor: User, roster: Roster, name: str, faction: str) -> Roster:
    require_roster_owner(actor, roster)
    roster.name = _clean_text(name, field="name", what="roster name", required=True, limit=120)
    roster.faction = _clean_text(faction, field="faction", what="faction", required=False, limit=80)
    roster.save(update_fields=["name", "faction"])
    return roster


@transaction.atomic
def unit_profile_add(
    *,
    roster: Roster,
    name: str,
    unit_type: str,
    stats: dict,
    points: int = 0,
    actor: User | None = None,
) -> UnitProfile:
    """Adds a unit to the roster. `actor=None` is a trusted caller (demo, fixtures)."""
    if actor is not None:
        require_roster_owner(actor, roster)
    roster = _lock(roster)
    name, unit_type, stats, points = _clean_unit(
        campaign=roster.campaign, name=name, unit_type=unit_type, stats=stats, points=points
    )
    if roster.units.count() >= MAX_UNITS_PER_ROSTER:
        raise ServiceError(f"A roster holds at most {MAX_UNITS_PER_ROSTER} units.", field=None)
    _require_within_limit(roster, roster_points(roster) + points)
    return UnitProfile.objects.create(
        roster=roster, name=name, unit_type=unit_type, stats=stats, points=points
    )


@transaction.atomic
def unit_profile_update(
    *,
    actor: User,
    unit: UnitProfile,
    name: str,
    unit_type: str,
    stats: dict,
    points: int,
) -> UnitProfile:
    require_roster_owner(actor, unit.roster)
    roster = _lock(unit.roster)
    name, unit_type, stats, points = _clean_unit(
        campaign=roster.campaign, name=name, unit_type=unit_type, stats=stats, points=points
    )
    if unit.status != UnitStatus.DESTROYED:
        _require_within_limit(roster, roster_points(roster, excluding=unit) + points)
    unit.name, unit.unit_type, unit.stats, unit.points = name, unit_type, stats, points
    unit.save(update_fields=["name", "unit_type", "stats", "points"])
    return unit


@transaction.atomic
def unit_profile_remove(*, actor: User, unit: UnitProfile) -> None:
    require_roster_owner(actor, unit.roster)
    unit.delete()


@transaction.atomic
def roster_import(
    *, actor: User, campaign: Campaign, data: Any, second_copy: bool = False
) -> Roster:
    """A new roster of `actor` from exported JSON; every unit is checked, or nothing is made.

    A file imported twice would make two rosters of one name that the GM cannot tell
    apart: unless `second_copy` (the player said so), that is refused with the code
    `same_name` for the page to ask."""
    require_fielding_member(actor, campaign)
    if not isinstance(data, dict):
        raise ServiceError("A roster file is a JSON object.", field="data")
    if data.get("format") != ROSTER_FORMAT:
        raise ServiceError(f'A roster file has "format": "{ROSTER_FORMAT}".', field="data")
    if data.get("system") != campaign.system:
        raise ServiceError(
            f"That roster is for {data.get('system')!r}; this campaign plays {campaign.system!r}.",
            field="data",
        )
    units = data.get("units")
    if not isinstance(units, list) or len(units) > MAX_UNITS_PER_ROSTER:
        raise ServiceError(
            f"A roster file has a list of at most {MAX_UNITS_PER_ROSTER} units.", field="data"
        )
    cleaned = []
    for i, unit in enumerate(units):
        if not isinstance(unit, dict):
            raise ServiceError(f"units[{i}] is not an object.", field="data")
        cleaned.append(
            _clean_unit(
                campaign=campaign,
                name=unit.get("name"),
                unit_type=unit.get("type"),
                stats=unit.get("stats", {}),
                points=unit.get("points", 0),
                prefix=f"units[{i}].",
            )
        )
    total = sum(points for *_, points in cleaned)
    if total > campaign.points_limit:
        raise ServiceError(
            f"That roster is {total} points; the campaign's limit is {campaign.points_limit}.",
            field="data",
        )
    name = data.get("name", "Imported roster")
    if (
        not second_copy
        and isinstance(name, str)
        and (Roster.objects.filter(campaign=campaign, owner=actor, name=name.strip()).exists())
    ):
        raise ServiceError(
            f"You already have a roster named {name.strip()!r} in this campaign.",
            field="data",
            code="same_name",
        )
    roster = roster_create(
        campaign=campaign,
        owner=actor,
        actor=actor,
        name=name,
        faction=data.get("faction", ""),
    )
    UnitProfile.objects.bulk_create(
        UnitProfile(roster=roster, name=n, unit_type=t, stats=s, points=p) for n, t, s, p in cleaned
    )
    return roster
