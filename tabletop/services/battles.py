"""Battles: setup, deployment and start. The live table's moves are in `table`."""

from django.db import transaction

from tabletop.models import Battle, BattleSide, Campaign, Map, Roster
from tabletop.models.battle import BattleStatus
from tabletop.models.roster import UnitStatus
from tabletop.services.errors import ServiceError


def _zone_bounds(zone: list[list[float]]) -> tuple[float, float, float, float]:
    xs = [p[0] for p in zone]
    ys = [p[1] for p in zone]
    return min(xs), min(ys), max(xs), max(ys)


def _lay_out_in_zone(zone: list[list[float]], count: int, spacing: float) -> list[list[float]]:
    """Initial positions in rows across a (rectangular) zone; players adjust them."""
    x0, y0, x1, y1 = _zone_bounds(zone)
    per_row = max(1, int((x1 - x0) // spacing))
    positions = []
    for i in range(count):
        row, col = divmod(i, per_row)
        positions.append([x0 + spacing * (col + 0.5), y0 + spacing * (row + 0.5)])
    return positions


@transaction.atomic
def battle_create(
    *,
    campaign: Campaign,
    battle_map: Map,
    name: str,
    sides: list[tuple[Roster, str]],
    deployment_zones: dict[str, list[list[float]]],
) -> Battle:
    """Creates a battle in deployment, its units laid out inside their side's zone."""
    if battle_map.campaign_id != campaign.id:
        raise ServiceError("That map belongs to another campaign.", field="map")
    if not name.strip():
        raise ServiceError("A battle needs a name.", field="name")
    units: list[dict] = []
    labels: dict[str, dict] = {}
    battle = Battle.objects.create(
        campaign=campaign,
        map=battle_map,
        name=name.strip(),
        status=BattleStatus.DEPLOYMENT,
        deployment_zones=deployment_zones,
    )
    facing_by_side: dict[str, float] = {}
    for roster, side in sides:
        if roster.campaign_id != campaign.id:
            raise ServiceError(
                f"Roster {roster.name!r} belongs to another campaign.", field="sides"
            )
        if side not in deployment_zones:
            raise ServiceError(f"Side {side!r} has no deployment zone.", field="deployment_zones")
        BattleSide.objects.create(battle=battle, roster=roster, side=side)
        zone = deployment_zones[side]
        # Each side faces the table's centre line.
        _, y0, _, y1 = _zone_bounds(zone)
        facing_by_side[side] = 90.0 if (y0 + y1) / 2 < battle_map.height / 2 else 270.0
        ready = list(roster.units.filter(status=UnitStatus.READY))
        for profile, position in zip(ready, _lay_out_in_zone(zone, len(ready), 3.0), strict=True):
            unit_id = f"U{profile.id}"
            units.append(
                {
                    **profile.stats,
                    "id": unit_id,
                    "side": side,
                    "type": profile.unit_type,
                    "position": position,
                    "facing": facing_by_side[side],
                }
            )
            labels[unit_id] = {"name": profile.name, "profile": profile.id, "roster": roster.id}
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
    battle.unit_labels = labels
    first_side = sides[0][1] if sides else ""
    battle.turn_state = {"turn": 1, "active_side": first_side, "sides": [s for _, s in sides]}
    battle.save()
    return battle


@transaction.atomic
def battle_start(*, battle: Battle) -> Battle:
    battle = Battle.objects.select_for_update().get(pk=battle.pk)
    if battle.status not in (BattleStatus.LOBBY, BattleStatus.DEPLOYMENT):
        raise ServiceError(f"The battle is already {battle.get_status_display().lower()}.")
    battle.status = BattleStatus.ACTIVE
    battle.save(update_fields=["status"])
    return battle
