"""The release a site runs is visible (issue 22): every page's footer and `/healthz` name
pyproject.toml's version, and CHANGELOG.md has its entry with upgrade notes."""

import re
import tomllib

import pytest
from django.test import Client

from tests.conftest import ROOT

RELEASE = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def test_healthz_names_the_release() -> None:
    assert Client().get("/healthz").json()["version"] == RELEASE


@pytest.mark.django_db
def test_every_page_s_footer_names_the_release() -> None:
    page = Client().get("/accounts/login/").content.decode()
    assert re.search(rf'<footer class="site-footer">Tabletop {re.escape(RELEASE)}</footer>', page)


def test_the_changelog_opens_with_this_release_and_its_upgrade_notes() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text()
    releases = re.findall(r"^## (\d+\.\d+\.\d+)", changelog, flags=re.MULTILINE)
    assert releases and releases[0] == RELEASE, releases
    newest = changelog.split(f"## {RELEASE}", 1)[1].split("\n## ", 1)[0]
    assert "Upgrade notes" in newest
