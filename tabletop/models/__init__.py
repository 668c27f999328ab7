"""The tabletop's data: one module a concept."""

from tabletop.models.annotation import Annotation
from tabletop.models.battle import Battle, BattleSide
from tabletop.models.campaign import Campaign, Invitation, Membership, Role
from tabletop.models.catalogue import CatalogueProfile
from tabletop.models.event import Event, EventRow
from tabletop.models.log import CampaignLogEntry
from tabletop.models.map import Map
from tabletop.models.map_image import MapImage
from tabletop.models.piece_marker import PieceMarker
from tabletop.models.result import BattleResult, ResultCorrection
from tabletop.models.roster import Roster, UnitProfile
from tabletop.models.table import CommandReply, TableConnection
from tabletop.models.turn_notice import TurnNoticeSettings, TurnNotified

__all__ = [
    "Annotation",
    "Battle",
    "BattleResult",
    "BattleSide",
    "Campaign",
    "CatalogueProfile",
    "CampaignLogEntry",
    "CommandReply",
    "Event",
    "EventRow",
    "Invitation",
    "Map",
    "MapImage",
    "Membership",
    "PieceMarker",
    "ResultCorrection",
    "Role",
    "Roster",
    "TableConnection",
    "TurnNoticeSettings",
    "TurnNotified",
    "UnitProfile",
]
