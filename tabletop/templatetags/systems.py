"""Template filters that ask the rules engine (through `game_systems`) what players read.

{% load systems %}{{ campaign.system|system_name }}   -> the system's name, never its key
"""

from django import template

from tabletop.services import game_systems

register = template.Library()


@register.filter
def system_name(key: str) -> str:
    return game_systems.system_name(key)


@register.filter
def unit_type_name(unit_type: str, system: str) -> str:
    """A unit type as the system's catalogue names it ("Colossal mech"), never its key."""
    return dict(game_systems.unit_type_choices(system)).get(unit_type, unit_type)
