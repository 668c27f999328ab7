"""Battles: setup, deployment inside the zones, and start. The live table's moves are in `table`."""

import re
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from shapely.geometry import Polygon

from tabletop.models import Battle, BattleSide, Campaign, Map, Role, Roster
from tabletop.models.battle import BattleStatus
from tabletop.models.roster import UnitStatus
from tabletop.services import game_systems
from tabletop.services.errors import PermissionDenied, ServiceError
from tabletop.services.inputs import (
    MAX_TABLE_INCHES,
    finite_number,
    point_in_table,
    polygon_in_table,
)
from tabletop.services.log import campaign_log_add
from tabletop.services.maps import check_map_limits
from tabletop.services.permissions import require_gm, role_in

SIDE_NAME = re.compile(r"^[A-Za-z0-9_-]{1,16}$")
# Units that fight: ready ones, and those that left the board last battle
# (seed 003, "Leaving the board": in a campaign they may return next battle).
FIELDED = (UnitStatus.READY, UnitStatus.OFF_BOARD)


#: How deep the default deployment zones reach in from their table edge, in inches.
DEFAULT_ZONE_DEPTH = 6.0


def _zone_bounds(zone: list[list[float]]) -> tuple[float, float, float, float]:
    xs = [p[0] for p in zone]
    ys = [p[1] for p in zone]
    return min(xs), min(ys), max(xs), max(ys)


def deployment_zones(
    *, system: str, battle_map: Map, sides: list[str], depth: float = DEFAULT_ZONE_DEPTH
) -> dict[str, list[list[float]]]:
    """The system's deployment zones for these sides (in order) on this map."""
    return game_systems.deployment_zones(
        system, battle_map.width, battle_map.height, _in_order(sides), depth
    )


def _in_order(sides: list[str]) -> list[str]:
    """Each side once, in the order first named (two rosters may fight as one side)."""
    return list(dict.fromkeys(sides))


def _facing_the_centre(zone: list[list[float]], width: float, height: float) -> float:
    """The facing, a multiple of 90 degrees, that looks from the zone to the table's centre."""
    x0, y0, x1, y1 = _zone_bounds(zone)
    dx, dy = width / 2 - (x0 + x1) / 2, height / 2 - (y0 + y1) / 2
    if abs(dx) > abs(dy):
        return 0.0 if dx > 0 else 180.0
    return 90.0 if dy >= 0 else 270.0


