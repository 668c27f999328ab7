"""Client frames of the live table: parsed and checked here, before any service sees them.

Every frame is one JSON object with a `type` (docs/protocol.md). A frame that
breaks a rule raises `FrameError` with a stable code; the consumer answers it
with an error frame and the connection stays usable. Numbers are checked at
parse time: NaN and the infinities never reach Python floats that could get
into the state.
"""

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tabletop import limits
from tabletop.services.inputs import JSONTooDeep, load_json
from tabletop.services.table.marker_palette import COLOURS
from tabletop.storable import MESSAGE as UNSTORABLE_MESSAGE
from tabletop.storable import unstorable_at

MSG_ID = re.compile(r"^[A-Za-z0-9_.:\-]{1,%d}$" % limits.MSG_ID_CHARS)  # noqa: UP031
UNIT_ID_CHARS = 64
ACTION_TYPE_CHARS = 32
#: Keys of system-specific action parameters: how deep and how long they may be.
PARAM_DEPTH = 6
PARAM_ITEMS = 64
PARAM_STRING = 200


class FrameError(Exception):
    """A frame the protocol refuses. `code` is stable; `field` names the key at fault."""

    def __init__(self, code: str, message: str, *, field: str | None = None, ref: Any = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
        self.ref = ref


@dataclass(frozen=True)
class Frame:
    type: str
    data: dict[str, Any]

    @property
    def ref(self) -> str | None:
        return self.data.get("id") or self.data.get("ref")


def _reject_constant(name: str) -> Any:
    raise FrameError("bad_number", f"{name} is not a number the table accepts")


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise FrameError("bad_number", f"{text} is out of range")
    return value


def _parse_int(text: str) -> int:
    # Python refuses ints of more than 4300 digits only after the work; stop long before.
    if len(text) > 20:
        raise FrameError("bad_number", f"{text[:24]}... is out of range")
    return int(text)


def decode(text: str | None, binary: bytes | None) -> dict[str, Any]:
    """The JSON object of a websocket message, or FrameError."""
    if text is None:
        raise FrameError("not_text", "frames are JSON text, not binary")
    if len(text.encode("utf-8", "surrogatepass")) > limits.FRAME_BYTES:
        raise FrameError("frame_too_large", f"frames are at most {limits.FRAME_BYTES} bytes")
    try:
        value = load_json(
            text,
            parse_constant=_reject_constant,
            parse_float=_parse_float,
            parse_int=_parse_int,
        )
    except FrameError:
        raise
    except JSONTooDeep as error:
        raise FrameError("bad_json", str(error)) from None
    except ValueError as error:
        raise FrameError("bad_json", f"not JSON: {error}") from None
    if not isinstance(value, dict):
        raise FrameError("not_an_object", "a frame is a JSON object with a type")
    return value


# -- field checkers: each takes (value, field name) and returns the clean value ----------


def _malformed(field: str, message: str) -> FrameError:
    return FrameError("malformed", f"{field}: {message}", field=field)


def msg_id(value: Any, field: str) -> str:
    if not isinstance(value, str) or not MSG_ID.match(value):
        raise _malformed(field, f"expected 1-{limits.MSG_ID_CHARS} characters of A-Z a-z 0-9 _-.:")
    return value


def integer(low: int, high: int) -> Callable[[Any, str], int]:
    def check(value: Any, field: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _malformed(field, "expected an integer")
        if not low <= value <= high:
            raise FrameError("bad_number", f"{field}: must be {low}-{high}", field=field)
        return value

    return check


def number(value: Any, field: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _malformed(field, "expected a number")
    if not abs(value) <= limits.COORDINATE_ABS:  # also false for NaN
        raise FrameError("bad_number", f"{field}: out of range", field=field)
    return float(value) if isinstance(value, float) else value


def text(low: int, high: int) -> Callable[[Any, str], str]:
    def check(value: Any, field: str) -> str:
        if not isinstance(value, str):
            raise _malformed(field, "expected a string")
        value = value.strip()
        if not low <= len(value) <= high:
            raise _malformed(field, f"expected {low}-{high} characters")
        return value

    return check


def boolean(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise _malformed(field, "expected true or false")
    return value


def point(value: Any, field: str) -> list[float]:
    if not isinstance(value, list) or len(value) not in (2, 3):
        raise _malformed(field, "expected [x, y] or [x, y, z]")
    return [number(c, f"{field}[{i}]") for i, c in enumerate(value)]


def path_step(value: Any, field: str) -> Any:
    if isinstance(value, dict):
        if set(value) != {"turn"}:
            raise _malformed(field, 'expected [x, y] or {"turn": a}')
        return {"turn": number(value["turn"], f"{field}.turn")}
    if isinstance(value, list):
        return point(value, field)
    raise _malformed(field, 'expected [x, y] or {"turn": a}')


def path(value: Any, field: str) -> list[Any]:
    if not isinstance(value, list):
        raise _malformed(field, "expected a list of steps")
    if len(value) > limits.PATH_STEPS:
        raise FrameError(
            "too_many_steps", f"{field}: at most {limits.PATH_STEPS} steps", field=field
        )
    return [path_step(step, f"{field}[{i}]") for i, step in enumerate(value)]


def param(value: Any, field: str, depth: int = 0) -> Any:
    """A system-specific action key: any JSON, bounded; nested `path` keys are paths."""
    if depth > PARAM_DEPTH:
        raise _malformed(field, "nested too deeply")
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return number(value, field)
    if isinstance(value, str):
        if len(value) > PARAM_STRING:
            raise _malformed(field, f"at most {PARAM_STRING} characters")
        return value
    if isinstance(value, list):
        if len(value) > PARAM_ITEMS:
            raise _malformed(field, f"at most {PARAM_ITEMS} items")
        return [param(v, f"{field}[{i}]", depth + 1) for i, v in enumerate(value)]
    if isinstance(value, dict):
        if len(value) > PARAM_ITEMS:
            raise _malformed(field, f"at most {PARAM_ITEMS} keys")
        return {
            k: path(v, f"{field}.{k}") if k == "path" else param(v, f"{field}.{k}", depth + 1)
            for k, v in value.items()
        }
    raise _malformed(field, "unsupported value")


def _count_steps(value: Any) -> int:
    if isinstance(value, dict):
        return sum(
            len(v) if k == "path" and isinstance(v, list) else _count_steps(v)
            for k, v in value.items()
        )
    if isinstance(value, list):
        return sum(_count_steps(v) for v in value)
    return 0


def action(value: Any, field: str) -> dict[str, Any]:
    """An ACTION of the scenario format, bounded; the engine checks the rest."""
    if not isinstance(value, dict):
        raise _malformed(field, "expected an action object")
    out: dict[str, Any] = {
        "unit": text(1, UNIT_ID_CHARS)(value.get("unit"), f"{field}.unit"),
        "type": text(1, ACTION_TYPE_CHARS)(value.get("type"), f"{field}.type"),
    }
    for key, raw in value.items():
        if key in ("unit", "type"):
            continue
        if key == "path":
            out[key] = path(raw, f"{field}.path")
        elif key == "facing":
            out[key] = number(raw, f"{field}.facing")
        else:
            out[key] = param(raw, f"{field}.{key}")
    # Formation moves carry a path per unit: the cap is on all the steps of the frame.
    if _count_steps(out) > limits.PATH_STEPS:
        raise FrameError(
            "too_many_steps",
            f"{field}: at most {limits.PATH_STEPS} path steps in all",
            field=field,
        )
    return out


def one_of(*choices: str) -> Callable[[Any, str], str]:
    def check(value: Any, field: str) -> str:
        if value not in choices:
            raise _malformed(field, f"expected one of {', '.join(choices)}")
        return str(value)

    return check


def sight_end(value: Any, field: str) -> str | list[float]:
    """An end of a line of sight: a unit id, or a point [x, y]."""
    if isinstance(value, str):
        return text(1, UNIT_ID_CHARS)(value, field)
    return point(value, field)[:2]


def table_point(value: Any, field: str) -> list[float]:
    """A point on the table's surface, [x, y] (the service checks it is on the table)."""
    if not isinstance(value, list) or len(value) != 2:
        raise _malformed(field, "expected [x, y]")
    return point(value, field)


#: Each kind of table annotation and its keys besides `kind` (docs/protocol.md, annotate).
SHAPE_KEYS: dict[str, tuple[str, ...]] = {
    "line": ("from", "to"),
    "arrow": ("from", "to"),
    "circle": ("at", "radius"),
    "label": ("at", "text"),
}


def shape(value: Any, field: str) -> dict[str, Any]:
    """A table annotation: a line or arrow between two points, a circle of a radius in
    inches, or a short label at a point."""
    if not isinstance(value, dict):
        raise _malformed(field, "expected an annotation object")
    kind = value.get("kind")
    if kind not in SHAPE_KEYS:
        raise _malformed(f"{field}.kind", f"expected one of {', '.join(SHAPE_KEYS)}")
    keys = SHAPE_KEYS[kind]
    extra = sorted(set(value) - set(keys) - {"kind"})
    if extra:
        raise _malformed(f"{field}.{str(extra[0])[:40]}", f"not a key of a {kind}")
    for key in keys:
        if key not in value:
            raise _malformed(f"{field}.{key}", "missing")
    out: dict[str, Any] = {"kind": kind}
    if kind in ("line", "arrow"):
        out["from"] = table_point(value["from"], f"{field}.from")
        out["to"] = table_point(value["to"], f"{field}.to")
        if out["from"] == out["to"]:
            raise _malformed(f"{field}.to", "the two ends are the same point")
    elif kind == "circle":
        out["at"] = table_point(value["at"], f"{field}.at")
        radius = number(value["radius"], f"{field}.radius")
        if radius <= 0:
            raise FrameError(
                "bad_number", f"{field}.radius: must be above 0", field=f"{field}.radius"
            )
        out["radius"] = radius
    else:
        out["at"] = table_point(value["at"], f"{field}.at")
        out["text"] = text(1, limits.LABEL_CHARS)(value["text"], f"{field}.text")
    return out


def marker_text(value: Any, field: str) -> str:
    """A free marker's text: a word or two that fits under a piece."""
    if not isinstance(value, str):
        raise _malformed(field, "expected the marker's text")
    value = value.strip()
    if not value:
        raise _malformed(field, "a marker needs a word or two")
    if len(value) > limits.MARKER_CHARS:
        raise _malformed(
            field, f"a marker is at most {limits.MARKER_CHARS} characters ({len(value)} given)"
        )
    return value


def marker_colour(value: Any, field: str) -> str:
    """A colour of the markers' palette, by name."""
    if value not in COLOURS:
        raise _malformed(field, f"choose a colour of the palette: {', '.join(COLOURS)}")
    return str(value)


Checker = Callable[[Any, str], Any]
REQUIRED, OPTIONAL = True, False
SEQ = integer(0, limits.MAX_SEQ)

#: Each frame type: its keys, whether each is required, and its checker.
SCHEMAS: dict[str, dict[str, tuple[bool, Checker]]] = {
    "preview": {
        "ref": (OPTIONAL, msg_id),
        "action": (REQUIRED, action),
        "reach": (OPTIONAL, boolean),
        "alternative": (OPTIONAL, boolean),
    },
    "sight": {
        "ref": (OPTIONAL, msg_id),
        "from": (REQUIRED, sight_end),
        "to": (REQUIRED, sight_end),
    },
    "act": {"id": (REQUIRED, msg_id), "seen": (REQUIRED, SEQ), "action": (REQUIRED, action)},
    "resume": {"seq": (REQUIRED, SEQ)},
    "chat": {"id": (REQUIRED, msg_id), "text": (REQUIRED, text(1, limits.CHAT_CHARS))},
    "roll": {
        "id": (REQUIRED, msg_id),
        "dice": (REQUIRED, integer(1, 20)),
        "sides": (REQUIRED, integer(2, 100)),
        "what": (OPTIONAL, text(0, limits.ROLL_WHAT_CHARS)),
    },
    "end_turn": {"id": (REQUIRED, msg_id), "seen": (OPTIONAL, SEQ)},
    "end_phase": {"id": (REQUIRED, msg_id), "seen": (OPTIONAL, SEQ)},
    "undo": {"id": (REQUIRED, msg_id), "reason": (REQUIRED, text(1, limits.REASON_CHARS))},
    "fiat": {
        "id": (REQUIRED, msg_id),
        "unit": (REQUIRED, text(1, UNIT_ID_CHARS)),
        "position": (REQUIRED, point),
        "facing": (OPTIONAL, number),
        "reason": (OPTIONAL, text(0, limits.REASON_CHARS)),
    },
    "set_delay": {"id": (REQUIRED, msg_id), "seconds": (REQUIRED, integer(0, limits.MAX_DELAY_S))},
    "roll_result": {"id": (REQUIRED, msg_id), "result": (REQUIRED, one_of("success", "fail"))},
    "takeback_ask": {"id": (REQUIRED, msg_id), "order": (REQUIRED, SEQ)},
    "takeback_answer": {
        "id": (REQUIRED, msg_id),
        "request": (REQUIRED, SEQ),
        "accept": (REQUIRED, boolean),
    },
    "takeback_withdraw": {"id": (REQUIRED, msg_id), "request": (REQUIRED, SEQ)},
    "ping": {},
    "point": {"ref": (OPTIONAL, msg_id), "at": (REQUIRED, table_point)},
    "annotate": {"id": (REQUIRED, msg_id), "shape": (REQUIRED, shape)},
    "erase": {"id": (REQUIRED, msg_id), "annotation": (REQUIRED, SEQ)},
    "mark": {
        "id": (REQUIRED, msg_id),
        "unit": (REQUIRED, text(1, UNIT_ID_CHARS)),
        "text": (REQUIRED, marker_text),
        "colour": (REQUIRED, marker_colour),
    },
    "unmark": {"id": (REQUIRED, msg_id), "marker": (REQUIRED, SEQ)},
}


def _ref_of(raw: dict[str, Any]) -> Any:
    for key in ("id", "ref"):
        value = raw.get(key)
        if isinstance(value, str) and MSG_ID.match(value):
            return value
    return None


def check(raw: dict[str, Any]) -> Frame:
    """The frame `raw` (a decoded JSON object) as a checked Frame, or FrameError."""
    kind = raw.get("type")
    ref = _ref_of(raw)
    if not isinstance(kind, str) or kind not in SCHEMAS:
        raise FrameError("unknown_type", f"unknown frame type {str(kind)[:40]!r}", ref=ref)
    schema = SCHEMAS[kind]
    try:
        # Text the database cannot store (NUL, a lone surrogate), anywhere in the frame:
        # chat, roll labels, reasons, unit ids, action keys (tabletop/storable.py).
        unstorable = unstorable_at(raw)
        if unstorable is not None:
            raise _malformed(unstorable[:80], UNSTORABLE_MESSAGE)
        extra = sorted(set(raw) - set(schema) - {"type"})
        if extra:
            raise _malformed(str(extra[0])[:40], f"not a key of {kind}")
        data: dict[str, Any] = {}
        for key, (required, checker) in schema.items():
            if key in raw:
                data[key] = checker(raw[key], key)
            elif required:
                raise _malformed(key, "missing")
    except FrameError as error:
        error.ref = ref
        raise
    return Frame(kind, data)


def parse(text_data: str | None, bytes_data: bytes | None = None) -> Frame:
    return check(decode(text_data, bytes_data))
