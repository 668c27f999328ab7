"""The position hash's canonical form, written by the C JSON encoder where it agrees with
RFC 8785, is byte for byte `rfc8785.dumps` (docs/protocol.md, snapshot `hash`; the board
checks every event's hash with static/js/board/jcs.js, tests/live/test_position_hash_jcs.py)."""

import random
from unittest import mock

import pytest
import rfc8785

from tabletop.services.table import canonical_json
from tabletop.services.table.position import hashed_form

EDGES = [
    # Numbers: ECMAScript's forms, JCS's integer domain.
    [10.0, -0.0, 0.0, -3.0, 1.5, 0.1, 1 / 3, 123.456, 359.99999, 1e-4, 9.999e-5, 1e-5],
    [1e-7, 1e15, 9.999999999999998e15, 1e16, 1e21, 1.7976931348623157e308, 5e-324],
    [2.0**53 - 1, 2.0**53, -(2.0**53), 2**53 - 1, -(2**53 - 1), 0, -7, True, False, None],
    # Text: escapes, UTF-8, and keys sorted by UTF-16 code units.
    {"q": 'tab\tquote" back\\slash\n\r\b\f\x00\x1f\x7f', "u": "Zoë 東京 🚀 \u2028\u2029"},
    {"\ue000": 1, "\U0001f600": 2, "a": 3, "Z": 4, "é": 5, "": 6},
    {"nested": [{"b": [1.0, [2.5, {"c": 3.0}]], "a": ()}], "t": (1.0, "x")},
    {},
    [],
]
#: What JCS refuses: the same refusal, from the same place.
REFUSED = [float("nan"), float("inf"), 2**53, -(2**53), {1: 2}, "\ud800", {"s": {1, 2}}]


@pytest.mark.parametrize("value", EDGES, ids=range(len(EDGES)))
def test_edge_values_are_written_as_rfc8785_writes_them(value):
    assert canonical_json.dumps(value) == rfc8785.dumps(value)


@pytest.mark.parametrize("value", REFUSED, ids=range(len(REFUSED)))
def test_what_rfc8785_refuses_is_refused_alike(value):
    with pytest.raises(rfc8785.CanonicalizationError):
        rfc8785.dumps(value)
    with pytest.raises(rfc8785.CanonicalizationError):
        canonical_json.dumps(value)


def _value(rng: random.Random, depth: int = 0):
    pick = rng.randrange(9 if depth < 4 else 6)
    if pick == 0:
        return rng.choice([None, True, False])
    if pick == 1:
        return rng.randint(-(2**53) + 1, 2**53 - 1) if rng.random() < 0.2 else rng.randint(-99, 99)
    if pick == 2:  # inches and degrees as a table has them, and any double at all
        return rng.choice([round(rng.uniform(-100, 100), rng.randrange(4)), rng.randint(-9, 9) / 1])
    if pick == 3:
        return rng.choice([rng.uniform(-1e-3, 1e-3), 10 ** rng.uniform(-10, 25)])
    if pick in (4, 5):
        alphabet = 'aZ09 "\\\t\n\x01é東🚀\ue000\u2028'
        return "".join(rng.choice(alphabet) for _ in range(rng.randrange(6)))
    if pick in (6, 7):
        keys = [str(_value(rng, 9)) for _ in range(rng.randrange(5))]
        return {key: _value(rng, depth + 1) for key in keys}
    return [_value(rng, depth + 1) for _ in range(rng.randrange(5))]


def test_random_json_values_are_written_as_rfc8785_writes_them():
    rng = random.Random(25)
    for _ in range(3000):
        value = _value(rng)
        try:
            expected = rfc8785.dumps(value)
        except rfc8785.CanonicalizationError:
            with pytest.raises(rfc8785.CanonicalizationError):
                canonical_json.dumps(value)
            continue
        assert canonical_json.dumps(value) == expected, value


def test_a_table_position_is_hashed_without_the_pure_python_writer():
    """The cut itself: a position of inches, degrees and ids never reaches
    `rfc8785.dumps` (which cost a tenth of a move's server CPU)."""
    state = {
        "system": "aod",
        "table": {"width": 72, "height": 48},
        "units": [
            {"id": f"U{i}", "position": [1.5 + i, 2.0], "facing": 90.0, "move": 10.0}
            for i in range(48)
        ],
        "state": {"ordered": ["U1"], "order_log": [["U1", "move"]], "orders_used": 1},
        "terrain": [{"id": "T1", "type": "woods", "polygon": [[0, 0], [5.25, 0], [5.25, 3]]}],
    }
    turn = {"turn": 2, "active_side": "P1", "sides": ["P1", "P2"]}
    expected = hashed_form(state, turn)
    with mock.patch("rfc8785.dumps", side_effect=AssertionError("the slow writer ran")):
        assert hashed_form(state, turn) == expected
