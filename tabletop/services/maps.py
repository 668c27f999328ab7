"""Maps: the table's size and its terrain, in the scenario format's TERRAIN shape."""

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from tabletop.models import Campaign, Map, MapImage
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
from tabletop.services.picture import clean_picture

#: A map's complexity. What the engine builds from a map (the obstacles a base makes of
#: each feature, the free space a reach searches, the bands where a unit climbs onto
#: elevated terrain) costs in proportion to its corners, and one preview with reach must
#: stay near the 50 ms goal with the engine's deadlines (referee.py). Chosen with
#: bench/attack_map.py on the costliest shape found (saw-toothed walls of elevated terrain
#: round the unit): at these limits the first preview after a fiat keeps to that goal with
#: its reach complete, which the looser old limits did not (docs/rules-engine.md, "Map
#: limits and deadlines", has the figures; docs/benchmarks.md, attack_map.py).
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
    actor: User | None = None,
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
    actor: User,
    battle_map: Map,
    name: str,
    width: float,
    height: float,
    terrain: list[dict],
) -> Map:
    """Changes a map. Battles already set up keep the terrain they were set up with."""
    require_gm(actor, battle_map.campaign)
    old_size = (battle_map.width, battle_map.height)
    for key, value in _clean_map(battle_map.campaign, name, width, height, terrain).items():
        setattr(battle_map, key, value)
    if battle_map.image_id is not None:
        battle_map.image_place = _place_on_resized(battle_map, *old_size)
    battle_map.save()
    return battle_map


@transaction.atomic
def map_delete(*, actor: User, battle_map: Map) -> None:
    require_gm(actor, battle_map.campaign)
    if battle_map.battles.exists():
        raise ServiceError("A battle was fought on this map; it stays.", field=None)
    picture_id = battle_map.image_id
    battle_map.delete()
    _forget_if_unused(picture_id)


# -- the map's picture -----------------------------------------------------------------------

#: The smallest side of a picture's place on the table, in inches.
MIN_PICTURE_INCHES = 0.5
PLACE_KEYS = ("x", "y", "width", "height")


def whole_table(battle_map: Map) -> dict[str, float]:
    return {"x": 0.0, "y": 0.0, "width": battle_map.width, "height": battle_map.height}


def clean_place(battle_map: Map, place: Any) -> dict[str, float]:
    """Where the picture lies, in inches ({"x", "y", "width", "height"}, (x, y) its
    bottom-left corner): on the table, whole. None, or no value given: the whole table."""
    if place is None or (isinstance(place, dict) and all(place.get(k) is None for k in place)):
        return whole_table(battle_map)
    if not isinstance(place, dict) or set(place) - set(PLACE_KEYS):
        raise ServiceError("A picture's place is x, y, width and height.", field="x")
    if any(place.get(k) is None for k in PLACE_KEYS):
        missing = next(k for k in PLACE_KEYS if place.get(k) is None)
        raise ServiceError(
            "Give x, y, width and height, or none of them for the whole table.", field=missing
        )
    table = {"width": battle_map.width, "height": battle_map.height}
    x = finite_number(place["x"], field="x", minimum=0, maximum=battle_map.width)
    y = finite_number(place["y"], field="y", minimum=0, maximum=battle_map.height)
    width = finite_number(place["width"], field="width", minimum=MIN_PICTURE_INCHES)
    height = finite_number(place["height"], field="height", minimum=MIN_PICTURE_INCHES)
    for start, extent, key in ((x, width, "width"), (y, height, "height")):
        if start + extent > table[key] + 1e-9:
            raise ServiceError(
                f'The picture must lie on the table: it reaches {start + extent:g}" but the '
                f'table is {table[key]:g}" in {key}.',
                field=key,
            )
    return {"x": x, "y": y, "width": width, "height": height}


def _place_on_resized(battle_map: Map, old_width: float, old_height: float) -> dict[str, float]:
    """A resized map's picture place: the whole table stays the whole table, and a place
    the table no longer holds becomes the whole table."""
    place = battle_map.image_place or {}
    if place == {"x": 0.0, "y": 0.0, "width": old_width, "height": old_height}:
        return whole_table(battle_map)
    try:
        return clean_place(battle_map, place)
    except ServiceError:
        return whole_table(battle_map)


def _forget_if_unused(picture_id: int | None) -> None:
    """Deletes a picture no map shows and no battle was set up with (by id: a picture's
    bytes are never loaded to decide)."""
    if picture_id is None:
        return
    MapImage.objects.filter(pk=picture_id, maps__isnull=True, battles__isnull=True).delete()


@transaction.atomic
def map_picture_set(
    *,
    actor: User | None,
    battle_map: Map,
    picture: bytes | None,
    place: dict[str, Any] | None = None,
) -> Map:
    """Sets the map's background picture (PNG, JPEG or WebP bytes, re-encoded from their
    pixels: services/picture.py) and where it lies; `picture=None` moves the one it has.
    Battles already set up keep the picture they were set up with."""
    if actor is not None:
        require_gm(actor, battle_map.campaign)
    battle_map = Map.objects.select_for_update().get(pk=battle_map.pk)
    where = clean_place(battle_map, place)
    old = battle_map.image_id
    if picture is None:
        if old is None:
            raise ServiceError("Choose a picture file.", field="picture")
    else:
        clean = clean_picture(picture)
        battle_map.image = MapImage.objects.create(
            campaign=battle_map.campaign,
            data=clean.data,
            content_type=clean.content_type,
            width_px=clean.width,
            height_px=clean.height,
            digest=clean.digest,
        )
    battle_map.image_place = where
    battle_map.save(update_fields=["image", "image_place"])
    if picture is not None:
        if old is not None:
            _forget_if_unused(old)
        campaign_log_add(
            campaign=battle_map.campaign, actor=actor, text=f"New picture for {battle_map.name}."
        )
    return battle_map


@transaction.atomic
def map_picture_remove(*, actor: User, battle_map: Map) -> Map:
    """The map without a picture; battles set up with it keep it."""
    require_gm(actor, battle_map.campaign)
    battle_map = Map.objects.select_for_update().get(pk=battle_map.pk)
    old = battle_map.image_id
    if old is None:
        raise ServiceError("This map has no picture.", field=None)
    battle_map.image, battle_map.image_place = None, {}
    battle_map.save(update_fields=["image", "image_place"])
    _forget_if_unused(old)
    campaign_log_add(
        campaign=battle_map.campaign, actor=actor, text=f"Picture removed from {battle_map.name}."
    )
    return battle_map
