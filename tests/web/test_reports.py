"""The battle report: drawn on the server from the event log, the same for everyone, and
for a delayed spectator nothing newer than the delay (issue 16). The campaign at a glance:
standings over the battles, each battle linked to its report, what each battle cost."""

import json
import re
import xml.etree.ElementTree as ET
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.db.models import JSONField
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from tabletop import events
from tabletop.models import Battle, BattleResult, Event, Membership
from tabletop.services.battles import battle_deploy
from tabletop.services.results import battle_result_record
from tabletop.services.table.act import battle_act
from tabletop.services.table.actor import Actor, actor_for
from tabletop.services.table.annotations import battle_annotate, battle_erase
from tabletop.services.table.gm import battle_set_delay
from tabletop.services.table.piece_markers import battle_mark, battle_unmark
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


def moved_drew_and_ended(battle: Battle, users: dict[str, Any], shape: dict[str, Any]) -> None:
    """P1 moved (seq 1), drew `shape` on the table (seq 2) and ended the turn (seq 3)."""
    move(battle, users["p1"], "P1", "m-1", (0, 3))
    drawn = battle_annotate(
        battle_id=battle.pk, actor=actor(battle, users["p1"]), client_msg_id="a-1", shape=shape
    )
    assert drawn["type"] == "ack", drawn
    end_turn(battle, users["p1"], "e-1")


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


def moved_within_the_delay(battle: Battle, users: dict[str, Any]) -> None:
    """P1 moved an hour ago (seq 1); the GM sets a 10-minute delay (2); P1 ends the turn (3)
    and P2 moves (4), within the delay."""
    move(battle, users["p1"], "P1", "m-1", (0, 3))
    Event.objects.filter(battle=battle).update(created_at=timezone.now() - timedelta(hours=1))
    battle_set_delay(
        battle_id=battle.pk, actor=actor(battle, users["gm"]), client_msg_id="d", seconds=600
    )
    end_turn(battle, users["p1"], "e-1")
    move(battle, users["p2"], "P2", "m-2", (0, -4))


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
    moved_within_the_delay(battle, users)

    watched = report(client, battle, users["spectator"])
    played = report(client, battle, users["p1"])

    assert watched.get("data-seq") == "1"
    assert {line.get("data-seq") for line in watched.iter(f"{SVG}polyline")} == {"1"}
    assert drawn_paths(watched, p2["id"]) == {}
    assert drawn_paths(played, p2["id"]) != {}, "the players see it all"
    lines = client.get(reverse("battle_events_jsonl", args=[battle.pk])).getvalue().decode()
    assert [json.loads(line)["seq"] for line in lines.splitlines()] == [1, 2, 3, 4]
    client.force_login(users["spectator"])
    lines = client.get(reverse("battle_events_jsonl", args=[battle.pk])).getvalue().decode()
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
    (line,) = response.getvalue().decode().splitlines()
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


@pytest.mark.django_db
def test_a_report_before_any_table_event_follows_the_deployment(client, world) -> None:
    """Before its first table event a battle's position is its own and changes with no
    event (deployment): its report is not kept at that sequence number."""
    battle = world.home.battle
    unit = battle.state["units"][0]
    report(client, battle, world.users["gm"])
    x, y = unit["position"][0] + 2, unit["position"][1]
    battle_deploy(actor=world.users["gm"], battle=battle,
                  placements={unit["id"]: {"position": [x, y], "facing": 90}})  # fmt: skip

    svg = report(client, battle, world.users["gm"])

    circle = next(c for c in svg.iter(f"{SVG}circle") if c.get("data-unit") == unit["id"])
    assert float(circle.get("cx")) == pytest.approx(x)


# -- reading the record costs one position, once per horizon (issue 21) -----------------


