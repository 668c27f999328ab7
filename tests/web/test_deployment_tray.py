"""Deployment clarity (issue 23, "tray"), below the browser: a unit waits in the tray until
it is first set down, a unit in the tray blocks no placement, the battle starts only where
the tray's units still fit where they were laid out; and the sides' one palette reads as
text at WCAG AA on the pages' backgrounds."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from tabletop.models import Battle
from tabletop.records.side_colours import SIDES_CSS, palette, side_colour
from tabletop.services.battles import battle_deploy, battle_start, is_deployed
from tabletop.services.errors import ServiceError
from tests.web.test_setup_services import deploying_battle, ids, position

pytestmark = pytest.mark.django_db


def fresh(battle: Battle) -> Battle:
    return Battle.objects.get(pk=battle.pk)


def test_every_unit_waits_in_the_tray_until_it_is_set_down() -> None:
    battle, who = deploying_battle()
    unit = ids(battle)
    assert not any(is_deployed(battle, u) for u in unit.values())
    battle_deploy(actor=who["p1"], battle=battle, placements={unit["Atlas"]: {"position": [12, 3]}})
    battle = fresh(battle)
    assert is_deployed(battle, unit["Atlas"])
    assert not is_deployed(battle, unit["Hunchback"]) and not is_deployed(battle, unit["Ryoken"])


def test_a_refused_placement_leaves_the_unit_in_the_tray() -> None:
    battle, who = deploying_battle()
    atlas = ids(battle)["Atlas"]
    with pytest.raises(ServiceError, match="wholly inside side P1's deployment zone"):
        battle_deploy(actor=who["p1"], battle=battle, placements={atlas: {"position": [12, 20]}})
    assert not is_deployed(fresh(battle), atlas)


def test_a_unit_in_the_tray_stands_nowhere_and_blocks_no_placement() -> None:
    battle, who = deploying_battle()
    unit = ids(battle)
    # The Hunchback was laid out at (4.5, 1.5) but waits in the tray: the spot is free.
    battle_deploy(
        actor=who["p1"], battle=battle, placements={unit["Atlas"]: {"position": [4.5, 1.5]}}
    )
    assert position(battle, unit["Atlas"]) == [4.5, 1.5]


def test_the_battle_starts_only_where_the_trays_units_fit_where_they_were_laid_out() -> None:
    battle, who = deploying_battle()
    unit = ids(battle)
    battle_deploy(
        actor=who["p1"], battle=battle, placements={unit["Atlas"]: {"position": [4.5, 1.5]}}
    )
    with pytest.raises(ServiceError) as refused:
        battle_start(battle=fresh(battle), actor=who["gm"])
    assert refused.value.message == (
        "Hunchback is still in the tray, and its place in the zone is taken by Atlas: "
        "deploy it first."
    )
    assert fresh(battle).status == "deployment"
    battle_deploy(
        actor=who["p1"], battle=battle, placements={unit["Hunchback"]: {"position": [9, 3]}}
    )
    # The Ryoken, still in the tray, is set down where it was laid out.
    assert battle_start(battle=fresh(battle), actor=who["gm"]).status == "active"


def test_the_battle_page_says_which_units_are_deployed() -> None:
    battle, who = deploying_battle()
    unit = ids(battle)
    battle_deploy(actor=who["p1"], battle=battle, placements={unit["Atlas"]: {"position": [12, 3]}})
    client = Client()
    client.force_login(who["p1"])
    page = client.get(reverse("battle", args=[battle.campaign_id, battle.pk])).content.decode()
    assert 'id="tray-units"' in page
    labels = re.search(r'id="battle-labels"[^>]*>(.*?)</script>', page, re.S)
    assert labels is not None and f'"{unit["Atlas"]}": {{' in labels.group(1)
    assert '"deployed": true' in labels.group(1) and labels.group(1).count('"deployed"') == 1


# -- one palette, readable -------------------------------------------------------------------


def _luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_every_side_colour_reads_as_text_at_wcag_aa_on_the_pages_backgrounds() -> None:
    site = (SIDES_CSS.parent / "site.css").read_text()
    paper = re.search(r"--paper:\s*(#[0-9a-fA-F]{6})", site)
    assert paper is not None
    # White (panels, the battle page's table), the pages' paper, the palest terrain fill.
    backgrounds = ["#ffffff", paper.group(1), "#e8efd9"]
    assert len(palette()) >= 4
    for colour in palette():
        for background in backgrounds:
            assert _contrast(colour, background) >= 4.5, (colour, background)


def test_a_side_takes_its_place_among_the_side_names_whatever_order_they_come_in() -> None:
    first, second = palette()[:2]
    assert side_colour(["P2", "P1"], "P1") == side_colour(["P1", "P2"], "P1") == first
    assert side_colour(["P1"], "P2") == second
