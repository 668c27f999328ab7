"""What a system offers a player: its actions and terrain types, as data the board reads.

The web side never names a system or an action; it shows what the catalogue says
(labels, the keys an action needs, how its path is drawn, what its cost counts).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from rules.engine.terrain_style import UNSTYLED, TerrainStyle
from rules.engine.verdict import SHARED_FIELDS

#: How an action's path is drawn: a polyline with turns ("free"), one straight line
#: ("straight"), a single placement point ("placement"), a turn in place, [{"turn": a}]
#: ("turn"), or none at all ("none").
PATH_SHAPES = frozenset({"free", "straight", "placement", "turn", "none"})
#: What an action's cost counts: inches, movement points or action points.
COST_UNITS = {"in": '"', "MP": " MP", "AP": " AP"}


@dataclass(frozen=True)
class ActionRow:
    """One row of a system's action table: the player's label, the rule it comes from,
    the keys it needs, its path shape, whether a drag offers it, and a line of help
    (a system's row may add its own columns: mswars' Action Cost and allowance)."""

    label: str
    cite: str
    keys: tuple[str, ...]
    path: str
    drag: bool
    help: str


@dataclass(frozen=True)
class ActionVariant:
    """How the board picks an action for some unit types, where it differs from the
    action's own gesture: the fields given replace the spec's for those types; a field
    left None keeps the spec's (a vehicle's load clicks the pieces it takes aboard, where
    a boarding piece clicks its carrier). The picked keys only: what a drag fills
    (`target_keys`, `faces_each_leg`) stays the action's."""

    unit_types: tuple[str, ...]
    path: str | None = None
    point_keys: tuple[str, ...] | None = None
    unit_keys: tuple[str, ...] | None = None
    placement_keys: tuple[str, ...] | None = None
    unit_list_keys: tuple[str, ...] | None = None
    at_once: bool | None = None

    def given(self) -> dict[str, Any]:
        """The gesture fields it replaces, by name (unit_types aside)."""
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if f.name != "unit_types" and getattr(self, f.name) is not None
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "unit_types": list(self.unit_types),
            **{k: list(v) if isinstance(v, tuple) else v for k, v in self.given().items()},
        }


@dataclass(frozen=True)
class ActionSpec:
    type: str
    label: str
    #: Keys the action needs beyond unit/type/path/facing ("target", "carrier", ...).
    keys: tuple[str, ...] = ()
    path: str = "free"
    cost_unit: str = "in"
    #: Offered when a player drags a piece (a move in the usual sense).
    drag: bool = False
    help: str = ""
    #: The unit types that may take it; empty: every type.
    unit_types: tuple[str, ...] = ()
    #: Unit keys that must be set (true, or a number above 0) for it ("jump_jets").
    needs: tuple[str, ...] = ()
    #: Unit types whose path points may carry a height, [x, y, z] (z above the ground),
    #: so that the board offers them an altitude; empty: the path lies on the ground.
    path_z: tuple[str, ...] = ()
    #: Keys whose value is a point on the table ([x, y]), picked on the board with a
    #: click (a Dodge's `source`, the attack's origin); other keys name units or carry
    #: data the board does not pick by pointing.
    point_keys: tuple[str, ...] = ()
    #: Keys whose value is one unit id, picked on the board with a click on a piece
    #: (a load's `carrier`). Set only where the action stands without a path: the
    #: board sends it with none, the piece acting from where it stands.
    unit_keys: tuple[str, ...] = ()
    #: Keys whose value is a list of placements, [{"unit", "position", "facing"}], one
    #: for each unit aboard the actor, set down in base contact with it (an unload).
    placement_keys: tuple[str, ...] = ()
    #: Several pieces move as one order (a formation move): the board sends the drag of
    #: one of the pieces picked together as `moves`, [{"unit", "path"}] a piece, each path
    #: the dragged one's moved by that piece's offset (ui.md, "Groups").
    group: bool = False
    #: Keys whose value is one unit id, filled by the drag: the piece the dragged base ends
    #: in base contact with, else the one its path passes over (a ram's or an overrun's
    #: `target`); an opposing piece before a friendly one.
    target_keys: tuple[str, ...] = ()
    #: Keys whose value is a list of unit ids, each picked with a click on a piece (the
    #: passengers a transport takes aboard); then a drag of the acting piece sends the
    #: order with its path, or a click on it sends it where it stands.
    unit_list_keys: tuple[str, ...] = ()
    #: Sent when its button is pressed, with no path and none of its keys: the engine finds
    #: what it acts on (a vent; a climb onto the terrain the piece touches and faces).
    at_once: bool = False
    #: Taken by a piece aboard another: the board offers it on the carrier selected, for
    #: the piece aboard that is offered it (an exit from a carrier). Its `placement_keys`
    #: then hold one placement, {"position", "facing"}, the piece's own.
    from_aboard: bool = False
    #: Unit types that move only where they face (ahead or back): the board's proposal
    #: turns to face each leg of the drag first, as the rules let a move include a turn
    #: (M.S. Wars' free turn, a LaserGrenadiers vehicle's paid turn); a leg straight ahead
    #: or straight back needs none.
    faces_each_leg: tuple[str, ...] = ()
    #: Other gestures for some unit types (`ActionVariant`): the board resolves the spec
    #: for the selected piece's type before it picks. Their types are offered it too.
    variants: tuple[ActionVariant, ...] = ()

    def for_type(self, unit_type: str | None) -> ActionSpec:
        """The spec as the board picks it for a piece of `unit_type` (its variant's fields
        in place of its own, where one names the type)."""
        variant = next((v for v in self.variants if unit_type in v.unit_types), None)
        return self if variant is None else replace(self, **variant.given(), variants=())

    def offered_to(self, unit: Mapping[str, Any]) -> bool:
        """Whether a unit (scenario UNIT json) meets the action's plain eligibility.

        Only what the catalogue states (type, keys needed); the engine judges the rest
        when the action is proposed."""
        kind = unit.get("type")
        if (
            self.unit_types
            and kind not in self.unit_types
            and not any(kind in v.unit_types for v in self.variants)
        ):
            return False
        return all(_is_set(unit.get(key)) for key in self.needs)

    def to_json(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "label": self.label,
            "keys": list(self.keys),
            "path": self.path,
            "cost_unit": self.cost_unit,
            "drag": self.drag,
            "help": self.help,
            "unit_types": list(self.unit_types),
            "needs": list(self.needs),
            "path_z": list(self.path_z),
            "point_keys": list(self.point_keys),
            "unit_keys": list(self.unit_keys),
            "placement_keys": list(self.placement_keys),
            "group": self.group,
            "target_keys": list(self.target_keys),
            "unit_list_keys": list(self.unit_list_keys),
            "at_once": self.at_once,
            "from_aboard": self.from_aboard,
            "faces_each_leg": list(self.faces_each_leg),
            "variants": [v.to_json() for v in self.variants],
        }


