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

#: A map's complexity (issue 21). What the engine builds from a map (the obstacles a base
#: makes of each feature, the free space a reach searches, the bands where a unit climbs
#: onto elevated terrain) costs in proportion to its corners, and one preview with reach
#: must stay near the 50 ms goal with the engine's deadlines (referee.py). Measured with
#: bench/attack_map.py on the costliest shape found (saw-toothed walls of elevated terrain
#: round the unit): at these limits the first preview after a fiat costs about 28 ms of
#: engine time, its reach complete, against 110 ms on the 45 x 200 map the old limits let
#: through (docs/rules-engine.md, "Map limits and deadlines"; docs/benchmarks.md).
MAX_FEATURES = 100
#: Corners of one feature (its polygon, and both ends of each access segment).
MAX_FEATURE_CORNERS = 64
#: Corners of all the map's features together.
MAX_CORNERS = 1_500
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
    corners = feature_corners(raw)
    if corners > MAX_FEATURE_CORNERS:
        raise ServiceError(
            f"{label}: a feature has at most {MAX_FEATURE_CORNERS} corners; "
            f"this one has {corners}.",
            field="terrain",
        )
    try:
        polygon = polygon_in_table(
            raw.get("polygon"),
            field="terrain",
            width=width,
            height=height,
            max_points=MAX_FEATURE_CORNERS,
        )
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


def feature_corners(raw: Any) -> int:
    """A feature's corners as the limits count them: its polygon's points and both ends
    of each access segment (0 for what is not a feature; its own check says why)."""
    if not isinstance(raw, dict):
        return 0
    polygon, access = raw.get("polygon"), raw.get("access")
    return (len(polygon) if isinstance(polygon, list) else 0) + (
        2 * len(access) if isinstance(access, list) else 0
    )


def check_map_limits(terrain: Any) -> None:
    """Refuses terrain beyond the map limits (MAX_FEATURES, MAX_CORNERS; each feature's
    own, MAX_FEATURE_CORNERS, as it is cleaned), in the player's words; raises at the
    `terrain` field. The map form, the map service and a battle's set-up all ask it."""
    if not isinstance(terrain, list):
        raise ServiceError("Terrain is a list of features.", field="terrain")
    if len(terrain) > MAX_FEATURES:
        raise ServiceError(
            f"A map has at most {MAX_FEATURES} features; this one has {len(terrain)}.",
            field="terrain",
        )
    corners = sum(feature_corners(raw) for raw in terrain)
    if corners > MAX_CORNERS:
        raise ServiceError(
            f"A map has at most {MAX_CORNERS:,} corners in all; this one has {corners:,}.",
            field="terrain",
        )


def clean_terrain(
    terrain: Any, *, system: str, width: float, height: float
) -> list[dict[str, Any]]:
    """Terrain features as the engine reads them; raises at the `terrain` field."""
    check_map_limits(terrain)
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
