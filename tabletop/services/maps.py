"""Maps: the table's size and its terrain, in the scenario format's TERRAIN shape."""

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from tabletop.models import Campaign, Map
from tabletop.services import game_systems
from tabletop.services.errors import ServiceError
from tabletop.services.inputs import (
    MAX_TABLE_INCHES,
    finite_number,
    first_non_finite,
    polygon_in_table,
)
from tabletop.services.log import campaign_log_add
from tabletop.services.permissions import require_gm

MAX_FEATURES = 200
#: Keys every feature has; the rest come from its terrain kind (the engine's schema).
FEATURE_KEYS = frozenset({"id", "type", "polygon"})


def _clean_feature(
    raw: Any, *, index: int, system: str, width: float, height: float
) -> dict[str, Any]:
    label = f"Feature {index + 1}"
    if not isinstance(raw, dict):
        raise ServiceError(f"{label} is not an object.", field="terrain")
    feature_id = raw.get("id") or f"T{index + 1}"
    if not isinstance(feature_id, str) or len(feature_id) > 16:
        raise ServiceError(f"{label}: an id is text of at most 16 characters.", field="terrain")
    label = f"Feature {index + 1} ({feature_id})"
    kinds = game_systems.terrain_kinds(system)
    kind = next((k for k in kinds if k["type"] == raw.get("type")), None)
    if kind is None:
        names = ", ".join(f"{k['type']} ({k['label']})" for k in kinds)
        raise ServiceError(
            f"{label}: unknown terrain type {raw.get('type')!r}; choose one of {names}.",
            field="terrain",
        )
    allowed = FEATURE_KEYS | set(kind["keys"])
    unknown = sorted(set(raw) - allowed)
    if unknown:
        takes = ", ".join(kind["keys"]) or "no other keys"
        raise ServiceError(
            f"{label}: unknown key {unknown[0]!r} for {kind['label'].lower()} (it takes {takes}).",
            field="terrain",
        )
    missing = [key for key in kind["required"] if raw.get(key) is None]
    if missing:
        raise ServiceError(f"{label}: {kind['label']} needs a {missing[0]}.", field="terrain")
    try:
        polygon = polygon_in_table(raw.get("polygon"), field="terrain", width=width, height=height)
        feature: dict[str, Any] = {"id": feature_id, "type": raw["type"], "polygon": polygon}
        if raw.get("height") is not None:
            feature["height"] = finite_number(
                raw["height"], field="terrain", minimum=0, maximum=MAX_TABLE_INCHES
            )
    except ServiceError as error:
        raise ServiceError(f"{label}: {error.message}", field="terrain") from None
    size_class = raw.get("size_class")
    if size_class is not None:
        if isinstance(size_class, bool) or not isinstance(size_class, int) or size_class < 0:
            raise ServiceError(f"{label}: size class is a whole number.", field="terrain")
        feature["size_class"] = size_class
    # The kind's other keys (entry segments, a slope's bearing, ...): the engine checks them.
    for key in kind["keys"]:
        if key not in feature and raw.get(key) is not None:
            feature[key] = raw[key]
    return feature


def clean_terrain(
    terrain: Any, *, system: str, width: float, height: float
) -> list[dict[str, Any]]:
    """Terrain features as the engine reads them; raises at the `terrain` field."""
    if not isinstance(terrain, list):
        raise ServiceError("Terrain is a list of features.", field="terrain")
    if len(terrain) > MAX_FEATURES:
        raise ServiceError(f"A map has at most {MAX_FEATURES} features.", field="terrain")
    if first_non_finite(terrain):
        raise ServiceError(f"{first_non_finite(terrain)} is not a finite number.", field="terrain")
    features = [
        _clean_feature(raw, index=i, system=system, width=width, height=height)
        for i, raw in enumerate(terrain)
    ]
    ids = [f["id"] for f in features]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise ServiceError(f"Two features share the id {duplicates[0]!r}.", field="terrain")
    error = game_systems.position_error(
        {"system": system, "table": {"width": width, "height": height}, "terrain": features}
    )
    if error:  # the engine's own contract, beyond the checks above (a kind's own keys)
        raise ServiceError(f"{error[0]}: {error[1]}", field="terrain")
    return features


def _clean_map(
    campaign: Campaign, name: Any, width: Any, height: Any, terrain: Any
) -> dict[str, Any]:
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > 120:
        raise ServiceError("A map needs a name of at most 120 characters.", field="name")
    width = finite_number(width, field="width", minimum=1, maximum=MAX_TABLE_INCHES)
    height = finite_number(height, field="height", minimum=1, maximum=MAX_TABLE_INCHES)
    return {
        "name": name.strip(),
        "width": width,
        "height": height,
        "terrain": clean_terrain(terrain, system=campaign.system, width=width, height=height),
    }


@transaction.atomic
def map_create(
    *,
    campaign: Campaign,
    name: str,
    width: float,
    height: float,
    terrain: list[dict],
    actor: AbstractBaseUser | None = None,
) -> Map:
    """A new map. `actor=None` is a trusted caller (demo, fixtures); pages pass the GM."""
    if actor is not None:
        require_gm(actor, campaign)
    battle_map = Map.objects.create(
        campaign=campaign, **_clean_map(campaign, name, width, height, terrain)
    )
    campaign_log_add(campaign=campaign, actor=actor, text=f"New map: {battle_map.name}.")
    return battle_map


@transaction.atomic
def map_update(
    *,
    actor: AbstractBaseUser,
    battle_map: Map,
    name: str,
    width: float,
    height: float,
    terrain: list[dict],
) -> Map:
    """Changes a map. Battles already set up keep the terrain they were set up with."""
    require_gm(actor, battle_map.campaign)
    for key, value in _clean_map(battle_map.campaign, name, width, height, terrain).items():
        setattr(battle_map, key, value)
    battle_map.save()
    return battle_map


@transaction.atomic
def map_delete(*, actor: AbstractBaseUser, battle_map: Map) -> None:
    require_gm(actor, battle_map.campaign)
    if battle_map.battles.exists():
        raise ServiceError("A battle was fought on this map; it stays.", field=None)
    battle_map.delete()
