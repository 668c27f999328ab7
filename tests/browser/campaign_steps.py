"""Steps a GM takes in the browser to set up a campaign, shared by the browser journeys
(tests/browser/test_journey.py, tests/web/test_browser_campaign.py).

The page is already logged in as the GM; the database reads between steps need
DJANGO_ALLOW_ASYNC_UNSAFE, which those tests set.
"""

from playwright.sync_api import expect

from tabletop.models import Battle, Campaign, Map


def create_campaign_with_invitation(gm, base: str) -> tuple[Campaign, str]:
    """The GM creates the aod campaign "Kearny Ridge" (300 points) and makes a player's
    invitation link; the campaign and the link."""
    gm.goto(f"{base}/campaigns/")
    gm.get_by_label("Name").fill("Kearny Ridge")
    gm.get_by_label("System").select_option("aod")
    gm.get_by_label("Points limit").fill("300")
    gm.get_by_role("button", name="Create campaign").click()
    expect(gm.get_by_role("heading", name="Kearny Ridge")).to_be_visible()
    campaign = Campaign.objects.get(name="Kearny Ridge")
    gm.locator("form[action$='/invitations/'] [name=role]").select_option("player")
    gm.get_by_role("button", name="Create invitation link").click()
    return campaign, gm.locator("input.invite-link").first.input_value()


def create_battle(gm, base: str, campaign: Campaign, battle_map: Map, p1: str, p2: str) -> Battle:
    """The GM sets up "Battle of the ridge" on `battle_map`, the rosters labelled `p1`
    and `p2` (as the form names them: "Roster (owner)") as the sides P1 and P2."""
    gm.goto(f"{base}/campaigns/{campaign.pk}/battles/new/")
    gm.get_by_label("Name").fill("Battle of the ridge")
    gm.get_by_label("Map").select_option(label=str(battle_map))
    gm.get_by_label(p1).select_option("P1")
    gm.get_by_label(p2).select_option("P2")
    gm.get_by_role("button", name="Create battle").click()
    expect(gm.get_by_role("heading", name="Battle of the ridge")).to_be_visible()
    return Battle.objects.get(campaign=campaign)
