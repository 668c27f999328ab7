"""Content-Security-Policy (issue 21): every page is served with a policy that allows scripts
and styles from the site's own files and, inline, only the scripts carrying the page's nonce;
no 'unsafe-inline'. The pages are written to it: no style attribute, <style> block or event
handler attribute anywhere. (The browser tests fail on any violation a browser reports.)"""

import re
from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.web.factories import make_battle_sync
from tests.web.world import PASSWORD, World

NONCE = re.compile(r"'nonce-([A-Za-z0-9+/=]+)'")


def directives(header: str) -> dict[str, list[str]]:
    parts = (d.split() for d in header.split(";") if d.strip())
    return {name: sources for name, *sources in parts}


class Inline(HTMLParser):
    """What a page has inline: scripts (their type and nonce), <style> blocks, style and
    on* attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[dict[str, str | None]] = []
        self.breaches: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "script" and "src" not in named:
            self.scripts.append(named)
        if tag == "style":
            self.breaches.append("a <style> block")
        for name, _ in attrs:
            if name == "style" or name.startswith("on"):
                self.breaches.append(f"<{tag} {name}=...>")


def served(client: Client, url: str) -> tuple[dict[str, list[str]], Inline]:
    response = client.get(url)
    assert response.status_code == 200, url
    page = Inline()
    page.feed(response.content.decode())
    return directives(response["Content-Security-Policy"]), page


def as_configured(policy: dict[str, list[str]]) -> dict[str, list[str]]:
    """The served policy but for script-src: what tabletop/settings.py configures."""
    configured = settings.CONTENT_SECURITY_POLICY["DIRECTIVES"]
    assert {k: v for k, v in policy.items() if k != "script-src"} == {
        k: v for k, v in configured.items() if k != "script-src"
    }
    # What makes it a policy worth having: nothing inline but by the nonce, no plugins, no
    # <base> rewriting every link, no framing.
    assert "unsafe" not in str(policy)
    assert policy["default-src"] == policy["style-src"] == ["'self'"]
    assert policy["object-src"] == policy["base-uri"] == policy["frame-ancestors"] == ["'none'"]
    return policy


@pytest.mark.django_db
def test_the_board_runs_its_inline_script_by_the_nonce_the_header_names() -> None:
    battle, users = make_battle_sync("csp")
    client = Client()
    client.force_login(users["p1"])
    policy, page = served(client, reverse("board", args=[battle.pk]))

    scripts = policy.pop("script-src")
    assert scripts[0] == "'self'" and len(scripts) == 2
    nonce = NONCE.fullmatch(scripts[1])
    assert nonce, scripts
    as_configured(policy)
    executed = [s for s in page.scripts if s.get("type") != "application/json"]
    assert [s.get("nonce") for s in executed] == [nonce.group(1)]
    # The board's settings are a data block (json_script): never executed, no nonce needed.
    assert [s.get("id") for s in page.scripts if s.get("type") == "application/json"] == [
        "board-config"
    ]
    assert page.breaches == []
    # A new nonce for every page served.
    again, _ = served(client, reverse("board", args=[battle.pk]))
    assert again["script-src"][1] != scripts[1]


def test_every_page_is_served_under_the_policy_and_has_nothing_inline_it_forbids(
    world: World,
) -> None:
    home = world.home
    campaign = home.campaign.pk
    anonymous = Client()
    pages = [(anonymous, reverse("login")), (anonymous, reverse("signup"))]
    gm = Client()
    gm.login(username="gm", password=PASSWORD)
    pages += [
        (gm, reverse(name, args=args))
        for name, args in [
            ("home", []),
            ("campaigns", []),
            ("campaign", [campaign]),
            ("campaign_settings", [campaign]),
            ("roster", [campaign, home.roster.pk]),
            ("roster_import", [campaign]),
            ("unit", [campaign, home.roster.pk, home.unit.pk]),
            ("map_new", [campaign]),
            ("map", [campaign, home.map.pk]),
            ("battle_new", [campaign]),
            ("battle", [campaign, home.battle.pk]),
            ("battle_report", [home.battle.pk]),
            ("password_change", []),
        ]
    ]
    for client, url in pages:
        policy, page = served(client, url)
        assert as_configured(policy)["script-src"][0] == "'self'", url
        assert page.breaches == [], url
        nonces = {m.group(1) for s in policy["script-src"] if (m := NONCE.fullmatch(s))}
        for script in page.scripts:
            if script.get("type") != "application/json":
                assert script.get("nonce") in nonces, (url, script)
