"""A login session that ends ends its sockets (issue 21; docs/protocol.md, "Rights on an
open socket").

A user who logged out, changed their password or was deactivated kept their open
sockets, with the events and the chat, and a deactivated user could still chat. Now the
sockets of a session that ended close with 4401 (the board reconnects, with the cookie
the browser has now: refused with 4403 when it is logged out), and a deactivated user's
with 4403.
"""

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tabletop import limits
from tabletop.models import Event
from tabletop.services.table import rights
from tests.live.helpers import in_thread, open_socket, refused_with

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "pw-12345678"  # the factories' (tests/web/factories.py)


@in_thread
def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def cookie(client: Client) -> bytes:
    name = settings.SESSION_COOKIE_NAME
    return f"{name}={client.cookies[name].value}".encode()


async def test_logging_out_closes_that_sessions_sockets_only(table):
    browser = await logged_in(table.users["p1"])
    board = await open_socket(table.battle.id, table.users["p1"], cookie=cookie(browser))
    logged_out_cookie = cookie(browser)
    await in_thread(browser.post)(reverse("logout"))
    assert await board.closed_with() == rights.CLOSE_RIGHTS_CHANGED
    # The board's reconnect with that session is refused; p1's other browser plays on.
    code = await refused_with(table.battle.id, table.users["p1"], cookie=logged_out_cookie)
    assert code == limits.CLOSE_FORBIDDEN
    await table.p1.send({"type": "ping"})
    assert (await table.p1.get("pong"))["type"] == "pong"


async def test_a_new_password_closes_the_users_other_sessions_sockets(table):
    user = table.users["p1"]
    elsewhere, here = await logged_in(user), await logged_in(user)
    stale = cookie(elsewhere)
    other = await open_socket(table.battle.id, user, cookie=stale)
    mine = await open_socket(table.battle.id, user, cookie=cookie(here))
    changed = await in_thread(here.post)(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": "Ne3w-pass!x", "new_password2": "Ne3w-pass!x"},
    )
    assert changed.status_code == 302
    assert await other.closed_with() == rights.CLOSE_RIGHTS_CHANGED
    assert await refused_with(table.battle.id, user, cookie=stale) == limits.CLOSE_FORBIDDEN
    # The browser that changed it keeps its login (a new session key): its board's socket
    # is closed with the old key and reconnects with the new one.
    assert await mine.closed_with() == rights.CLOSE_RIGHTS_CHANGED
    again = await open_socket(table.battle.id, user, cookie=cookie(here))
    assert again.hello["you"]["role"] == "player"
    await again.close()


async def test_a_deactivated_account_is_closed_and_cannot_come_back(table):
    @in_thread
    def deactivate(user_id: int) -> None:
        user = User.objects.get(pk=user_id)
        user.is_active = False
        user.save()  # as the admin's form does

    await deactivate(table.users["p2"].pk)
    assert await table.p2.closed_with() == limits.CLOSE_FORBIDDEN
    assert await refused_with(table.battle.id, table.users["p2"]) == limits.CLOSE_FORBIDDEN


async def test_an_account_deactivated_without_a_notice_cannot_chat(table):
    """A bulk update sends no notice: the chat frame itself reads the account again."""
    user_id, battle_id = table.users["p2"].pk, table.battle.id
    await in_thread(lambda: User.objects.filter(pk=user_id).update(is_active=False))()
    await table.p2.send({"type": "chat", "id": "c-1", "text": "still here?"})
    assert await table.p2.closed_with() == limits.CLOSE_FORBIDDEN
    assert not [f for f in table.p2.frames if f["type"] == "ack"]
    chats = in_thread(lambda: Event.objects.filter(battle_id=battle_id, kind="chat").count())
    assert await chats() == 0
