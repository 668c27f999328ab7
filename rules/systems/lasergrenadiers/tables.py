"""The seed's tables and the notes' decisions as data (003 Movement; lasergrenadiers.md).

Nothing here computes: rates, altitude limits, the damaged turning table, terrain
multipliers and their precedence, direction factors, turn bands and speed bands.
A multiplier m multiplies distance: cost per inch = direction factor / m ("halved" is
1/2, "doubled" 2, "tripled" 3, LG-D32); X (None) is prohibited.
"""

from __future__ import annotations

from typing import NamedTuple

X = None  # prohibited terrain (`prohibited_terrain`)

INFANTRY = ("foot", "gravpack", "jetpack", "powered_armor")
CREW_WEAPON = "crew_weapon"
VEHICLES = ("grav", "hover", "thruster", "tracked", "walker", "wheeled")
UNIT_TYPES = (*INFANTRY, CREW_WEAPON, *VEHICLES)

#: 003 Infantry movement 1-3; 003 Crew-served weapon movement 2.
INFANTRY_RATES: dict[str, int] = {
    "foot": 6,
    "gravpack": 12,
    "jetpack": 24,
    "powered_armor": 12,
    "crew_weapon": 6,
}
#: 003 Ground vehicle movement 1a (Basic).
BASIC_RATES: dict[str, int] = {
    "grav": 36,
    "hover": 30,
    "thruster": 48,
    "tracked": 30,
    "walker": 24,
    "wheeled": 36,
}
#: 003 Ground vehicle movement 1b (Advanced): fast, average, slow.
ADVANCED_RATES: dict[str, tuple[int, int, int]] = {
    "grav": (36, 30, 24),
    "hover": (30, 24, 18),
    "thruster": (48, 42, 36),
    "tracked": (30, 24, 18),
    "walker": (24, 18, 12),
    "wheeled": (36, 30, 24),
}

#: 003 Altitude limits (inches; 0 = "Surface", None = no limit). powered_armor and
#: crew_weapon are surface pieces (lasergrenadiers.md 7).
ALTITUDE_LIMITS: dict[str, float | None] = {
    "foot": 0.0,
    "gravpack": 2.0,
    "jetpack": 12.0,
    "powered_armor": 0.0,
    "crew_weapon": 0.0,
    "grav": 4.0,
    "hover": 1.0,
    "thruster": None,
    "tracked": 0.0,
    "walker": 0.0,
    "wheeled": 0.0,
}
#: Where a surface piece may stand above the ground, up to the feature's height (LG-D22),
#: and where climbing is not a pop-up (LG-D36).
CLIMBABLE = frozenset({"building", "stairs", "ladder"})
#: Who may make pop-up maneuvers (003 Pop-up maneuvers 2, LG-D23); also `aircraft`.
POP_UP_TYPES = frozenset({"grav", "gravpack", "jetpack"})

#: Fractions of the rate a rotation costs, by |angle| (LG-D1, table option `turn_bands`):
#: (upper bound in degrees, inclusive, fraction).
TURN_BANDS: tuple[tuple[float, float], ...] = (
    (45.0, 1 / 6),
    (90.0, 1 / 3),
    (135.0, 2 / 3),
    (180.0, 5 / 6),
)
#: 003 Damaged c: reduced movement rate -> cost of one-sixth, one-third, two-thirds and
#: five-sixths turns (the 44 entries).
DAMAGED_TURNING: dict[int, tuple[int, int, int, int]] = {
    4: (1, 1, 3, 3),
    6: (1, 2, 4, 5),
    8: (1, 3, 5, 7),
    10: (2, 3, 7, 8),
    12: (2, 4, 8, 10),
    14: (2, 5, 9, 12),
    16: (3, 5, 11, 13),
    18: (3, 6, 12, 15),
    20: (3, 7, 13, 17),
    22: (4, 7, 15, 18),
    24: (4, 8, 16, 20),
}
DAMAGED_COLUMNS: tuple[float, ...] = (1 / 6, 1 / 3, 2 / 3, 5 / 6)


