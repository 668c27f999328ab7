"""The battle report: drawn on the server from the event log, the same for everyone, and
for a delayed spectator nothing newer than the delay (issue 16). The campaign at a glance:
standings over the battles, each battle linked to its report, what each battle cost."""

import json
import xml.etree.ElementTree as ET
from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from tabletop import events
from tabletop.models import Battle, Event, Membership
from tabletop.services.results import battle_result_record
from tabletop.services.table.act import battle_act
from tabletop.services.table.actor import Actor, actor_for
from tabletop.services.table.gm import battle_set_delay
from tabletop.services.table.turn_end import battle_end_turn
from tests.web.factories import make_battle_sync

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(autouse=True)
def no_broadcasts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(events, "deliver", lambda sends: None)


def table() -> tuple[Battle, dict[str, Any]]:
    """The factory's battle (aod, one mech a side), with orders to give: its 0-point
    units would have none (001 [13])."""
    battle, users = make_battle_sync()
    battle.state = {**battle.state, "state": {"orders_available": 5}}
    battle.save(update_fields=["state"])
    return battle, users


def actor(battle: Battle, user: Any) -> Actor:
    return actor_for(battle, user, Membership.objects.get(campaign=battle.campaign, user=user))


def unit_of(battle: Battle, side: str) -> dict[str, Any]:
    return next(u for u in Battle.objects.get(pk=battle.pk).state["units"] if u["side"] == side)


def move(battle: Battle, user: Any, side: str, msg: str, *offsets: tuple[float, float]) -> list:
    """The side's unit moved through points given as offsets from where it stands; the
    recorded points (start first)."""
    battle.refresh_from_db()
    unit = unit_of(battle, side)
    x, y = unit["position"][:2]
    path = [[x + dx, y + dy] for dx, dy in offsets]
    reply = battle_act(
        battle_id=battle.pk,
        actor=actor(battle, user),
        client_msg_id=msg,
        seen=battle.last_seq,
        action={"unit": unit["id"], "type": "move", "path": path},
    )
    assert reply["type"] == "ack", reply
    return [[x, y], *path]


def end_turn(battle: Battle, user: Any, msg: str) -> None:
    reply = battle_end_turn(battle_id=battle.pk, actor=actor(battle, user), client_msg_id=msg)
    assert reply["type"] == "ack", reply


def p1_wins_and_p2s_mech_is_destroyed(battle: Battle, users: dict[str, Any]) -> None:
    """The GM records the battle's result: P1 won ("The ridge held."), P2's mech was
    destroyed."""
    battle.refresh_from_db()
    profile = battle.unit_labels[unit_of(battle, "P2")["id"]]["profile"]
    battle_result_record(
        actor=users["gm"],
        battle=battle,
        winner_side="P1",
        outcome="The ridge held.",
        unit_fates={str(profile): "destroyed"},
    )


