"""A move's server CPU, counted inside one process (not a test; needs PostgreSQL).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tabletop_bench \\
    .venv/bin/python bench/move_cpu.py [--units 4,24] [--moves 60] [--profile 15]

Run from a source tree's root, it measures that tree's code. `BENCH_BEFORE=<another
checkout>` runs the same measure there too, in child processes alternating with this
tree's (`BENCH_ROUNDS` each, 2 by default), on the same database.

An aod table (72" x 48", `--units` mechs a side: 4 is bench/capacity.py's table, 24
bench/table_rtt.py's) with two players and two spectators. The players move as the
capacity bench's do: the side to act moves each of its units one inch, then ends its
turn. Each move is served as the table's socket serves it (`serve_now`: the rights read
again, then the act or end-turn service), its broadcast captured instead of sent, and
then fanned out to the table's four sockets' consumers (two players, two spectators):
each group's message serialised once as the Redis layer does (msgpack), read back once
per socket as the layer does, and dispatched to a `TableConsumer` whose websocket send
is a stub (Daphne's framing and the socket write are not counted). Per move, in this
thread's CPU time (`time.thread_time`, not wall time: the machine is shared):
  - `serve_ms`: the whole service call (rights, judgement, the event's building, the
    database client's work), and of it `judge_ms` (referee.judge: the engine's verdict),
    `event_ms` (command.prepare: the patch, the board view, the position hash),
    `board_view_ms` (game_systems.table_view) and `hash_ms` (position.position_hash),
    with their calls per move;
  - `reading_ms`: the engine's readings of a position (rules.state_from_json), with
    their calls per move;
  - `fanout_ms`: the four consumers' handling of the broadcast;
  - `snapshot_ms` (not part of the move): a socket joining after it (log.snapshot);
  - then, over moves of their own, the offers' work in calls per move (CALLS: the
    system's precondition checks, the turn's refusals, the targets a charge weighs, the
    readings of aod's turn state).
Medians over the moves after the first two (which parse the position and fill caches),
and means (`_mean_ms`: one move in units + 1 is an end of turn, which a median leaves
out); calls are means per move.
Then, with `--profile N`, a cProfile of the same kind of moves (outside the timed ones):
its N top entries by own time, with calls per move. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import math
import os
import pstats
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any
from unittest import mock

sys.path.insert(0, str(Path.cwd()))

#: (module, attribute, label): the functions whose calls and CPU are counted per move.
COUNTED = (
    ("tabletop.services.table.command", "prepare", "event"),
    ("tabletop.services.table.referee", "judge", "judge"),
    ("tabletop.services.game_systems", "table_view", "board_view"),
    ("tabletop.services.table.position", "position_hash", "hash"),
    ("tabletop.events", "canonical", "canonical"),
    ("tabletop.services.table.rights", "socket_rights", "rights"),
    ("rules", "state_from_json", "reading"),
)

#: (module, attribute path, label): the offers' work, in calls per move, counted apart
#: from the timed moves (a wrapper's own cost would weigh on the tree that calls more):
#: the system's precondition checks (`may_take`, one per unit and action type where the
#: board's offers ask it; aod's own `offered` asks per unit instead), the whole order
#: checks the offers make and the checks of an order's type alone (a tree without them
#: counts 0), the turn's refusals, and the targets a charge or ram weighs.
CALLS = (
    ("rules.systems.aod.system", "AodSystem.may_take", "precondition_checks"),
    ("rules.systems.aod.offers", "check_order", "order_checks"),
    ("rules.systems.aod.offers", "order_type_refusal", "order_type_checks"),
    ("rules.systems.aod.turn_structure", "AodTurnStructure.refusal", "turn_refusals"),
    ("rules.systems.aod.offers", "target_problems", "targets_weighed"),
    ("rules.systems.aod.turn", "AodTurn.of", "turn_state_reads"),
)


def count_calls(counts: dict[str, int]) -> None:
    """Wraps the CALLS so that each adds 1 to `counts[label]` when called."""
    import importlib

    for module, path, label in CALLS:
        owner: Any = importlib.import_module(module)
        *outer, name = path.split(".")
        for part in outer:
            owner = getattr(owner, part)
        real = owner.__dict__.get(name) if isinstance(owner, type) else getattr(owner, name, None)
        if real is None:
            continue
        fn = real.__func__ if isinstance(real, classmethod) else real

        def counted(*args: Any, _fn: Any = fn, _label: str = label, **kwargs: Any) -> Any:
            counts[_label] += 1
            return _fn(*args, **kwargs)

        setattr(owner, name, classmethod(counted) if isinstance(real, classmethod) else counted)


class Counter:
    """Calls and thread CPU seconds of the COUNTED functions, since the last `reset`."""

    def __init__(self) -> None:
        self.calls: dict[str, int] = defaultdict(int)
        self.seconds: dict[str, float] = defaultdict(float)

    def reset(self) -> None:
        self.calls.clear()
        self.seconds.clear()

    def wrap(self, label: str, fn: Any) -> Any:
        def counted(*args: Any, **kwargs: Any) -> Any:
            started = time.thread_time()
            try:
                return fn(*args, **kwargs)
            finally:
                self.calls[label] += 1
                self.seconds[label] += time.thread_time() - started

        return counted


def consumer(battle_id: int, seat: Any, role: str, sent: list[str]) -> Any:
    """A TableConsumer as a socket at the table has it once connected, its websocket send
    a stub that keeps the text."""
    from tabletop import events, limits
    from tabletop.consumers import TableConsumer
    from tabletop.table_socket.delivery import EventDelivery
    from tabletop.table_socket.seat_rights import RightsReads

    async def base_send(message: dict[str, Any]) -> None:
        sent.append(message["text"])

    socket = TableConsumer()
    socket.base_send = base_send
    # A text frame goes straight to the server's send (TableConsumer.__call__ sets it).
    socket.send_frame = base_send
    socket.battle_id = battle_id
    socket.rights = RightsReads(seat, battle_id)
    # Its rights' re-read every RIGHTS_RECHECK_S is a read of its own, not the move's.
    socket.rights.read_at = math.inf
    socket.watching = role == "spectator"
    socket.delivery = EventDelivery(
        battle_id,
        watching=socket.watching,
        delay_s=0,
        send=lambda text: socket.send(text_data=text),
        resume_budget=limits.user_limits(seat.user_id).resume,
    )
    socket.group = (
        events.watchers_group(battle_id) if socket.watching else events.players_group(battle_id)
    )
    return socket


def measure(units: int, moves: int, profile: int) -> dict[str, Any]:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tabletop.settings")
    os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/tabletop_bench")
    import importlib

    import django

    django.setup()
    from channels_redis.serializers import registry
    from django.core.management import call_command

    from bench.paced_players import PacedPlayers
    from bench.table_rtt import make_battle, make_users, session_cookies
    from tabletop.models import Battle
    from tabletop.services.table import log, rights
    from tabletop.table_socket.dispatch import serve_now

    call_command("migrate", verbosity=0)
    run = f"cpu{time.time_ns() % 10**10}"
    users = make_users(run, ["gm", "p1", "p2", "s0", "s1"])
    battle_id, by_side = make_battle(run, users, units)
    cookies = session_cookies(users)

    def seat(name: str) -> Any:
        return rights.Seat(users[name].pk, cookies[name].split("=", 1)[1])

    players = {"P1": seat("p1"), "P2": seat("p2")}
    sent: list[str] = []
    sockets = [consumer(battle_id, players[s], "player", sent) for s in ("P1", "P2")]
    sockets += [consumer(battle_id, seat(s), "spectator", sent) for s in ("s0", "s1")]
    serializer = registry.get_serializer("msgpack")
    xs = {u["id"]: list(u["position"][:2]) for u in Battle.objects.get(pk=battle_id).state["units"]}
    loop = asyncio.new_event_loop()
    counter = Counter()
    for module, name, label in COUNTED:
        target = importlib.import_module(module)
        if hasattr(target, name):
            setattr(target, name, counter.wrap(label, getattr(target, name)))

    game = PacedPlayers(by_side, xs, players)

    def fan_out(sends: list[tuple[str, dict[str, Any]]]) -> None:
        async def each() -> None:
            for group, message in sends:
                data = serializer.serialize(message)
                for socket in sockets:
                    if socket.group == group:
                        await socket.dispatch(serializer.deserialize(data))

        loop.run_until_complete(each())

    sends: list[tuple[str, dict[str, Any]]] = []
    # The broadcast, sent after the commit, is kept here instead.
    mock.patch("tabletop.events.deliver", sends.extend).start()

    def move(join: bool = True) -> tuple[float, float, float, dict[str, Any]]:
        frame, mover = game.next_frame()
        sends.clear()
        started = time.thread_time()
        _, answer = serve_now(frame, battle_id=battle_id, user=mover)
        served = time.thread_time()
        assert isinstance(answer, dict) and answer["type"] == "ack", answer
        game.seq = answer["seq"]
        before = len(sent)
        fanned = time.thread_time()
        fan_out(sends)
        done = time.thread_time()
        assert len(sent) - before == len(sockets), (len(sent) - before, sends)
        counted = {
            **{f"{k}_s": v for k, v in counter.seconds.items()},
            **{f"{k}_calls": v for k, v in counter.calls.items()},
        }
        # A socket joining now: its snapshot (not part of the move, nor of its counts).
        joined = time.thread_time()
        if join:
            log.snapshot(battle_id)
        return served - started, done - fanned, time.thread_time() - joined, counted

    rows = []
    for i in range(moves):
        counter.reset()
        serve_s, fanout_s, snapshot_s, counted = move()
        if i >= 2:
            rows.append({"serve": serve_s, "fanout": fanout_s, "snapshot": snapshot_s, **counted})
        time.sleep(0.02)

    def med(key: str, scale: float = 1000) -> float:
        return round(statistics.median(r.get(key, 0) for r in rows) * scale, 3)

    out: dict[str, Any] = {
        "tree": str(Path.cwd()),
        "units_per_side": units,
        "moves": len(rows),
        "serve_ms": med("serve"),
        "fanout_ms": med("fanout"),
        "per_socket_fanout_ms": round(med("fanout") / len(sockets), 3),
        "event_ms": med("event_s"),
        "board_view_ms": med("board_view_s"),
        "hash_ms": med("hash_s"),
        "judge_ms": med("judge_s"),
        "canonical_ms": med("canonical_s"),
        "rights_ms": med("rights_s"),
        "reading_ms": med("reading_s"),
        "snapshot_ms": med("snapshot"),
        "serve_plus_fanout_ms": round(
            statistics.median(r["serve"] + r["fanout"] for r in rows) * 1000, 3
        ),
    }
    for label in ("event", "judge", "board_view", "hash", "canonical", "rights", "reading"):
        out[f"{label}_calls_per_move"] = round(
            statistics.mean(r.get(f"{label}_calls", 0) for r in rows), 3
        )
    # Means too: one move in (units + 1) is an end of turn, which the medians leave out.
    for key in ("serve", "fanout", "board_view_s", "hash_s", "reading_s", "snapshot"):
        name = key.removesuffix("_s")
        out[f"{name}_mean_ms"] = round(statistics.mean(r.get(key, 0) for r in rows) * 1000, 3)
    if profile:
        # Thread CPU time, not wall time: a wait for the database is no cost here.
        profiler = cProfile.Profile(time.thread_time)
        count = max(10, moves // 2)
        for _ in range(count):
            profiler.enable()
            move(join=False)
            profiler.disable()
        stats = pstats.Stats(profiler)
        entries = stats.stats.items()  # type: ignore[attr-defined]

        def listed(top: list) -> list[dict[str, Any]]:
            return [
                {
                    "function": f"{'/'.join(Path(file).parts[-2:])}:{line}:{fn}",
                    "calls_per_move": round(entry[1] / count, 1),
                    "own_ms_per_move": round(entry[2] / count * 1000, 3),
                    "cumulative_ms_per_move": round(entry[3] / count * 1000, 3),
                }
                for (file, line, fn), entry in top
            ]

        out["profile_own"] = listed(sorted(entries, key=lambda kv: -kv[1][2])[:profile])
        out["profile_cumulative"] = listed(sorted(entries, key=lambda kv: -kv[1][3])[:profile])
    # The offers' work in calls, over moves of their own after the timed and profiled ones.
    calls: dict[str, int] = defaultdict(int)
    count_calls(calls)
    counted_moves = max(10, moves // 2)
    for _ in range(counted_moves):
        move(join=False)
    for _, _, label in CALLS:
        out[f"{label}_per_move"] = round(calls[label] / counted_moves, 1)
    loop.close()
    return out


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--units", default="4,24", help="mechs a side, one table each")
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--profile", type=int, default=15, help="top entries (0: none)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_args()


def show(result: dict[str, Any]) -> None:
    print(f"-- {result['tree']}, {result['units_per_side']} mechs a side, {result['moves']} moves")
    for key, value in result.items():
        if not key.startswith("profile") and key not in ("tree", "units_per_side", "moves"):
            print(f"  {key}: {value}")
    for key in ("profile_own", "profile_cumulative"):
        if key in result:
            print(f"  {key.replace('_', ', by ')} time (ms per move, under the profiler):")
        for entry in result.get(key, []):
            print(
                f"  {entry['own_ms_per_move']:8.3f} own {entry['cumulative_ms_per_move']:8.3f} "
                f"cum {entry['calls_per_move']:8.1f} calls  {entry['function']}"
            )


def main() -> None:
    args = arguments()
    here = Path.cwd()
    before = os.environ.get("BENCH_BEFORE", "")
    results = []
    for units in (int(u) for u in args.units.split(",")):
        if args.child or not before:
            results.append(measure(units, args.moves, args.profile))
            show(results[-1])
            continue
        for _ in range(int(os.environ.get("BENCH_ROUNDS", "2"))):
            for tree in (Path(before), here):
                command = [sys.executable, str(Path(__file__).resolve()), "--child"]
                command += ["--units", str(units), "--moves", str(args.moves)]
                command += ["--profile", str(args.profile)]
                text = subprocess.run(
                    command, cwd=tree, check=True, capture_output=True, text=True
                ).stdout
                results.append(json.loads(text.strip().splitlines()[-1]))
                show(results[-1])
    print(json.dumps(results if not args.child else results[-1]))


if __name__ == "__main__":
    main()
