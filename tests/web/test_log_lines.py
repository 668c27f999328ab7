"""A refusal for the client's fault is one log line; a server failure keeps its traceback.

Issue 22 found a request with an unknown Host and an admin permission error each writing
a multi-line traceback to the journal (tabletop/log_lines.py).
"""

import io
import logging
from collections.abc import Iterator

import pytest
from django.contrib.auth import get_user_model
from django.test import Client


@pytest.fixture
def journal() -> Iterator[io.StringIO]:
    """What the configured console handler writes (settings.LOGGING), captured."""
    handler = next(h for h in logging.getLogger().handlers if h.get_name() == "console")
    stream = io.StringIO()
    previous = handler.setStream(stream)
    try:
        yield stream
    finally:
        handler.setStream(previous)


def test_an_unknown_host_is_one_line(journal: io.StringIO) -> None:
    response = Client().get("/", HTTP_HOST="evil.example")
    assert response.status_code == 400
    lines = journal.getvalue().splitlines()
    assert len(lines) == 1, lines
    assert "DisallowedHost" in lines[0] and "Invalid HTTP_HOST header" in lines[0]
    assert " WARNING " in lines[0]


@pytest.mark.django_db
def test_a_permission_error_in_the_admin_is_one_line(journal: io.StringIO) -> None:
    staff = get_user_model().objects.create_user("clerk", password="pw-clerk-1", is_staff=True)
    client = Client()
    client.force_login(staff)
    response = client.get("/admin/tabletop/battle/add/")  # staff, but no permission
    assert response.status_code == 403
    lines = journal.getvalue().splitlines()
    assert len(lines) == 1 and "Forbidden" in lines[0], lines
    assert "Traceback" not in journal.getvalue()


def test_a_server_error_keeps_its_traceback(journal: io.StringIO) -> None:
    try:
        raise RuntimeError("the referee fell over")
    except RuntimeError:
        logging.getLogger("django.request").error("Internal Server Error: /x", exc_info=True)
    assert "Traceback" in journal.getvalue() and "the referee fell over" in journal.getvalue()
