"""Issue 21: what reading a battle's record costs on a complex map.

The map: 45 terrain polygons of 200 corners each (some 140 KB of position), two mechs a
side. The battle: N table events (GM fiats, a turn ended every tenth), each of which
keeps the whole position before and after it. Then a spectator delay of 600 s, the first
half of the log an hour old, so that a delayed spectator's horizon is event N/2.

Rows, for N = 126 and 1,000, each read in a fresh process (so that its peak memory is its
own): this process's CPU time (`cpu_s`) and how much its peak resident memory rose during
the read (`rss_mb`), for

- `report`: GET /battles/<id>/report/ (the GM: the whole log);
- `report_svg`: GET /battles/<id>/report.svg;
- `events_jsonl`: GET /battles/<id>/events.jsonl;
- `snapshot`: a delayed spectator's connect snapshot (services/table/log.py `snapshot`);
- `*_again`: the same read a second time in the same process (the cache, where there is one).

Run (the second line on a worktree of the commit before, for the "before" column):

    .venv/bin/python bench/records.py
    cd /tmp/eng-c-before && PYTHONPATH=. /work/main/.venv/bin/python /work/main/bench/records.py

SQLite in a temporary directory, the in-memory cache (`BENCH_EVENTS=126,1000` to choose
the sizes). The last line is one JSON object (docs/benchmarks.md).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path.cwd()))

SIZES = tuple(int(n) for n in os.environ.get("BENCH_EVENTS", "126,1000").split(","))
READS = ("report", "report_svg", "events_jsonl", "snapshot")
WIDTH, HEIGHT = 72.0, 48.0


def setup_django(db: Path) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tabletop.settings")
    import django

    django.setup()


def polygons(count: int = 45, corners: int = 200) -> list[dict[str, Any]]:
    """`count` wavy rings of `corners` corners over the table, in thousandths of an inch."""
    out = []
    for i in range(count):
        cx, cy = 4 + (i % 9) * 8, 5 + (i // 9) * 9
        ring = []
        for k in range(corners):
            a = 2 * math.pi * k / corners
            r = 2.5 + 0.4 * math.sin(7 * a + i)
            ring.append([round(cx + r * math.cos(a), 3), round(cy + r * math.sin(a), 3)])
        out.append({"id": f"T{i}", "type": "hindering", "polygon": ring})
    return out


def build(db: Path, events: int, *, complex_map: bool = True) -> int:
    """A battle on the complex map (an open one: `complex_map=False`) with `events` table
    events; its id."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.utils import timezone

    from tabletop import events as frames
    from tabletop.models import Battle, Event, Map, Membership
    from tabletop.services.battle_setup import Force, Table, UnitEntry, battle_set_up
    from tabletop.services.table.actor import actor_for
    from tabletop.services.table.gm import battle_fiat
    from tabletop.services.table.turn_end import battle_end_turn

    frames.deliver = lambda sends: None  # no table is listening
    call_command("migrate", verbosity=0)
    User = get_user_model()
    names = ("gm", "p1", "p2", "sp")
    users = {r: User.objects.create_user(r, password="pw-12345678") for r in names}
    mech = {"move": 10, "base": {"shape": "circle", "diameter": 1.75}}
    forces = [
        Force(side, f"{side} force", users[side.lower()],
              [UnitEntry(f"{side} mech {n}", "mech", mech) for n in (1, 2)])
        for side in ("P1", "P2")
    ]  # fmt: skip
    members = [(users["p1"], "player"), (users["p2"], "player"), (users["sp"], "spectator")]
    battle = battle_set_up(system="aod", gm=users["gm"], campaign="Bench", members=members,
                           table=Table("Open", WIDTH, HEIGHT, []), forces=forces)  # fmt: skip
    if complex_map:
        # The map straight into the database: the map service may refuse it (issue 21).
        terrain = polygons()
        Map.objects.filter(pk=battle.map_id).update(terrain=terrain)
        battle.state = {**battle.state, "terrain": terrain}
        battle.save(update_fields=["state"])
    member = {u: Membership.objects.get(campaign=battle.campaign, user=users[u]) for u in users}

    def actor(name: str) -> Any:
        return actor_for(battle, users[name], member[name])

    units = [u["id"] for u in battle.state["units"]]
    for n in range(events):
        if n % 10 == 9:
            side = Battle.objects.get(pk=battle.pk).turn_state.get("active_side", "P1")
            who = "p1" if side == "P1" else "p2"
            reply = battle_end_turn(battle_id=battle.pk, actor=actor(who), client_msg_id=f"e{n}")
        else:
            x, y = 2 + (n * 7.3) % (WIDTH - 4), 2 + (n * 3.1) % (HEIGHT - 4)
            reply = battle_fiat(
                battle_id=battle.pk, actor=actor("gm"), client_msg_id=f"f{n}",
                unit_id=units[n % len(units)], position=[round(x, 2), round(y, 2)],
            )  # fmt: skip
        assert reply["type"] == "ack", reply
    old = timezone.now() - timezone.timedelta(hours=1)
    Event.objects.filter(battle=battle, seq__lte=events // 2).update(created_at=old)
    Battle.objects.filter(pk=battle.pk).update(spectator_delay_s=600)
    return battle.pk


def measure(db: Path, battle_id: int, what: str) -> dict[str, Any]:
    """One read, twice, in this fresh process: CPU seconds and peak memory risen (MB)."""
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.urls import reverse

    from tabletop.services.table import log

    client = Client()
    client.force_login(get_user_model().objects.get(username="gm"))
    client.get("/healthz")

    def read() -> int:
        if what == "snapshot":
            frame, later = log.snapshot(battle_id, watching=True)
            return len(json.dumps(frame)) + len(later)
        if what == "board":  # the GM's board page, and the snapshot its socket sends
            page = client.get(reverse("board", args=[battle_id]))
            assert page.status_code == 200, page.status_code
            return len(page.content) + len(json.dumps(log.snapshot(battle_id)[0]))
        name = {"report": "battle_report", "report_svg": "battle_report_svg",
                "events_jsonl": "battle_events_jsonl"}[what]  # fmt: skip
        response = client.get(reverse(name, args=[battle_id]))
        assert response.status_code == 200, response.status_code
        # events.jsonl is streamed: read as a client would, a piece at a time.
        pieces = response.streaming_content if response.streaming else [response.content]
        hashed, size = hashlib.sha256(), 0
        for piece in pieces:
            hashed.update(piece)
            size += len(piece)
        digest[what] = hashed.hexdigest()[:12]
        return size

    digest: dict[str, str] = {}
    out: dict[str, Any] = {}
    for key in (what, f"{what}_again"):
        rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        t0 = time.process_time()
        size = read()
        out[f"{key}_cpu_s"] = round(time.process_time() - t0, 3)
        rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        out[f"{key}_rss_mb"] = round((rss1 - rss0) / 1024, 1)
        out[f"{key}_bytes"] = size
    if what in ("report_svg", "events_jsonl"):
        out[f"{what}_sha256"] = digest[what]  # the same file before and after
    return out


def main() -> None:
    if len(sys.argv) == 5 and sys.argv[1] == "--measure":
        db = Path(sys.argv[2])
        setup_django(db)
        print(json.dumps(measure(db, int(sys.argv[3]), sys.argv[4])))
        return
    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for events in SIZES:
            db = Path(tmp) / f"records-{events}.sqlite3"
            built = subprocess.run(
                [sys.executable, __file__, "--build", str(db), str(events)],
                check=True, capture_output=True, text=True,
            )  # fmt: skip
            battle_id = int(built.stdout.strip().splitlines()[-1])
            size_mb = db.stat().st_size / 2**20
            print(f"{events} events: database {size_mb:.0f} MB", flush=True)
            row: dict[str, Any] = {"db_mb": round(size_mb, 1)}
            for what in READS:
                done = subprocess.run(
                    [sys.executable, __file__, "--measure", str(db), str(battle_id), what],
                    check=True, capture_output=True, text=True,
                )  # fmt: skip
                result = json.loads(done.stdout.strip().splitlines()[-1])
                row.update(result)
                print(
                    f"  {what:13} {result[f'{what}_cpu_s']:7.3f} s CPU  "
                    f"+{result[f'{what}_rss_mb']:6.1f} MB   again "
                    f"{result[f'{what}_again_cpu_s']:7.3f} s  "
                    f"+{result[f'{what}_again_rss_mb']:6.1f} MB",
                    flush=True,
                )
            figures[str(events)] = row
    print(json.dumps(figures))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--build":
        setup_django(Path(sys.argv[2]))
        print(build(Path(sys.argv[2]), int(sys.argv[3])))
    else:
        main()
