"""Websocket clients that keep acting through nginx while processes of the deployment
stop under them (tests/deploy/test_deployment.py, test_several_hosts.py), and the
counts that prove nothing acknowledged was lost."""

import asyncio
import os
import signal
from collections.abc import Awaitable, Callable

import websockets

from tabletop.models import Event
from tests.deploy.stack import AsgiProcess, Stack, unverified_tls
from tests.live.wsclient import LiveClient

#: How long nginx leaves a process that refused a connection alone (nginx.conf's
#: fail_timeout): a rolling restart waits this long before stopping the next one.
FAIL_TIMEOUT_S = 5
PASSWORD = "pw-12345678"  # tests/web/factories.py


class ProxiedClient(LiveClient):
    """The live-table test client, over wss:// through nginx."""

    def __init__(self, name: str, base_url: str, battle_id: int, cookie: bytes):
        super().__init__(name, base_url, battle_id, cookie)
        self.tls = unverified_tls()
        self.drops = 0


async def keep_acting(client: ProxiedClient, stop: asyncio.Event, sent: list[str]) -> None:
    """Rolls dice, one act at a time, reconnecting (and resending) whenever dropped."""
    n = 0
    while not stop.is_set() or client.pending:
        if not client.connected:
            client.drops += 1
            await client.connect(resume=True)
        if not stop.is_set() and not client.pending:
            n += 1
            frame = {"type": "roll", "id": f"{client.name}-{n}", "dice": 1, "sides": 6}
            frame["what"] = "rolling restart"
            sent.append(frame["id"])
            try:
                await client.send(frame)
            except websockets.ConnectionClosed:
                continue  # kept in pending: resent after the reconnect
        try:
            await client.until(lambda: not client.pending or not client.connected, 10)
        except AssertionError:
            pass  # no answer within 10 s: the loop reconnects or waits again
        await back_off_if_limited(client, f"{client.name}-{n}")
        await asyncio.sleep(0.02)


async def back_off_if_limited(client: ProxiedClient, frame_id: str) -> None:
    """A well-behaved client: a frame the per-user limits dropped is sent again later,
    under the same id (a dropped frame was never judged, so it is not a resend)."""
    answer = client.answers.get(frame_id)
    if answer is None or answer.get("code") != "rate_limited":
        return
    del client.answers[frame_id]
    await asyncio.sleep(0.5)
    frame = {"type": "roll", "id": frame_id, "dice": 1, "sides": 6, "what": "rolling restart"}
    try:
        await client.send(frame)
    except websockets.ConnectionClosed:
        pass  # kept in pending: resent after the reconnect


#: What the test does to the processes while the clients act; it is given a count of
#: the acts acknowledged so far.
Disruption = Callable[[Callable[[], int]], Awaitable[None]]


async def act_through(
    stack: Stack,
    battle_id: int,
    cookies: dict[str, bytes],
    disrupt: Disruption,
    client_class: type[ProxiedClient] = ProxiedClient,
) -> dict:
    """One client per cookie keeps acting through nginx while `disrupt` runs; then every
    client must be back in step (the same last seq, no gap, no repeat)."""
    clients = [
        client_class(name, stack.base_url, battle_id, cookie) for name, cookie in cookies.items()
    ]
    for client in clients:
        await client.connect()
    stop = asyncio.Event()
    sent: list[str] = []
    actors = [asyncio.create_task(keep_acting(client, stop, sent)) for client in clients]

    def acked() -> int:
        return sum(1 for c in clients for a in c.answers.values() if a["type"] == "ack")

    await asyncio.sleep(1)
    before = acked()
    stack.say(f"{len(clients)} websocket clients acting through nginx: {before} acts acknowledged")
    await disrupt(acked)
    during = acked() - before
    await asyncio.sleep(1)
    stop.set()
    await asyncio.wait_for(asyncio.gather(*actors), 60)
    last = max(client.seq for client in clients)
    for client in clients:
        await client.until(lambda c=client: c.seq >= last, 10)
    problems = [p for c in clients for p in c.problems]
    for client in clients:
        await client.close()
    assert not problems, problems
    acks = {
        key: answer["seq"]
        for client in clients
        for key, answer in client.answers.items()
        if answer["type"] == "ack"
    }
    return {
        "sent": sent,
        "acked": acks,
        "refused": [
            answer
            for client in clients
            for answer in client.answers.values()
            if answer["type"] != "ack"
        ],
        "during": during,
        "drops": sum(c.drops for c in clients),
        "in_step": [client.seq for client in clients],
    }


