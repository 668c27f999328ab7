"""The roster editor and the engine read one unit schema with one library (issue 24): a
unit the roster refuses, the engine refuses at the same field in the same words, and a
unit the roster keeps, the engine reads.

Before, each had an interpreter of its own (tabletop/services/unit_schema.py and
rules/engine/unit_fields.py) and they disagreed: the roster checked `maximum` and `for`
and the engine did not (aod `order_tokens: 3`, `altitude` on a mech), the engine checked
`array` and `items` and the roster did not (mswars `skills: 5`), and the unit form saved
mswars skills as one string, which the engine then refused in the battle."""

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

import rules
from tabletop.services import game_systems
from tabletop.services.campaigns import campaign_create
from tabletop.services.rosters import roster_create
from tests.web.world import PASSWORD

pytestmark = pytest.mark.django_db

CIRCLE = {"shape": "circle", "diameter": 2.0}

CASES = [
    ("aod", "mech", {"move": 8, "base": CIRCLE, "order_tokens": 3}, "order_tokens"),
    ("aod", "mech", {"move": 8, "base": CIRCLE, "altitude": "noe"}, "altitude"),
    ("mswars", "walker", {"move": 6, "base": CIRCLE, "skills": 5}, "skills"),
    ("mswars", "walker", {"move": 6, "base": CIRCLE, "skills": ["jump", 3]}, "skills"),
    ("apskirmish", "soldier", {"base": CIRCLE, "stats": {"PSQ": -1}}, "stats.PSQ"),
]


def engine_refusal(system: str, unit_type: str, stats: dict[str, Any]) -> tuple[str, str]:
    unit = {"id": "U1", "side": "P1", "type": unit_type, "position": [10, 10], **stats}
    position = {"system": system, "table": {"width": 36, "height": 36}, "units": [unit]}
    with pytest.raises(rules.InvalidActionError) as refused:
        rules.state_from_json(position)
    return refused.value.key, refused.value.detail


@pytest.mark.parametrize(("system", "unit_type", "stats", "field"), CASES)
def test_the_roster_and_the_engine_refuse_a_unit_at_the_same_field_in_the_same_words(
    system: str, unit_type: str, stats: dict[str, Any], field: str
) -> None:
    roster = game_systems.unit_errors(system, unit_type, stats)
    key, words = engine_refusal(system, unit_type, stats)
    assert key == f"units[0].{field}"
    assert roster == {field: words}


def test_the_unit_form_keeps_mswars_skills_as_the_list_the_engine_reads(client: Client) -> None:
    """mswars.md 2: `skills` is a list ("combat_manoeuvres"); typed with commas."""
    gm = get_user_model().objects.create_user("skills-gm", password=PASSWORD)
    campaign = campaign_create(gm=gm, name="Skills", system="mswars", points_limit=300)
    roster = roster_create(campaign=campaign, owner=gm, name="Walkers")
    client.force_login(gm)
    fields = {"name": "Hopper", "unit_type": "walker", "points": "10", "move": "6"}
    fields |= {"base_shape": "circle", "base_diameter": "2", "size_class": "2"}
    response = client.post(
        reverse("unit_new", args=[campaign.pk, roster.pk]),
        fields | {"skills": "combat_manoeuvres, jump"},
    )
    assert response.status_code == 302
    stats = roster.units.get().stats
    assert stats["skills"] == ["combat_manoeuvres", "jump"]
    unit = {"id": "U1", "side": "P1", "type": "walker", "position": [10, 10], **stats}
    rules.state_from_json(
        {"system": "mswars", "table": {"width": 36, "height": 36}, "units": [unit]}
    )
