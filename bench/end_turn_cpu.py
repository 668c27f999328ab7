"""A move's and an end of turn's thread CPU on the capacity table, apart (not a test; needs
PostgreSQL; issue 25).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tabletop_bench \\
    .venv/bin/python bench/end_turn_cpu.py [FRAMES] [PROFILE_LINES]

bench/capacity.py's table (aod, 4 mechs a side, two players and two spectators) played as
its players play (each unit of the side one inch, then the end of the turn), each frame
served as the socket serves it (`serve_now`, its broadcast dropped). Prints, after the
first 11 frames, the median and mean thread CPU (`time.thread_time`) of the acts and of
the ends of turn, then a cProfile (thread time) of the ends of turn by cumulative time
(timed under it: about twice their cost; PROFILE_LINES 0 times them without it).
bench/move_cpu.py gives their medians together (an end of turn is one frame in five)."""

import cProfile
import os
import pstats
import statistics
import sys
import time
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main(frames: int, lines: int) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tabletop.settings")
    import django

    django.setup()
    from bench.paced_players import PacedPlayers
    from bench.table_rtt import make_battle, make_users, session_cookies
    from tabletop.models import Battle
    from tabletop.services.table import rights
    from tabletop.table_socket.dispatch import serve_now

    run = f"et{time.time_ns() % 10**10}"
    users = make_users(run, ["gm", "p1", "p2", "s0", "s1"])
    battle_id, by_side = make_battle(run, users, 4)
    cookies = session_cookies(users)
    players = {
        side: rights.Seat(users[name].pk, cookies[name].split("=", 1)[1])
        for side, name in (("P1", "p1"), ("P2", "p2"))
    }
    state = Battle.objects.get(pk=battle_id).state
    xs = {u["id"]: list(u["position"][:2]) for u in state["units"]}
    game = PacedPlayers(by_side, xs, players)
    mock.patch("tabletop.events.deliver", lambda sends: None).start()

    profiler = cProfile.Profile(time.thread_time)
    times: dict[str, list[float]] = {"act": [], "end_turn": []}
    for i in range(frames):
        frame, mover = game.next_frame()
        counted = i > 10
        profiling = lines > 0 and counted and frame.type == "end_turn"
        started = time.thread_time()
        if profiling:
            profiler.enable()
        _, answer = serve_now(frame, battle_id=battle_id, user=mover)
        if profiling:
            profiler.disable()
        spent = (time.thread_time() - started) * 1000
        assert isinstance(answer, dict) and answer["type"] == "ack", answer
        game.seq = answer["seq"]
        if counted:
            times[frame.type].append(spent)
    for kind, spent_ms in times.items():
        print(
            f"{kind}: {len(spent_ms)} frames, median {statistics.median(spent_ms):.1f} ms, "
            f"mean {statistics.mean(spent_ms):.1f} ms of thread CPU"
        )
    if lines:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(lines)


if __name__ == "__main__":
    main(
        int(sys.argv[1]) if len(sys.argv) > 1 else 110,
        int(sys.argv[2]) if len(sys.argv) > 2 else 40,
    )
