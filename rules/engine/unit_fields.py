"""A unit's system-specific keys checked against the roster schema its system publishes
(`System.unit_schema()`), so that the schema the roster editor shows is the check the
engine makes: one description of a unit, not two."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.model.errors import InvalidActionError

#: Schema type name -> what a JSON value of it is (booleans are not numbers).
_KINDS: dict[str, tuple[type, ...]] = {
    "boolean": (bool,),
    "number": (int, float),
    "integer": (int,),
    "string": (str,),
    "array": (list,),
    "object": (dict,),
}


#: The base shapes the scenario format takes (scenario-format.md BASE): a round base or a
#: rectangle, sizes in inches.
BASE_SHAPES: list[dict[str, Any]] = [
    {"shape": "circle", "diameter": {"type": "number", "minimum": 0}},
    {
        "shape": "rect",
        "width": {"type": "number", "minimum": 0},
        "length": {"type": "number", "minimum": 0},
    },
]


def base_field(
    default: Mapping[str, Any], suggested: Mapping[str, Mapping[str, Any]] | None = None
) -> dict[str, Any]:
    """The roster schema's required `base` field: a system's usual base, and the bases the
    web side's roster catalogue offers per unit type."""
    field: dict[str, Any] = {"type": "object", "required": True, "default": dict(default)}
    if suggested is not None:
        field["suggested"] = {t: dict(b) for t, b in suggested.items()}
    field["oneOf"] = [dict(shape) for shape in BASE_SHAPES]
    return field


def check_fields(props: Mapping[str, Any], fields: Mapping[str, Any], key: str) -> None:
    """Raise InvalidActionError naming the first key whose value the schema refuses."""
    for name, field in fields.items():
        if name not in props or not isinstance(field, Mapping) or "type" not in field:
            continue
        value: Any = props[name]
        kinds = _KINDS.get(field["type"], (object,))
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            raise InvalidActionError(f"{key}.{name}", f"expected {field['type']}")
        if "enum" in field and value not in field["enum"]:
            raise InvalidActionError(f"{key}.{name}", f"expected one of {field['enum']}")
        if "minimum" in field and not isinstance(value, bool) and value < field["minimum"]:
            raise InvalidActionError(f"{key}.{name}", f"must be at least {field['minimum']}")
        items = field.get("items", {}).get("type")
        if (
            items
            and isinstance(value, list)
            and not all(isinstance(v, _KINDS[items]) for v in value)
        ):
            raise InvalidActionError(f"{key}.{name}", f"expected a list of {items}s")