@pytest.fixture
def decoded(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    return json_reads(monkeypatch)


def json_reads(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every JSON value read from the database from now on, as decoded
    (JSONField.from_db_value)."""
    values: list[Any] = []
    original = JSONField.from_db_value

    def spy(self: JSONField, value: Any, expression: Any, connection: Any) -> Any:
        found = original(self, value, expression, connection)
        values.append(found)
        return found

    monkeypatch.setattr(JSONField, "from_db_value", spy)
    return values


def positions_in(values: list[Any]) -> list[Any]:
    """The values that are or hold a whole table position (terrain and units)."""
    return [
        v
        for v in values
        if isinstance(v, dict)
        and ({"_before", "_after"} & set(v) or isinstance(v.get("state", {}).get("terrain"), list))
    ]


def a_played_battle() -> tuple[Battle, dict[str, Any]]:
    """Four moves over two turns; P2 to play (seq 7)."""
    battle, users = table()
    move(battle, users["p1"], "P1", "m-1", (0, 2))
    end_turn(battle, users["p1"], "e-1")
    move(battle, users["p2"], "P2", "m-2", (0, -2))
    end_turn(battle, users["p2"], "e-2")
    move(battle, users["p1"], "P1", "m-3", (1, 2))
    end_turn(battle, users["p1"], "e-3")
    move(battle, users["p2"], "P2", "m-4", (1, -1))
    return battle, users


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["battle_report", "battle_report_svg", "battle_events_jsonl"])
def test_the_record_reads_at_most_one_position_however_long_the_log(
    client, decoded: list[Any], name: str
) -> None:
    battle, users = a_played_battle()
    client.force_login(users["p1"])
    decoded.clear()

    response = client.get(reverse(name, args=[battle.pk]))
    response.getvalue()  # the download is streamed: read as it is sent

    assert response.status_code == 200
    assert not [v for v in decoded if isinstance(v, dict) and {"_before", "_after"} & set(v)], (
        "no event is read with the positions it keeps"
    )
    assert len(positions_in(decoded)) <= 1, "one position at most: the first"


@pytest.mark.django_db
def test_the_report_is_built_once_per_event_and_refusal_not_on_every_read(client) -> None:
    battle, users = a_played_battle()
    client.force_login(users["p2"])
    first = client.get(reverse("battle_report_svg", args=[battle.pk]))

    with CaptureQueriesContext(connection) as queries:
        page = client.get(reverse("battle_report", args=[battle.pk]))
        again = client.get(reverse("battle_report_svg", args=[battle.pk]))

    assert again.content == first.content and b'data-seq="7"' in again.content
    assert first.content.decode().strip() in page.content.decode()
    assert not [q["sql"] for q in queries if '"tabletop_event"."payload"' in q["sql"]], (
        "no event is read"
    )
    assert "P1: 2 moves; 0 refused by the rules" in page.content.decode()
    # A refusal (in no event) and a new event: the report is built again.
    url = reverse("battle_report", args=[battle.pk])
    end_turn(battle, users["p2"], "e-4")
    refused = battle_act(
        battle_id=battle.pk, actor=actor(battle, users["p1"]), client_msg_id="m-5", seen=8,
        action={"unit": unit_of(battle, "P1")["id"], "type": "move", "path": [[30, 34]]},
    )  # fmt: skip
    assert refused["type"] == "reject" and refused["verdict"]
    assert "P1: 2 moves; 1 refused by the rules" in client.get(url).content.decode()
    move(battle, users["p1"], "P1", "m-6", (0, 1))
    assert "P1: 3 moves; 1 refused by the rules" in client.get(url).content.decode()


@pytest.mark.django_db
def test_too_many_record_reads_a_minute_are_answered_429_in_plain_words(client, settings) -> None:
    settings.RECORD_READS_PER_MINUTE = 3
    battle, users = table()
    client.force_login(users["p1"])
    names = ["battle_report", "battle_report_svg", "battle_events_jsonl", "battle_position_file"]

    answers = [client.get(reverse(name, args=[battle.pk])) for name in names]

    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert answers[-1]["Content-Type"].startswith("text/plain")
    assert "wait a minute" in answers[-1].content.decode()
    client.force_login(users["p2"])
    assert client.get(reverse("battle_report", args=[battle.pk])).status_code == 200, (
        "counted per user"
    )


# -- the battle and campaign pages keep to the delay (issue 21) --------------------------


def delayed_then_finished(battle: Battle, users: dict[str, Any]) -> None:
    """As `moved_within_the_delay`, then the GM records the result (P1 won, P2's mech
    destroyed), within the delay too."""
    moved_within_the_delay(battle, users)
    p1_wins_and_p2s_mech_is_destroyed(battle, users)


def battle_page(client, battle: Battle, user: Any) -> str:
    client.force_login(user)
    response = client.get(reverse("battle", args=[battle.campaign_id, battle.pk]))
    assert response.status_code == 200
    return response.content.decode()


def page_state(page: str) -> dict[str, Any]:
    start = page.index('<script id="battle-state" type="application/json">')
    body = page[page.index(">", start) + 1 : page.index("</script>", start)]
    return json.loads(body)


@pytest.mark.django_db
def test_a_delayed_spectators_battle_page_shows_the_table_at_the_delay(client) -> None:
    battle, users = table()
    p2 = unit_of(battle, "P2")
    delayed_then_finished(battle, users)
    moved = unit_of(battle, "P2")["position"]

    watched = battle_page(client, battle, users["spectator"])
    played = battle_page(client, battle, users["p1"])

    seen = next(u for u in page_state(watched)["units"] if u["id"] == p2["id"])
    assert seen["position"] == p2["position"], "where P2's mech stood at the delay"
    assert f"<td>{moved[0]:.1f}, {moved[1]:.1f}</td>" not in watched, "the units table too"
    assert f"<td>{p2['position'][0]:.1f}, {p2['position'][1]:.1f}</td>" in watched
    assert '<span id="battle-status">Active</span>' in watched
    assert "The ridge held." not in watched and 'id="result-h"' not in watched
    now = next(u for u in page_state(played)["units"] if u["id"] == p2["id"])
    assert now["position"] == moved, "the players see the table now"
    assert f"<td>{moved[0]:.1f}, {moved[1]:.1f}</td>" in played
    assert '<span id="battle-status">Finished</span>' in played
    assert "The ridge held." in played


@pytest.mark.django_db
def test_a_delayed_spectators_campaign_page_shows_no_result_newer_than_the_delay(client) -> None:
    battle, users = table()
    delayed_then_finished(battle, users)
    url = reverse("campaign", args=[battle.campaign_id])
    winner = battle.sides.get(side="P1").roster

    client.force_login(users["spectator"])
    watched = client.get(url).content.decode()
    client.force_login(users["p2"])
    played = client.get(url).content.decode()

    for page, told in ((watched, False), (played, True)):
        assert ("The ridge held." in page) is told, "the campaign log"
        assert ('class="campaign-chart"' in page) is told, "the chart of the standings"
        assert (f"<td>{winner.name}</td><td>1</td><td>1</td>" in page) is told, "standings"
        assert (f"{battle.name}: the report</a> (finished)" in page) is told
    assert f"{battle.name}: the report</a> (active)" in watched
    loser = battle.sides.get(side="P2").roster
    units = rf"{loser.name}</a></td><td>[^<]*</td><td>[^<]*</td>\s*<td>(\d+)</td>"
    assert [re.search(units, page).group(1) for page in (watched, played)] == ["1", "0"], (
        "the destroyed mech still counts in its roster for the spectator"
    )
    BattleResult.objects.filter(battle=battle).update(
        recorded_at=timezone.now() - timedelta(minutes=11)
    )
    client.force_login(users["spectator"])
    assert "The ridge held." in client.get(url).content.decode(), "once the delay has passed"


@pytest.mark.django_db
def test_the_replay_scrubber_keeps_a_delayed_spectator_to_the_horizon(client) -> None:
    """The board's past positions (board/at/<seq>/): a spectator reads up to the record's
    horizon, the players every event."""
    battle, users = table()
    moved_within_the_delay(battle, users)

    def read(user: Any, seq: int) -> int:
        client.force_login(user)
        return client.get(reverse("board_at", args=[battle.pk, seq])).status_code

    assert [read(users["spectator"], seq) for seq in (1, 2, 4)] == [200, 404, 404]
    assert [read(users["p1"], seq) for seq in (1, 2, 4, 5)] == [200, 200, 200, 404]


@pytest.mark.django_db
def test_the_replay_of_a_moment_shows_the_drawings_on_the_table_then(client) -> None:
    """An arrow drawn at seq 2 and removed at seq 4: the replay at 1 has none, at 2 and 3
    the arrow (by its author, where it was drawn), at 4 none again."""
    battle, users = table()
    arrow = {"kind": "arrow", "from": [2, 2], "to": [6, 9]}
    moved_drew_and_ended(battle, users, arrow)
    battle_erase(
        battle_id=battle.pk, actor=actor(battle, users["gm"]), client_msg_id="x", annotation=2
    )
    client.force_login(users["p2"])

    def drawings(seq: int) -> list[dict[str, Any]]:
        return client.get(reverse("board_at", args=[battle.pk, seq])).json()["annotations"]

    assert [drawings(seq) for seq in (1, 4)] == [[], []]
    assert drawings(2) == drawings(3) == [{"seq": 2, "by": "p1", **arrow}]


@pytest.mark.django_db
def test_the_replay_of_a_moment_shows_the_markers_and_states_on_the_pieces_then(client) -> None:
    """A free marker put at seq 2 and taken off at seq 4 is on the replay at 2 and 3 only;
    the pieces' states are those of the replayed position (P1's mech "ordered" after its
    move, 001 [1]), not today's."""
    battle, users = table()
    p1 = unit_of(battle, "P1")["id"]
    move(battle, users["p1"], "P1", "m-1", (0, 3))
    marked = battle_mark(
        battle_id=battle.pk,
        actor=actor(battle, users["p1"]),
        client_msg_id="k-1",
        unit=p1,
        text="pinned",
        colour="magenta",
    )
    assert marked["type"] == "ack", marked
    end_turn(battle, users["p1"], "e-1")
    battle_unmark(
        battle_id=battle.pk, actor=actor(battle, users["gm"]), client_msg_id="u", marker=2
    )
    client.force_login(users["p2"])

    def at(seq: int) -> dict[str, Any]:
        return client.get(reverse("board_at", args=[battle.pk, seq])).json()

    assert [at(seq)["markers"] for seq in (1, 4)] == [[], []]
    pinned = {"seq": 2, "by": "p1", "unit": p1, "text": "pinned", "colour": "magenta"}
    assert at(2)["markers"] == at(3)["markers"] == [pinned]

    def labels(seq: int) -> dict[str, list[str]]:
        return {unit: [s["label"] for s in shown] for unit, shown in at(seq)["unit_states"].items()}

    assert labels(1) == {p1: ["ordered"]}
    assert labels(4) != labels(1)


@pytest.mark.django_db
def test_a_delayed_spectators_roster_page_shows_no_result_newer_than_the_delay(client) -> None:
    """The roster page too: the mech a hidden result destroyed is still ready there, its
    points still counted, until the delay has passed."""
    battle, users = table()
    delayed_then_finished(battle, users)
    loser = battle.sides.get(side="P2").roster
    url = reverse("roster", args=[battle.campaign_id, loser.pk])
    mech = loser.units.get()

    def status(user: Any) -> str:
        client.force_login(user)
        page = client.get(url).content.decode()
        return re.search(rf'<tr data-unit="{mech.name}" class="status-(\w+)"', page).group(1)

    assert (status(users["spectator"]), status(users["p2"])) == ("ready", "destroyed")
    BattleResult.objects.filter(battle=battle).update(
        recorded_at=timezone.now() - timedelta(minutes=11)
    )
    assert status(users["spectator"]) == "destroyed", "once the delay has passed"
