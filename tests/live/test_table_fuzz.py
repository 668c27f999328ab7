"""Fuzzing the table with hypothesis: generated frames never raise and never move a piece.

Most frames go through the parser and the services directly (fast); a few
hundred go through a real socket. The generator mixes garbage, frames of every
type with random values, and valid frames with one key spoiled. The fuzzing
player is the side *not* to act, so no generated frame may change the position;
chat and dice may still add events, and each must have been answered by an ack.
"""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop import limits, protocol
from tabletop.consumers import serve
from tabletop.models import Battle, Event
from tabletop.services.errors import ServiceError
from tabletop.services.table.position import position_hash
from tests.live.conftest import make_table_sync
from tests.live.helpers import captured_events, open_socket
from tests.live.test_table_services import actors

pytestmark = pytest.mark.django_db(transaction=True)

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=6), st.dictionaries(st.text(max_size=8), inner, max_size=6)
    ),
    max_leaves=20,
)
numbers = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-(10**30), 10**30))
points = st.lists(numbers, min_size=0, max_size=4)
actions = st.fixed_dictionaries(
    {
        "unit": st.sampled_from(["U1", "U2", "", "x" * 80]) | st.text(max_size=5),
        "type": st.sampled_from(["move", "run", "charge", "vent", "fly", "free_spin"]),
    },
    optional={
        "path": st.lists(
            points | st.fixed_dictionaries({"turn": numbers}) | json_values, max_size=70
        ),
        "facing": numbers | json_values,
        "target": json_values,
        "moves": json_values,
    },
)
TYPES = list(protocol.SCHEMAS) + ["teleport", "", "ACT"]
frames = st.fixed_dictionaries(
    {"type": st.sampled_from(TYPES)},
    optional={
        "id": st.sampled_from(["f-1", "f-2", "bad id", ""]) | json_values,
        "seen": st.integers(-5, 2**60) | json_values,
        "seq": st.integers(-5, 2**60) | json_values,
        "action": actions | json_values,
        "text": st.text(max_size=600),
        "dice": st.integers(-3, 30),
        "sides": st.integers(-3, 200),
        "reason": st.text(max_size=250),
        "unit": st.text(max_size=5),
        "position": points,
        "facing": numbers,
        "seconds": st.integers(-10, 5000),
        "reach": st.booleans() | json_values,
        # The take-back frames' keys (an order, a request, an answer).
        "order": st.integers(-5, 2**60) | json_values,
        "request": st.integers(-5, 2**60) | json_values,
        "accept": st.booleans() | json_values,
        "junk": json_values,
    },
)


def as_text(frame: dict) -> str:
    return json.dumps(frame, allow_nan=True)


texts = st.one_of(
    frames.map(as_text),
    st.text(max_size=200),
    json_values.map(lambda v: json.dumps(v, allow_nan=True)),
)


def snapshot_of(battle_id: int) -> tuple[str, int]:
    battle = Battle.objects.get(pk=battle_id)
    return position_hash(battle.state, battle.turn_state), battle.last_seq


def test_two_thousand_generated_frames_raise_nothing_and_move_nothing():
    battle, _ = make_table_sync()
    p2 = actors(battle)["p2"]  # P1 is to act: nothing P2 sends may move a piece
    before, _ = snapshot_of(battle.id)
    acked = 0

    @settings(
        max_examples=2000, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )
    @given(texts)
    def one_frame(text: str) -> None:
        nonlocal acked
        try:
            frame = protocol.parse(text)
        except protocol.FrameError as error:
            assert error.code in {
                "bad_json",
                "not_an_object",
                "unknown_type",
                "malformed",
                "bad_number",
                "too_many_steps",
                "frame_too_large",
            }
            return
        if frame.type in ("ping", "resume"):
            return
        try:
            reply = serve(frame, battle_id=battle.id, actor=p2)
        except ServiceError as error:
            # id_reused: two generated frames may share an id (protocol.md, idempotency).
            assert error.code in {"malformed", "forbidden", "id_reused"}, error.message
            return
        assert reply["type"] in ("ack", "reject", "verdict")
        acked += reply["type"] == "ack"

    with captured_events():
        one_frame()
    after, last_seq = snapshot_of(battle.id)
    assert after == before
    kinds = set(Event.objects.filter(battle=battle).values_list("kind", flat=True))
    assert kinds <= {"chat", "roll"}
    assert last_seq == Event.objects.filter(battle=battle).count() <= acked


async def test_three_hundred_generated_frames_through_a_socket_leave_it_usable(table, monkeypatch):
    monkeypatch.setattr(limits, "BURST", 10_000)
    monkeypatch.setattr(limits, "ABUSE_ERRORS", 10_000)
    socket = await open_socket(table.battle.id, table.users["p2"])
    before = socket.hash
    sample = []

    @settings(
        max_examples=300, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )
    @given(texts)
    def collect(text: str) -> None:
        sample.append(text)

    collect()
    for text in sample:
        await socket.send_text(text or " ")
        await socket.send({"type": "ping"})
        await socket.get("pong")
    assert socket.hash == before
    assert not [f for f in socket.frames if f.get("code") == "server_error"]
    await socket.close()
