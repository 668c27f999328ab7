"""The rules engine as the web side sees it: which systems exist and what they accept.

One module talks to the engine's registry, so the rest of the web code asks
questions ("is this a system?", "which unit types?") and never imports engine internals.
"""

from typing import Any

import rules
from tabletop.services.errors import ServiceError


def _registry() -> dict[str, Any]:
    return rules.SYSTEMS


def system_keys() -> list[str]:
    return sorted(_registry())


def require_system(key: str, field: str = "system") -> Any:
    system = _registry().get(key)
    if system is None:
        raise ServiceError(
            f"Unknown game system {key!r}; choose one of {', '.join(system_keys())}.",
            field=field,
        )
    return system


def unit_schema(key: str) -> dict[str, Any]:
    """The engine's description of a roster unit: {"fields": {name: {type, enum, ...}}}."""
    return require_system(key).unit_schema()


def unit_types(key: str) -> list[str]:
    return list(unit_schema(key)["fields"]["type"]["enum"])


def terrain_types(key: str) -> list[str]:
    return sorted(getattr(require_system(key), "terrain_types", ()))


def position_error(position: dict[str, Any]) -> tuple[str, str] | None:
    """The engine's objection to a scenario-shaped position as (key, message), or None."""
    try:
        rules.state_from_json(position)
    except ValueError as error:  # the engine's InvalidActionError is a ValueError
        return getattr(error, "key", ""), getattr(error, "detail", str(error))
    return None
