"""The one explicit registry of game systems: key -> System instance.

A new system is added here by hand, so that what the server can referee is
readable in one place.
"""

from __future__ import annotations

from rules.engine.errors import InvalidActionError
from rules.engine.system import System
from rules.systems.aod.system import AodSystem
from rules.systems.apskirmish.system import ApskirmishSystem
from rules.systems.lasergrenadiers.system import LaserGrenadiersSystem
from rules.systems.mswars.system import MswarsSystem

SYSTEMS: dict[str, System] = {
    "aod": AodSystem(),
    "mswars": MswarsSystem(),
    "lasergrenadiers": LaserGrenadiersSystem(),
    "apskirmish": ApskirmishSystem(),
}


def get_system(key: str) -> System:
    try:
        return SYSTEMS[key]
    except KeyError:
        raise InvalidActionError("system", f"unknown system {key!r}; known: "
                                 f"{', '.join(sorted(SYSTEMS))}") from None
