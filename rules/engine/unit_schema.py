"""A system's unit schema: a JSON Schema document (draft 2020-12) saying what a unit may
contain, read by one library, `jsonschema`, for the engine (a position's units) and for
the web side's roster forms alike, so that what the roster editor refuses is what the
engine refuses. Refusals come back in a player's words, keyed by the field they are about
("move", "base.diameter"), never as the library's own text.

Besides the standard keywords a schema carries annotations the library ignores and the
roster editor reads: `for` (the unit types a field belongs to; also written into the
document as a condition the library checks), `default`, `suggested` (per unit type),
`labels` (unit types in a player's words) and `advanced`."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from jsonschema import Draft202012Validator, ValidationError, validators

from rules.model.errors import InvalidActionError

DIALECT = "https://json-schema.org/draft/2020-12/schema"


def _is_number(checker: Any, value: Any) -> bool:
    # A JSON number is finite; Python's NaN and infinities are not numbers a player meant.
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and math.isfinite(value))


def _is_integer(checker: Any, value: Any) -> bool:
    # Counts (capacity, order tokens) are used as Python ints: 2.0 is refused, as before.
    return isinstance(value, int) and not isinstance(value, bool)


UnitValidator = validators.extend(  # type: ignore[no-untyped-call]
    Draft202012Validator,
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine_many(
        {"number": _is_number, "integer": _is_integer}
    ),
)

#: A base's size: a real size, in inches.
_SIZE = {"type": "number", "exclusiveMinimum": 0}

#: The base shapes the scenario format takes (scenario-format.md BASE): a round base or a
#: rectangle; `shape` tells them apart.
BASE_SHAPES: list[dict[str, Any]] = [
    {
        "title": "circle base",
        "type": "object",
        "properties": {"shape": {"const": "circle"}, "diameter": _SIZE},
        "required": ["shape", "diameter"],
        "additionalProperties": False,
    },
    {
        "title": "rect base",
        "type": "object",
        "properties": {"shape": {"const": "rect"}, "width": _SIZE, "length": _SIZE},
        "required": ["shape", "width", "length"],
        "additionalProperties": False,
    },
]


def base_field(
    default: Mapping[str, Any], suggested: Mapping[str, Mapping[str, Any]] | None = None
) -> dict[str, Any]:
    """The schema's `base` property: a system's usual base, and the bases the web side's
    roster catalogue offers per unit type."""
    field: dict[str, Any] = {"type": "object", "default": dict(default)}
    if suggested is not None:
        field["suggested"] = {t: dict(b) for t, b in suggested.items()}
    field["oneOf"] = [json.loads(json.dumps(shape)) for shape in BASE_SHAPES]
    return field


def unit_schema(
    system: str,
    properties: Mapping[str, Any],
    required: Iterable[str] = (),
    conditions: Iterable[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """The JSON Schema document of a unit of `system`. A property's `for` (the unit types
    it belongs to) becomes a condition: a unit of another type may not have it."""
    only_for = [
        {
            "if": {"properties": {"type": {"not": {"enum": spec["for"]}}}, "required": ["type"]},
            "then": {"properties": {name: {"not": {}}}},
        }
        for name, spec in properties.items()
        if "for" in spec
    ]
    document: dict[str, Any] = {
        "$schema": DIALECT,
        "title": f"{system} unit",
        "system": system,
        "type": "object",
        "properties": dict(properties),
        "required": list(required),
    }
    if only_for or conditions:
        document["allOf"] = [*only_for, *conditions]
    return document


def roster_schema(schema: Mapping[str, Any]) -> Mapping[str, Any]:
    """What a roster may hold: the schema's fields but those the table sets (`readOnly`),
    and nothing else (a table's position may carry more state than the schema names)."""
    roster: Mapping[str, Any] = _kept(_ROSTERS, schema, _roster_schema)
    return roster


def _roster_schema(schema: Mapping[str, Any]) -> dict[str, Any]:
    return {
        **schema,
        "properties": {
            k: v for k, v in schema.get("properties", {}).items() if not v.get("readOnly")
        },
        "additionalProperties": False,
    }


# -- refusals in a player's words ------------------------------------------------------

_TYPE_WORDS = {
    "number": "Enter a finite number.",
    "integer": "Enter a whole number.",
    "boolean": "Must be true or false.",
    "string": "Must be text.",
    "object": "Must be an object.",
    "array": "Must be a list.",
}

#: Refusals said with the keyword's value alone.
_LIMIT_WORDS = {
    "minimum": "Must be at least {limit}.",
    "maximum": "Must be at most {limit}.",
    "exclusiveMinimum": "Must be more than {limit}.",
    "maxLength": "At most {limit} characters.",
}

Refusal = tuple[str, str]  # (field, words)


def _field(path: Iterable[Any]) -> str:
    return ".".join(str(p) for p in path)


def _choices(values: Any) -> str:
    return ", ".join(map(str, values))


def _item_field(error: ValidationError) -> tuple[str, str]:
    """A refusal about one item of a list is shown at the list, naming the item."""
    path = list(error.absolute_path)
    at = next((i for i, p in enumerate(path) if isinstance(p, int)), None)
    if at is None:
        return _field(path), ""
    return _field(path[:at]), f"Item {int(path[at]) + 1}: "


def _words(error: ValidationError, schema: Mapping[str, Any]) -> list[Refusal]:
    """The refusals one of the library's errors stands for, in a player's words."""
    field, item = _item_field(error)
    kind = error.validator
    limit: Any = error.validator_value  # the library types these "or unset"; they are set
    value: Any = error.instance
    if kind == "oneOf" and isinstance(value, dict):
        return _variant_words(error)
    if kind in ("required", "additionalProperties"):
        return _key_words(error)
    if kind == "type":
        return [(field, item + _TYPE_WORDS.get(str(limit), f"Must be {limit}."))]
    if kind == "enum" and field == "type":
        return [(field, f"Unknown unit type {value!r}; choose one of: {_choices(limit)}.")]
    if kind == "enum":
        return [(field, f"{item}Choose one of: {_choices(limit)}.")]
    if kind in _LIMIT_WORDS:
        return [(field, item + _LIMIT_WORDS[str(kind)].format(limit=limit))]
    if kind == "not":  # a field only some unit types have (`for`, unit_schema above)
        only = schema["properties"].get(field, {}).get("for", [])
        return [(field, f"Only for {_choices(only)} units.")]
    return [(field, "Not allowed here.")]


def _key_words(error: ValidationError) -> list[Refusal]:
    """Keys missing from an object, or there that it may not have: the unit's fields
    ("Required.") or a part's, which its `title` names ("A circle base needs a diameter.")."""
    where = list(error.absolute_path)
    title = error.schema.get("title", "") if isinstance(error.schema, Mapping) else ""
    value: Any = error.instance
    limit: Any = error.validator_value
    if error.validator == "required":
        names = [name for name in limit if name not in value]
        words = "A {title} needs a {name}." if where else "Required."
    else:
        known = error.schema.get("properties", {}) if isinstance(error.schema, Mapping) else {}
        names = [name for name in value if name not in known]
        words = "A {title} has no {name}." if where else "{title}s have no field {name!r}."
    return [(_field([*where, name]), words.format(title=title, name=name)) for name in names]


def _variant_words(error: ValidationError) -> list[Refusal]:
    """A base: the refusals of the variant its `shape` names, or the shapes there are."""
    variants: Any = error.validator_value
    value: Any = error.instance
    shapes = [v["properties"]["shape"]["const"] for v in variants]
    shape = value.get("shape")
    if shape not in shapes:
        return [(_field([*error.absolute_path, "shape"]), f"Choose one of: {_choices(shapes)}.")]
    chosen = shapes.index(shape)
    return [
        refusal
        for sub in error.context or ()
        if sub.relative_schema_path[0] == chosen
        for refusal in _words(sub, variants[chosen])
    ]


def _kept(cache: dict[int, tuple[Any, Any]], schema: Any, build: Callable[[Any], Any]) -> Any:
    """What `build` makes of a schema, made once: the documents are the systems' constants,
    kept beside what was made of them so that an id is never read for another document."""
    kept = cache.get(id(schema))
    if kept is None or kept[0] is not schema:
        kept = cache[id(schema)] = (schema, build(schema))
    return kept[1]


_VALIDATORS: dict[int, tuple[Any, Any]] = {}
_ROSTERS: dict[int, tuple[Any, Any]] = {}


#: Units whose answer is kept, per schema: the library takes about a millisecond a unit,
#: and a position's units are read again and again with the same fields (each move's
#: position, the scenario files' actions, the hostile-input tests' 4,000 positions).
KEPT_ANSWERS = 4096
_ANSWERS: dict[int, tuple[Any, dict[str, dict[str, str]]]] = {}
_PLAIN = {str, int, float, bool, type(None)}


def _plain_json(value: Any) -> bool:
    """Only JSON's own Python types (dicts with str keys, lists), so that the value's repr
    says everything the schema can read of it (a tuple is not a list to the library,
    2.0 not 2, True not 1: repr tells each apart)."""
    kind = type(value)
    if kind in _PLAIN:
        return True
    if kind is list:
        return all(_plain_json(item) for item in value)
    if kind is dict:
        return all(type(k) is str and _plain_json(v) for k, v in value.items())
    return False


def unit_problems(schema: Mapping[str, Any], unit: Any) -> dict[str, str]:
    """Everything `schema` refuses in `unit` (a unit's JSON), keyed by field, in a player's
    words, in the schema's order; {} if nothing."""
    if not _plain_json(unit):
        return _problems(schema, unit)
    answers = _kept(_ANSWERS, schema, lambda _: {})
    key = repr(unit)  # the order of keys kept: a refusal names the first field it meets
    problems = answers.get(key)
    if problems is None:
        if len(answers) >= KEPT_ANSWERS:
            answers.clear()
        problems = answers[key] = _problems(schema, unit)
    return dict(problems)


def _problems(schema: Mapping[str, Any], unit: Any) -> dict[str, str]:
    problems: dict[str, str] = {}
    for error in _kept(_VALIDATORS, schema, UnitValidator).iter_errors(unit):
        for field, words in _words(error, schema):
            problems.setdefault(field, words)  # the first refusal of a field says most
    return problems


def check_unit_fields(schema: Mapping[str, Any], unit: Mapping[str, Any], key: str) -> None:
    """Raise InvalidActionError naming the unit's first field `schema` refuses."""
    for field, words in unit_problems(schema, unit).items():
        raise InvalidActionError(f"{key}.{field}" if field else key, words)
