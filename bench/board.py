"""Benchmark of the board page: what it weighs, and how fast a big table is ready.

- assets_kb: the JS and CSS the board page loads (every file under static/ it
  requests, recorded by the browser), uncompressed, in KB (1024 bytes). Budget 150.
- interactive_100_ms: a 48" x 36" table with 100 units and 12 terrain features, over
  a picture (a 2400 x 1800 JPEG scan of the table, 50 pixels an inch: issue 23), which
  the board loads from its own address, not counted in assets_kb;
  from navigation start to the moment the board says it is ready
  (`document.body.dataset.ready = "1"`, the `board-ready` performance mark, set when
  the first snapshot is drawn). The median of 5 loads in fresh browser contexts,
  after one warm-up load. Budget 1000.

Runs on its own: a throwaway SQLite database and one Daphne process. Run:

    .venv/bin/python bench/board.py

The last line is one JSON object with the headline figures (docs/benchmarks.md).
"""

from __future__ import annotations

import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.production import production_env  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
LOADS = 5
UNITS_PER_SIDE = 50
DEBUG_JS = """JSON.stringify({
  dcl: performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd,
  files: performance.getEntriesByType('resource')
    .map(r => [r.name.split('/').pop(), Math.round(r.startTime), Math.round(r.responseEnd)])})"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def scanned_table() -> bytes:
    """A 48" x 36" table's scan at 50 pixels an inch, as a JPEG: grass with noise, a lake."""
    import io

    from PIL import Image, ImageDraw

    def channel(base: int) -> Image.Image:
        return Image.effect_noise((2400, 1800), 40).point(lambda v: v // 3 + base)

    grass = Image.merge("RGB", [channel(70), channel(120), channel(40)])
    ImageDraw.Draw(grass).ellipse((200, 150, 900, 700), fill=(40, 90, 190))
    out = io.BytesIO()
    grass.save(out, "JPEG", quality=85)
    return out.getvalue()


def build_battle() -> tuple[int, str]:
    """A live aod battle with 100 units; returns (battle id, p1's session key)."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client

    from tabletop.services.battles import battle_create, battle_start
    from tabletop.services.campaigns import campaign_create, membership_set
    from tabletop.services.maps import map_create, map_picture_set
    from tabletop.services.rosters import roster_create, unit_profile_add

    call_command("migrate", verbosity=0)
    User = get_user_model()
    gm = User.objects.create_user("gm", password="pw-12345678")
    p1 = User.objects.create_user("p1", password="pw-12345678")
    p2 = User.objects.create_user("p2", password="pw-12345678")
    campaign = campaign_create(gm=gm, name="Bench", system="aod")
    membership_set(campaign=campaign, user=p1, role="player")
    membership_set(campaign=campaign, user=p2, role="player")
    types = ["hindering", "blocking", "shallow_water", "elevated"]
    terrain = [
        {
            "id": f"T{i}",
            "type": types[i % len(types)],
            "polygon": [[x, y], [x + 3, y], [x + 3.5, y + 2.5], [x + 0.5, y + 3]],
        }
        for i, (x, y) in enumerate((2 + 7.5 * (i % 6), 13.5 + 5 * (i // 6)) for i in range(12))
    ]
    battle_map = map_create(
        campaign=campaign, name="Big table", width=48, height=36, terrain=terrain
    )
    battle_map = map_picture_set(actor=None, battle_map=battle_map, picture=scanned_table())
    sides = []
    for side, owner in (("P1", p1), ("P2", p2)):
        roster = roster_create(campaign=campaign, owner=owner, name=f"{side} force")
        for n in range(UNITS_PER_SIDE):
            unit_profile_add(
                roster=roster,
                name=f"{side} mech {n + 1}",
                unit_type="mech",
                stats={"move": 10, "base": {"shape": "circle", "diameter": 1.75}},
            )
        sides.append((roster, side))
    battle = battle_create(
        campaign=campaign,
        battle_map=battle_map,
        name="Hundred",
        sides=sides,
        deployment_zones={
            "P1": [[0, 0], [48, 0], [48, 12], [0, 12]],
            "P2": [[0, 24], [48, 24], [48, 36], [0, 36]],
        },
    )
    battle_start(battle=battle)
    client = Client()
    client.force_login(p1)
    return battle.pk, client.cookies["sessionid"].value


def static_file(url: str) -> Path | None:
    """The collected file a static URL serves (hashed name, as in production)."""
    path = urlparse(url).path
    if not path.startswith("/static/"):
        return None
    candidate = Path(os.environ["STATIC_ROOT"]) / path.removeprefix("/static/")
    return candidate if candidate.is_file() else None


def measure(base_url: str, battle_id: int, session: str) -> tuple[float, float]:
    from playwright.sync_api import sync_playwright

    url = f"{base_url}/battles/{battle_id}/board/"
    times: list[float] = []
    assets: set[Path] = set()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for i in range(LOADS + 1):
            context = browser.new_context(viewport={"width": 1280, "height": 720})
            context.add_cookies([{"name": "sessionid", "value": session, "url": base_url}])
            page = context.new_page()
            loaded: list[str] = []
            page.on("request", lambda request, loaded=loaded: loaded.append(request.url))
            page.goto(url)
            page.wait_for_selector("body[data-ready='1']", timeout=30_000)
            ready = page.evaluate("performance.getEntriesByName('board-ready')[0].startTime")
            if os.environ.get("BENCH_DEBUG"):  # where the time goes: each file's fetch
                print(page.evaluate(DEBUG_JS))
            if not any("/pictures/" in u for u in loaded):
                raise SystemExit("the board did not load the map's picture")
            count = page.locator(".piece").count()
            if count != 2 * UNITS_PER_SIDE:
                raise SystemExit(f"expected {2 * UNITS_PER_SIDE} pieces, saw {count}")
            assets |= {f for f in map(static_file, loaded) if f and f.suffix in (".js", ".css")}
            if i:  # the first load warms the server up
                times.append(float(ready))
            context.close()
        browser.close()
    size_kb = sum(f.stat().st_size for f in assets) / 1024
    for f in sorted(assets):
        print(f"  {f.name}: {f.stat().st_size} B")
    return size_kb, statistics.median(times)


def main() -> None:
    workdir = tempfile.mkdtemp(prefix="bench-board-")
    database = f"sqlite:///{workdir}/bench.db"
    os.environ["DATABASE_URL"] = database
    os.environ.pop("REDIS_URL", None)
    os.environ["DJANGO_SETTINGS_MODULE"] = "tabletop.settings"
    env = production_env(workdir, DATABASE_URL=database)
    import django

    django.setup()
    battle_id, session = build_battle()
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
         "tabletop.asgi:application"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("daphne did not start") from None
                time.sleep(0.1)
        size_kb, ready_ms = measure(f"http://127.0.0.1:{port}", battle_id, session)
    finally:
        server.terminate()
        server.wait(timeout=10)
    print(f"board assets (JS + CSS, uncompressed): {size_kb:.1f} KB (budget 150)")
    print(f"100-unit board interactive: {ready_ms:.0f} ms, median of {LOADS} (budget 1000)")
    print(json.dumps({"assets_kb": round(size_kb, 1), "interactive_100_ms": round(ready_ms)}))


if __name__ == "__main__":
    main()
