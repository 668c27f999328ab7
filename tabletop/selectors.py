"""Every read that is more than a `.get()`."""

from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, Q, QuerySet, Sum
from django.urls import reverse

from tabletop.models import (
    Battle,
    Campaign,
    CampaignLogEntry,
    Map,
    MapImage,
    Membership,
    Roster,
    UnitProfile,
)
from tabletop.models.battle import BattleStatus
from tabletop.models.roster import UnitStatus

AnyUser = User | AnonymousUser

# What an exported roster file says it is; `roster_import` reads this format back.
ROSTER_FORMAT = "tabletop-roster/1"
CATALOGUE_FORMAT = "tabletop-catalogue/1"


def campaigns_of(user: AnyUser) -> QuerySet[Campaign]:
    """The campaigns `user` belongs to, in any role."""
    if not user.is_authenticated:
        return Campaign.objects.none()
    return Campaign.objects.filter(memberships__user=user).distinct()


def membership_of(user: AnyUser, campaign_id: int) -> Membership | None:
    if not user.is_authenticated:
        return None
    return Membership.objects.filter(user=user, campaign_id=campaign_id).first()


def battle_membership(user: AnyUser, battle_id: int) -> tuple[Battle, Membership] | None:
    """The battle and the user's membership of its campaign, or None if either is missing."""
    battle = Battle.objects.select_related("campaign").filter(pk=battle_id).first()
    if battle is None:
        return None
    membership = membership_of(user, battle.campaign_id)
    if membership is None:
        return None
    return battle, membership


# Objects are always looked up inside their campaign, so that an id of another
# campaign's object is simply not found (404), never read or changed.
def roster_in(campaign: Campaign, roster_id: int) -> Roster | None:
    return (
        Roster.objects.select_related("campaign", "owner")
        .filter(campaign=campaign, pk=roster_id)
        .first()
    )


def unit_in(roster: Roster, unit_id: int) -> UnitProfile | None:
    return roster.units.filter(pk=unit_id).first()


def map_in(campaign: Campaign, map_id: int) -> Map | None:
    return Map.objects.select_related("campaign").filter(campaign=campaign, pk=map_id).first()


def backdrop(image_id: int | None, place: dict) -> dict | None:
    """A picture under the terrain as the board, the editor and the report draw it:
    {"url", "x", "y", "width", "height"} (inches), or None. Its bytes are not read here:
    the browser loads them from `url`, which names the picture's content (cached for good)."""
    if image_id is None:
        return None
    digest = MapImage.objects.filter(pk=image_id).values_list("digest", flat=True).first()
    if digest is None:
        return None
    url = reverse("map_picture_file", args=[image_id, digest])
    return {"url": url, **{key: place[key] for key in ("x", "y", "width", "height")}}


def map_backdrop(battle_map: Map) -> dict | None:
    return backdrop(battle_map.image_id, battle_map.image_place)


def battle_backdrop(battle: Battle) -> dict | None:
    """The picture the battle was set up with (Battle.backdrop), not the map's newer one."""
    return backdrop(battle.backdrop_id, battle.backdrop_place)


def picture_for(user: AnyUser, image_id: int, digest: str) -> MapImage | None:
    """A picture for a member of its campaign (any role), or None: no picture leaks by id."""
    if not user.is_authenticated:
        return None
    return MapImage.objects.filter(
        pk=image_id, digest=digest, campaign__memberships__user=user
    ).first()


def battle_in(campaign: Campaign, battle_id: int) -> Battle | None:
    return (
        Battle.objects.select_related("campaign", "map")
        .filter(campaign=campaign, pk=battle_id)
        .first()
    )


def members(campaign: Campaign) -> QuerySet[Membership]:
    return campaign.memberships.select_related("user").order_by("role", "user__username")


class RosterTotals(TypedDict):
    """What rosters_with_points annotates each roster with."""

    points: int | None
    unit_count: int


if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

    RosterWithPoints = WithAnnotations[Roster, RosterTotals]


