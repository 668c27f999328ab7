"""A map's picture in the browser (issue 23): the GM uploads it on the map's page and the
editor shows it under the terrain being traced; the board and the battle report draw it
under the terrain, loaded from its own address. What is asserted is what the player sees:
the picture's colours on the screen where the picture lies, the right way up."""

import io

import pytest
from PIL import Image
from playwright.sync_api import expect

from tabletop.models import Battle, Map
from tabletop.services.battle_setup import Table as MapTable
from tabletop.services.maps import map_create
from tests.browser.conftest import (
    SHOTS,
    TIMEOUT_MS,
    Table,
    go_to_board,
    session_cookie,
    shoot,
    signed_in_page,
)
from tests.web import pictures
from tests.web.factories import make_battle_sync

pytestmark = pytest.mark.django_db(transaction=True)

#: What the GM traced over the picture: a wood on the grass, shallows in the lake.
TRACED = [
    {"id": "W1", "type": "hindering", "polygon": [[24, 14], [32, 14], [32, 22], [24, 22]]},
    {"id": "S1", "type": "shallow_water", "polygon": [[4, 20], [14, 20], [14, 30], [4, 30]]},
]


@pytest.fixture
def pictured(asgi_server: str) -> Table:
    """A live battle on a 36" table whose map has the painted picture over the whole table."""
    battle, users = make_battle_sync(
        "pic", MapTable("Lakeside", 36, 36, TRACED, picture=pictures.painted_table())
    )
    cookies = {role: session_cookie(user) for role, user in users.items()}
    units = {u["side"]: u["id"] for u in battle.state["units"]}
    return Table(asgi_server, battle, cookies, units["P1"], units["P2"])


def colour_at(page, group: str, x: float, y: float) -> tuple[int, int, int]:
    """The colour on the screen at the point (x, y) of the SVG group `group`'s own
    coordinates (a 3x3 pixel average), read from a screenshot of the page."""
    at = page.evaluate(
        """([selector, x, y]) => {
            const g = document.querySelector(selector);
            const p = new DOMPoint(x, y).matrixTransform(g.getScreenCTM());
            return [p.x, p.y];
        }""",
        [group, x, y],
    )
    shot = Image.open(io.BytesIO(page.screenshot())).convert("RGB")
    px, py = round(at[0]), round(at[1])
    box = [shot.getpixel((px + dx, py + dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
    return tuple(sum(c[i] for c in box) // len(box) for i in range(3))


def near(colour: tuple[int, ...], expected: tuple[int, ...], tolerance: int = 24) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, expected, strict=True))


def test_the_board_draws_the_maps_picture_under_the_terrain(pictured: Table, browser) -> None:
    page = signed_in_page(browser, pictured, "p1", {"width": 1280, "height": 900})
    with page.expect_response(lambda r: "/pictures/" in r.url) as loaded:
        go_to_board(page, pictured)
    assert loaded.value.status == 200
    assert loaded.value.headers["content-type"] == "image/png"

    # In the table's own group (inches, y north): the lake north-west, grass elsewhere.
    table = "#board-svg g.table"
    expect(page.locator(f"{table} > image.backdrop")).to_have_count(1)
    assert near(colour_at(page, table, 9, 33), pictures.LAKE)
    assert near(colour_at(page, table, 27, 30), pictures.GRASS)
    assert near(colour_at(page, table, 9, 14), pictures.GRASS)  # upright: no lake south-west
    # Under the terrain: the picture comes before the terrain layer, and shows through it.
    order = page.evaluate(
        "(sel) => [...document.querySelector(sel).children].map((n) => n.getAttribute('class'))",
        table,
    )
    assert order.index("backdrop") < order.index("terrain")
    shallows = colour_at(page, table, 6.5, 27.0)  # between the pattern's lines
    # Shallow water's own fill is (156, 201, 230): the lake's deep blue must show through it.
    assert not near(shallows, pictures.LAKE, 8) and shallows[0] < 130
    shoot(page, "map-picture-board")
    page.context.close()


@pytest.fixture
def bare_map(pictured: Table) -> Map:
    """A map of the same campaign with no picture yet (made before the browser starts)."""
    campaign = Battle.objects.get(pk=pictured.battle.pk).campaign
    return map_create(campaign=campaign, name="Bare", width=36, height=36, terrain=TRACED)


def test_the_gm_uploads_a_picture_and_the_editor_shows_it_to_trace_over(
    pictured: Table, bare_map: Map, browser
) -> None:
    bare = bare_map
    page = signed_in_page(browser, pictured, "gm", {"width": 1280, "height": 1100})
    page.goto(f"{pictured.base_url}/campaigns/{bare.campaign_id}/maps/{bare.pk}/")
    expect(page.locator("#map-svg image.backdrop")).to_have_count(0)

    page.set_input_files(
        "#id_picture-file",
        files=[{"name": "lake.png", "mimeType": "image/png", "buffer": pictures.painted_table()}],
    )
    with page.expect_navigation():
        page.get_by_role("button", name="Save picture").click()
    expect(page.locator("#map-svg image.backdrop")).to_have_count(1, timeout=TIMEOUT_MS)
    page.wait_for_function(
        "() => document.querySelector('#map-svg image.backdrop').getBBox().width > 0"
    )
    page.locator("#map-svg").scroll_into_view_if_needed()
    table = "#map-svg g.table"
    assert near(colour_at(page, table, 9, 33), pictures.LAKE)
    assert near(colour_at(page, table, 27, 30), pictures.GRASS)
    SHOTS.mkdir(parents=True, exist_ok=True)  # the whole page: the picture's form below
    page.screenshot(path=str(SHOTS / "map-picture-editor.png"), full_page=True)

    # The GM lines the picture up before saving: typed inches move it on the editor.
    for field, value in {"x": "0", "y": "0", "width": "18", "height": "18"}.items():
        page.fill(f"#id_picture-{field}", value)
    assert not near(colour_at(page, table, 27, 30), pictures.GRASS)  # no picture there now
    assert near(colour_at(page, table, 4, 14), pictures.LAKE)  # its lake, shrunk, north-west
    page.reload()  # nothing saved yet: the picture lies over the whole table again
    page.locator("#map-svg").scroll_into_view_if_needed()
    assert near(colour_at(page, table, 27, 30), pictures.GRASS)
    page.context.close()


def test_the_battle_report_draws_the_picture_under_the_terrain(pictured: Table, browser) -> None:
    page = signed_in_page(browser, pictured, "spectator", {"width": 1280, "height": 1100})
    page.goto(f"{pictured.base_url}/battles/{pictured.battle.pk}/report/")
    report = page.locator("svg.battle-report")
    expect(report.locator("image.backdrop")).to_have_count(1)
    page.wait_for_function(
        "() => document.querySelector('svg.battle-report image.backdrop').getBBox().width > 0"
    )
    report.scroll_into_view_if_needed()
    # The report's SVG has y south: the table point (x, y) is at (x, 36 - y).
    svg = "svg.battle-report"
    assert near(colour_at(page, svg, 9, 36 - 33), pictures.LAKE)
    assert near(colour_at(page, svg, 27, 36 - 30), pictures.GRASS)
    assert near(colour_at(page, svg, 9, 36 - 14), pictures.GRASS)
    order = page.evaluate(
        "() => [...document.querySelector('svg.battle-report').children]"
        ".map((n) => n.getAttribute('class'))"
    )
    assert order.index("backdrop") < order.index("terrain")
    shoot(page, "map-picture-report")
    page.context.close()
