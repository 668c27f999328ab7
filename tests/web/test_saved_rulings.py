"""A saved ruling is a scenario file that `python -m rules check --expect` reproduces
anywhere: the position the table judged, the refused action, the server's verdict as its
`expect` (scenario-format.md; issue 16). For every system the engine registers.
"""

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

import rules
from rules.engine import dice
from tabletop import events
from tabletop.models import Battle, Membership
from tabletop.services import game_systems
from tabletop.services.battle_setup import Force, Table, UnitEntry, battle_set_up
from tabletop.services.table import referee
from tabletop.services.table.act import battle_act
from tabletop.services.table.actor import Actor, actor_for
from tabletop.services.table.gm import battle_fiat, battle_set_delay

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "pw-12345678"
#: A unit any system reads: a small round base and a small move (MP or inches).
STATS = {"move": 4, "base": {"shape": "circle", "diameter": 1.25}}


@pytest.fixture(autouse=True)
def no_broadcasts(monkeypatch: pytest.MonkeyPatch) -> list:
    """The services' broadcasts, kept instead of sent (no channel layer in these tests)."""
    sent: list = []
    monkeypatch.setattr(events, "deliver", sent.extend)
    return sent


def drag_action(system: str) -> str:
    """The system's first action the board proposes on a drag (its catalogue)."""
    return next(spec["type"] for spec in game_systems.catalogue(system) if spec.get("drag"))


def unit(side: str, unit_type: str) -> UnitEntry:
    """A side's unit of `unit_type`, worth something: where points buy a side its orders,
    it has one."""
    return UnitEntry(f"{side} {unit_type}", unit_type, STATS, points=150)


def battle_of(system: str, prefix: str = "") -> tuple[Battle, dict[str, Any]]:
    """A live battle of `system` on an empty 36" table, one unit a side, of the first unit
    type of the system's roster schema that may make the drag action an inch ahead."""
    User = get_user_model()
    users = {
        role: User.objects.create_user(f"{prefix}{system}-{role}", password=PASSWORD)
        for role in ("gm", "p1", "p2", "spectator")
    }
    members = [(users["p1"], "player"), (users["p2"], "player"), (users["spectator"], "spectator")]
    for unit_type in game_systems.unit_types(system):
        forces = [
            Force(side, f"{side} force", users[side.lower()], [unit(side, unit_type)])
            for side in ("P1", "P2")
        ]
        battle = battle_set_up(
            system=system,
            gm=users["gm"],
            campaign=f"{system} {unit_type}",
            members=members,
            table=Table("Table", 36, 36, []),
            forces=forces,
        )
        if referee.judge(battle.state, ahead(battle, system, 1.0), preview=True).legal:
            return battle, users
    raise AssertionError(f"no unit type of {system} may make its drag action on open ground")


def actor(battle: Battle, user: Any) -> Actor:
    return actor_for(battle, user, Membership.objects.get(campaign=battle.campaign, user=user))


def ahead(battle: Battle, system: str, inches: float) -> dict[str, Any]:
    """The active side's unit dragged `inches` straight ahead (the system's drag action)."""
    active = battle.turn_state["active_side"]
    unit = next(u for u in battle.state["units"] if u["side"] == active)
    x, y = unit["position"][:2]
    facing = math.radians(unit.get("facing", 0))
    point = [round(x + inches * math.cos(facing), 3), round(y + inches * math.sin(facing), 3)]
    return {"unit": unit["id"], "type": drag_action(system), "path": [point]}


def too_long(battle: Battle, system: str) -> dict[str, Any]:
    """24" ahead: further than the unit's move, whatever the system counts (inches or MP),
    and clear of every other unit."""
    return ahead(battle, system, 24.0)


def player_of(battle: Battle, users: dict[str, Any]) -> Any:
    return users["p1"] if battle.turn_state["active_side"] == "P1" else users["p2"]


