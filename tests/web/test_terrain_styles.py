"""Terrain looks the same on the board and in the battle report: both draw each type from
one table, its system's catalogue (issue 24, "Everything the board and the records draw
comes from the system's catalogue"), and a type the system does not style gets the same
look in both."""

import xml.etree.ElementTree as ET
from typing import Any

import pytest

import rules
from tabletop.records.report_svg import report_svg
from tabletop.records.story import Story
from tabletop.services import game_systems

SVG = "{http://www.w3.org/2000/svg}"
UNKNOWN = "no_such_terrain"


def square(index: int) -> list[list[float]]:
    x = 2.0 * index
    return [[x, 0.0], [x + 1, 0.0], [x + 1, 1.0], [x, 1.0]]


def position_with_every_type(key: str) -> dict[str, Any]:
    """A position of `key` with one feature of each of its catalogue's terrain types and
    one of a type it does not know."""
    types = [kind["type"] for kind in game_systems.terrain_kinds(key)] + [UNKNOWN]
    terrain = [{"id": f"F{i}", "type": t, "polygon": square(i)} for i, t in enumerate(types)]
    return {"system": key, "table": {"width": 2.0 * len(types), "height": 2.0}, "terrain": terrain}


def board_style(key: str, terrain_type: str) -> dict[str, str]:
    """What the board draws a type with: its kind's style in the page's config, else the
    config's look for an unstyled type (static/js/render/terrain.js, `terrainStyle`)."""
    config = game_systems.board_config(key)
    kind = next((k for k in config["terrainKinds"] if k["type"] == terrain_type), None)
    return kind["style"] if kind is not None else config["terrainUnstyled"]


def report_styles(position: dict[str, Any]) -> dict[str, dict[str, str]]:
    """{type: {"fill", "stroke"}} of each terrain polygon the battle report draws."""
    story = Story(
        battle=None,  # type: ignore[arg-type]  # the drawing reads the story's data only
        seq=0,
        width=position["table"]["width"],
        height=position["table"]["height"],
        terrain=position["terrain"],
        sides=[],
        names={},
        start={},
        end={},
        terrain_styles=game_systems.terrain_styles(position),
    )
    root = ET.fromstring(report_svg(story, "report"))
    layer = root.find(f".//{SVG}g[@class='terrain']")
    assert layer is not None
    types = {f["id"]: f["type"] for f in position["terrain"]}
    return {
        types[shape.get("data-terrain", "")]: {
            "fill": shape.get("fill", ""),
            "stroke": shape.get("stroke", ""),
        }
        for shape in layer.iter(f"{SVG}polygon")
    }


@pytest.mark.parametrize("key", sorted(rules.SYSTEMS))
def test_every_terrain_type_has_the_same_fill_and_outline_on_the_board_and_in_the_report(
    key: str,
) -> None:
    position = position_with_every_type(key)
    drawn = report_styles(position)
    assert set(drawn) == {f["type"] for f in position["terrain"]}
    for terrain_type, style in drawn.items():
        board = board_style(key, terrain_type)
        assert style == {"fill": board["fill"], "stroke": board["stroke"]}, terrain_type


@pytest.mark.parametrize("key", sorted(rules.SYSTEMS))
def test_each_type_the_catalogue_styles_is_drawn_in_its_own_style_and_an_unknown_one_unstyled(
    key: str,
) -> None:
    system = rules.get_system(key)
    for kind in game_systems.terrain_kinds(key):
        assert kind["style"] == system.terrain_style(kind["type"]).to_json()
    assert board_style(key, UNKNOWN) == rules.UNSTYLED_TERRAIN.to_json()
    assert report_styles(position_with_every_type(key))[UNKNOWN]["fill"] == (
        rules.UNSTYLED_TERRAIN.fill
    )


def test_the_seed_systems_style_every_terrain_type_they_know() -> None:
    """No seed system leaves a type to the unstyled look (a made-up colour for a real type)."""
    unstyled = {
        (key, t)
        for key, system in rules.SYSTEMS.items()
        if key in ("aod", "apskirmish", "lasergrenadiers", "mswars")
        for t in system.terrain_types
        if system.terrain_style(t) == rules.UNSTYLED_TERRAIN
    }
    assert unstyled == set()