def report(client, battle: Battle, user: Any) -> ET.Element:
    client.force_login(user)
    response = client.get(reverse("battle_report_svg", args=[battle.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    return ET.fromstring(response.content)


def drawn_paths(svg: ET.Element, unit_id: str) -> dict[int, list[list[float]]]:
    """{turn: points} of the unit's paths, back in table inches (y north)."""
    height = float(svg.get("data-height"))
    paths = {}
    for line in svg.iter(f"{SVG}polyline"):
        if line.get("data-unit") == unit_id:
            points = [[float(v) for v in pair.split(",")] for pair in line.get("points").split()]
            paths[int(line.get("data-turn"))] = [[x, height - y] for x, y in points]
    return paths


def close(a: list[list[float]], b: list[list[float]]) -> bool:
    return len(a) == len(b) and all(
        abs(p[0] - q[0]) < 1e-3 and abs(p[1] - q[1]) < 1e-3 for p, q in zip(a, b, strict=True)
    )


@pytest.mark.django_db
def test_the_report_draws_each_path_through_the_recorded_points_turn_by_turn(client) -> None:
    battle, users = table()
    p1, p2 = unit_of(battle, "P1"), unit_of(battle, "P2")
    first = move(battle, users["p1"], "P1", "m-1", (0, 3), (3, 6))
    end_turn(battle, users["p1"], "e-1")
    second = move(battle, users["p2"], "P2", "m-2", (0, -4))
    end_turn(battle, users["p2"], "e-2")
    third = move(battle, users["p1"], "P1", "m-3", (-2, 2))

    svg = report(client, battle, users["spectator"])

    assert close(drawn_paths(svg, p1["id"])[1], first)
    assert close(drawn_paths(svg, p1["id"])[2], third)
    assert close(drawn_paths(svg, p2["id"])[1], second)
    markers = {(g.get("data-unit"), g.get("data-turn")) for g in svg.iter(f"{SVG}g")}
    assert {(p1["id"], "1"), (p1["id"], "2"), (p2["id"], "1")} <= markers


@pytest.mark.django_db
def test_a_destroyed_unit_is_marked_where_it_fell_and_the_result_is_told(client) -> None:
    battle, users = table()
    fallen = unit_of(battle, "P2")
    end_turn(battle, users["p1"], "e-1")
    points = move(battle, users["p2"], "P2", "m-1", (1, -5))
    p1_wins_and_p2s_mech_is_destroyed(battle, users)

    svg = report(client, battle, users["p1"])

    loss = next(g for g in svg.iter(f"{SVG}g") if g.get("class") == "loss")
    assert loss.get("data-unit") == fallen["id"] and loss.get("data-fate") == "destroyed"
    cross = loss.find(f"{SVG}path").get("d").replace("M", " ").replace("L", " ").split()
    (x0, y0), (x1, y1) = (map(float, cross[0].split(",")), map(float, cross[1].split(",")))
    height = float(svg.get("data-height"))
    assert abs((x0 + x1) / 2 - points[-1][0]) < 1e-3
    assert abs(height - (y0 + y1) / 2 - points[-1][1]) < 1e-3
    words = " ".join(t.text or "" for t in svg.iter(f"{SVG}text"))
    assert "Result: P1 won. The ridge held." in words


@pytest.mark.django_db
def test_a_delayed_spectators_report_holds_nothing_newer_than_the_delay(client) -> None:
    battle, users = table()
    p2 = unit_of(battle, "P2")
    move(battle, users["p1"], "P1", "m-1", (0, 3))
    Event.objects.filter(battle=battle).update(created_at=timezone.now() - timedelta(hours=1))
    battle_set_delay(
        battle_id=battle.pk, actor=actor(battle, users["gm"]), client_msg_id="d", seconds=600
    )
    end_turn(battle, users["p1"], "e-1")
    move(battle, users["p2"], "P2", "m-2", (0, -4))

    watched = report(client, battle, users["spectator"])
    played = report(client, battle, users["p1"])

    assert watched.get("data-seq") == "1"
    assert {line.get("data-seq") for line in watched.iter(f"{SVG}polyline")} == {"1"}
    assert drawn_paths(watched, p2["id"]) == {}
    assert drawn_paths(played, p2["id"]) != {}, "the players see it all"
    lines = client.get(reverse("battle_events_jsonl", args=[battle.pk])).content.decode()
    assert [json.loads(line)["seq"] for line in lines.splitlines()] == [1, 2, 3, 4]
    client.force_login(users["spectator"])
    lines = client.get(reverse("battle_events_jsonl", args=[battle.pk])).content.decode()
    assert [json.loads(line)["seq"] for line in lines.splitlines()] == [1]
    assert (
        client.get(reverse("battle_ruling_file", args=[battle.pk]), {"event": 4}).status_code == 404
    )


@pytest.mark.django_db
def test_the_event_log_downloads_as_json_lines_of_the_frames_clients_get(client) -> None:
    battle, users = table()
    move(battle, users["p1"], "P1", "m-1", (0, 3))
    client.force_login(users["gm"])

    response = client.get(reverse("battle_events_jsonl", args=[battle.pk]))

    assert (
        response["Content-Disposition"] == f'attachment; filename="battle-{battle.pk}-events.jsonl"'
    )
    (line,) = response.content.decode().splitlines()
    frame = json.loads(line)
    assert frame["seq"] == 1 and frame["kind"] == "act" and frame["actor"] == "p1"
    assert not any(key.startswith("_") for key in frame), "the server's own keys stay private"


@pytest.mark.django_db
def test_the_report_page_shows_the_report_and_each_sides_tally(client) -> None:
    battle, users = table()
    move(battle, users["p1"], "P1", "m-1", (0, 3))
    client.force_login(users["p2"])

    page = client.get(reverse("battle_report", args=[battle.pk])).content.decode()

    assert '<svg xmlns="http://www.w3.org/2000/svg" class="battle-report"' in page
    assert "P1: 1 move; 0 refused by the rules" in page


@pytest.mark.django_db
def test_nobody_outside_the_campaign_reads_a_battles_record(client, world) -> None:
    battle = world.home.battle
    client.force_login(world.users["outsider"])
    for name in (
        "battle_report",
        "battle_report_svg",
        "battle_events_jsonl",
        "battle_position_file",
    ):
        assert client.get(reverse(name, args=[battle.pk])).status_code == 404


@pytest.mark.django_db
def test_the_campaign_page_charts_the_standings_and_what_each_battle_cost(client) -> None:
    battle, users = table()
    fallen = unit_of(battle, "P2")
    p1_wins_and_p2s_mech_is_destroyed(battle, users)
    client.force_login(users["spectator"])

    page = client.get(reverse("campaign", args=[battle.campaign_id])).content.decode()

    chart = ET.fromstring(page[page.index("<svg") : page.index("</svg>") + 6])
    lines = {line.get("data-roster"): line.get("points") for line in chart.iter(f"{SVG}polyline")}
    winner, loser = (battle.sides.get(side=s).roster for s in ("P1", "P2"))
    heights = {rid: [float(p.split(",")[1]) for p in pts.split()] for rid, pts in lines.items()}
    assert heights[str(winner.pk)][1] < heights[str(winner.pk)][0], "the winner's line climbs"
    assert heights[str(loser.pk)][1] == heights[str(loser.pk)][0], "the loser's stays flat"
    links = [a.get("href") for a in chart.iter(f"{SVG}a")]
    assert links == [reverse("battle_report", args=[battle.pk])]
    costs = page[page.index('id="battle-costs"') :]
    assert f"lost {battle.unit_labels[fallen['id']]['name']} (0 pts)" in costs


@pytest.mark.django_db
def test_a_battle_not_yet_begun_has_a_report_of_its_units_and_no_paths(client, world) -> None:
    battle = world.home.battle  # in deployment: nothing in its log yet
    svg = report(client, battle, world.users["other"])

    assert list(svg.iter(f"{SVG}polyline")) == []
    drawn = {shape.get("data-unit") for shape in svg.iter() if shape.get("class") == "unit"}
    assert drawn == {u["id"] for u in battle.state["units"]}
