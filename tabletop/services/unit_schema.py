"""A roster unit checked against the unit schema the rules engine publishes for its system.

The schema is data ({"fields": {name: {"type", "enum", "minimum", "maximum",
"required", "oneOf", "for"}}}), so a new system needs no code here. Errors come
back keyed by the field they are about ("move", "base.diameter"), all at once.
"""

from typing import Any

from tabletop.services.inputs import is_number

# Keys that describe a unit on a table, not in a roster: the table sets them.
TABLE_ONLY_FIELDS = frozenset({"type", "captive_of"})


def roster_fields(schema: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The schema's fields a roster may set (the unit type is chosen separately)."""
    return {k: v for k, v in schema["fields"].items() if k not in TABLE_ONLY_FIELDS}


def _value_error(spec: dict[str, Any], value: Any) -> str | None:
    kind = spec.get("type")
    if kind == "number" and not is_number(value):
        return "Enter a finite number."
    if kind == "integer" and (isinstance(value, bool) or not isinstance(value, int)):
        return "Enter a whole number."
    if kind == "boolean" and not isinstance(value, bool):
        return "Must be true or false."
    if kind == "string" and not isinstance(value, str):
        return "Must be text."
    if kind == "object" and not isinstance(value, dict):
        return "Must be an object."
    if "enum" in spec and value not in spec["enum"]:
        return f"Choose one of: {', '.join(map(str, spec['enum']))}."
    if kind in ("number", "integer"):
        if "minimum" in spec and value < spec["minimum"]:
            return f"Must be at least {spec['minimum']}."
        if "maximum" in spec and value > spec["maximum"]:
            return f"Must be at most {spec['maximum']}."
    if kind == "string" and len(value) > 200:
        return "At most 200 characters."
    return None


def _variant_errors(field: str, spec: dict[str, Any], value: dict) -> dict[str, str]:
    """An object with a `shape` discriminator (the base): the matching variant's keys."""
    variants = {v.get("shape"): v for v in spec["oneOf"]}
    shape = value.get("shape")
    if shape not in variants:
        return {f"{field}.shape": f"Choose one of: {', '.join(map(str, variants))}."}
    errors = {}
    variant = variants[shape]
    for key, sub_spec in variant.items():
        if key == "shape":
            continue
        if key not in value:
            errors[f"{field}.{key}"] = f"A {shape} base needs a {key}."
            continue
        problem = _value_error(sub_spec, value[key])
        if problem is None and value[key] <= 0:
            problem = "Must be more than 0."  # a base has a real size
        if problem:
            errors[f"{field}.{key}"] = problem
    for key in value:
        if key not in variant:
            errors[f"{field}.{key}"] = f"A {shape} base has no {key}."
    return errors


def unit_errors(schema: dict[str, Any], unit_type: Any, stats: Any) -> dict[str, str]:
    """Everything wrong with a unit of `unit_type` with `stats`, keyed by field; {} if none."""
    types = schema["fields"]["type"]["enum"]
    errors: dict[str, str] = {}
    if unit_type not in types:
        errors["unit_type"] = f"Unknown unit type {unit_type!r}; choose one of: {', '.join(types)}."
    if not isinstance(stats, dict):
        return {**errors, "stats": "The unit's stats are a JSON object."}
    fields = roster_fields(schema)
    for key, value in stats.items():
        spec = fields.get(key)
        if spec is None:
            errors[str(key)] = f"{schema['system']} units have no field {key!r}."
            continue
        if "for" in spec and unit_type not in spec["for"]:
            errors[key] = f"Only for {', '.join(spec['for'])} units."
            continue
        problem = _value_error(spec, value)
        if problem:
            errors[key] = problem
        elif "oneOf" in spec:
            errors.update(_variant_errors(key, spec, value))
    for key, spec in fields.items():
        if spec.get("required") and key not in stats:
            errors[key] = "Required."
    return errors
