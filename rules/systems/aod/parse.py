"""Type checks for aod's own action keys (malformed -> InvalidActionError); its unit keys
are its unit schema's (schema.py)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rules.model.actions import Action, number, point
from rules.model.errors import InvalidActionError

if TYPE_CHECKING:
    from rules.engine.system import System


def _placement(raw: Any, key: str) -> dict[str, Any]:
    if not isinstance(raw, dict) or "unit" not in raw or "position" not in raw:
        raise InvalidActionError(key, 'expected {"unit", "position", "facing"}')
    if not isinstance(raw["unit"], str):
        raise InvalidActionError(f"{key}.unit", "expected a unit id")
    x, y, _ = point(raw["position"], f"{key}.position")
    facing = number(raw.get("facing", 0.0), f"{key}.facing")
    return {"unit": raw["unit"], "position": [x, y], "facing": facing}


def check_action_params(system: System, action: Action, raw: dict[str, Any], key: str) -> Action:
    p = dict(action.params)
    if "target" in p and not isinstance(p["target"], str):
        raise InvalidActionError(f"{key}.target", "expected a unit id")
    if "altitude" in p and p["altitude"] not in ("noe", "cruising"):
        raise InvalidActionError(f"{key}.altitude", 'expected "noe" or "cruising"')
    if "ranged_attack" in p and not isinstance(p["ranged_attack"], bool):
        raise InvalidActionError(f"{key}.ranged_attack", "expected true or false")
    if "unload" in p and p["unload"] not in ("before", "after"):
        raise InvalidActionError(f"{key}.unload", 'expected "before" or "after"')
    if "passengers" in p:
        ps = p["passengers"]
        if not isinstance(ps, list):
            raise InvalidActionError(f"{key}.passengers", "expected a list")
        p["passengers"] = [
            x if isinstance(x, str) else _placement(x, f"{key}.passengers[{i}]")
            for i, x in enumerate(ps)
        ]
    if "captive" in p:
        c = p["captive"]
        if not isinstance(c, dict) or "position" not in c:
            raise InvalidActionError(f"{key}.captive", 'expected {"position", "facing"}')
        x, y, _ = point(c["position"], f"{key}.captive.position")
        p["captive"] = {
            "position": [x, y],
            "facing": number(c.get("facing", 0.0), f"{key}.captive.facing"),
        }
    if "moves" in p:
        if not isinstance(p["moves"], list):
            raise InvalidActionError(f"{key}.moves", 'expected a list of {"unit", "path"}')
        members = []
        for i, m in enumerate(p["moves"]):
            k = f"{key}.moves[{i}]"
            if not isinstance(m, dict):
                raise InvalidActionError(k, 'expected {"unit", "path"}')
            sub = dict(m)
            sub.setdefault("type", "move")
            # A member moves on its own path; one that is a formation itself would nest
            # without end (000 [29]: a formation is one order for its members).
            if sub["type"] == "formation_move" or "moves" in sub:
                raise InvalidActionError(k, "a formation member cannot carry a formation")
            # parse_action checks the member's type like any action's (a string it knows).
            members.append(check_action_params(system, system.parse_action(sub, k), sub, k))
        p["moves"] = tuple(members)
    return replace(action, params=p)