def _is_set(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return value > 0
    return bool(value)


@dataclass(frozen=True)
class TerrainKind:
    type: str
    label: str
    #: Keys a feature of this type may carry beyond id/type/polygon ("height", ...).
    keys: tuple[str, ...] = ()
    #: Keys it must carry (a slope's uphill bearing).
    required: tuple[str, ...] = ()
    help: str = ""
    #: What it does to a line of sight drawn across it, for the board's sight tool:
    #: "blocks", "hinders" or "" (nothing). The system's rules of sight stay its own.
    sight: str = ""
    #: How the board and the battle report draw it (rules/engine/terrain_style.py).
    style: TerrainStyle = UNSTYLED

    def to_json(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "label": self.label,
            "keys": list(self.keys),
            "required": list(self.required),
            "help": self.help,
            "sight": self.sight,
            "style": self.style.to_json(),
        }


@dataclass(frozen=True)
class VerdictNote:
    """A note of the system's own its verdicts carry beside the shared fields (how fast a
    LaserGrenadiers piece moved): its key in the verdict (`Verdict.notes`, and the verdict's
    JSON), its label for players (the unit card, the preview), a line of help."""

    key: str
    label: str
    help: str = ""

    def __post_init__(self) -> None:
        if self.key in SHARED_FIELDS:
            raise ValueError(f"a verdict note may not be called {self.key!r}: a shared field")

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "label": self.label, "help": self.help}


#: Where a state marker's key is read: a key of the unit, or a key of the position's
#: `state` holding a list of unit ids or {unit id: value}.
MARKER_SOURCES = frozenset({"unit", "state"})


@dataclass(frozen=True)
class StateMarker:
    """A state of the system's own the board draws on a piece, its card and the report
    (activated, shut down, aboard): which key shows it, and its label for players. The
    web side draws what the catalogue says and names no key itself."""

    key: str
    label: str
    source: str = "unit"
    #: For a key with named values, each value that shows a marker and its label
    #: (("prone", "prone"), ...); other values show none. Empty: any set value shows `label`.
    values: tuple[tuple[Any, str], ...] = ()
    help: str = ""

    def label_for(self, value: Any) -> str | None:
        """The marker's label for the key's value, or None where it shows none."""
        if self.values:
            return next((label for v, label in self.values if v == value), None)
        return self.label if _is_set(value) else None

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "label": self.label,
            "source": self.source,
            "values": [[v, label] for v, label in self.values],
            "help": self.help,
        }


#: A unit inside a transport (scenario-format.md UNIT `aboard`), in every system.
ABOARD = StateMarker("aboard", "aboard", help="Inside its transport, off the table.")
