"""A battle: a map, the rosters on each side, and the live state of the table."""

from django.db import models

from tabletop.models.campaign import Campaign
from tabletop.models.map import Map
from tabletop.models.map_image import MapImage
from tabletop.models.roster import Roster


class BattleStatus(models.TextChoices):
    LOBBY = "lobby", "Lobby"
    DEPLOYMENT = "deployment", "Deployment"
    ACTIVE = "active", "Active"
    FINISHED = "finished", "Finished"


class Battle(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="battles")
    map = models.ForeignKey(Map, on_delete=models.PROTECT, related_name="battles")
    name = models.CharField(max_length=120)
    status = models.CharField(
        max_length=16, choices=BattleStatus.choices, default=BattleStatus.LOBBY
    )
    # {side: [[x, y], ...]}: the polygon each side deploys inside.
    deployment_zones = models.JSONField(default=dict, blank=True)
    # The table's own turn structure: {"turn": 1, "active_side": "P1", "phase": ...}.
    turn_state = models.JSONField(default=dict, blank=True)
    # The position, in the rules engine's scenario shape
    # ({"system", "table", "terrain", "units", "state"}); the engine reads it as is.
    state = models.JSONField(default=dict, blank=True)
    # What the table shows for each engine unit id: {"U1": {"name", "profile", "roster"}}.
    # Kept beside the state so that the state stays exactly the engine's input.
    unit_labels = models.JSONField(default=dict, blank=True)
    last_seq = models.PositiveBigIntegerField(default=0)
    # The seq of the newest table event that keeps its whole position (Event.base); 0: the
    # next one must (none yet, or the position changed outside the log: deployment).
    base_seq = models.PositiveBigIntegerField(default=0, db_default=0)
    # The map's picture and its place when the battle was set up (as `state` keeps the
    # terrain): a picture changed later on the map leaves this battle's board and report.
    backdrop = models.ForeignKey(
        MapImage, null=True, blank=True, on_delete=models.RESTRICT, related_name="battles"
    )
    backdrop_place = models.JSONField(default=dict, blank=True)
    # Tournament play: spectators see events this many seconds late.
    spectator_delay_s = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "id"]

    def __str__(self) -> str:
        return self.name


class BattleSide(models.Model):
    """Which roster fights on which side (the scenario's unit `side`)."""

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="sides")
    roster = models.ForeignKey(Roster, on_delete=models.PROTECT, related_name="battle_sides")
    side = models.CharField(max_length=16)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["battle", "roster"], name="roster_once_per_battle")
        ]

    def __str__(self) -> str:
        return f"{self.roster} as {self.side} in {self.battle}"
