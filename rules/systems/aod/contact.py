"""Other units' bases in aod (aod.md section 5): the base-crossing policy the kernel's
path check applies, and which units count as opposing contacts."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rules.engine.bases_policy import BasePolicy, bases_touching
from rules.geometry.bases import body_at
from rules.geometry.track import Pose
from rules.model.state import Unit
from rules.systems.aod.position import AodPosition
from rules.systems.aod.units import is_cruising, is_infantry, is_mech, opposing


@dataclass(frozen=True)
class AodBases(BasePolicy):
    """How the mover treats other bases during this path (section 5)."""

    cruising: bool = False
    #: The target of ram/charge/dfa/assault: its contact does not stop the path (AOD-D31).
    target: str | None = None
    #: A VTOL with a ranged attack, not in contact at the start, moves into contact and
    #: out again without stopping or a breakaway roll (000 [FAQ22]).
    flies_past_contact: bool = False

    through_cite = "AOD-D8"
    overlap_cite = "AOD-D8"
    stop_cite = "AOD-D6"

    def may_cross(self, mover: Unit, other: Unit) -> bool:
        """'Mechs cross infantry bases (000 [17], AOD-D7); a cruising VTOL ignores units."""
        return self.cruising or (is_mech(mover) and is_infantry(other))

    def stops_for(self, mover: Unit, other: Unit) -> bool:
        """Does first contact with `other` end the move (AOD-D6)?"""
        if self.cruising or self.flies_past_contact or other.id == self.target:
            return False
        if not opposing(mover, other) or is_cruising(other):
            return False
        return not (is_mech(mover) and is_infantry(other))


def opposing_contacts(
    position: AodPosition, unit: Unit, pose: Pose | None = None, ignore: Iterable[str] = ()
) -> list[Unit]:
    """Opposing units in base contact; a VTOL at cruising is never in base contact
    (000 [18]); captives are neither friend nor foe (001 [26])."""
    if is_cruising(unit):
        return []
    if pose is None and unit.on_table and position.state.unit(unit.id) is unit:
        touching = position.touching(unit.id)  # where it stands: cached per position
    else:
        p = pose or Pose(*unit.position, unit.facing)
        touching = bases_touching(position, unit, body_at(unit.base, p.x, p.y, p.facing))
    skip = set(ignore)
    return [o for o in touching if o.id not in skip and opposing(unit, o) and not is_cruising(o)]
