"""What the GM still typed by hand (issue 23), in Chromium against a real Daphne: the table
options as fields, the unit form's type by name, the campaign's catalogue of profiles that
players pick from, a roster file imported twice, a corrected result, and the map editor's
rulers, cursor coordinates, double-click on a corner and "Save map".

The test bodies read and write the database between browser steps: Playwright's sync API
runs an event loop in this thread, so Django is told those plain calls are safe here
(module_chromium, tests/browser/conftest.py).
"""

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tabletop.models import BattleResult, CatalogueProfile, Map, ResultCorrection, Roster
from tabletop.services.campaigns import campaign_create, membership_set
from tabletop.services.catalogue import catalogue_profile_add
from tabletop.services.results import battle_result_record
from tabletop.services.rosters import roster_create
from tests.browser.conftest import ARTIFACTS
from tests.browser.test_setup_ux import (
    deploying_battle,
    downloaded_json,
    page_as,
    table_point,
    users,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = ARTIFACTS / "gmforms"
MECH = {"move": 8, "base": {"shape": "circle", "diameter": 1.75}}


def shot(page, name: str, locator=None) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    (locator or page).screenshot(path=str(SHOTS / f"{name}.png"))


def test_the_gm_sets_table_options_in_fields_and_reads_why_a_value_is_refused(asgi_server, browser):
    who = users("opt", "gm")
    campaign = campaign_create(gm=who["gm"], name="Kearny", system="aod")
    gm = page_as(browser, asgi_server, who["gm"], {"width": 1280, "height": 1400})
    gm.goto(f"{asgi_server}/campaigns/{campaign.pk}/settings/")
    expect(gm.locator("textarea")).to_have_count(0)  # no JSON to type
    run = gm.get_by_label("Run multiplier")
    expect(run).to_have_value("1.0")
    expect(gm.get_by_text("Default: 1.")).to_be_visible()
    expect(gm.get_by_label("Entering hindering terrain")).to_have_value("contact")
    matrix = gm.locator("[data-option='terrain_matrix']")
    expect(matrix.get_by_role("columnheader", name="Deep water")).to_be_visible()
    mech_deep = matrix.get_by_label("Mech, Deep water", exact=True)
    expect(mech_deep).to_have_value("proh")
    shot(gm, "options-form")

    # Out of range: refused at the field, in words; nothing saved.
    run.fill("0")
    gm.get_by_role("button", name="Save settings").click()
    expect(gm.locator("[data-option='run_multiplier']")).to_contain_text("Must be more than 0.")
    campaign.refresh_from_db()
    assert campaign.table_options == {}
    shot(gm, "options-form-refused")

    gm.get_by_label("Run multiplier").fill("1.5")
    gm.locator("[data-option='terrain_matrix']").get_by_label(
        "Mech, Deep water", exact=True
    ).select_option(label="hindering")
    gm.get_by_role("button", name="Save settings").click()
    expect(gm.get_by_role("status")).to_contain_text("Campaign settings saved.")
    campaign.refresh_from_db()
    assert campaign.table_options == {
        "run_multiplier": 1.5,
        "terrain_matrix": {"mech": {"deep_water": "hind"}},
    }
    gm.goto(f"{asgi_server}/campaigns/{campaign.pk}/settings/")
    expect(gm.get_by_label("Run multiplier")).to_have_value("1.5")
    gm.context.close()


def test_the_unit_form_names_the_types_and_the_gm_must_choose_one(asgi_server, browser):
    who = users("typ", "gm", "p1")
    campaign = campaign_create(gm=who["gm"], name="Types", system="aod")
    membership_set(campaign=campaign, user=who["p1"], role="player")
    roster = roster_create(campaign=campaign, owner=who["p1"], name="Lance")
    p1 = page_as(browser, asgi_server, who["p1"])
    p1.goto(f"{asgi_server}/campaigns/{campaign.pk}/rosters/{roster.pk}/")
    form = p1.locator("#unit-form")
    kind = form.get_by_label("Unit type")
    expect(kind).to_have_value("")
    expect(kind.locator("option:checked")).to_have_text("Choose a unit type…")
    expect(kind.locator("option[value='colossal_mech']")).to_have_text("Colossal mech")
    expect(kind).not_to_contain_text("colossal_mech")
    expect(form).to_contain_text("(only VTOL)")
    form.locator("[name=name]").fill("Atlas")
    form.locator("[name=move]").fill("8")
    form.locator("[name=base_diameter]").fill("1.75")
    form.get_by_role("button", name="Add unit").click()
    expect(p1.locator("#unit-form")).to_contain_text("Choose the unit's type.")
    assert not roster.units.exists()
    shot(p1, "unit-form", p1.locator("#unit-form"))
    p1.locator("#unit-form").get_by_label("Unit type").select_option(label="Colossal mech")
    p1.locator("#unit-form").get_by_role("button", name="Add unit").click()
    row = p1.locator("table.units tr[data-unit='Atlas']")
    expect(row).to_contain_text("Colossal mech")
    p1.context.close()


def test_the_gm_curates_a_catalogue_shares_it_and_a_player_picks_from_it(
    asgi_server, browser, tmp_path: Path
):
    who = users("cat", "gm", "p1", "gm2")
    campaign = campaign_create(gm=who["gm"], name="Kearny Ridge", system="aod")
    membership_set(campaign=campaign, user=who["p1"], role="player")
    roster = roster_create(campaign=campaign, owner=who["p1"], name="Lance")
    gm = page_as(browser, asgi_server, who["gm"], {"width": 1280, "height": 1300})
    gm.goto(f"{asgi_server}/campaigns/{campaign.pk}/")
    gm.get_by_role("link", name="Catalogue of unit profiles").click()
    form = gm.locator("#profile-form")
    form.locator("[name=name]").fill("Locust LCT-1V")
    form.get_by_label("Unit type").select_option(label="Mech")
    form.locator("[name=points]").fill("20")
    form.locator("[name=move]").fill("12")
    form.locator("[name=base_diameter]").fill("1.75")
    form.get_by_role("button", name="Add to the catalogue").click()
    expect(gm.get_by_role("status")).to_contain_text("Added Locust LCT-1V to the catalogue.")
    row = gm.locator("table.catalogue-profiles tr[data-profile='Locust LCT-1V']")
    expect(row).to_contain_text("Mech")
    expect(row).to_contain_text("20")
    catalogue_profile_add(
        actor=who["gm"],
        campaign=campaign,
        name="Atlas AS7-D",
        unit_type="mech",
        stats=MECH,
        points=100,
    )
    gm.reload()
    shot(gm, "catalogue")

    # The file: downloaded here, a broken one refused in words, the good one imported by
    # another GM's campaign.
    saved = tmp_path / "catalogue.json"
    data = downloaded_json(gm.get_by_role("link", name="Download the catalogue file (JSON)"), saved)
    assert [p["name"] for p in data["profiles"]] == ["Atlas AS7-D", "Locust LCT-1V"]
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "tabletop-catalogue/1", "profiles": [')
    gm.locator("#catalogue-import [name=file]").set_input_files(str(broken))
    gm.get_by_role("button", name="Import the catalogue file").click()
    expect(gm.locator("#catalogue-import")).to_contain_text("Not valid JSON")
    shot(gm, "catalogue-bad-file", gm.locator("#catalogue-import"))
    other = campaign_create(gm=who["gm2"], name="Elsewhere", system="aod")
    gm2 = page_as(browser, asgi_server, who["gm2"])
    gm2.goto(f"{asgi_server}/campaigns/{other.pk}/catalogue/")
    gm2.locator("#catalogue-import [name=file]").set_input_files(str(saved))
    gm2.get_by_role("button", name="Import the catalogue file").click()
    expect(gm2.get_by_role("status")).to_contain_text("2 profiles added, 0 replaced")
    expect(gm2.locator("table.catalogue-profiles")).to_contain_text("Locust LCT-1V")

    # A player reads the catalogue but may not change it; they pick from their roster page.
    p1 = page_as(browser, asgi_server, who["p1"])
    p1.goto(f"{asgi_server}/campaigns/{campaign.pk}/catalogue/")
    expect(p1.locator("table.catalogue-profiles")).to_contain_text("Atlas AS7-D")
    expect(p1.get_by_role("button", name="Add to the catalogue")).to_have_count(0)
    p1.goto(f"{asgi_server}/campaigns/{campaign.pk}/rosters/{roster.pk}/")
    p1.locator("#campaign-catalogue").get_by_role("button", name="Add Locust LCT-1V").click()
    expect(p1.get_by_role("status")).to_contain_text("Added Locust LCT-1V from the catalogue.")
    expect(p1.locator("table.units tr[data-unit='Locust LCT-1V']")).to_contain_text("20")
    expect(p1.locator("#points-total")).to_contain_text("20 of 300 points")
    for page in (gm, gm2, p1):
        page.context.close()
    assert CatalogueProfile.objects.filter(campaign=campaign).count() == 2


def test_a_roster_file_uploaded_twice_asks_before_a_second_roster(
    asgi_server, browser, tmp_path: Path
):
    battle, who = deploying_battle("twice")
    roster = Roster.objects.get(owner=who["p1"])
    p1 = page_as(browser, asgi_server, who["p1"])
    p1.goto(f"{asgi_server}/campaigns/{battle.campaign_id}/rosters/{roster.pk}/")
    saved = tmp_path / "force.json"
    downloaded_json(p1.get_by_role("link", name="Download the roster file (JSON)"), saved)
    p1.get_by_role("link", name="Upload a roster file").click()
    p1.get_by_label("Roster file").set_input_files(str(saved))
    p1.get_by_role("button", name="Import roster").click()
    expect(p1.get_by_role("heading", name="Import a second roster of that name?")).to_be_visible()
    expect(p1.get_by_role("alert")).to_contain_text(
        "You already have a roster named 'P1 force' in this campaign."
    )
    assert Roster.objects.filter(owner=who["p1"]).count() == 1
    shot(p1, "roster-import-twice")
    p1.get_by_role("button", name="Import a second roster").click()
    expect(p1.get_by_role("status")).to_contain_text("Imported P1 force.")
    assert Roster.objects.filter(owner=who["p1"], name="P1 force").count() == 2
    p1.context.close()


def test_the_gm_corrects_a_recorded_result_and_everyone_reads_the_correction(asgi_server, browser):
    battle, who = deploying_battle("fix")
    battle_result_record(
        actor=who["gm"], battle=battle, winner_side="P1", outcome="P1 holds", unit_fates={}
    )
    url = f"{asgi_server}/campaigns/{battle.campaign_id}/battles/{battle.pk}/"
    gm = page_as(browser, asgi_server, who["gm"], {"width": 1280, "height": 1300})
    gm.goto(url)
    gm.get_by_text("Correct the result").click()
    form = gm.locator("#correct-form")
    expect(form.get_by_label("Winner")).to_have_value("P1")
    form.get_by_label("Winner").select_option("P2")
    form.get_by_label("Outcome").fill("P2 holds the pond")
    form.get_by_label("Ryoken (P2)").select_option("off_board")
    form.get_by_role("button", name="Save the correction").click()
    expect(gm.get_by_role("status")).to_contain_text("Result corrected")
    expect(gm.locator("#result-line")).to_contain_text("Side P2 won: P2 holds the pond")
    corrections = gm.locator("ol.corrections")
    expect(corrections).to_contain_text(f"Corrected by {who['gm'].username}")
    expect(corrections).to_contain_text("Winner: side P1 won → side P2 won")
    expect(corrections).to_contain_text("Fate of Ryoken: Ready → Left the board")
    shot(gm, "result-corrected", gm.locator("#result-h").locator(".."))
    assert ResultCorrection.objects.filter(result__battle=battle).count() == 1
    assert BattleResult.objects.get(battle=battle).winner_side == "P2"

    # A player reads it on the battle page and in the campaign log, and may not correct.
    p2 = page_as(browser, asgi_server, who["p2"])
    p2.goto(url)
    expect(p2.locator("ol.corrections")).to_contain_text("Outcome: P1 holds → P2 holds the pond")
    expect(p2.get_by_text("Correct the result")).to_have_count(0)
    p2.goto(f"{asgi_server}/campaigns/{battle.campaign_id}/")
    expect(p2.locator("ol.log")).to_contain_text("corrected the result of Pond fight")
    for page in (gm, p2):
        page.context.close()


def test_the_map_editor_shows_rulers_and_the_cursor_deletes_a_corner_on_double_click_and_saves(
    asgi_server, browser
):
    who = users("ed", "gm")
    campaign = campaign_create(gm=who["gm"], name="Quarry", system="aod")
    gm = page_as(browser, asgi_server, who["gm"], {"width": 1280, "height": 1100})
    gm.goto(f"{asgi_server}/campaigns/{campaign.pk}/maps/new/")
    gm.locator("#map-form [name=name]").fill("Quarry")
    gm.evaluate("document.getElementById('map-svg').scrollIntoView({block: 'center'})")

    def at(x: float, y: float) -> tuple[float, float]:
        return table_point(gm, "#map-svg", x, y)

    # The rulers: inches along the bottom and the left, 0 to 36.
    rulers = gm.locator("#map-svg g.rulers")
    numbers = rulers.locator("text.ruler-number")
    expect(numbers.first).to_have_text("0″")
    texts = numbers.all_text_contents()
    assert texts.count("36″") == 2 and "18″" in texts and "6″" in texts
    bottom = gm.locator("#map-svg text.ruler-number[text-anchor='middle']", has_text="18″")
    table = gm.locator("#map-svg rect.table-surface").bounding_box()
    label = bottom.bounding_box()
    assert label["y"] > table["y"] + table["height"]  # under the table, not on it
    assert abs(label["x"] + label["width"] / 2 - (table["x"] + table["width"] / 2)) < 3

    # The cursor's coordinates, snapped as a click would place a corner.
    cursor = gm.locator("#cursor-at")
    gm.mouse.move(*at(12.2, 7.1))
    expect(cursor).to_have_text("Cursor: x 12″, y 7″")
    gm.mouse.move(*at(30, 20))
    expect(cursor).to_have_text("Cursor: x 30″, y 20″")

    # A rectangle; a double click on one of its corners deletes that corner.
    gm.get_by_role("button", name="Rectangle").click()
    gm.locator("#tool-type").select_option("blocking")
    gm.mouse.move(*at(4, 4))
    gm.mouse.down()
    gm.mouse.move(*at(10, 10), steps=8)
    gm.mouse.up()
    features = gm.locator("#feature-list")
    expect(features).to_contain_text("B1: Blocking terrain (4 corners)")
    gm.get_by_role("button", name="Select and edit").click()
    expect(gm.locator("#tool-status")).to_contain_text("double-click a corner to delete it")
    gm.mouse.move(*at(20, 15))
    expect(cursor).to_have_text("Cursor: x 20″, y 15″")
    shot(gm, "map-editor-rulers")
    gm.mouse.dblclick(*at(10, 10))
    expect(features).to_contain_text("B1: Blocking terrain (3 corners)")
    expect(gm.locator("#tool-status")).to_have_text("Corner 3 of B1 deleted.")
    terrain = gm.locator("#map-form [name=terrain]").input_value()
    assert terrain.splitlines() == [
        "[",
        ' {"id":"B1","type":"blocking","polygon":[[4,4],[10,4],[4,10]]}',
        "]",
    ]

    gm.get_by_role("button", name="Save map").click()
    expect(gm.get_by_role("status")).to_have_text("Map 'Quarry' saved.")
    assert Map.objects.get(campaign=campaign).terrain[0]["polygon"] == [[4, 4], [10, 4], [4, 10]]
    assert json.loads(gm.locator("#map-form [name=terrain]").input_value())[0]["id"] == "B1"
    gm.context.close()
