"""Refusals in a player's words, through real sockets (issue 20; ui.md "What the player
reads"; docs/protocol.md "Reasons"): every reason says what is wrong first, with no
citation in it, and names the rule it applies; the engine's carry its seed reference and
decision id (`cite`) as it gave them, the table's own name a table rule."""

import re

import pytest

import rules
from tests.live.conftest import move
from tests.live.helpers import battle_row

pytestmark = pytest.mark.django_db(transaction=True)

#: A seed reference ("000 [32]", "003 Turning 3") or a decision id ("AOD-D14").
CITATION = re.compile(r"\b\d{3} (\[|[A-Z])|\b[A-Z]{2,4}-D\d+")


def reads_in_words(reason: dict) -> None:
    assert reason["message"] and not CITATION.search(reason["message"]), reason
    assert reason["rule"].endswith(" rules"), reason


async def test_a_refused_act_carries_the_engines_message_rule_and_cite_untouched(table):
    action = move(table.u1, [1.5, 16.5])  # the mech moves 10": 16" is too far
    await table.p1.send({"type": "act", "id": "w-1", "seen": 0, "action": action})
    reject = await table.p1.get("reject")
    [reason] = reject["reasons"]
    assert reason["code"] == "speed_exceeded"
    reads_in_words(reason)
    assert reason["cite"] and CITATION.search(reason["cite"]), reason
    assert not reason["rule"].endswith("table rules"), reason
    # Untouched: what the engine says of the same action in the same position.
    state = rules.state_from_json((await battle_row(table.battle.id)).state)
    assert reason == rules.validate(state, action).to_json()["reasons"][0]
    assert reject["verdict"]["reasons"] == reject["reasons"]


async def test_an_act_out_of_turn_is_named_by_the_game_systems_turn_order(table):
    await table.p2.send({"type": "act", "id": "w-2", "seen": 0, "action": move(table.u2, [5, 5])})
    [reason] = (await table.p2.get("reject"))["reasons"]
    assert reason["code"] == "not_your_turn"
    reads_in_words(reason)
    assert reason["rule"].startswith("Turn order, ") and reason["rule"] != "Turn order, table rules"

    await table.p2.send({"type": "preview", "ref": "w-3", "action": move(table.u2, [5, 5])})
    [previewed] = (await table.p2.get("verdict"))["verdict"]["reasons"]
    assert previewed == reason


async def test_the_tables_own_refusals_name_a_table_rule(table):
    await table.p2.send({"type": "end_turn", "id": "w-4"})
    [reason] = (await table.p2.get("reject"))["reasons"]
    assert (reason["code"], reason["rule"]) == ("not_your_turn", "Turn order, table rules")
    assert reason["message"] == "It is P1's turn." and "cite" not in reason

    await table.p1.send({"type": "act", "id": "w-5", "seen": 0, "action": move(table.u2, [5, 5])})
    [reason] = (await table.p1.get("reject"))["reasons"]
    assert (reason["code"], reason["rule"]) == ("not_your_unit", "Who moves what, table rules")
    reads_in_words(reason)

    await table.p1.send(
        {"type": "act", "id": "w-6", "seen": 0, "action": move(table.u1, [1.5, 6.5])}
    )
    await table.p1.get("ack")
    await table.p1.send({"type": "act", "id": "w-7", "seen": 0, "action": move(table.u1, [1.5, 7])})
    [reason] = (await table.p1.get("reject"))["reasons"]
    assert (reason["code"], reason["rule"]) == ("stale", "One move at a time, table rules")


async def test_a_spectator_acting_is_told_the_table_rule(table):
    await table.spectator.send(
        {"type": "act", "id": "w-8", "seen": 0, "action": move(table.u1, [1.5, 6.5])}
    )
    error = await table.spectator.get("error")
    assert (error["code"], error["rule"]) == ("forbidden", "Who may do what, table rules")
