"""Other units' bases along a path: which a mover may cross, which contacts end its move.

Every system forbids a swept base to overlap another unit's base, except the bases its
rules let it cross (aod: a 'Mech over infantry, 000 [17]; mswars: a much smaller or
larger friend, MSW-D8; apskirmish: friends; lasergrenadiers: an overrun target,
LG-D24), and forbids ending on a base (`base_overlap`). Some systems also end a move
at first contact with an opposing base (aod, AOD-D6). A system says which in a
`BasePolicy`; the engine does the geometry, and places each violation where it first
happens (its path length), so that the verdict lists them in path order.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from rules.engine.numbers import fmt, fmt_point
from rules.engine.position import Position
from rules.engine.verdict import Violation
from rules.geometry.bases import Body, body_at
from rules.geometry.contact import (
    Hit,
    first_overlap,
    first_retouch,
    first_touch,
    sweep_overlaps,
    sweep_touches,
)
from rules.geometry.tolerance import CONTACT, OVERLAP
from rules.geometry.track import Pose, Track
from rules.model.state import Unit

#: A violation and the path length at which it first happens.
Found = tuple[float, Violation]


@dataclass(frozen=True)
class BasePolicy:
    """How a mover treats other bases during one path. The default crosses nothing and
    stops for nothing; a system subclasses it."""

    #: Units that do not count: they move with the mover (a captive) or are elsewhere.
    ignore: frozenset[str] = frozenset()

    #: Citations of the three violations (a system's rule or decision ids).
    through_cite: ClassVar[str] = ""
    overlap_cite: ClassVar[str] = ""
    stop_cite: ClassVar[str] = ""

    def may_cross(self, mover: Unit, other: Unit) -> bool:
        """May the mover's swept base overlap `other`'s base (it may never end on it)?"""
        return False

    def stops_for(self, mover: Unit, other: Unit) -> bool:
        """Does first contact with `other` end the move?"""
        return False


def bases_touching(
    position: Position, unit: Unit, body: Body, ignore: Iterable[str] = ()
) -> list[Unit]:
    """Units whose bases are within 0.01" of `body` (base contact, no rules applied)."""
    skip = set(ignore) | {unit.id}
    return [
        other
        for other, _, _ in position.units.near(body, CONTACT)
        if other.id not in skip and body.distance(position.bodies[other.id]) <= CONTACT
    ]


def check_bases(
    position: Position,
    mover: Unit,
    track: Track,
    final: Pose,
    policy: BasePolicy,
    start_contacts: frozenset[str] = frozenset(),
) -> tuple[list[Found], list[Unit]]:
    """Violations along the path, and the units the base touches where it ends.

    `final` is where the move really ends (a system may reposition it). `start_contacts`
    are the units the mover touches where it starts: first contact with them is their
    next contact after separating."""
    out: list[Found] = []
    end_contacts: list[Unit] = []
    swept = track.swept()
    skip = policy.ignore | {mover.id}
    stop: tuple[Hit, Unit] | None = None
    final_shrunk = body_at(mover.base, final.x, final.y, final.facing, OVERLAP)
    final_body = body_at(mover.base, final.x, final.y, final.facing)
    for other, _, _ in position.units.near(swept, CONTACT * 2):
        if other.id in skip:
            continue
        body = position.bodies[other.id]
        if final_body.distance(body) <= CONTACT:
            end_contacts.append(other)
        if final_shrunk.distance(body) < 0:
            out.append(
                (
                    track.length,
                    Violation(
                        "base_overlap",
                        f"{mover.id} would end overlapping {other.id} at {fmt_point(final.xy)}",
                        final.xy,
                        policy.overlap_cite,
                    ),
                )
            )
        touched: Hit | None = None
        if policy.stops_for(mover, other) and track.translates and sweep_touches(track, body):
            touched = (
                first_retouch(track, body)
                if other.id in start_contacts
                else first_touch(track, body)
            )
            if touched is not None and (stop is None or touched.s < stop[0].s):
                stop = (touched, other)
        # Going on into a base that stops the move is reported once, as the stop.
        if touched is None and not policy.may_cross(mover, other) and sweep_overlaps(track, body):
            hit = first_overlap(track, body)
            if hit is not None and hit.tau < track.tau_end - 1e-9:
                out.append(
                    (
                        hit.s,
                        Violation(
                            "path_through_base",
                            f"{mover.id} passes through the base of {other.id}"
                            f" at {fmt_point(hit.at)}",
                            hit.at,
                            policy.through_cite,
                        ),
                    )
                )
    if stop is not None:
        hit, other = stop
        if track.length > hit.s + CONTACT:
            out.append(
                (
                    hit.s,
                    Violation(
                        "path_through_base",
                        f"{mover.id} must stop on contact with {other.id} at "
                        f'{fmt_point(hit.at)} but goes {fmt(track.length - hit.s)}" further',
                        hit.at,
                        policy.stop_cite,
                    ),
                )
            )
    return out, end_contacts
