"""Issue 25: the bytes the event log stores for a one-unit move on a 100-unit table.

The table: aod, 50 mechs a side on an open 100 x 60 table. The moves: P1's mechs move one
after the other, one inch each (`act`, as a player's board sends it), MOVES of them, so
that the periodic snapshot (if the code keeps one) falls among them. For each move the
bytes of its event row's JSON columns as SQLite stores them (the payload and, whichever
the code has, the positions or the change and snapshot); printed: the whole position's
size, a typical move's row (the median), the largest row, and the mean over all the moves
(what a move costs with its share of the snapshots).

    .venv/bin/python bench/event_bytes.py

Run from a source tree's root, it measures that tree's code (for the "before" figure, a
copy of the commit before: `cd /tmp/before && PYTHONPATH=. python <tree>/bench/event_bytes.py`).
SQLite in a temporary directory. The last line is one JSON object (docs/benchmarks.md).
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path.cwd()))
sys.path.append(str(Path(__file__).resolve().parent.parent))  # bench.records, from elsewhere

from bench.records import setup_django  # noqa: E402

UNITS_PER_SIDE = 50
MOVES = int(os.environ.get("BENCH_MOVES", "200"))
WIDTH, HEIGHT = 100.0, 60.0


def build() -> tuple[Any, dict[str, Any]]:
    """The 100-unit battle, begun, P1 to act; (battle, actor by user name)."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from tabletop import events as frames
    from tabletop.models import Battle, Membership
    from tabletop.services.battle_setup import Force, Table, UnitEntry, battle_set_up
    from tabletop.services.table.actor import actor_for

    frames.deliver = lambda sends: None  # no table is listening
    call_command("migrate", verbosity=0)
    User = get_user_model()
    users = {r: User.objects.create_user(r, password="pw-12345678") for r in ("gm", "p1", "p2")}
    mech = {"move": 10, "base": {"shape": "circle", "diameter": 1.75}}
    forces = [
        Force(side, f"{side} force", users[side.lower()],
              [UnitEntry(f"{side} mech {n}", "mech", mech) for n in range(UNITS_PER_SIDE)])
        for side in ("P1", "P2")
    ]  # fmt: skip
    members = [(users["p1"], "player"), (users["p2"], "player")]
    battle = battle_set_up(system="aod", gm=users["gm"], campaign="Bench", members=members,
                           table=Table("Open", WIDTH, HEIGHT, []), forces=forces,
                           zone_depth=12)  # fmt: skip
    # Orders for every move (the units have no points, so none of their own: 001 [13]).
    battle.state = {**battle.state, "state": {"orders_available": MOVES + 1}}
    battle.save(update_fields=["state"])
    battle = Battle.objects.get(pk=battle.pk)
    actors = {
        name: actor_for(battle, user, Membership.objects.get(campaign=battle.campaign, user=user))
        for name, user in users.items()
    }
    return battle, actors


def row_bytes(event_id: int) -> int:
    """The bytes of the event row's JSON columns (whichever this code's table has)."""
    from django.db import connection

    from tabletop.models import Event

    table = Event._meta.db_table
    with connection.cursor() as cursor:
        columns = [c.name for c in connection.introspection.get_table_description(cursor, table)]
        json_columns = [c for c in columns if c in JSON_COLUMNS]
        total = " + ".join(f"coalesce(length(CAST({c} AS BLOB)), 0)" for c in json_columns)
        cursor.execute(f"SELECT {total} FROM {table} WHERE id = %s", [event_id])
        return int(cursor.fetchone()[0])


#: Every column a version of the event table kept JSON in.
JSON_COLUMNS = ("payload", "position_before", "position_after", "base", "change")


def measure() -> dict[str, Any]:
    from tabletop.models import Battle, Event
    from tabletop.services.table.act import battle_act
    from tabletop.services.table.turn_end import battle_end_turn

    battle, actors = build()
    position = {"state": battle.state, "turn": battle.turn_state}
    sizes: list[int] = []
    ordered: set[str] = set()
    for n in range(MOVES):
        battle = Battle.objects.get(pk=battle.pk)
        side = battle.turn_state["active_side"]
        free = [u for u in battle.state["units"] if u["side"] == side and u["id"] not in ordered]
        if not free:  # every unit of the side has had its order (001 [13]): end the turn
            who = actors["p1" if side == "P1" else "p2"]
            reply = battle_end_turn(battle_id=battle.pk, actor=who, client_msg_id=f"e{n}")
            assert reply["type"] == "ack", reply
            battle = Battle.objects.get(pk=battle.pk)
            side = battle.turn_state["active_side"]
            ordered.clear()
            free = [u for u in battle.state["units"] if u["side"] == side]
        ordered.add(free[0]["id"])
        unit = free[0]
        x, y = unit["position"][:2]
        reply = battle_act(
            battle_id=battle.pk, actor=actors["p1" if side == "P1" else "p2"],
            client_msg_id=f"m{n}", seen=battle.last_seq,
            action={"unit": unit["id"], "type": "move", "path": [[x, y + 1.0]]},
        )  # fmt: skip
        assert reply["type"] == "ack", reply
        event = Event.objects.filter(battle=battle).order_by("-seq").values_list("id", flat=True)
        sizes.append(row_bytes(event[0]))
    every = Event.objects.filter(battle=battle).values_list("id", flat=True)
    return {
        "units": len(position["state"]["units"]),
        "moves": MOVES,
        "events": len(every),
        "position_bytes": len(json.dumps(position, separators=(",", ":"))),
        "move_median_bytes": int(statistics.median(sizes)),
        "move_max_bytes": max(sizes),
        "log_bytes_per_move": round(sum(row_bytes(i) for i in every) / MOVES),
    }


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        setup_django(Path(folder) / "bench.sqlite3")
        figures = measure()
    print(f"units on the table       {figures['units']}")
    print(f"the whole position       {figures['position_bytes']} B")
    print(f"a one-unit move, median  {figures['move_median_bytes']} B")
    print(f"the largest move's row   {figures['move_max_bytes']} B")
    print(f"the log per move         {figures['log_bytes_per_move']} B "
          f"({figures['events']} events for {figures['moves']} moves)")  # fmt: skip
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
