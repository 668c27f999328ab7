"""Maps: the table's size and terrain."""

from django.db import transaction

from tabletop.models import Campaign, Map
from tabletop.services.errors import ServiceError


@transaction.atomic
def map_create(
    *, campaign: Campaign, name: str, width: float, height: float, terrain: list[dict]
) -> Map:
    if not name.strip():
        raise ServiceError("A map needs a name.", field="name")
    for field, value in (("width", width), ("height", height)):
        if not (0 < value <= 240):
            raise ServiceError(f"{field} must be between 0 and 240 inches.", field=field)
    return Map.objects.create(
        campaign=campaign, name=name.strip(), width=width, height=height, terrain=terrain
    )