def _lay_out_in_zone(zone: list[list[float]], count: int, spacing: float) -> list[list[float]]:
    """Initial positions in rows across the zone's bounding box; the GM adjusts them."""
    x0, y0, x1, y1 = _zone_bounds(zone)
    per_row = max(1, int((x1 - x0) // spacing))
    positions = []
    for i in range(count):
        row, col = divmod(i, per_row)
        positions.append([x0 + spacing * (col + 0.5), min(y1, y0 + spacing * (row + 0.5))])
    return positions


def _clean_sides(
    campaign: Campaign, sides: Any, zones: Any, battle_map: Map, depth: float
) -> dict[str, list[list[float]]]:
    """The sides' rosters and zones: two sides or more, each roster once, each side a zone
    (the system's own zones, `depth` deep, where `zones` is None)."""
    if not isinstance(sides, list) or not sides:
        raise ServiceError("Choose a side for at least two rosters.", field="sides")
    side_names = set()
    rosters = set()
    for roster, side in sides:
        if not isinstance(roster, Roster) or roster.campaign_id != campaign.id:
            raise ServiceError("That roster belongs to another campaign.", field="sides")
        if not isinstance(side, str) or not SIDE_NAME.match(side):
            raise ServiceError(
                f"Side names are 1-16 letters or digits, not {side!r}.", field="sides"
            )
        if roster.pk in rosters:
            raise ServiceError(f"{roster.name} is on two sides.", field="sides")
        if not roster.units.filter(status__in=FIELDED).exists():
            raise ServiceError(f"{roster.name} has no units left to field.", field="sides")
        rosters.add(roster.pk)
        side_names.add(side)
    if len(side_names) < 2:
        raise ServiceError("A battle needs at least two sides.", field="sides")
    if zones is None:
        depth = finite_number(depth, field="zone_depth", minimum=1, maximum=MAX_TABLE_INCHES)
        zones = deployment_zones(
            system=campaign.system, battle_map=battle_map, sides=[s for _, s in sides], depth=depth
        )
    if not isinstance(zones, dict):
        raise ServiceError("Deployment zones are {side: polygon}.", field="deployment_zones")
    cleaned = {}
    for side in sorted(side_names):
        if side not in zones:
            raise ServiceError(f"Side {side} has no deployment zone.", field="deployment_zones")
        cleaned[side] = polygon_in_table(
            zones[side],
            field="deployment_zones",
            width=battle_map.width,
            height=battle_map.height,
        )
    extra = sorted(set(zones) - side_names)
    if extra:
        raise ServiceError(f"No roster fights as {extra[0]}.", field="deployment_zones")
    return cleaned


def _require_engine_accepts(state: dict[str, Any], field: str | None = None) -> None:
    error = game_systems.position_error(state)
    if error:
        raise ServiceError(
            f"The rules engine refuses the position: {error[0]}: {error[1]}", field=field
        )


@transaction.atomic
def battle_create(
    *,
    campaign: Campaign,
    battle_map: Map,
    name: str,
    sides: list[tuple[Roster, str]],
    deployment_zones: dict[str, list[list[float]]] | None = None,
    zone_depth: float = DEFAULT_ZONE_DEPTH,
    actor: User | None = None,
) -> Battle:
    """A battle in deployment, its units laid out inside their side's zone.

    `deployment_zones=None` takes the system's zones, `zone_depth` inches deep, for the
    sides in the order given. `actor=None` is a trusted caller (demo, fixtures); pages
    pass the GM.
    """
    if actor is not None:
        require_gm(actor, campaign)
    if not isinstance(battle_map, Map) or battle_map.campaign_id != campaign.id:
        raise ServiceError("That map belongs to another campaign.", field="map")
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > 120:
        raise ServiceError("A battle needs a name of at most 120 characters.", field="name")
    try:  # a map saved before the map limits is played only once within them
        check_map_limits(battle_map.terrain)
    except ServiceError as error:
        raise ServiceError(f"{error.message} Simplify the map first.", field="map") from None
    zones = _clean_sides(campaign, sides, deployment_zones, battle_map, zone_depth)
    battle = Battle.objects.create(
        campaign=campaign,
        map=battle_map,
        name=name.strip(),
        status=BattleStatus.DEPLOYMENT,
        deployment_zones=zones,
        # The map's picture as it is now, as `state` keeps its terrain.
        backdrop_id=battle_map.image_id,
        backdrop_place=battle_map.image_place if battle_map.image_id else {},
    )
    units: list[dict] = []
    labels: dict[str, dict] = {}
    for roster, side in sides:
        BattleSide.objects.create(battle=battle, roster=roster, side=side)
        zone = zones[side]
        # Each side faces the table's centre.
        facing = _facing_the_centre(zone, battle_map.width, battle_map.height)
        fielded = list(roster.units.filter(status__in=FIELDED))
        for profile, position in zip(
            fielded, _lay_out_in_zone(zone, len(fielded), 3.0), strict=True
        ):
            unit_id = f"U{profile.id}"
            units.append(
                {
                    **profile.stats,
                    "id": unit_id,
                    "side": side,
                    "type": profile.unit_type,
                    "position": position,
                    "facing": facing,
                }
            )
            labels[unit_id] = {"name": profile.name, "profile": profile.id, "roster": roster.id}
        roster.units.filter(status=UnitStatus.OFF_BOARD).update(status=UnitStatus.READY)
    battle.state = {
        "system": campaign.system,
        "table": {
            "width": battle_map.width,
            "height": battle_map.height,
            "options": campaign.table_options,
        },
        "terrain": battle_map.terrain,
        "units": units,
        "state": {},
    }
    _require_engine_accepts(battle.state)
    battle.unit_labels = labels
    # The order the sides act in; the turn structure begins when the battle starts.
    battle.turn_state = {"sides": _in_order([s for _, s in sides])}
    battle.save()
    campaign_log_add(campaign=campaign, actor=actor, text=f"Battle set up: {battle.name}.")
    return battle


def _unit_name(battle: Battle, unit_id: str) -> str:
    return str(battle.unit_labels.get(unit_id, {}).get("name", unit_id))


def _require_may_place(actor: User, battle: Battle, unit_ids: list[str]) -> None:
    """The GM places any unit; a player only the units of their own rosters (ui.md,
    "Before the battle"); a spectator none."""
    role = role_in(actor, battle.campaign)
    if role == Role.GM:
        return
    if role != Role.PLAYER:
        raise PermissionDenied("Only the GM and the players deploy units; spectators watch.")
    own = set(Roster.objects.filter(owner=actor).values_list("pk", flat=True))
    for unit_id in unit_ids:
        if battle.unit_labels.get(unit_id, {}).get("roster") not in own:
            raise PermissionDenied(
                f"{_unit_name(battle, unit_id)} is not yours to deploy; the GM places any unit."
            )


def _obstruction_text(battle: Battle, unit_id: str, obstruction: dict[str, str]) -> str:
    name = _unit_name(battle, unit_id)
    if obstruction["kind"] == "off_table":
        return f"{name} must stand wholly on the table."
    if obstruction["kind"] == "base":
        return f"{name} would overlap the base of {_unit_name(battle, obstruction['what'])}."
    kind = obstruction["label"].lower() or "terrain"
    return f"{name} may not stand in {obstruction['what']} ({kind})."


@transaction.atomic
def battle_deploy(*, actor: User, battle: Battle, placements: dict[str, dict[str, Any]]) -> Battle:
    """Places units before the battle starts: each base wholly inside its side's zone,
    on no other base and in no terrain its system forbids (the engine's placement check).

    `placements` is {unit id: {"position": [x, y], "facing": degrees}}; the
    units not named stay where they are. The GM places any unit, a player their own.
    The field of an error is the unit id.
    """
    if not isinstance(placements, dict):
        raise ServiceError("Placements are {unit id: {position, facing}}.")
    _require_may_place(actor, battle, [str(unit_id) for unit_id in placements])
    battle = Battle.objects.select_for_update().get(pk=battle.pk)
    if battle.status != BattleStatus.DEPLOYMENT:
        raise ServiceError(f"The battle is {battle.get_status_display().lower()}, not deploying.")
    table = battle.state["table"]
    units = {u["id"]: u for u in battle.state["units"]}
    for unit_id, placement in placements.items():
        unit = units.get(unit_id)
        if unit is None:
            raise ServiceError(f"No unit {unit_id!r} in this battle.", field=str(unit_id))
        if not isinstance(placement, dict):
            raise ServiceError("Expected a position and a facing.", field=unit_id)
        position = point_in_table(
            placement.get("position"), field=unit_id, width=table["width"], height=table["height"]
        )
        facing = finite_number(placement.get("facing", unit["facing"]), field=unit_id) % 360.0
        zone = Polygon(battle.deployment_zones[unit["side"]])
        # "In contact" tolerance of the scenario format: a base touching the zone's edge is in.
        footprint = game_systems.base_footprint(
            battle.state["system"], unit["base"], position, facing
        )
        if not zone.buffer(0.01).covers(footprint):
            raise ServiceError(
                f"{_unit_name(battle, unit_id)} must be wholly "
                f"inside side {unit['side']}'s deployment zone.",
                field=unit_id,
            )
        unit["position"], unit["facing"] = position, facing
    # Every unit placed, then each checked against where the others now stand: on the
    # table, that is; a unit still in the tray stands nowhere yet.
    for unit_id in placements:
        battle.unit_labels.setdefault(unit_id, {})["deployed"] = True
    on_table = {
        **battle.state,
        "units": [u for u in units.values() if is_deployed(battle, u["id"])],
    }
    for unit_id in placements:
        unit = units[unit_id]
        found = game_systems.placement_obstructions(
            on_table, unit_id, unit["position"], unit["facing"]
        )
        if found:
            raise ServiceError(_obstruction_text(battle, unit_id, found[0]), field=unit_id)
    _require_engine_accepts(battle.state)
    # A change outside the log: the next table event keeps the whole position (changes.py).
    battle.base_seq = 0
    battle.save(update_fields=["state", "unit_labels", "base_seq"])
    return battle


def is_deployed(battle: Battle, unit_id: str) -> bool:
    """Whether a player or the GM has set the unit on the table; until then it waits in the
    tray beside it (ui.md, "Before the battle"), at the spot laid out for it in its zone."""
    return bool(battle.unit_labels.get(unit_id, {}).get("deployed"))


def _require_tray_fits(battle: Battle) -> None:
    """A unit still in the tray when the battle starts is set down where it was laid out;
    refused where a deployed base now stands there, in a player's words."""
    for unit in battle.state["units"]:
        if is_deployed(battle, unit["id"]):
            continue
        found = game_systems.placement_obstructions(
            battle.state, unit["id"], unit["position"], unit["facing"]
        )
        if found and found[0]["kind"] == "base" and is_deployed(battle, found[0]["what"]):
            raise ServiceError(
                f"{_unit_name(battle, unit['id'])} is still in the tray, and its place in the "
                f"zone is taken by {_unit_name(battle, found[0]['what'])}: deploy it first."
            )


@transaction.atomic
def battle_start(*, battle: Battle, actor: User | None = None) -> Battle:
    """Ends deployment: the battle goes live. `actor=None` is a trusted caller."""
    if actor is not None:
        require_gm(actor, battle.campaign)
    battle = Battle.objects.select_for_update().get(pk=battle.pk)
    if battle.status not in (BattleStatus.LOBBY, BattleStatus.DEPLOYMENT):
        raise ServiceError(f"The battle is already {battle.get_status_display().lower()}.")
    _require_tray_fits(battle)
    sides = battle.turn_state.get("sides") or _in_order(
        list(battle.sides.order_by("pk").values_list("side", flat=True))
    )
    battle.turn_state, battle.state = game_systems.begin(battle.state, sides)
    battle.status = BattleStatus.ACTIVE
    battle.base_seq = 0  # a change outside the log, as battle_deploy's
    battle.save(update_fields=["status", "turn_state", "state", "base_seq"])
    campaign_log_add(campaign=battle.campaign, actor=actor, text=f"{battle.name} has begun.")
    return battle