def rosters_with_points(campaign: Campaign) -> "QuerySet[RosterWithPoints]":
    """The campaign's rosters with `points` (units not destroyed) and `unit_count`."""
    alive = ~Q(units__status=UnitStatus.DESTROYED)
    return (
        campaign.rosters.select_related("owner")
        .annotate(
            points=Sum("units__points", filter=alive), unit_count=Count("units", filter=alive)
        )
        .order_by("name", "id")
    )


def battles(campaign: Campaign) -> QuerySet[Battle]:
    return campaign.battles.select_related("map").prefetch_related("sides__roster")


def campaign_log(campaign: Campaign, limit: int = 50) -> list[CampaignLogEntry]:
    return list(CampaignLogEntry.objects.filter(campaign=campaign).select_related("actor")[:limit])


@dataclass
class Standing:
    roster: Roster
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    destroyed: int = 0
    off_board: int = 0

    @property
    def score(self) -> int:
        return 3 * self.won + self.drawn  # three points a win, one a draw, as leagues count


def standings(campaign: Campaign, hidden: Collection[int] = ()) -> list[Standing]:
    """Each roster's finished battles and losses, best first (leaving out the results of
    the battles `hidden`: not yet the reader's to see)."""
    table = {r.pk: Standing(roster=r) for r in campaign.rosters.select_related("owner")}
    finished = campaign.battles.filter(status=BattleStatus.FINISHED).exclude(pk__in=hidden)
    finished = finished.select_related("result")
    for battle in finished.prefetch_related("sides"):
        result = getattr(battle, "result", None)
        if result is None:
            continue
        fates = result.unit_fates
        profile_roster = {
            str(label["profile"]): label["roster"] for label in battle.unit_labels.values()
        }
        for side in battle.sides.all():
            standing = table.get(side.roster_id)
            if standing is None:
                continue
            standing.played += 1
            if not result.winner_side:
                standing.drawn += 1
            elif result.winner_side == side.side:
                standing.won += 1
            else:
                standing.lost += 1
        for profile_id, fate in fates.items():
            roster_id = profile_roster.get(profile_id)
            standing = None if roster_id is None else table.get(roster_id)
            if standing is not None and fate == UnitStatus.DESTROYED:
                standing.destroyed += 1
            elif standing is not None and fate == UnitStatus.OFF_BOARD:
                standing.off_board += 1
    return sorted(table.values(), key=lambda s: (-s.score, s.destroyed, s.roster.name))


def roster_points(roster: Roster, *, excluding: UnitProfile | None = None) -> int:
    """What the roster's units still in the campaign cost (destroyed ones no longer count)."""
    units = roster.units.exclude(status=UnitStatus.DESTROYED)
    if excluding is not None:
        units = units.exclude(pk=excluding.pk)
    return units.aggregate(total=Sum("points"))["total"] or 0


def roster_export(roster: Roster) -> dict:
    """The roster as a JSON file that `roster_import` reads back."""
    return {
        "format": ROSTER_FORMAT,
        "system": roster.campaign.system,
        "name": roster.name,
        "faction": roster.faction,
        "units": [
            {"name": u.name, "type": u.unit_type, "points": u.points, "stats": u.stats}
            for u in roster.units.exclude(status=UnitStatus.DESTROYED)
        ],
    }


def catalogue_file(campaign: Campaign) -> dict:
    """The campaign's catalogue as a JSON file that `catalogue_import` reads back."""
    return {
        "format": CATALOGUE_FORMAT,
        "system": campaign.system,
        "campaign": campaign.name,
        "profiles": [
            {"name": p.name, "type": p.unit_type, "points": p.points, "stats": p.stats}
            for p in campaign.catalogue.all()
        ],
    }


def battle_units(battle: Battle, state: dict | None = None) -> list[dict]:
    """The battle's units with what the pages show beside them: name, side, position (in
    `state`, a position of the battle's; the table now by default)."""
    return [
        {
            **unit,
            "name": battle.unit_labels.get(unit["id"], {}).get("name", unit["id"]),
            "profile": battle.unit_labels.get(unit["id"], {}).get("profile"),
        }
        for unit in (battle.state if state is None else state).get("units", [])
    ]
