"""Take-backs through the services: a player asks to take back their last order before
anyone else has acted; the opponent accepts (the order is undone, the position is the one
before it) or declines; each step is in the log and the battle's record."""

import pytest
from django.contrib.auth import get_user_model

from tabletop.models import Battle, Event, Membership, Role
from tabletop.records.horizon import Horizon
from tabletop.records.report_svg import summary_lines
from tabletop.records.story import battle_story
from tabletop.services.errors import ServiceError
from tabletop.services.table import log
from tabletop.services.table.act import battle_act
from tabletop.services.table.actor import Actor, actor_for
from tabletop.services.table.dice import battle_roll
from tabletop.services.table.gm import battle_fiat
from tabletop.services.table.position import apply_patch, position_hash
from tabletop.services.table.takeback import (
    battle_takeback_answer,
    battle_takeback_ask,
    battle_takeback_withdraw,
)
from tabletop.services.table.turn_end import battle_end_turn
from tests.live.conftest import make_table_sync, move
from tests.live.helpers import captured_events

pytestmark = pytest.mark.django_db(transaction=True)


class Game:
    """A battle and its people, acting through the services (their broadcasts captured)."""

    def __init__(self, orders: int = 2) -> None:
        self.battle, self.users = make_table_sync(orders=orders)
        self.people = {
            m.user.username: actor_for(self.battle, m.user, m)
            for m in Membership.objects.filter(campaign=self.battle.campaign).select_related("user")
        }
        units = self.battle.state["units"]
        self.u1 = next(u["id"] for u in units if u["side"] == "P1")
        self.u2 = next(u["id"] for u in units if u["side"] == "P2")
        self.n = 0

    def id(self) -> str:
        self.n += 1
        return f"m-{self.n}"

    def hash(self) -> str:
        battle = Battle.objects.get(pk=self.battle.id)
        return position_hash(battle.state, battle.turn_state)

    @property
    def seq(self) -> int:
        return Battle.objects.get(pk=self.battle.id).last_seq

    def act(self, who: str, unit: str, to: list[float]) -> dict:
        return battle_act(
            battle_id=self.battle.id,
            actor=self.people[who],
            client_msg_id=self.id(),
            seen=self.seq,
            action=move(unit, to),
        )

    def end_turn(self, who: str) -> dict:
        return battle_end_turn(
            battle_id=self.battle.id, actor=self.people[who], client_msg_id=self.id()
        )

    def ask(self, who: str, order: int) -> dict:
        return battle_takeback_ask(
            battle_id=self.battle.id, actor=self.people[who], client_msg_id=self.id(), order=order
        )

    def answer(self, who: str | Actor, request: int, accept: bool) -> dict:
        actor = who if isinstance(who, Actor) else self.people[who]
        return battle_takeback_answer(
            battle_id=self.battle.id,
            actor=actor,
            client_msg_id=self.id(),
            request=request,
            accept=accept,
        )

    def last_event(self) -> Event:
        return Event.objects.filter(battle=self.battle).order_by("-seq").first()

    def kinds(self) -> list[str]:
        return list(
            Event.objects.filter(battle=self.battle).order_by("seq").values_list("kind", flat=True)
        )


@pytest.fixture
def game():
    with captured_events():
        yield Game()


def code(reply: dict) -> str:
    assert reply["type"] == "reject", reply
    return reply["reasons"][0]["code"]


def message(reply: dict) -> str:
    return reply["reasons"][0]["message"]


def test_an_accepted_take_back_puts_the_position_back_as_it_was(game):
    before = game.hash()
    moved = game.act("p1", game.u1, [1.5, 4.5])
    assert game.hash() != before
    asked = game.ask("p1", moved["seq"])
    assert asked["type"] == "ack"
    assert game.hash() != before  # asking changes nothing on the table
    accepted = game.answer("p2", asked["seq"], accept=True)
    assert accepted["type"] == "ack"
    assert game.hash() == before
    undo = game.last_event()
    assert (undo.kind, undo.payload["undoes"], undo.payload["hash"]) == ("undo", 1, before)
    assert undo.payload["takeback"] == {
        "step": "accepted",
        "request": 2,
        "order": 1,
        "asked_by": "p1",
    }
    assert game.kinds() == ["act", "takeback", "undo"]
    # The order's side may order again: the take-back gave the order back.
    assert game.act("p1", game.u1, [1.5, 5.5])["type"] == "ack"


