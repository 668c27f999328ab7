"""`manage.py demo`: people and a ready battle for every game system; idempotent."""

from io import StringIO

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command

from tabletop.demo import DEMO_SYSTEMS, DEMO_USERS
from tabletop.models import Battle, Campaign, Event, Map, Membership, Roster, UnitProfile
from tabletop.services import game_systems

pytestmark = pytest.mark.django_db

MODELS = (Campaign, Membership, Map, Roster, UnitProfile, Battle, Event)


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in MODELS}


def test_demo_creates_a_ready_battle_for_every_system_and_prints_the_logins() -> None:
    out = StringIO()
    call_command("demo", stdout=out)
    for username, password, _ in DEMO_USERS:
        assert f"{username}" in out.getvalue() and password in out.getvalue()
        assert authenticate(username=username, password=password) is not None
    for key in game_systems.system_keys():
        assert key in DEMO_SYSTEMS, f"no demo content for {key}"
        campaign = Campaign.objects.get(system=key)
        assert campaign.memberships.count() == len(DEMO_USERS)
        battle = campaign.battles.get()
        assert battle.status == "active"
        assert battle.state["system"] == key
        assert len(battle.state["units"]) >= 2
        assert {u["side"] for u in battle.state["units"]} == {"P1", "P2"}


def test_running_demo_twice_changes_nothing() -> None:
    call_command("demo", stdout=StringIO())
    before = counts()
    call_command("demo", stdout=StringIO())
    assert counts() == before


def test_the_demo_battle_state_is_a_position_the_rules_engine_accepts() -> None:
    call_command("demo", stdout=StringIO())
    for battle in Battle.objects.all():
        assert game_systems.position_error(battle.state) is None


def test_the_demo_pieces_stand_far_enough_apart_for_their_names() -> None:
    call_command("demo", stdout=StringIO())
    for battle in Battle.objects.all():
        units = battle.state["units"]
        for side in {u["side"] for u in units}:
            xs = sorted(u["position"][0] for u in units if u["side"] == side)
            assert min(b - a for a, b in zip(xs, xs[1:], strict=False)) >= 8