class Factors(NamedTuple):
    """Direction factors on the cost per inch (None: not allowed) (lasergrenadiers.md 4)."""

    reverse: float
    sideways: float | None
    #: With `dual_drivers` (reverse) and `jointed` (sideways): None = no change.
    reverse_dual: float | None = None
    sideways_jointed: float | None = None


#: 003 Infantry movement 4-5 (infantry, crew weapons); 003 Ground vehicle movement 2-3.
FACTORS: dict[str, Factors] = {
    "foot": Factors(2, 2, None, 1),
    "gravpack": Factors(2, 2),
    "jetpack": Factors(2, 2),
    "powered_armor": Factors(2, 2),
    "crew_weapon": Factors(2, 2),
    "grav": Factors(2, 2, 1),
    "hover": Factors(2, 2, 1),
    "thruster": Factors(2, 2, 1),
    "walker": Factors(2, 2, 1, 1),
    "tracked": Factors(2, None, 1),
    "wheeled": Factors(2, None, 1),
}

#: Terrain columns: F = foot, powered armour (LG-D3) and crew weapons (LG-D21).
COLUMNS = ("F", "G", "J", "grav", "hover", "thruster", "tracked", "walker", "wheeled")
COLUMN_OF: dict[str, str] = {
    "foot": "F",
    "powered_armor": "F",
    "crew_weapon": "F",
    "gravpack": "G",
    "jetpack": "J",
    **{t: t for t in VEHICLES},
}


def _row(*cells: float | None) -> dict[str, float | None]:
    return dict(zip(COLUMNS, cells, strict=True))


H = 0.5
#: 003 Terrain effects on movement, rebuilt in lasergrenadiers.md 6: type -> column -> m.
MULTIPLIERS: dict[str, dict[str, float | None]] = {
    "firm": _row(1, 1, 1, 1, 1, 1, 1, 1, 1),
    "soft": _row(H, 1, 1, 1, 1, 1, H, H, H),
    "slope_uphill": _row(H, 1, 1, 1, H, 1, H, H, H),
    "slope": _row(1, 1, 1, 1, 1, 1, 1, 1, 1),
    "river": _row(X, 1, 1, 1, 1, 1, X, X, X),
    "lake": _row(X, 1, 1, 1, 1, 1, X, X, X),
    "ford": _row(H, 1, 1, 1, 1, 1, H, H, H),
    "road": _row(2, 1, 1, 1, 1, 1, 2, 2, 2),
    "bridge": _row(2, 1, 1, 1, 1, 1, 2, 2, 2),
    "vegetation": _row(H, H, H, H, H, H, H, H, H),
    "dense_vegetation": _row(X, X, X, X, X, X, X, X, X),
    "low_obstacle": _row(H, 1, 1, 1, H, 1, H, H, H),
    "high_wall": _row(X, X, 1, X, X, 1, X, X, X),
    "antitank_obstacle": _row(H, 1, 1, 1, H, 1, X, H, X),
    "building": _row(2, 1, 1, 1, 1, 1, 2, 2, 2),
    "stairs": _row(H, 1, 1, 1, 1, 1, H, H, H),
    "ladder": _row(3, 1, 1, X, X, X, X, X, X),
}
#: Features closed to crew weapons although their F column is open (LG-D21: no ladders).
CREW_WEAPON_PROHIBITED = frozenset({"ladder"})
#: Water a piece with `amphibious` crosses at half rate where it would be X (LG-D8).
WATER = frozenset({"river", "lake"})
#: Features a vehicle may enter only with `vehicle_access: true` (003 Terrain 11-12, LG-D20).
VEHICLE_ACCESS = frozenset({"building", "stairs"})
#: Overlap precedence (LG-D25): each feature type overrides the types listed.
OVERRIDES: dict[str, frozenset[str]] = {
    "bridge": frozenset({"river", "lake", "soft", "slope", "vegetation"}),
    "ford": frozenset({"river", "lake"}),
    "road": frozenset({"soft", "slope", "vegetation"}),
}

#: Speed bands by the share of the original rate spent (LG-D11, LG-D27: upper bounds
#: inclusive): (upper bound as a fraction of `move`, band).
SPEED_BANDS: tuple[tuple[float, str], ...] = ((1 / 3, "slow"), (2 / 3, "moderate"))
STATIONARY, FAST = "stationary", "fast"
