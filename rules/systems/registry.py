"""The registry of game systems: key -> System instance, found by entry point.

A system is a distribution's entry point in the group `rules.systems`, named by the
system's key and naming its System class (`aod = "rules.systems.aod.system:AodSystem"`).
The four seed systems register in this project's pyproject.toml exactly as a third
party's package would in its own: installing a package adds a system, with no edit
here or anywhere else. The registry sits beside the systems, above the kernel, which
never looks a system up by key (tests/rules/test_layers.py).
"""

from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points

from rules.engine.system import System
from rules.model.errors import InvalidActionError

#: The entry point group a game system registers in.
GROUP = "rules.systems"


class SystemRegistrationError(RuntimeError):
    """An entry point of the group that does not name a System class of its own key."""


def load_system(entry: EntryPoint) -> System:
    """The System an entry point names, instantiated; its key must be the entry's name."""
    found = entry.load()
    if not (isinstance(found, type) and issubclass(found, System)):
        raise SystemRegistrationError(
            f"entry point {entry.name} = {entry.value} in {GROUP!r} names {found!r}, "
            "not a System class"
        )
    system = found()
    if system.key != entry.name:
        raise SystemRegistrationError(
            f"entry point {entry.name} = {entry.value} in {GROUP!r} names a system whose "
            f"key is {system.key!r}"
        )
    return system


def discover() -> dict[str, System]:
    """Every installed system, by key, in the order of their keys."""
    entries = {entry.name: entry for entry in entry_points(group=GROUP)}
    return {key: load_system(entries[key]) for key in sorted(entries)}


SYSTEMS: dict[str, System] = discover()


def get_system(key: str) -> System:
    try:
        return SYSTEMS[key]
    except KeyError:
        raise InvalidActionError(
            "system", f"unknown system {key!r}; known: {', '.join(sorted(SYSTEMS))}"
        ) from None
