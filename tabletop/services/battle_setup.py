"""A ready battle from content: campaign, members, map, rosters, battle, deployment, start.

The demo command and the test factories set battles up from data (a system's forces and
where they stand); both come here, so that they make battles the way the pages do, through
the services, and in one way.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User

from tabletop.models import Battle
from tabletop.services.battles import (
    DEFAULT_ZONE_DEPTH,
    battle_create,
    battle_deploy,
    battle_start,
)
from tabletop.services.campaigns import campaign_create, membership_set
from tabletop.services.maps import map_create, map_picture_set
from tabletop.services.rosters import roster_create, unit_profile_add


@dataclass(frozen=True)
class UnitEntry:
    """A unit profile: its name, the system's unit type, its stats, its points."""

    name: str
    unit_type: str
    stats: dict
    points: int = 0


@dataclass(frozen=True)
class Force:
    """One roster fighting for `side`, owned by `owner`."""

    side: str
    roster: str
    owner: User
    units: Sequence[UnitEntry]


@dataclass(frozen=True)
class Table:
    """The battle's map: its name, size in inches and terrain features, and a picture
    (PNG, JPEG or WebP bytes) under them over the whole table, if any."""

    name: str
    width: float
    height: float
    terrain: list[dict]
    picture: bytes | None = None


def battle_set_up(
    *,
    system: str,
    gm: User,
    campaign: str,
    members: Sequence[tuple[User, str]],
    table: Table,
    forces: Sequence[Force],
    battle: str = "Battle",
    placements: Mapping[str, Sequence[float]] | None = None,
    deployment_zones: dict[str, list[list[float]]] | None = None,
    zone_depth: float = DEFAULT_ZONE_DEPTH,
    points_limit: int = 300,
    table_options: dict | None = None,
    start: bool = True,
) -> Battle:
    """A live battle of `system` in a new campaign `campaign` run by `gm` (`start=False`:
    one still in deployment).

    `members` are (user, role) besides the GM; each force's roster is its owner's. The
    battle's zones are `deployment_zones`, or the system's own `zone_depth` inches deep.
    `placements` is {unit name: [x, y]}, names unique in the battle; the GM deploys those
    units there (facing as laid out), the others stay where `battle_create` laid them.
    A trusted caller's: no permission is asked beyond the GM's own deployment.
    """
    new_campaign = campaign_create(
        gm=gm,
        name=campaign,
        system=system,
        points_limit=points_limit,
        table_options=table_options,
    )
    for user, role in members:
        membership_set(campaign=new_campaign, user=user, role=role)
    battle_map = map_create(
        campaign=new_campaign,
        name=table.name,
        width=table.width,
        height=table.height,
        terrain=table.terrain,
    )
    if table.picture is not None:
        battle_map = map_picture_set(actor=None, battle_map=battle_map, picture=table.picture)
    sides = []
    for force in forces:
        roster = roster_create(campaign=new_campaign, owner=force.owner, name=force.roster)
        for unit in force.units:
            unit_profile_add(
                roster=roster,
                name=unit.name,
                unit_type=unit.unit_type,
                stats=unit.stats,
                points=unit.points,
            )
        sides.append((roster, force.side))
    created = battle_create(
        campaign=new_campaign,
        battle_map=battle_map,
        name=battle,
        sides=sides,
        deployment_zones=deployment_zones,
        zone_depth=zone_depth,
    )
    if placements:
        ids = {label["name"]: unit_id for unit_id, label in created.unit_labels.items()}
        created = battle_deploy(
            actor=gm,
            battle=created,
            placements={ids[name]: {"position": list(at)} for name, at in placements.items()},
        )
    return battle_start(battle=created) if start else created