def test_the_log_replayed_from_the_start_reaches_the_same_position(game):
    start = Battle.objects.get(pk=game.battle.id)
    state, turn = start.state, start.turn_state
    game.ask("p1", game.act("p1", game.u1, [1.5, 4.5])["seq"])
    game.answer("p2", 2, accept=True)
    game.act("p1", game.u1, [2.5, 4.5])
    for frame in log.events_after(game.battle.id, 0) or []:
        if frame["kind"] in ("act", "fiat", "undo", "turn"):
            state, turn = apply_patch(state, frame)
        assert frame["hash"] == position_hash(state, turn), frame["seq"]
    assert position_hash(state, turn) == game.hash()


def test_a_declined_take_back_keeps_the_order_and_is_not_asked_again(game):
    moved = game.act("p1", game.u1, [1.5, 4.5])
    after = game.hash()
    asked = game.ask("p1", moved["seq"])
    assert game.answer("p2", asked["seq"], accept=False)["type"] == "ack"
    assert game.hash() == after
    declined = game.last_event()
    assert (declined.kind, declined.payload["step"], declined.payload["request"]) == (
        "takeback",
        "declined",
        asked["seq"],
    )
    again = game.ask("p1", moved["seq"])
    assert code(again) == "takeback_declined"
    assert message(again) == "p2 has declined to take back #1 already."


def test_a_request_after_the_opponent_has_acted_is_refused_in_the_players_words(game):
    game.act("p1", game.u1, [1.5, 4.5])
    ended = game.end_turn("p1")
    assert game.act("p2", game.u2, [1.5, 28.5])["type"] == "ack"
    events = len(game.kinds())
    refused = game.ask("p1", ended["seq"])
    assert code(refused) == "takeback_acted_since"
    assert message(refused) == "p2 has acted since (#3); #2 can no longer be taken back."
    assert refused["reasons"][0]["rule"] == "Take-backs, table rules"
    assert len(game.kinds()) == events  # a refusal changes nothing


def test_only_the_last_order_of_ones_own_may_be_taken_back(game):
    first = game.act("p1", game.u1, [1.5, 4.5])
    game.end_turn("p1")
    assert message(game.ask("p1", first["seq"])) == (
        "You have given another order since (#2); only that one may be taken back."
    )
    assert code(game.ask("p2", 2)) == "takeback_not_yours"
    assert message(game.ask("p1", 9)) == "There is no order #9 to take back."


def test_a_second_request_while_one_waits_is_refused(game):
    moved = game.act("p1", game.u1, [1.5, 4.5])
    game.ask("p1", moved["seq"])
    again = game.ask("p1", moved["seq"])
    assert code(again) == "takeback_pending"
    assert message(again) == "You have asked to take back #1 already; wait for the answer."
    assert game.kinds() == ["act", "takeback"]


def test_the_askers_own_later_order_ends_the_request(game):
    moved = game.act("p1", game.u1, [1.5, 4.5])
    asked = game.ask("p1", moved["seq"])
    assert game.end_turn("p1")["type"] == "ack"
    assert game.last_event().payload["takeback_lapsed"] == asked["seq"]
    late = game.answer("p2", asked["seq"], accept=True)
    assert code(late) == "no_takeback_request"
    assert message(late) == "The table has changed since (#3, p1): the request lapsed."
    assert game.kinds() == ["act", "takeback", "turn"]


def test_the_asker_may_withdraw_and_ask_again_and_nobody_else_may_withdraw(game):
    moved = game.act("p1", game.u1, [1.5, 4.5])
    asked = game.ask("p1", moved["seq"])
    ids = {"battle_id": game.battle.id, "request": asked["seq"]}
    by_p2 = battle_takeback_withdraw(actor=game.people["p2"], client_msg_id="w-1", **ids)
    assert code(by_p2) == "not_the_opponent"
    by_p1 = battle_takeback_withdraw(actor=game.people["p1"], client_msg_id="w-2", **ids)
    assert by_p1["type"] == "ack"
    assert game.last_event().payload["step"] == "withdrawn"
    assert game.ask("p1", moved["seq"])["type"] == "ack"


def test_a_spectator_a_third_party_and_the_asker_cannot_answer(game):
    moved = game.act("p1", game.u1, [1.5, 4.5])
    asked = game.ask("p1", moved["seq"])
    with pytest.raises(ServiceError) as watching:
        game.answer("spectator", asked["seq"], accept=True)
    assert watching.value.code == "forbidden"
    outsider = get_user_model().objects.create_user("p3", password="pw-12345678")
    membership = Membership.objects.create(
        campaign=game.battle.campaign, user=outsider, role=Role.PLAYER
    )
    third = actor_for(game.battle, outsider, membership)
    assert third.sides == frozenset()
    refused = game.answer(third, asked["seq"], accept=True)
    assert code(refused) == "not_the_opponent"
    assert message(refused) == "Only P1's opponent or the game master answers p1's request."
    assert code(game.answer("p1", asked["seq"], accept=True)) == "not_the_opponent"
    assert game.kinds() == ["act", "takeback"]
    # The GM may answer any request.
    assert game.answer("gm", asked["seq"], accept=True)["type"] == "ack"