async def rolling_restart(stack: Stack, battle_id: int, cookies: dict[str, bytes]) -> dict:
    """The clients act while each of the stack's processes in turn is restarted."""

    async def each_process(acked: Callable[[], int]) -> None:
        for asgi in stack.processes:
            await restart(stack, asgi, acked)

    return await act_through(stack, battle_id, cookies, each_process)


async def restart(stack: Stack, asgi: AsgiProcess, acked: Callable[[], int]) -> None:
    """What docs/deploy/rolling-restart.sh does to one process, while the clients act."""
    old_pid, at_stop = asgi.pid, acked()
    stopped_in, ended = await asyncio.to_thread(asgi.stop)
    await back_up(
        stack, asgi, acked, at_stop, f"SIGTERM daphne pid {old_pid}, {ended} in {stopped_in:.1f} s"
    )


async def kill(stack: Stack, asgi: AsgiProcess, acked: Callable[[], int]) -> None:
    """kill -9 of one process (a crash, the OOM killer); systemd starts it again
    (Restart=on-failure)."""
    old_pid, at_stop = asgi.pid, acked()
    os.kill(old_pid, signal.SIGKILL)
    assert asgi.process is not None
    await asyncio.to_thread(asgi.process.wait)
    await back_up(stack, asgi, acked, at_stop, f"kill -9 daphne pid {old_pid}")


async def back_up(
    stack: Stack, asgi: AsgiProcess, acked: Callable[[], int], at_stop: int, what: str
) -> None:
    await asyncio.sleep(1)  # acting on the other processes meanwhile
    down = acked() - at_stop
    ready_in = await asyncio.to_thread(asgi.start)
    where = f"{asgi.netns} " if asgi.netns else ""
    stack.say(
        f"{what} ({where}{asgi.host}:{asgi.port}); {down} acts acknowledged while it was "
        f"down; started pid {asgi.pid}, /readyz 200 after {ready_in:.1f} s"
    )
    assert down > 0, "no act was acknowledged while a process was down"
    await asyncio.sleep(FAIL_TIMEOUT_S)


def check_acts_in_log(stack: Stack, battle, acts: dict) -> int:
    """Every acknowledged act is in the log, with its seq, once; prints the figures and
    returns how many rolls the log holds."""
    rolls = Event.objects.filter(battle=battle, kind="roll").values_list("client_msg_id", "seq")
    return check_acts(stack, list(rolls), Event.objects.filter(battle=battle).count(), acts)


def check_acts(stack: Stack, roll_rows: list[tuple[str, int]], total: int, acts: dict) -> int:
    """check_acts_in_log on the log's rows as read: (client_msg_id, seq) of each roll
    event, and the count of all its events."""
    rolls = dict(roll_rows)
    all_ids = [client_msg_id for client_msg_id, _ in roll_rows]
    acked = acts["acked"]
    lost = [i for i, seq in acked.items() if rolls.get(i) != seq]
    assert not lost, f"acknowledged but not in the log as acknowledged: {lost}"
    assert len(all_ids) == len(set(all_ids)), "an act was applied twice"
    assert len(acked) == len(acts["sent"]), f"an act sent was never acknowledged: {acts['refused']}"
    stack.say(
        f"counts: {len(acts['sent'])} acts sent, {len(acked)} acknowledged "
        f"({acts['during']} while processes were stopped and started), {len(rolls)} roll events "
        f"in the log, 0 lost, 0 applied twice; {acts['drops']} reconnects; "
        f"every client in step at seq {acts['in_step']}; log: {total} events"
    )
    return len(rolls)
