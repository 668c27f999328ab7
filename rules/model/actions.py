"""Actions: what a player asks a unit to do. Parsed once, then immutable."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.model.errors import InvalidActionError

#: Path steps of one action in all, the protocol's own `limits.path_steps`
#: (docs/protocol.md); a formation's members count together (rules/engine/bounds.py).
MAX_STEPS = 64
#: Degrees of one `{"turn": a}` step either way: a full turn. Larger ones only make a
#: rect base's rotation longer to sweep (AOD-D17 samples it in 0.005" corner steps).
MAX_TURN_STEP = 360.0


@dataclass(frozen=True)
class Waypoint:
    """A path point: the base centre goes there in a straight line."""

    x: float
    y: float
    z: float | None = None


@dataclass(frozen=True)
class Turn:
    """Rotate in place by `angle` degrees (+ = counter-clockwise)."""

    angle: float


Step = Waypoint | Turn


@dataclass(frozen=True)
class Action:
    unit: str
    type: str
    path: tuple[Step, ...] = ()
    facing: float | None = None
    #: Other keys of the action, already checked by the system's parser.
    params: Mapping[str, Any] = field(default_factory=dict)

    def get(self, key: str, default: Any = None) -> Any:
        return self.params.get(key, default)

    @property
    def translates(self) -> bool:
        return any(isinstance(s, Waypoint) for s in self.path)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"unit": self.unit, "type": self.type}
        if self.path:
            out["path"] = [path_step_to_json(s) for s in self.path]
        if self.facing is not None:
            out["facing"] = self.facing
        for k, v in self.params.items():
            out[k] = [m.to_json() for m in v] if k == "moves" else v
        return out


@dataclass(frozen=True)
class MalformedAction:
    """An action that could not be parsed. A scenario keeps it so that its verdict can
    say `malformed` (contract reason code) while the position itself is fine."""

    raw: Any
    error: InvalidActionError

    @property
    def unit(self) -> str:
        return str(self.raw.get("unit", "")) if isinstance(self.raw, dict) else ""

    def to_json(self) -> Any:
        return self.raw


def path_step_to_json(step: Step) -> Any:
    if isinstance(step, Turn):
        return {"turn": step.angle}
    return [step.x, step.y] if step.z is None else [step.x, step.y, step.z]


def number(value: Any, key: str) -> float:
    """A finite number. NaN and infinities are not JSON (RFC 8259) and poison every
    comparison after them; an integer too large for a float is refused alike."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidActionError(key, f"expected a number, got {_shown(value)}")
    try:
        result = float(value)
    except OverflowError:
        raise InvalidActionError(
            key, "expected a finite number, got an integer too large"
        ) from None
    if not math.isfinite(result):
        raise InvalidActionError(key, f"expected a finite number, got {value!r}")
    return result


#: The largest integer anywhere in the input: what a browser's number holds exactly.
#: Larger ones only overflow where a system turns them into floats.
MAX_INTEGER = 2**53


def check_finite(raw: Any, key: str) -> None:
    """Every number anywhere in a JSON value is finite, system-specific keys included
    (a unit's own flags, a table option, the turn state): they are kept and printed
    back, and NaN or an infinity printed is not JSON (RFC 8259). Integers stay within
    MAX_INTEGER either way. Iterative, so that no nesting depth can raise anything but
    the clean error."""
    stack = [(raw, key)]
    while stack:
        value, at = stack.pop()
        if isinstance(value, float) and not math.isfinite(value):
            raise InvalidActionError(at, f"expected a finite number, got {value!r}")
        if isinstance(value, int) and abs(value) > MAX_INTEGER:
            raise InvalidActionError(at, "an integer too large (at most 2**53 either way)")
        if isinstance(value, dict):
            stack.extend(reversed([(v, f"{at}.{k}" if at else str(k)) for k, v in value.items()]))
        elif isinstance(value, list | tuple):
            stack.extend(reversed([(v, f"{at}[{i}]") for i, v in enumerate(value)]))


def _shown(value: Any) -> str:
    """A wrong value as a message shows it: short, whatever was sent."""
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:37]}..."


def point(value: Any, key: str, allow_z: bool = True) -> tuple[float, float, float | None]:
    if not isinstance(value, list | tuple) or len(value) not in ((2, 3) if allow_z else (2,)):
        raise InvalidActionError(key, f"expected [x, y]{' or [x, y, z]' if allow_z else ''}")
    x = number(value[0], f"{key}[0]")
    y = number(value[1], f"{key}[1]")
    z = number(value[2], f"{key}[2]") if len(value) == 3 else None
    return x, y, z


def parse_path(raw: Any, key: str) -> tuple[Step, ...]:
    """A path's steps, within the limits that need no table (rules/engine/bounds.py has
    the others): at most MAX_STEPS steps, a turn step at most MAX_TURN_STEP degrees."""
    if not isinstance(raw, list):
        raise InvalidActionError(key, "expected a list of steps")
    if len(raw) > MAX_STEPS:
        raise InvalidActionError(key, f"{len(raw)} steps; at most {MAX_STEPS}")
    steps: list[Step] = []
    for i, item in enumerate(raw):
        k = f"{key}[{i}]"
        if isinstance(item, dict):
            if set(item) != {"turn"}:
                raise InvalidActionError(k, 'a step object must be exactly {"turn": degrees}')
            angle = number(item["turn"], f"{k}.turn")
            if abs(angle) > MAX_TURN_STEP:
                raise InvalidActionError(
                    f"{k}.turn",
                    f"{angle:g} degrees; a turn step is at most {MAX_TURN_STEP:g} either way",
                )
            steps.append(Turn(angle))
        else:
            x, y, z = point(item, k)
            steps.append(Waypoint(x, y, z))
    return tuple(steps)


def parse_action(raw: Any, key: str = "action", known_keys: frozenset[str] | None = None) -> Action:
    """The contract's common action keys; the rest go to `params` for the system."""
    if not isinstance(raw, dict):
        raise InvalidActionError(key, "expected an object")
    check_finite(raw, key)
    for req in ("unit", "type"):
        if req not in raw:
            raise InvalidActionError(f"{key}.{req}", "missing")
        if not isinstance(raw[req], str):
            raise InvalidActionError(f"{key}.{req}", "expected a string")
    if known_keys is not None:
        for k in raw:
            if k not in known_keys:
                raise InvalidActionError(f"{key}.{k}", "unknown action key")
    path = parse_path(raw.get("path", []), f"{key}.path")
    facing = raw.get("facing")
    params = {k: v for k, v in raw.items() if k not in ("unit", "type", "path", "facing")}
    # Documentation keys (cite, why, ...) are kept so that a scenario round-trips.
    return Action(
        unit=raw["unit"],
        type=raw["type"],
        path=path,
        facing=None if facing is None else number(facing, f"{key}.facing"),
        params=params,
    )
