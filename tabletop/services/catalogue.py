"""A campaign's catalogue of named unit profiles: the GM curates it (by hand or from a
catalogue file), players pick from it into their rosters."""

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from tabletop.models import Campaign, CatalogueProfile, Roster, UnitProfile
from tabletop.selectors import CATALOGUE_FORMAT
from tabletop.services.errors import InvalidInput, ServiceError
from tabletop.services.log import campaign_log_add
from tabletop.services.permissions import require_gm
from tabletop.services.rosters import _clean_unit, unit_profile_add
from tabletop.storable import MESSAGE as UNSTORABLE_MESSAGE
from tabletop.storable import unstorable_at

MAX_CATALOGUE_PROFILES = 200


def _require_new_name(
    campaign: Campaign, name: str, *, keep: CatalogueProfile | None = None
) -> None:
    taken = CatalogueProfile.objects.filter(campaign=campaign, name=name)
    if keep is not None:
        taken = taken.exclude(pk=keep.pk)
    if taken.exists():
        raise ServiceError(f"The catalogue already has a profile named {name!r}.", field="name")


def _storable(value: Any, field: str) -> None:
    where = unstorable_at(value)
    if where is not None:
        raise ServiceError(
            f"{where}: {UNSTORABLE_MESSAGE}" if where else UNSTORABLE_MESSAGE, field=field
        )


@transaction.atomic
def catalogue_profile_add(
    *,
    actor: User,
    campaign: Campaign,
    name: str,
    unit_type: str,
    stats: dict,
    points: int,
) -> CatalogueProfile:
    """A new named profile in the campaign's catalogue (the GM's)."""
    require_gm(actor, campaign)
    _storable({"name": name, "stats": stats}, field="name")
    name, unit_type, stats, points = _clean_unit(
        campaign=campaign, name=name, unit_type=unit_type, stats=stats, points=points
    )
    _require_new_name(campaign, name)
    if campaign.catalogue.count() >= MAX_CATALOGUE_PROFILES:
        raise ServiceError(f"A catalogue holds at most {MAX_CATALOGUE_PROFILES} profiles.")
    return CatalogueProfile.objects.create(
        campaign=campaign, name=name, unit_type=unit_type, stats=stats, points=points
    )


@transaction.atomic
def catalogue_profile_update(
    *,
    actor: User,
    profile: CatalogueProfile,
    name: str,
    unit_type: str,
    stats: dict,
    points: int,
) -> CatalogueProfile:
    """Changes a profile; rosters that picked it keep their copy."""
    require_gm(actor, profile.campaign)
    _storable({"name": name, "stats": stats}, field="name")
    name, unit_type, stats, points = _clean_unit(
        campaign=profile.campaign, name=name, unit_type=unit_type, stats=stats, points=points
    )
    _require_new_name(profile.campaign, name, keep=profile)
    profile.name, profile.unit_type, profile.stats, profile.points = name, unit_type, stats, points
    profile.save(update_fields=["name", "unit_type", "stats", "points"])
    return profile


@transaction.atomic
def catalogue_profile_remove(*, actor: User, profile: CatalogueProfile) -> None:
    require_gm(actor, profile.campaign)
    profile.delete()


def _file_profiles(campaign: Campaign, data: Any) -> list[tuple[str, str, dict, int]]:
    """A catalogue file's profiles, every one checked, or the first problem as an error."""
    if not isinstance(data, dict):
        raise ServiceError("A catalogue file is a JSON object.", field="data")
    if data.get("format") != CATALOGUE_FORMAT:
        raise ServiceError(f'A catalogue file has "format": "{CATALOGUE_FORMAT}".', field="data")
    if data.get("system") != campaign.system:
        raise ServiceError(
            "That catalogue is for another game system than this campaign's.", field="data"
        )
    profiles = data.get("profiles")
    if not isinstance(profiles, list) or len(profiles) > MAX_CATALOGUE_PROFILES:
        raise ServiceError(
            f"A catalogue file has a list of at most {MAX_CATALOGUE_PROFILES} profiles.",
            field="data",
        )
    _storable(profiles, field="data")
    cleaned, names = [], set()
    for i, profile in enumerate(profiles):
        if not isinstance(profile, dict):
            raise ServiceError(f"profiles[{i}] is not an object.", field="data")
        try:
            unit = _clean_unit(
                campaign=campaign,
                name=profile.get("name"),
                unit_type=profile.get("type"),
                stats=profile.get("stats", {}),
                points=profile.get("points", 0),
            )
        except InvalidInput as error:
            # One message a GM can act on: which profile, which field, what is wrong.
            field, message = next(iter(error.errors.items()))
            label = profile.get("name") if isinstance(profile.get("name"), str) else ""
            raise ServiceError(
                f"Profile {i + 1}{f' ({label})' if label else ''}: {field}: {message}",
                field="data",
            ) from None
        if unit[0] in names:
            raise ServiceError(f"The file names {unit[0]!r} twice.", field="data")
        names.add(unit[0])
        cleaned.append(unit)
    return cleaned


@transaction.atomic
def catalogue_import(*, actor: User, campaign: Campaign, data: Any) -> tuple[int, int]:
    """The profiles of a catalogue file into the campaign's catalogue: (added, replaced).
    A profile whose name the catalogue already has replaces it; nothing is written
    unless every profile is good."""
    require_gm(actor, campaign)
    cleaned = _file_profiles(campaign, data)
    existing = {p.name: p for p in CatalogueProfile.objects.filter(campaign=campaign)}
    new_names = [n for n, *_ in cleaned if n not in existing]
    if len(existing) + len(new_names) > MAX_CATALOGUE_PROFILES:
        raise ServiceError(
            f"A catalogue holds at most {MAX_CATALOGUE_PROFILES} profiles.", field="data"
        )
    replaced = 0
    for name, unit_type, stats, points in cleaned:
        profile = existing.get(name)
        if profile is None:
            CatalogueProfile.objects.create(
                campaign=campaign, name=name, unit_type=unit_type, stats=stats, points=points
            )
            continue
        profile.unit_type, profile.stats, profile.points = unit_type, stats, points
        profile.save(update_fields=["unit_type", "stats", "points"])
        replaced += 1
    campaign_log_add(
        campaign=campaign,
        actor=actor,
        text=f"{actor} imported a catalogue file: {len(new_names)} profiles added, "
        f"{replaced} replaced.",
    )
    return len(new_names), replaced


@transaction.atomic
def roster_pick(*, actor: User, roster: Roster, profile: CatalogueProfile) -> UnitProfile:
    """A copy of a catalogue profile in `actor`'s roster, checked as any unit added."""
    if profile.campaign_id != roster.campaign_id:
        raise ServiceError("That profile is not in this campaign's catalogue.")
    return unit_profile_add(
        actor=actor,
        roster=roster,
        name=profile.name,
        unit_type=profile.unit_type,
        stats=dict(profile.stats),
        points=profile.points,
    )
