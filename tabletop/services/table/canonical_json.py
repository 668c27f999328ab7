"""RFC 8785 (the JSON Canonicalization Scheme) of a position, quickly.

`rfc8785.dumps` writes every value in Python; a table event hashes its whole position,
which made it a large share of a move's server CPU (docs/benchmarks.md, "A move's server
CPU, counted in one process"). Python's C JSON encoder writes the same bytes for almost
every value a position holds: keys sorted, no spaces, strings as UTF-8 with the same
escapes (`\\"`, `\\\\`, `\\b\\f\\n\\r\\t`, `\\u00xx` for the other control
characters). It differs only in numbers and in rare keys, so those are settled first:
  - a float with no fraction is written as ECMAScript does (`10.0` is `10`, `-0.0` is
    `0`): as the integer, where that integer is exact (below 2**53);
  - any other float whose `repr` has an exponent (below 1e-4 or from 1e16), is not
    finite, or is integral from 2**53; an integer beyond +-(2**53 - 1) (JCS refuses it);
    a key that is not a string or lies outside the Basic Multilingual Plane (JCS sorts
    keys by UTF-16 code units, Python by code points: they agree within it); or a value
    that is no JSON type: the whole value is left to `rfc8785.dumps`, which writes or
    refuses it as before.
tests/web/test_canonical_json.py checks the bytes against `rfc8785.dumps`.
"""

import json
import math
from collections.abc import Callable, Iterable
from typing import Any

import rfc8785

#: JCS's integers (and integral floats written as integers, which are exact below it).
_SAFE = 2**53


class _Slow(Exception):
    """A value this module does not write itself: `rfc8785.dumps` does."""


def dumps(value: Any) -> bytes:
    """The JCS bytes of `value`, exactly as `rfc8785.dumps(value)` (which it raises too)."""
    try:
        return _ENCODER.encode(_settled(value)).encode("utf-8")
    except (_Slow, UnicodeEncodeError, ValueError, TypeError):
        # UnicodeEncodeError: a lone surrogate, which rfc8785 refuses in its own words.
        return rfc8785.dumps(value)


def _settled(value: Any) -> Any:
    """`value` with its integral floats as integers (the same object when it has none);
    raises _Slow for what the C encoder would write otherwise than JCS."""
    kind = type(value)
    if kind is str or value is None or kind is bool:
        return value
    if kind is int:
        if -_SAFE < value < _SAFE:
            return value
        raise _Slow
    if kind is float:
        return _number(value)
    if kind is dict:
        for key in value:
            if type(key) is not str or not (key.isascii() or max(key) <= "\uffff"):
                raise _Slow
        return _with_settled(value, value.items(), dict)
    if kind is list or kind is tuple:
        return _with_settled(value, enumerate(value), list)
    raise _Slow


def _with_settled(value: Any, entries: Iterable[tuple[Any, Any]], copy: Callable) -> Any:
    """`value` (a dict or a list, its `entries` (place, item)) with each item settled: a
    `copy` made only once an item changes."""
    out = None
    for place, item in entries:
        settled = _settled(item)
        if settled is not item:
            if out is None:
                out = copy(value)
            out[place] = settled
    return value if out is None else out


def _number(value: float) -> float | int:
    if not math.isfinite(value):
        raise _Slow
    if value.is_integer():
        if -_SAFE < value < _SAFE:
            return int(value)
        raise _Slow
    if "e" in repr(value):
        raise _Slow
    return value


#: json's C encoder as JCS needs it: compact, keys sorted, UTF-8 kept as it is.
_ENCODER = json.JSONEncoder(
    ensure_ascii=False, allow_nan=False, sort_keys=True, separators=(",", ":")
)
