"""The turn notice settings page without a browser: members only, the choice kept."""

import pytest
from django.contrib.auth import get_user_model

from tabletop.services.turn_notices import notice_settings_of

pytestmark = pytest.mark.django_db

URL = "/accounts/turn-notices/"


def test_a_visitor_is_sent_to_log_in(client):
    response = client.get(URL)
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_a_user_opts_in_and_out_and_the_choice_is_kept(client):
    user = get_user_model().objects.create_user("ann", email="ann@example.org", password="x")
    client.force_login(user)
    assert not notice_settings_of(user).mail and not notice_settings_of(user).browser
    assert client.post(URL, {"mail": "on"}).status_code == 302
    kept = notice_settings_of(user)
    assert (kept.mail, kept.browser) == (True, False)
    client.post(URL, {"browser": "on"})
    kept = notice_settings_of(user)
    assert (kept.mail, kept.browser) == (False, True)
    page = client.get(URL).content.decode()
    assert 'name="browser" id="id_browser" checked' in page
    assert "Mailed to ann@example.org." in page