def refused_drag(system: str) -> tuple[Battle, dict[str, Any], Any, dict, dict]:
    """A live battle of `system` whose active player dragged a unit too far: the battle,
    its users, that player, the action and the table's reply to it (message "drag-1")."""
    battle, users = battle_of(system)
    player = player_of(battle, users)
    action = too_long(battle, system)
    reply = battle_act(
        battle_id=battle.pk,
        actor=actor(battle, player),
        client_msg_id="drag-1",
        seen=0,
        action=action,
    )
    return battle, users, player, action, reply


def run_check(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "rules", "check", "--expect", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def saved_ruling(client, battle: Battle, reply_id: str, action: dict) -> Any:
    url = reverse("battle_ruling_file", args=[battle.pk])
    return client.get(url, {"reply": reply_id, "action": json.dumps(action)})


@pytest.mark.django_db
@pytest.mark.parametrize("system", sorted(rules.SYSTEMS))
def test_a_saved_ruling_reproduces_the_refusal_with_the_engine_alone(
    client, system: str, tmp_path: Path
) -> None:
    battle, users, player, action, reply = refused_drag(system)
    assert reply["type"] == "reject" and reply["verdict"], "the rules refused the long drag"

    client.force_login(player)
    response = saved_ruling(client, battle, "drag-1", action)

    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment;")
    scenario = json.loads(response.content)
    assert scenario["system"] == system
    assert scenario["expect"]["legal"] is False
    assert scenario["expect"]["reason"] == reply["verdict"]["reasons"][0]["code"]
    assert math.isclose(scenario["expect"]["cost"], reply["verdict"]["cost"], abs_tol=1e-3)
    assert scenario["dice"] == [], "no die was rolled, so none may be"
    saved = tmp_path / "ruling.json"
    saved.write_bytes(response.content)
    checked = run_check(saved)
    assert checked.returncode == 0, checked.stderr
    verdict = json.loads(checked.stdout.splitlines()[0])
    assert verdict["legal"] is False
    assert verdict["reasons"][0]["code"] == scenario["expect"]["reason"]
    assert "1/1 actions as expected" in checked.stderr


@pytest.mark.django_db
def test_a_ruling_saved_for_another_action_than_the_refused_one_is_not_made(client) -> None:
    system = sorted(rules.SYSTEMS)[0]
    battle, users, player, action, _ = refused_drag(system)
    client.force_login(player)
    unit = next(u for u in battle.state["units"] if u["id"] == action["unit"])
    short = {**action, "path": [[unit["position"][0] + 0.5, unit["position"][1]]]}

    response = saved_ruling(client, battle, "drag-1", short)

    assert response.status_code == 400
    assert response.json()["error"] == "That is not the action the table refused."


@pytest.mark.django_db
def test_only_the_player_refused_can_save_that_refusal(client) -> None:
    system = sorted(rules.SYSTEMS)[0]
    battle, users, player, action, _ = refused_drag(system)
    client.force_login(users["gm"])

    assert saved_ruling(client, battle, "drag-1", action).status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("system", sorted(rules.SYSTEMS))
def test_a_saved_position_is_the_table_as_a_scenario_the_engine_reads(client, system: str) -> None:
    battle, users = battle_of(system)
    client.force_login(users["spectator"])

    response = client.get(reverse("battle_position_file", args=[battle.pk]))

    assert response.status_code == 200
    scenario = json.loads(response.content)
    state = rules.load_scenario(scenario).state
    assert state.system == system
    assert sorted(u.id for u in state.units) == sorted(u["id"] for u in battle.state["units"])
    assert {k for k in scenario} == {"system", "table", "terrain", "units", "state"}


@pytest.mark.django_db
def test_a_delayed_spectator_cannot_save_a_position_newer_than_the_delay(client) -> None:
    system = sorted(rules.SYSTEMS)[0]
    battle, users = battle_of(system)
    battle_set_delay(
        battle_id=battle.pk, actor=actor(battle, users["gm"]), client_msg_id="d-1", seconds=600
    )
    client.force_login(users["spectator"])
    url = reverse("battle_position_file", args=[battle.pk])

    assert client.get(url, {"seq": 1}).status_code == 404
    assert json.loads(client.get(url, {"seq": 0}).content)["system"] == system
    assert "seq-0" in client.get(url)["Content-Disposition"], (
        "the newest they may see: before the delay"
    )


@pytest.mark.django_db
def test_a_saved_ruling_forces_the_die_the_table_rolled_a_failed_breakaway(
    client, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A mech touching an enemy rolls to break away (000 [16]); a 1 fails and spends the
    order (AOD-D23): refused with a consequence, in the log. The ruling forces that 1."""
    battle, users = battle_of("aod")
    battle.state = {**battle.state, "state": {"orders_available": 5}}
    battle.save(update_fields=["state"])
    mover = next(u for u in battle.state["units"] if u["side"] == "P1")
    enemy = next(u for u in battle.state["units"] if u["side"] == "P2")
    x, y = mover["position"][:2]
    touching = [x + mover["base"]["diameter"], y]
    battle_fiat(
        battle_id=battle.pk, actor=actor(battle, users["gm"]), client_msg_id="f-1",
        unit_id=enemy["id"], position=touching,
    )  # fmt: skip
    monkeypatch.setattr(dice.secrets, "randbelow", lambda sides: 0)  # the die shows 1
    action = {"unit": mover["id"], "type": drag_action("aod"), "path": [[x, y + 4]]}
    reply = battle_act(
        battle_id=battle.pk, actor=actor(battle, users["p1"]), client_msg_id="m-1", seen=1,
        action=action,
    )  # fmt: skip
    assert reply["type"] == "reject" and reply["event"] == 2, "refused, yet in the log"
    client.force_login(users["p1"])

    response = saved_ruling(client, battle, "m-1", action)

    scenario = json.loads(response.content)
    assert scenario["dice"] == [1]
    assert scenario["expect"] == {"legal": False, "reason": "breakaway_failed", "cost": 0}
    assert scenario["units"][1]["position"][:2] == touching, "the position before the roll"
    saved = tmp_path / "breakaway.json"
    saved.write_bytes(response.content)
    checked = run_check(saved)
    assert checked.returncode == 0, checked.stderr
    assert json.loads(checked.stdout)["rolls"][0]["result"] == 1
    by_event = client.get(reverse("battle_ruling_file", args=[battle.pk]), {"event": 2})
    assert json.loads(by_event.content) == scenario, "the log's act gives the same ruling"


@pytest.mark.django_db
def test_a_saved_ruling_is_the_one_kept_when_the_order_was_refused_not_judged_again(
    client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The refusal keeps the action it refused: the download is made of it, the verdict and
    the position of its seq, with the engine nowhere (issue 21: 0.35 s a GET, unbounded)."""
    system = sorted(rules.SYSTEMS)[0]
    battle, users, player, action, reply = refused_drag(system)
    position = {key: battle.state[key] for key in ("table", "terrain", "units")}

    def no_engine(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the engine judged the action again")

    monkeypatch.setattr(rules, "validate", no_engine)
    monkeypatch.setattr(game_systems, "replay_verdict", no_engine)
    client.force_login(player)
    url = reverse("battle_ruling_file", args=[battle.pk])

    from_board = saved_ruling(client, battle, "drag-1", action)  # the board's link
    by_id = client.get(url, {"reply": "drag-1"})

    assert from_board.status_code == by_id.status_code == 200
    scenario = json.loads(by_id.content)
    assert json.loads(from_board.content) == scenario
    assert scenario["action"] == action
    assert scenario["expect"]["reason"] == reply["verdict"]["reasons"][0]["code"]
    assert {key: scenario[key] for key in position} == position
    other = {**action, "path": [[1.0, 1.0]]}
    assert saved_ruling(client, battle, "drag-1", other).status_code == 400
