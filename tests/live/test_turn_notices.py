"""Play by correspondence (issue 23): the players of the side whose turn begins are
mailed, once, after the change commits; never a spectator, a member who left, the user
who ended the turn, one who did not opt in, nor twice for the same turn."""

import pytest
from django.db import transaction

from tabletop.models import Campaign, Membership, Role, Roster
from tabletop.services.table.actor import actor_for
from tabletop.services.table.turn_end import battle_end_turn
from tabletop.services.table.undo import battle_undo
from tabletop.services.turn_notices import notice_settings_update
from tests.live.conftest import make_table_sync
from tests.live.helpers import open_sockets

pytestmark = pytest.mark.django_db(transaction=True)


def actor(battle, user):
    membership = Membership.objects.get(campaign=battle.campaign, user=user)
    return actor_for(battle, user, membership)


def opted_in(users, *names, mail=True):
    for name in names:
        users[name].email = f"{name}@example.org"
        users[name].save(update_fields=["email"])
        notice_settings_update(user=users[name], mail=mail, browser=True)


def end_turn(battle, user, msg_id="e-1"):
    return battle_end_turn(battle_id=battle.id, actor=actor(battle, user), client_msg_id=msg_id)


@pytest.fixture
def game():
    battle, users = make_table_sync()
    opted_in(users, "gm", "p1", "p2", "spectator")
    return battle, users


def test_the_player_whose_turn_begins_is_mailed_a_link_to_the_board(game, mailoutbox, settings):
    battle, users = game
    settings.SITE_URL = "https://club.example.org"
    assert end_turn(battle, users["p1"])["type"] == "ack"
    assert [m.to for m in mailoutbox] == [["p2@example.org"]], "p2 only: not p1, gm, spectator"
    mail = mailoutbox[0]
    assert mail.subject == f"Your turn in {battle.name}"
    assert f"https://club.example.org/battles/{battle.id}/board/" in mail.body


def test_a_player_who_did_not_opt_in_to_mail_gets_none(game, mailoutbox):
    battle, users = game
    notice_settings_update(user=users["p2"], mail=False, browser=True)
    end_turn(battle, users["p1"])
    assert mailoutbox == []


def test_a_player_made_spectator_is_not_mailed_for_the_side_they_fielded(game, mailoutbox):
    battle, users = game
    Membership.objects.filter(user=users["p2"]).update(role=Role.SPECTATOR)
    end_turn(battle, users["p1"])
    assert mailoutbox == []


def test_a_player_who_left_the_campaign_is_not_mailed(game, mailoutbox):
    """p2 left; that they still play in another campaign changes nothing here."""
    battle, users = game
    Membership.objects.filter(user=users["p2"], campaign=battle.campaign).delete()
    other = Campaign.objects.create(name="Another", system="aod", gm=users["gm"])
    Membership.objects.create(campaign=other, user=users["p2"], role=Role.PLAYER)
    end_turn(battle, users["p1"])
    assert mailoutbox == []


def test_the_player_who_ended_the_turn_is_not_mailed_for_their_other_side(game, mailoutbox):
    """Hot seat: p1 fields both sides; ending P1's part hands the table to p1 again."""
    battle, users = game
    Roster.objects.filter(owner=users["p2"]).update(owner=users["p1"])
    end_turn(battle, users["p1"])
    assert mailoutbox == []


def test_the_same_turn_reached_again_by_undo_is_not_mailed_twice(game, mailoutbox):
    battle, users = game
    end_turn(battle, users["p1"], "e-1")
    assert [m.to for m in mailoutbox] == [["p2@example.org"]]
    gm = actor(battle, users["gm"])
    battle_undo(battle_id=battle.id, actor=gm, client_msg_id="u-1", reason_text="misclick")
    # P1's part again: p1 is told (the GM acted, and p1 was never told of it).
    assert [m.to for m in mailoutbox] == [["p2@example.org"], ["p1@example.org"]]
    end_turn(battle, users["p1"], "e-2")
    end_turn(battle, users["p1"], "e-2")  # and the same frame resent
    assert len(mailoutbox) == 2, "P2's same turn again: p2 was told of it already"


def test_a_rolled_back_turn_change_mails_no_one_and_remembers_nothing(game, mailoutbox):
    battle, users = game
    with pytest.raises(RuntimeError), transaction.atomic():
        end_turn(battle, users["p1"])
        assert mailoutbox == [], "not before the commit"
        raise RuntimeError("rolled back")
    assert mailoutbox == []
    end_turn(battle, users["p1"], "e-2")
    assert [m.to for m in mailoutbox] == [["p2@example.org"]]


async def test_an_end_turn_over_the_socket_mails_the_next_player(transactional_db, mailoutbox):
    from tests.live.helpers import in_thread

    battle, users = await in_thread(make_table_sync)()
    await in_thread(opted_in)(users, "p1", "p2")
    sockets = await open_sockets(battle, users)
    try:
        await sockets["p1"].send({"type": "end_turn", "id": "e-1", "seen": 0})
        await sockets["p1"].get("ack")
        await sockets["p2"].get("event")
        await sockets["p1"].send({"type": "end_turn", "id": "e-1", "seen": 0})  # resent
        await sockets["p1"].get("ack")
    finally:
        for socket in sockets.values():
            await socket.close()
    assert [m.to for m in mailoutbox] == [["p2@example.org"]]
