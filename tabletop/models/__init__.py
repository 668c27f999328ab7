"""The tabletop's data: one module a concept."""

from tabletop.models.battle import Battle, BattleSide
from tabletop.models.campaign import Campaign, Invitation, Membership, Role
from tabletop.models.event import Event
from tabletop.models.map import Map
from tabletop.models.result import BattleResult
from tabletop.models.roster import Roster, UnitProfile

__all__ = [
    "Battle",
    "BattleResult",
    "BattleSide",
    "Campaign",
    "Event",
    "Invitation",
    "Map",
    "Membership",
    "Role",
    "Roster",
    "UnitProfile",
]