def test_the_gm_undoes_without_asking(game):
    moved = game.act("p1", game.u1, [1.5, 4.5])
    with pytest.raises(ServiceError) as gm:
        game.ask("gm", moved["seq"])
    assert gm.value.code == "forbidden"
    assert "Undo" in gm.value.message


def test_dice_rolled_for_the_order_or_since_leave_it_to_the_gm(game):
    moved = game.act("p1", game.u1, [1.5, 4.5])
    battle_roll(
        battle_id=game.battle.id, actor=game.people["p1"], client_msg_id="r-1", count=1, sides=6
    )
    refused = game.ask("p1", moved["seq"])
    assert code(refused) == "takeback_dice"
    assert message(refused) == (
        "Dice have been rolled since #1; only the game master can undo it now."
    )
    # An order the engine rolled for: its roll cannot be unrolled.
    Event.objects.filter(battle=game.battle, seq=1).update(
        payload={**Event.objects.get(battle=game.battle, seq=1).payload, "rolls": [{"die": "d6"}]}
    )
    Event.objects.filter(battle=game.battle, seq=2).delete()
    assert message(game.ask("p1", moved["seq"])) == (
        "Dice were rolled for #1; only the game master can undo it."
    )


def test_a_turn_end_may_be_taken_back_before_the_next_side_acts(game):
    game.act("p1", game.u1, [1.5, 4.5])
    before = game.hash()
    ended = game.end_turn("p1")
    assert Battle.objects.get(pk=game.battle.id).turn_state["active_side"] == "P2"
    asked = game.ask("p1", ended["seq"])
    assert game.last_event().payload["order_kind"] == "turn"
    game.answer("p2", asked["seq"], accept=True)
    assert game.hash() == before
    assert Battle.objects.get(pk=game.battle.id).turn_state["active_side"] == "P1"


def test_a_change_by_the_gm_ends_a_request(game):
    moved = game.act("p1", game.u1, [1.5, 4.5])
    asked = game.ask("p1", moved["seq"])
    battle_fiat(
        battle_id=game.battle.id,
        actor=game.people["gm"],
        client_msg_id="f-1",
        unit_id=game.u2,
        position=[30, 30],
    )
    assert game.last_event().payload["takeback_lapsed"] == asked["seq"]
    assert code(game.answer("p2", asked["seq"], accept=False)) == "no_takeback_request"


def test_a_resent_answer_is_applied_once(game):
    moved = game.act("p1", game.u1, [1.5, 4.5])
    asked = game.ask("p1", moved["seq"])
    args = {"battle_id": game.battle.id, "request": asked["seq"], "accept": True}
    first = battle_takeback_answer(actor=game.people["p2"], client_msg_id="a-1", **args)
    again = battle_takeback_answer(actor=game.people["p2"], client_msg_id="a-1", **args)
    assert first == again
    assert game.kinds() == ["act", "takeback", "undo"]


def test_the_snapshot_tells_the_order_on_offer_and_the_request_waiting(game):
    moved = game.act("p1", game.u1, [1.5, 4.5])
    snapshot, _ = log.snapshot(game.battle.id)
    assert snapshot["takeback"] == {
        "order": {"seq": 1, "actor": "p1", "kind": "act"},
        "request": None,
    }
    asked = game.ask("p1", moved["seq"])
    snapshot, _ = log.snapshot(game.battle.id)
    assert snapshot["takeback"]["order"] is None
    request = snapshot["takeback"]["request"]
    assert (request["seq"], request["actor"], request["order"], request["side"]) == (
        asked["seq"],
        "p1",
        1,
        "P1",
    )
    assert (request["unit"], request["order_type"]) == (game.u1, "move")


def test_the_record_tells_each_request_and_its_answer(game):
    first = game.act("p1", game.u1, [1.5, 4.5])
    game.answer("p2", game.ask("p1", first["seq"])["seq"], accept=True)
    second = game.act("p1", game.u1, [2.5, 4.5])
    game.answer("p2", game.ask("p1", second["seq"])["seq"], accept=False)
    battle = Battle.objects.get(pk=game.battle.id)
    story = battle_story(battle, Horizon(seq=battle.last_seq, until=None))
    takebacks = [line for line in summary_lines(story) if "take back" in line]
    assert takebacks == [
        "Turn 1, event 2: p1 asked to take back event 1; p2 accepted (event 3).",
        "Turn 1, event 5: p1 asked to take back event 4; p2 declined (event 6).",
    ]
    # The taken-back move draws no path; the one kept does.
    assert [leg.seq for leg in story.legs] == [4]
