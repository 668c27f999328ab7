"""A table's broadcasts are received and decoded once per process and handed to each of
the process's sockets of the table (tabletop/table_socket/fanout.py), with every guarantee
a socket had when it received its own copy: its events in order, each once, a socket
leaving mid-stream, two processes sharing Redis, either Redis layer."""

import asyncio

import pytest
import redis
from channels.layers import InMemoryChannelLayer, get_channel_layer

from tabletop import events
from tabletop.settings import REDIS_LAYERS, redis_channel_prefix
from tabletop.table_socket import fanout, layer
from tests.live.conftest import make_table
from tests.live.helpers import open_socket, session_cookie
from tests.live.test_broadcast_fanout import counted_calls, everyone, extra_sockets
from tests.live.test_broadcast_fanout import more_spectators as spectators
from tests.live.test_table_processes import servers  # noqa: F401 (a fixture)
from tests.live.wsclient import LiveClient

pytestmark = pytest.mark.django_db(transaction=True)

#: Spectators on each of the two processes.
PER_PROCESS = 3
#: Chat lines p1 writes, one after the other; a spectator on each process leaves after
#: LEAVES_AFTER of them.
LINES = 12
LEAVES_AFTER = 4


@pytest.fixture(params=sorted(REDIS_LAYERS))
def layer_kind(request, monkeypatch) -> str:
    """The channels-redis layer the servers started after it use (they inherit it)."""
    monkeypatch.setenv("REDIS_LAYER", request.param)
    return request.param


@pytest.fixture
def two_processes(layer_kind, servers):  # noqa: F811 (the fixture imported above)
    """Two Daphne processes on the channels-redis layer of the param; (layer, their URLs)."""
    return layer_kind, [servers.url(0), servers.url(1)]


async def seated(url: str, battle_id: int, user) -> LiveClient:
    client = LiveClient(user.username, url, battle_id, await session_cookie(user))
    await client.connect()
    await client.until(lambda: any(f["type"] == "snapshot" for f in client.frames))
    return client


def core_group_key(redis_url: str, group: str) -> str:
    """The core layer's sorted set of the channels in `group`."""
    return f"{redis_channel_prefix(redis_url)}:group:{group}"


def core_group_members(redis_url: str, group: str) -> int:
    return int(redis.Redis.from_url(redis_url).zcard(core_group_key(redis_url, group)))


async def test_two_processes_each_hand_the_tables_stream_to_their_sockets_in_order(
    two_processes, redis_url
):
    kind, urls = two_processes
    battle, users = await make_table()
    watchers = await spectators(battle, 2 * PER_PROCESS)
    # A last run's table of the same id left its processes' channels (they expire in a day).
    redis.Redis.from_url(redis_url).delete(
        core_group_key(redis_url, events.watchers_group(battle.id))
    )
    p1 = await seated(urls[0], battle.id, users["p1"])
    sockets = [await seated(urls[i % 2], battle.id, user) for i, user in enumerate(watchers)]
    if kind == "core":
        # One channel of each process in the spectators' group, not one per socket.
        assert core_group_members(redis_url, events.watchers_group(battle.id)) == 2
    leaving = sockets[:2]  # one on each process
    for n in range(1, LINES + 1):
        answer = await p1.request({"type": "chat", "id": f"c-{n}", "text": f"line {n}"})
        assert answer["type"] == "ack"
        if n == LEAVES_AFTER:
            for socket in leaving:
                await socket.close()
    staying = sockets[2:]
    for socket in staying:
        await socket.at_seq(LINES)
        texts = [f["text"] for f in socket.frames if f["type"] == "event"]
        assert texts == [f"line {n}" for n in range(1, LINES + 1)], socket.name
        assert not socket.problems, socket.problems
    for socket in leaving:
        assert not socket.problems, socket.problems
    if kind == "core":
        # The second process's last spectator leaves: so does the process, from the group.
        for socket in staying[1::2]:
            await socket.close()
        await p1.request({"type": "chat", "id": "c-last", "text": "last"})
        assert core_group_members(redis_url, events.watchers_group(battle.id)) == 1
    for socket in [p1, *staying]:
        await socket.close()


async def test_a_broadcast_is_decoded_once_per_group_not_once_per_socket(table, monkeypatch):
    layer_class = type(get_channel_layer())
    if not hasattr(layer_class, "deserialize"):
        pytest.skip("the in-memory layer decodes nothing")
    sockets = await everyone(table)
    with counted_calls(monkeypatch, layer_class, "deserialize") as decoded:
        await table.p1.send({"type": "chat", "id": "c-1", "text": "once"})
        for socket in sockets:
            assert (await socket.get("event"))["text"] == "once"
    # The players' group and the spectators' group: one copy each reached this process.
    assert len(decoded) == 2, f"{len(decoded)} decodes for {len(sockets)} sockets"
    for socket in extra_sockets(sockets, table):
        await socket.close()


async def test_a_socket_joining_as_the_last_one_leaves_gets_the_tables_frames(table):
    spectator = table.sockets[-1]
    (user,) = await spectators(table.battle, 1)
    # The spectators' group's last socket here leaves as another joins.
    _, joined = await asyncio.gather(spectator.close(), open_socket(table.battle.id, user))
    await asyncio.sleep(0.5)  # the presence announcements of the leaving and joining
    assert await joined.quiet()
    frame = events.presence([("gm", "gm", 1)])
    await events.send_presence(table.battle.id, frame)
    assert await joined.next() == frame
    await joined.close()


class FailingSecondGroup(InMemoryChannelLayer):
    """The in-memory layer, but Redis "goes down" when a socket joins its second group."""

    async def group_add(self, group: str, channel: str) -> None:
        if group == "second":
            raise OSError("Redis went away")
        await super().group_add(group, channel)


class Consumer(layer.DirectDispatchMixin):
    def __init__(self) -> None:
        self.inbox = asyncio.Queue()


async def test_a_join_that_fails_halfway_leaves_the_groups_it_joined(redis_url):
    channels = FailingSecondGroup()
    consumer = Consumer()
    with pytest.raises(OSError):
        await layer.join_groups(channels, consumer, ["first", "second"])
    # Else the first group would queue its messages for a socket that never opened.
    assert fanout.members(channels, "first") == 0
    assert fanout.members(channels, "second") == 0
    await channels.group_send("first", {"type": "table.presence", "text": "{}"})
    await asyncio.sleep(0.1)
    assert consumer.inbox.empty()
