"""The registry finds the systems by entry point (`rules.systems`) and says plainly what is
wrong with a registration that names no System of its own key."""

from __future__ import annotations

from importlib.metadata import EntryPoint

import pytest

from rules import SYSTEMS, InvalidActionError, System, get_system
from rules.systems.registry import GROUP, SystemRegistrationError, load_system


class Elsewhere(System):
    key = "elsewhere"


def entry(name: str, value: str) -> EntryPoint:
    return EntryPoint(name=name, value=value, group=GROUP)


def test_the_four_seed_systems_are_registered_by_entry_point() -> None:
    assert sorted(SYSTEMS) == ["aod", "apskirmish", "lasergrenadiers", "mswars"]
    assert type(get_system("aod")).__module__ == "rules.systems.aod.system"


def test_an_entry_point_loads_its_system() -> None:
    found = load_system(entry("elsewhere", f"{__name__}:Elsewhere"))
    assert isinstance(found, Elsewhere)


def test_an_entry_point_that_names_no_system_class_is_refused() -> None:
    with pytest.raises(SystemRegistrationError, match="names 'rules.systems', not a System"):
        load_system(entry("group", f"{__name__}:GROUP"))


def test_an_entry_point_under_another_key_is_refused() -> None:
    with pytest.raises(SystemRegistrationError, match="names a system whose key is 'elsewhere'"):
        load_system(entry("aod", f"{__name__}:Elsewhere"))


def test_an_unknown_key_names_the_known_ones() -> None:
    with pytest.raises(
        InvalidActionError,
        match="unknown system 'chess'; known: aod, apskirmish, lasergrenadiers, mswars",
    ):
        get_system("chess")
